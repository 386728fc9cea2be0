//! loom models of the visited set's compare-and-swap insert. Run with
//! `RUSTFLAGS="--cfg searchcache_loom" LOOM_MAX_PREEMPTIONS=3 cargo test --release --test set_loom`.
#![cfg(searchcache_loom)]

use loom::thread;
use searchcache::{FingerprintSet, Inserted, Signature, Size, StateHash, VisitedSet};
use std::sync::Arc;

/// Distinct states; in a one-line set they all share the line, so they race for its slots.
fn state(i: u64) -> StateHash {
    StateHash {
        index: 1,
        signature: i,
    }
}

/// Two threads insert state 1 while a third inserts state 2: state 1 is `New` for exactly one
/// of the two, state 2 is `New`, and both are found afterwards. With `u32` signatures slots 0
/// and 1 share one 64-bit word, so the CAS that fails only because the neighbour changed (and
/// retries) is explored too.
fn one_new_per_state<S: Signature>() {
    loom::model(|| {
        let set = Arc::new(VisitedSet::<S>::new(Size::Entries(S::PER_LINE)).unwrap());
        let racers: Vec<_> = [1u64, 1, 2]
            .into_iter()
            .map(|s| {
                let set = set.clone();
                thread::spawn(move || set.insert(state(s)).unwrap())
            })
            .collect();
        let results: Vec<Inserted> = racers.into_iter().map(|t| t.join().unwrap()).collect();
        let new_of_1 = results[..2].iter().filter(|r| r.is_new()).count();
        assert_eq!(new_of_1, 1, "{results:?}");
        assert_eq!(results[2], Inserted::New);
        assert!(set.contains(state(1)) && set.contains(state(2)));
        assert_eq!(set.len(), 2);
    });
}

#[test]
fn compact_set_cas_race() {
    one_new_per_state::<u32>();
}

#[test]
fn fingerprint_set_cas_race() {
    one_new_per_state::<u64>();
}

/// A reader racing an insert sees the state or not, and once the insert returned, always does.
#[test]
fn contains_during_insert() {
    loom::model(|| {
        let set = Arc::new(FingerprintSet::new(Size::Entries(8)).unwrap());
        let writer = {
            let set = set.clone();
            thread::spawn(move || set.insert(state(7)).unwrap())
        };
        let _maybe = set.contains(state(7));
        assert_eq!(writer.join().unwrap(), Inserted::New);
        assert!(set.contains(state(7)));
    });
}
