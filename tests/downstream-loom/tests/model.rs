//! A downstream crate's loom models of searchcache under the standard `--cfg loom` alone (no
//! `searchcache_loom`), as the crate docs' "Loom" section shows them:
//! `RUSTFLAGS="--cfg loom" cargo test --release` in this directory.
#![cfg(loom)]

use loom::cell::UnsafeCell;
use loom::sync::Arc;
use loom::thread;
use searchcache::{FingerprintSet, Inserted, SearchCache, Size, StateHash};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Runs `model` under loom; returns how many executions loom explored.
fn executions(model: impl Fn() + Sync + Send + 'static) -> usize {
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = count.clone();
    loom::model(move || {
        counter.fetch_add(1, Relaxed);
        model();
    });
    count.load(Relaxed)
}

const STATE: StateHash = StateHash::from_u128(0x243f_6a88_85a3_08d3_1319_8a2e_0370_7344);

/// The set's documented happens-before: what the thread that got `New` wrote before its insert
/// is visible to a thread that then finds the state. The payload is a loom `UnsafeCell`, so a
/// read not ordered after the write fails the model ("Causality violation"), as it did when
/// `--cfg loom` left the set on std atomics. Some executions must find the state.
#[test]
fn a_found_state_publishes_what_its_inserter_wrote() {
    let found = std::sync::Arc::new(AtomicUsize::new(0));
    let found_in_model = found.clone();
    let explored = executions(move || {
        let set = Arc::new(FingerprintSet::new(Size::Entries(8)).unwrap());
        let payload = Arc::new(UnsafeCell::new(0u32));
        let writer = {
            let (set, payload) = (set.clone(), payload.clone());
            thread::spawn(move || {
                // SAFETY: the only access before the insert publishes the state.
                payload.with_mut(|p| unsafe { *p = 42 });
                assert_eq!(set.insert(STATE), Ok(Inserted::New));
            })
        };
        if set.contains(STATE) {
            found_in_model.fetch_add(1, Relaxed);
            // SAFETY: the state was found, so the write above happened before this read.
            assert_eq!(payload.with(|p| unsafe { *p }), 42);
        }
        writer.join().unwrap();
    });
    let found = found.load(Relaxed);
    println!("happens-before: {explored} executions, {found} found the state");
    assert!(
        explored > 1 && found > 0,
        "{explored} executions, {found} found"
    );
}

/// Two threads store different values for one key: loom must reach the interleavings in which
/// the entry is torn for good (the check word of one store, the data word of the other),
/// which the table reads as a miss, never as a mix of the two values.
#[test]
fn racing_writers_can_tear_an_entry_for_good() {
    let torn = std::sync::Arc::new(AtomicUsize::new(0));
    let torn_in_model = torn.clone();
    let explored = executions(move || {
        let table = Arc::new(SearchCache::<u32>::new(Size::Entries(4)).unwrap());
        let writers: Vec<_> = [1u32, 2]
            .into_iter()
            .map(|value| {
                let table = table.clone();
                thread::spawn(move || table.store(7, value))
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        match table.probe(7) {
            None => {
                torn_in_model.fetch_add(1, Relaxed);
            }
            Some(v) => assert!(v == 1 || v == 2, "a mix of two stores: {v}"),
        }
    });
    let torn = torn.load(Relaxed);
    println!("racing writers: {explored} executions, {torn} left the entry torn");
    assert!(torn > 0, "{explored} executions, none tore the entry");
}

/// A writer stores while the main thread probes straight away, with no `yield_now()` in the
/// model: loom must explore more than the one interleaving in which the probe runs first.
#[test]
fn a_probe_first_model_explores_more_than_one_interleaving() {
    let hits = std::sync::Arc::new(AtomicUsize::new(0));
    let hits_in_model = hits.clone();
    let explored = executions(move || {
        let table = Arc::new(SearchCache::<u32>::new(Size::Entries(4)).unwrap());
        let writer = {
            let table = table.clone();
            thread::spawn(move || table.store(7, 1))
        };
        match table.probe(7) {
            Some(v) => {
                assert_eq!(v, 1);
                hits_in_model.fetch_add(1, Relaxed);
            }
            None => {}
        }
        writer.join().unwrap();
        assert_eq!(table.probe(7), Some(1));
    });
    let hits = hits.load(Relaxed);
    println!("probe first: {explored} executions, {hits} hits");
    assert!(
        explored > 1 && hits > 0,
        "{explored} executions, {hits} hits"
    );
}

/// The loom limitation the crate works around (crate docs, "Loom"): a read, then another
/// thread's read and write of the same atomic, is explored in a single execution, because the
/// writer's read replaces the first read as the atomic's last access. If a loom release fixes
/// this, this test fails, and the yield in searchcache's probes can go.
#[test]
fn loom_forgets_a_read_that_a_writers_read_replaced() {
    let explored = executions(|| {
        let word = Arc::new(loom::sync::atomic::AtomicU64::new(0));
        let writer = {
            let word = word.clone();
            thread::spawn(move || {
                let _ = word.load(Relaxed);
                word.store(1, Relaxed);
            })
        };
        let _ = word.load(Relaxed);
        writer.join().unwrap();
    });
    assert_eq!(explored, 1);
}
