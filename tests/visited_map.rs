//! `VisitedMap`: what its docs promise, single-threaded and under two racing threads (loom
//! explores the racy paths exhaustively in `tests/loom.rs`; the fuzz target `map_vs_hashmap`
//! compares it slot by slot with a model).

use searchcache::consts::MAX_PAYLOAD_BITS;
use searchcache::{Error, Inserted, Size, StateHash, VisitedMap};
use std::sync::Barrier;

#[test]
fn payload_widths_outside_1_to_32_are_errors() {
    for bits in [0, 33, 64, u32::MAX] {
        let e = VisitedMap::new(Size::Entries(8), bits).unwrap_err();
        assert_eq!(e, Error::PayloadBits { bits, max: 32 });
        assert!(e.to_string().contains("1 to 32"), "{e}");
    }
    for bits in [1, 2, 31, MAX_PAYLOAD_BITS] {
        let map = VisitedMap::new(Size::Entries(8), bits).unwrap();
        assert_eq!(map.payload_bits(), bits);
        assert_eq!(u64::from(map.payload_mask()), (1u64 << bits) - 1);
    }
    assert!(matches!(
        VisitedMap::new(Size::Bytes(63), 2),
        Err(Error::ZeroSize { .. })
    ));
    assert_eq!(
        VisitedMap::with_expected_states(usize::MAX, 2).unwrap_err(),
        Error::TooManyStates { states: usize::MAX }
    );
}

#[test]
fn insert_get_and_updates_keep_each_states_payload() {
    let map = VisitedMap::with_expected_states(10_000, 3).unwrap();
    let h = |i: u64| StateHash::of(&i);
    for i in 0..10_000u64 {
        // Bits above the width are dropped: 8 + i % 8 keeps i % 8.
        assert_eq!(
            map.insert(h(i), 8 + (i % 8) as u32),
            Ok((Inserted::New, (i % 8) as u32))
        );
    }
    assert_eq!(map.len(), 10_000);
    assert_eq!(map.insert(h(5), 0), Ok((Inserted::Present, 5)));
    assert_eq!(map.len(), 10_000);
    for i in 0..10_000u64 {
        assert_eq!(map.get(h(i)), Some((i % 8) as u32));
    }
    assert_eq!(map.get(h(10_000)), None);
    assert_eq!(map.fetch_or(h(10_000), 1), None);
    assert_eq!(map.fetch_update(h(10_000), |_| Some(1)), None);
    assert_eq!(map.get(h(10_000)), None, "an update never inserts");
    // 2 | 0b1100: the bit above the width is dropped.
    assert_eq!(map.fetch_or(h(2), 0b1101), Some(2));
    assert_eq!(map.get(h(2)), Some(0b111));
    assert_eq!(map.fetch_update(h(3), |p| Some(p * 2)), Some(Ok(3)));
    assert_eq!(map.get(h(3)), Some(6));
    assert_eq!(map.fetch_update(h(3), |_| None), Some(Err(6)));
    assert_eq!(map.get(h(3)), Some(6));
    assert_eq!(map.get(h(4)), Some(4), "a neighbour's payload is its own");
}

#[test]
fn prefetch_changes_nothing() {
    let map = VisitedMap::with_expected_states(100, 4).unwrap();
    let h = |i: u64| StateHash::of(&i);
    for i in 0..100u64 {
        map.prefetch(h(i));
        assert_eq!(map.len(), i as usize, "a prefetch inserts nothing");
        assert_eq!(map.get(h(i)), None);
        assert_eq!(
            map.insert(h(i), i as u32),
            Ok((Inserted::New, (i % 16) as u32))
        );
        map.prefetch(h(i));
        assert_eq!(
            map.get(h(i)),
            Some((i % 16) as u32),
            "nor changes a payload"
        );
    }
}

#[test]
fn a_full_map_is_an_error_and_keeps_every_state() {
    let map = VisitedMap::new(Size::Entries(16), 1).unwrap();
    assert_eq!(map.capacity(), 16);
    let mut inserted = Vec::new();
    let mut full = None;
    for i in 0..100u64 {
        match map.insert(StateHash::of(&i), (i % 2) as u32) {
            Ok((Inserted::New, _)) => inserted.push(i),
            Ok((Inserted::Present, _)) => panic!("{i} present"),
            Err(e) => {
                full = Some(e);
                break;
            }
        }
    }
    let full = full.expect("16 slots take 16 states");
    assert_eq!(inserted.len(), 16);
    assert_eq!(full.states(), 16);
    for i in inserted {
        assert_eq!(map.get(StateHash::of(&i)), Some((i % 2) as u32));
    }
}

