//! The visited-state set: exactly-once insertion under concurrency, `Full` as an error, sizes.

use searchcache::{
    consts::{MAX_LOAD, WALK_LINES},
    CompactSet, Error, FingerprintSet, Inserted, Signature, Size, StateHash, VisitedSet,
};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// 12 base-3 digits: 3^12 = 531,441 states.
const DIGITS: u32 = 12;
const STATES: usize = 3usize.pow(DIGITS);

/// State `i` as its 12 base-3 digits, least significant first.
fn digits(mut i: usize) -> [u8; DIGITS as usize] {
    std::array::from_fn(|_| {
        let d = (i % 3) as u8;
        i /= 3;
        d
    })
}

/// Every state inserted twice, by two different threads of `threads`, into a set sized for
/// exactly `STATES` (so it ends at load ≈ [`MAX_LOAD`]): each state must be `New` exactly once.
fn each_state_new_exactly_once<S: Signature>(threads: usize, hash: fn(&[u8]) -> StateHash) {
    let set = VisitedSet::<S>::with_expected_states(STATES).unwrap();
    let news: Vec<AtomicU8> = (0..STATES).map(|_| AtomicU8::new(0)).collect();
    let presents: Vec<AtomicU8> = (0..STATES).map(|_| AtomicU8::new(0)).collect();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (set, news, presents) = (&set, &news, &presents);
            scope.spawn(move || {
                // State i goes to threads i % T and (i + 1) % T; both walk the states in the same
                // order at about the same pace, so the two inserts of a state often race.
                for i in (0..STATES).filter(|i| i % threads == t || (i + 1) % threads == t) {
                    match set.insert(hash(&digits(i))) {
                        Ok(Inserted::New) => news[i].fetch_add(1, Relaxed),
                        Ok(Inserted::Present) => presents[i].fetch_add(1, Relaxed),
                        Err(full) => panic!("state {i}: {full}"),
                    };
                }
            });
        }
    });
    for i in 0..STATES {
        assert_eq!(
            news[i].load(Relaxed),
            1,
            "state {i} New count ({S:?} bits)",
            S = S::BITS
        );
        assert_eq!(presents[i].load(Relaxed), 1, "state {i} Present count");
        assert!(set.contains(hash(&digits(i))), "state {i} lost");
    }
    assert_eq!(set.len(), STATES);
    assert!(set.load_factor() <= MAX_LOAD && set.load_factor() > 0.85);
    // Every New insert compared with some occupied slots; the bound is that count over 2^b.
    let comparisons = set.signature_comparisons();
    assert!(comparisons > 0);
    let expected = comparisons as f64 / 2f64.powi(S::BITS as i32);
    assert_eq!(set.omission_probability(), expected.min(1.0));
}

#[test]
fn fingerprints_two_threads() {
    each_state_new_exactly_once::<u64>(2, StateHash::of::<[u8]>);
}

#[test]
fn fingerprints_four_threads() {
    each_state_new_exactly_once::<u64>(4, StateHash::portable);
}

#[test]
fn compact_three_threads() {
    each_state_new_exactly_once::<u32>(3, StateHash::portable);
}

#[test]
fn compact_four_threads() {
    each_state_new_exactly_once::<u32>(4, StateHash::of::<[u8]>);
}

/// A 64-bit key per state, as both hashes: the fingerprint set is exact on keys.
#[test]
fn from_u64_keys_four_threads() {
    let set = FingerprintSet::with_expected_states(STATES).unwrap();
    let news: Vec<AtomicU8> = (0..STATES).map(|_| AtomicU8::new(0)).collect();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (set, news) = (&set, &news);
            scope.spawn(move || {
                for i in (0..STATES).filter(|i| i % 4 == t || (i + 1) % 4 == t) {
                    // Structured keys (consecutive integers) must spread too.
                    if set.insert(StateHash::from_u64(i as u64)).unwrap().is_new() {
                        news[i].fetch_add(1, Relaxed);
                    }
                }
            });
        }
    });
    assert!(news.iter().all(|n| n.load(Relaxed) == 1));
    assert_eq!(set.len(), STATES);
}

/// Inserts distinct states until the set is full; returns the states inserted, the one refused
/// and the error.
fn fill<S: Signature>(set: &VisitedSet<S>) -> (Vec<StateHash>, StateHash, searchcache::Full) {
    let mut inserted = Vec::new();
    for i in 0u64.. {
        let h = StateHash::of(&i);
        match set.insert(h) {
            Ok(Inserted::New) => inserted.push(h),
            Ok(Inserted::Present) => panic!("distinct state {i} reported Present"),
            Err(full) => return (inserted, h, full),
        }
    }
    unreachable!()
}

