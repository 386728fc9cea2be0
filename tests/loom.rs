//! loom models of the racy paths. Run with
//! `RUSTFLAGS="--cfg searchcache_loom" LOOM_MAX_PREEMPTIONS=3 cargo test --release --test loom`.
#![cfg(searchcache_loom)]

use loom::thread;
use searchcache::{SearchCache, Size};
use std::sync::Arc;

/// Two writers store different values for one key while a reader probes: the reader sees a
/// stored value or a miss, never a value nobody stored.
#[test]
fn same_key_writers_and_a_reader() {
    loom::model(|| {
        let table = Arc::new(SearchCache::<u32>::new(Size::Entries(4)).unwrap());
        let writers: Vec<_> = [1u32, 2]
            .into_iter()
            .map(|v| {
                let t = table.clone();
                thread::spawn(move || t.store(7, v))
            })
            .collect();
        let seen = table.probe(7);
        assert!(matches!(seen, None | Some(1) | Some(2)), "{seen:?}");
        for w in writers {
            w.join().unwrap();
        }
        assert!(matches!(table.probe(7), Some(1) | Some(2)));
    });
}