#[test]
fn the_omission_bound_counts_the_bits_taken_by_the_payload() {
    let narrow = VisitedMap::with_expected_states(50_000, 1).unwrap();
    let wide = VisitedMap::with_expected_states(50_000, 32).unwrap();
    for i in 0..50_000u64 {
        let _ = narrow.insert(StateHash::of(&i), 0);
        let _ = wide.insert(StateHash::of(&i), 0);
    }
    // The same states in the same walk: the same comparisons, bounds 2^31 apart.
    assert_eq!(narrow.signature_comparisons(), wide.signature_comparisons());
    let e = narrow.signature_comparisons() as f64;
    assert!(e > 0.0);
    assert_eq!(narrow.omission_probability(), e / 2f64.powi(63));
    assert_eq!(wide.omission_probability(), e / 2f64.powi(32));
}

#[test]
fn save_and_load_keep_states_payloads_and_counts() {
    let map = VisitedMap::with_expected_states(1000, 5).unwrap();
    for i in 0..1000u64 {
        let _ = map.insert(StateHash::of(&i), (i % 32) as u32);
    }
    let mut bytes = Vec::new();
    map.save(&mut bytes).unwrap();
    let loaded = VisitedMap::load(&bytes[..]).unwrap();
    assert_eq!(loaded.len(), 1000);
    assert_eq!(loaded.payload_bits(), 5);
    assert_eq!(loaded.signature_comparisons(), map.signature_comparisons());
    for i in 0..1000u64 {
        assert_eq!(loaded.get(StateHash::of(&i)), Some((i % 32) as u32));
    }
    // Another kind's file is refused, as is a file with its payload width changed.
    let set = searchcache::FingerprintSet::with_expected_states(10).unwrap();
    let mut other = Vec::new();
    set.save(&mut other).unwrap();
    assert!(matches!(VisitedMap::load(&other[..]), Err(Error::File(_))));
    let mut flipped = bytes.clone();
    flipped[24] ^= 0x40;
    assert!(matches!(
        VisitedMap::load(&flipped[..]),
        Err(Error::File(_))
    ));
}

#[test]
fn clear_empties_the_map() {
    let mut map = VisitedMap::with_expected_states(100, 2).unwrap();
    for i in 0..100u64 {
        let _ = map.insert(StateHash::of(&i), 1);
    }
    map.clear();
    assert!(map.is_empty());
    assert_eq!(map.get(StateHash::of(&1u64)), None);
    assert_eq!(map.insert(StateHash::of(&1u64), 2), Ok((Inserted::New, 2)));
}

/// Two threads insert the same 200,000 states, each with its own payload bit, then each sets
/// its second bit on every state, one by `fetch_or`, the other by `fetch_update`: every state
/// has exactly one `New`, the winner's first bit, and both second bits.
#[test]
fn racing_threads_lose_no_insert_and_no_bit() {
    const STATES: u64 = 200_000;
    let map = VisitedMap::with_expected_states(STATES as usize, 4).unwrap();
    let start = Barrier::new(2);
    let news: Vec<Vec<u64>> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..2u32)
            .map(|t| {
                let (map, start) = (&map, &start);
                s.spawn(move || {
                    start.wait();
                    let mut new = Vec::new();
                    for i in 0..STATES {
                        let (r, p) = map.insert(StateHash::of(&i), 1 << t).unwrap();
                        assert!(p == 1 || p == 2 || p & 0b1100 != 0, "{i}: payload {p}");
                        if r.is_new() {
                            new.push(i);
                        }
                    }
                    for i in 0..STATES {
                        let h = StateHash::of(&i);
                        let done = if t == 0 {
                            map.fetch_or(h, 4).is_some()
                        } else {
                            matches!(map.fetch_update(h, |p| Some(p | 8)), Some(Ok(_)))
                        };
                        assert!(done, "{i} gone");
                    }
                    new
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert_eq!(news[0].len() + news[1].len(), STATES as usize);
    assert_eq!(map.len(), STATES as usize);
    for (t, new) in news.iter().enumerate() {
        for &i in new {
            assert_eq!(map.get(StateHash::of(&i)), Some(1 << t | 0b1100), "{i}");
        }
    }
}
