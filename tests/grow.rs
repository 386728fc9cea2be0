//! Growing a visited set: every member kept, no duplicates, later inserts right, save/load,
//! refused sizes and sets, against a `HashSet` reference.

use searchcache::{
    CompactSet, Error, FingerprintSet, GrowRefused, Inserted, Size, StateHash, VisitedSet,
};
use std::collections::HashSet;

/// SplitMix64: reproducible random keys without a dependency.
struct Keys(u64);

impl Iterator for Keys {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        Some(searchcache::mix64(self.0))
    }
}

/// Inserts keys from `keys` until `n` are in or the set is full; returns those inserted.
fn fill(set: &FingerprintSet, keys: &mut Keys, n: usize) -> Vec<u64> {
    let mut inserted = Vec::new();
    for key in keys.take(n) {
        match set.insert(StateHash::from_u64(key)) {
            Ok(Inserted::New) => inserted.push(key),
            Ok(Inserted::Present) => panic!("random key {key:#x} reported Present"),
            Err(_) => break,
        }
    }
    inserted
}

/// Every key is a member, `len` is their count, and inserting each again is `Present`.
fn assert_members(set: &FingerprintSet, keys: &[u64]) {
    assert_eq!(set.len(), keys.len());
    for &key in keys {
        assert!(set.contains(StateHash::from_u64(key)), "{key:#x} lost");
        assert_eq!(set.insert(StateHash::from_u64(key)), Ok(Inserted::Present));
    }
    assert_eq!(set.len(), keys.len(), "a member was stored twice");
}

/// Sets of several sizes (one line, fewer lines than a walk, more, a non-power of two), half
/// full and filled to their first `Full`, grown by 2x, by a non-power-of-two factor and by one
/// line: all members kept, `len` unchanged, new keys `New`.
#[test]
fn grow_keeps_every_member() {
    let mut keys = Keys(1);
    for lines in [1usize, 7, 1000, 1025, 3001, 1 << 14] {
        for fraction in [0.5, 1.0] {
            let target = (lines as f64 * 8.0 * fraction) as usize;
            for grown in [2 * lines, lines * 5 / 2 + 1, lines + 1] {
                let mut set = FingerprintSet::new(Size::Bytes(lines * 64)).unwrap();
                let members = fill(&set, &mut keys, target);
                assert!(
                    members.len() >= lines * 4,
                    "{lines} lines, {}",
                    members.len()
                );
                let comparisons = set.signature_comparisons();
                set.grow(Size::Bytes(grown * 64)).unwrap();
                assert_eq!(set.memory_bytes(), grown * 64);
                assert_eq!(set.signature_comparisons(), comparisons);
                assert_members(&set, &members);
                let more = fill(&set, &mut keys, 3);
                assert_eq!(more.len(), 3.min(grown * 8 - members.len()));
            }
        }
    }
}

/// A state that found the set full at the old size goes in after a grow.
#[test]
fn full_at_the_old_size_goes_in_after_growing() {
    let mut keys = Keys(2);
    let mut set = FingerprintSet::new(Size::Mib(1)).unwrap();
    let mut members = fill(&set, &mut keys, usize::MAX);
    let refused = keys.next().unwrap();
    // `fill` stopped at a Full: the next key may find room elsewhere, so retry until one is Full.
    let refused = std::iter::once(refused)
        .chain(&mut keys)
        .find(|&k| {
            set.insert(StateHash::from_u64(k)).is_err_and(|_| true) || {
                members.push(k);
                false
            }
        })
        .unwrap();
    assert!(set.load_factor() > 0.9);
    set.grow(Size::Mib(2)).unwrap();
    assert_eq!(set.insert(StateHash::from_u64(refused)), Ok(Inserted::New));
    members.push(refused);
    assert_members(&set, &members);
    assert!(set.load_factor() < 0.5);
}

/// A grown set saves and loads with its members, and a loaded keyed set grows again; a set
/// with a state of independent hashes is refused, before saving and after loading.
#[test]
fn grown_sets_save_load_and_grow_again() {
    let mut keys = Keys(3);
    let mut set = FingerprintSet::new(Size::Entries(4096)).unwrap();
    let members = fill(&set, &mut keys, 3000);
    set.grow(Size::Entries(8192)).unwrap();
    let mut file = Vec::new();
    set.save(&mut file).unwrap();
    let mut loaded = FingerprintSet::load(&file[..]).unwrap();
    assert_eq!(loaded.signature_comparisons(), set.signature_comparisons());
    assert_members(&loaded, &members);
    loaded.grow(Size::Entries(20_000)).unwrap();
    assert_members(&loaded, &members);

    assert_eq!(set.insert(StateHash::of(&"not a key")), Ok(Inserted::New));
    let refused = Error::Grow(GrowRefused::IndependentIndex);
    assert_eq!(set.grow(Size::Entries(20_000)), Err(refused.clone()));
    file.clear();
    set.save(&mut file).unwrap();
    let mut loaded = FingerprintSet::load(&file[..]).unwrap();
    assert_eq!(loaded.grow(Size::Entries(20_000)), Err(refused));
    loaded.clear();
    loaded.grow(Size::Entries(20_000)).unwrap();
}