fn full_is_an_error<S: Signature>(lines: usize) {
    let set = VisitedSet::<S>::new(Size::Bytes(64 * lines)).unwrap();
    assert_eq!(set.capacity(), lines * S::PER_LINE);
    let (inserted, refused, full) = fill(&set);
    // Nothing was dropped: every state inserted before is still there, and inserting one of them
    // again into the full set is Present, not Full.
    assert_eq!(full.states(), inserted.len());
    assert_eq!(set.len(), inserted.len());
    assert_eq!(full.capacity(), set.capacity());
    for h in &inserted {
        assert!(set.contains(*h));
        assert_eq!(set.insert(*h), Ok(Inserted::Present));
    }
    // Still full, still an error, still not inserted.
    assert!(set.insert(refused).is_err());
    assert!(!set.contains(refused));
    assert_eq!(set.len(), inserted.len());
    if lines <= WALK_LINES + 1 {
        // The walk covers the whole table: Full means every slot is taken.
        assert_eq!(inserted.len(), set.capacity());
    } else {
        assert!(full.load_factor() >= MAX_LOAD, "{}", full.load_factor());
    }
    let message = full.to_string();
    for number in [
        full.states(),
        full.capacity(),
        full.bytes_for(2 * full.states()),
    ] {
        assert!(message.contains(&number.to_string()), "{message}");
    }
    assert!(message.contains("full"), "{message}");
}

#[test]
fn full_is_an_error_not_a_panic_or_a_drop() {
    for lines in [1, 2, 8, WALK_LINES + 1, WALK_LINES + 2, 4 * WALK_LINES] {
        full_is_an_error::<u64>(lines);
        full_is_an_error::<u32>(lines);
    }
}

#[test]
fn full_says_how_large_the_set_must_be() {
    let set = CompactSet::new(Size::Entries(16)).unwrap();
    let (_, _, full) = fill(&set);
    assert_eq!((full.states(), full.capacity()), (16, 16));
    assert_eq!(full.load_factor(), 1.0);
    // 32 states at load 0.9: ⌈32 · 10/9⌉ = 36 slots, 3 lines of 16 = 192 bytes.
    assert_eq!(full.bytes_for(32), 192);
    let message = full.to_string();
    assert!(
        message.contains("with_expected_states(32) takes 192 bytes"),
        "{message}"
    );
}

#[test]
fn sizes() {
    assert_eq!(
        FingerprintSet::new(Size::Mib(1)).unwrap().capacity(),
        131_072
    );
    assert_eq!(CompactSet::new(Size::Mib(1)).unwrap().capacity(), 262_144);
    assert_eq!(
        CompactSet::new(Size::Mib(1)).unwrap().memory_bytes(),
        1 << 20
    );
    assert_eq!(
        FingerprintSet::new(Size::Entries(9)).unwrap().capacity(),
        16
    );
    for states in [0, 1, 9, 1000, 1_000_003] {
        let set = FingerprintSet::with_expected_states(states).unwrap();
        assert!(
            set.capacity() as f64 * MAX_LOAD >= states as f64,
            "{states}"
        );
        assert!(set.capacity() <= states + states / 9 + 8 + 1, "{states}");
    }
    assert!(matches!(
        FingerprintSet::new(Size::Bytes(63)),
        Err(Error::ZeroSize { .. })
    ));
    assert!(matches!(
        CompactSet::new(Size::Entries(0)),
        Err(Error::ZeroSize { .. })
    ));
    assert!(FingerprintSet::with_expected_states(usize::MAX).is_err());
    assert!(FingerprintSet::new(Size::Mib(usize::MAX)).is_err());
}

#[test]
fn clear_empties_the_set() {
    let mut set = FingerprintSet::new(Size::Entries(1000)).unwrap();
    for i in 0..500u64 {
        assert_eq!(set.insert(StateHash::of(&i)), Ok(Inserted::New));
    }
    assert_eq!(set.len(), 500);
    assert!(set.signature_comparisons() > 0);
    set.clear();
    assert!(set.is_empty());
    assert_eq!(set.signature_comparisons(), 0);
    assert_eq!(set.omission_probability(), 0.0);
    for i in 0..500u64 {
        assert!(!set.contains(StateHash::of(&i)));
        assert_eq!(set.insert(StateHash::of(&i)), Ok(Inserted::New));
    }
}

/// States whose signature hashes to 0 after mixing are stored as the stand-in, and found.
#[test]
fn zero_signature_is_stored() {
    // mix64 is a bijection with mix64(0) == 0: signature hash 0 mixes to 0.
    let set = FingerprintSet::new(Size::Entries(64)).unwrap();
    let h = StateHash {
        index: 1,
        signature: 0,
    };
    assert_eq!(set.insert(h), Ok(Inserted::New));
    assert!(set.contains(h));
    assert_eq!(set.insert(h), Ok(Inserted::Present));
    let compact = CompactSet::new(Size::Entries(64)).unwrap();
    assert_eq!(compact.insert(h), Ok(Inserted::New));
    assert!(compact.contains(h));
}

