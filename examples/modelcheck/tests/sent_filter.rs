//! The sender's filter of successors already sent: it drops a successor only when its full
//! key (and, comparing states, its state) is the one remembered in its slot.

use modelcheck::distributed::{SentFilter, MAX_SENT_FILTER_SLOTS as MAX_SLOTS};
use searchcache::StateHash;

fn key(index: u64, signature: u64) -> StateHash {
    StateHash { index, signature }
}

#[test]
fn a_key_sent_before_is_dropped_until_its_slot_is_taken() {
    let mut filter = SentFilter::<u64>::new(4, false).unwrap();
    assert_eq!(filter.slots(), 4);
    assert!(!filter.sent_before(key(7, 1), &70));
    assert!(filter.sent_before(key(7, 1), &70));
    // Slot 1 again (signature 5 & 3), another key: sent, and it evicts the first.
    assert!(!filter.sent_before(key(8, 5), &80));
    assert!(!filter.sent_before(key(7, 1), &70));
}

#[test]
fn half_a_key_is_not_enough() {
    let mut filter = SentFilter::<u64>::new(1, false).unwrap();
    assert!(!filter.sent_before(key(7, 1), &70));
    // Same index, another signature; then the same signature, another index.
    assert!(!filter.sent_before(key(7, 2), &71));
    assert!(!filter.sent_before(key(8, 2), &72));
    assert!(filter.sent_before(key(8, 2), &72));
}

#[test]
fn the_zero_key_is_never_taken_for_an_empty_slot() {
    let mut filter = SentFilter::<u64>::new(8, false).unwrap();
    assert!(!filter.sent_before(key(0, 0), &0));
    assert!(!filter.sent_before(key(0, 0), &0));
}

#[test]
fn comparing_states_a_shared_key_is_not_enough() {
    let mut filter = SentFilter::<u64>::new(16, true).unwrap();
    assert!(!filter.sent_before(key(3, 9), &1));
    // Another state with the same key (an exact set stores both): sent.
    assert!(!filter.sent_before(key(3, 9), &2));
    assert!(filter.sent_before(key(3, 9), &2));
    // Without comparing states, the key decides (what the compacted sets do too).
    let mut by_key = SentFilter::<u64>::new(16, false).unwrap();
    assert!(!by_key.sent_before(key(3, 9), &1));
    assert!(by_key.sent_before(key(3, 9), &2));
}

#[test]
fn no_slots_drop_nothing() {
    let mut filter = SentFilter::<u64>::new(0, true).unwrap();
    assert_eq!(filter.slots(), 0);
    for _ in 0..3 {
        assert!(!filter.sent_before(key(1, 1), &1));
    }
}

#[test]
fn sizes_round_up_to_a_power_of_two_within_the_bound() {
    assert_eq!(SentFilter::<u64>::new(3, false).unwrap().slots(), 4);
    assert_eq!(SentFilter::<u64>::new(1, false).unwrap().slots(), 1);
    let error = SentFilter::<u64>::new(MAX_SLOTS + 1, false).err().unwrap();
    assert!(error.contains("at most"), "{error}");
}