/// Sizes that are not larger, and sets that cannot move, are errors that change nothing; empty
/// sets of either width grow.
#[test]
fn refused_grows_leave_the_set_as_it_was() {
    let mut keys = Keys(4);
    let mut set = FingerprintSet::new(Size::Entries(1024)).unwrap();
    let members = fill(&set, &mut keys, 500);
    let not_larger = |asked| Err(Error::Grow(GrowRefused::NotLarger { lines: 128, asked }));
    assert_eq!(set.grow(Size::Entries(1024)), not_larger(128));
    assert_eq!(set.grow(Size::Entries(8)), not_larger(1));
    assert!(matches!(
        set.grow(Size::Bytes(63)),
        Err(Error::ZeroSize { .. })
    ));
    assert!(matches!(
        set.grow(Size::Bytes(usize::MAX)),
        Err(Error::TooLarge { .. })
    ));
    assert_eq!(set.capacity(), 1024);
    assert_members(&set, &members);

    let mut compact = CompactSet::new(Size::Entries(1024)).unwrap();
    compact.grow(Size::Entries(2048)).unwrap();
    assert_eq!(compact.capacity(), 2048);
    assert_eq!(compact.insert(StateHash::from_u64(5)), Ok(Inserted::New));
    let e = compact.grow(Size::Entries(4096)).unwrap_err();
    assert_eq!(e, Error::Grow(GrowRefused::CompactSignatures));
    assert!(e.to_string().contains("CompactSet cannot grow"), "{e}");
    assert_eq!(compact.capacity(), 2048);
    assert!(compact.contains(StateHash::from_u64(5)));

    let mut independent = FingerprintSet::new(Size::Entries(64)).unwrap();
    independent.grow(Size::Entries(128)).unwrap();
    assert_eq!(independent.insert(StateHash::of(&1u8)), Ok(Inserted::New));
    // A Present of an independent hash stores nothing: the set stays keyed only if no New was.
    let e = independent.grow(Size::Entries(256)).unwrap_err();
    assert_eq!(e, Error::Grow(GrowRefused::IndependentIndex));
    assert!(independent.contains(StateHash::of(&1u8)));
}

/// Key 0 (stored as the zero stand-in) survives growing from sizes on both sides of the
/// stand-in's ambiguity.
#[test]
fn key_zero_survives_growing() {
    for lines in [1usize, 100, 5000] {
        let mut set = FingerprintSet::new(Size::Bytes(lines * 64)).unwrap();
        let mut members = fill(&set, &mut Keys(5), lines * 4);
        if set.insert(StateHash::from_u64(0)) == Ok(Inserted::New) {
            members.push(0);
        }
        set.grow(Size::Bytes(lines * 64 * 3)).unwrap();
        assert_members(&set, &members);
    }
}

/// Random inserts (a third of them repeats) and grows against a `HashSet`: every insert's
/// answer is the reference's, before and after each grow.
#[test]
fn inserts_and_grows_match_a_hash_set() {
    let mut rng = Keys(6);
    let mut set: VisitedSet<u64> = FingerprintSet::new(Size::Entries(64)).unwrap();
    let mut reference = HashSet::new();
    let mut order = Vec::new();
    for step in 0..200_000u64 {
        let r = rng.next().unwrap();
        let key = if r.is_multiple_of(3) && !order.is_empty() {
            order[(r >> 8) as usize % order.len()]
        } else {
            r
        };
        let expected = if reference.insert(key) {
            order.push(key);
            Inserted::New
        } else {
            Inserted::Present
        };
        if set.load_factor() > 0.7 {
            let bigger = set.capacity() + 1 + (r >> 40) as usize % set.capacity().max(2);
            set.grow(Size::Entries(bigger)).unwrap();
        }
        assert_eq!(
            set.insert(StateHash::from_u64(key)),
            Ok(expected),
            "step {step}"
        );
    }
    assert_eq!(set.len(), reference.len());
    assert!(order.iter().all(|&k| set.contains(StateHash::from_u64(k))));
}