/// The bound counts what this run compared: more than uniform hashing at low load (a line's
/// 8 or 16 slots are all compared), and it grows with the number of states.
#[test]
fn omission_bound_grows_with_the_load() {
    let set = FingerprintSet::new(Size::Entries(1 << 16)).unwrap();
    let mut last = 0.0;
    for i in 0..(1u64 << 15) {
        set.insert(StateHash::of(&i)).unwrap();
        if i % 4096 == 4095 {
            let p = set.omission_probability();
            assert!(p > last, "{p} after {i}");
            last = p;
        }
    }
    assert!(
        set.signature_comparisons() as f64 > {
            // Stern–Dill's E for uniform hashing at load 0.5 (n²/2m-ish): 8-slot lines compare more.
            searchcache::omission::uniform_hashing_comparisons(1 << 15, 1 << 16)
        }
    );
    assert!(set.uniform_hashing_bound() < set.omission_probability());
}

/// States that all share one index (a broken hash) fill their walk and get `Full` at a low load,
/// and the message says what is wrong rather than asking for more memory only.
#[test]
fn full_at_low_load_points_at_the_hash() {
    let set = FingerprintSet::new(Size::Mib(1)).unwrap();
    let walk_slots = (WALK_LINES + 1) * 8;
    let mut result = Ok(Inserted::New);
    let mut i = 0u64;
    while result.is_ok() {
        i += 1;
        result = set.insert(StateHash {
            index: 42,
            signature: i,
        });
    }
    let full = result.unwrap_err();
    assert_eq!(full.states(), walk_slots);
    assert!(full.load_factor() < 0.1);
    assert!(full.to_string().contains("not spread"), "{full}");
}

/// The measurement behind [`WALK_LINES`]: filling a set with random states, the first `Full`
/// comes above [`MAX_LOAD`] (measured: 0.973 for `u64` and 0.986 for `u32` at 2^20 slots).
/// `SEARCHCACHE_LONG_TESTS=1` adds 2^24 and 2^26 slots (0.964 / 0.960 and 0.976 / 0.970;
/// about a minute and a half on a loaded 2-core machine).
#[test]
fn first_full_comes_above_max_load() {
    fn first_full<S: Signature>(slots: usize) -> f64 {
        let set = VisitedSet::<S>::new(Size::Entries(slots)).unwrap();
        // Not `fill`: tens of millions of 32-bit signatures may well see an omission (Present).
        (0u64..)
            .find_map(|i| set.insert(StateHash::of(&i)).err())
            .unwrap()
            .load_factor()
    }
    let mut sizes = vec![1usize << 20];
    if std::env::var_os("SEARCHCACHE_LONG_TESTS").is_some() {
        sizes.extend([1 << 24, 1 << 26]);
    }
    for slots in sizes {
        let (wide, compact) = (first_full::<u64>(slots), first_full::<u32>(slots));
        eprintln!("{slots} slots: first Full at load {wide:.4} (u64), {compact:.4} (u32)");
        assert!(wide > MAX_LOAD + 0.04, "u64, {slots} slots: {wide}");
        assert!(compact > MAX_LOAD + 0.05, "u32, {slots} slots: {compact}");
    }
}

/// `Full` is `Eq`, and says how many lines the failed insert searched: all of a small set's,
/// `WALK_LINES + 1` of a large one's.
#[test]
fn full_names_the_lines_searched() {
    fn is_eq<T: Eq>(_: &T) {}
    for (lines, searched) in [(1usize, 1usize), (3, 3), (4 * WALK_LINES, WALK_LINES + 1)] {
        let set = FingerprintSet::new(Size::Entries(8 * lines)).unwrap();
        let full = (0u64..)
            .find_map(|i| set.insert(StateHash::of(&i)).err())
            .unwrap();
        is_eq(&full);
        assert_eq!(full, full);
        assert_eq!(full.lines_searched(), searched, "{lines} lines");
        let message = full.to_string();
        assert!(
            message.contains(&format!("in the {searched} line(s) searched")),
            "{message}"
        );
        if lines == 4 * WALK_LINES {
            break; // a full walk of 1,025 lines takes a long fill: one is enough
        }
    }
}

/// A state count whose set overflows the address space names the states asked for, not the
/// slots they were turned into.
#[test]
fn too_many_states_names_the_states_asked_for() {
    for states in [usize::MAX / 2, usize::MAX / 9, usize::MAX] {
        let e = FingerprintSet::with_expected_states(states).unwrap_err();
        assert_eq!(e, Error::TooManyStates { states });
        assert!(e.to_string().contains(&states.to_string()), "{e}");
    }
    // 4 bytes per slot: MAX/9 states fit the address space (and are refused by the OS).
    for states in [usize::MAX / 2, usize::MAX] {
        let e = CompactSet::with_expected_states(states).unwrap_err();
        assert_eq!(e, Error::TooManyStates { states });
    }
}
