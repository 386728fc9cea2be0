//! A fixed amount of table work, for counting instructions with
//! `valgrind --tool=callgrind` in a default build and in a `--features stats` build: the
//! difference per operation is what the counters cost, whatever else runs on the machine.
//!
//! `stats_cost [OPS [batched|random]]` (default 2^20): OPS stores, then OPS probes, on a 1 MiB
//! table (65,536 entries, so most probes miss: the work is the same either way). With `batched`,
//! the probes go in batches of 16, each key prefetched first: the difference is what a
//! `prefetch` call costs, i.e. what a fused `probe_many` could save per key. With `random`, the
//! table is built with `Keys::Random`: the difference is what the key mixer costs.

use searchcache::{Keys, Options, SearchCache, Size};
use searchcache_bench::rng::key_of;
use std::process::ExitCode;

fn main() -> ExitCode {
    let ops = match std::env::args().nth(1).map(|s| s.parse::<u64>()) {
        None => 1 << 20,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: stats_cost [OPS: a positive number [batched|random]]");
            return ExitCode::from(2);
        }
    };
    let mode = std::env::args().nth(2);
    let keys = if mode.as_deref() == Some("random") {
        Keys::Random
    } else {
        Keys::Any
    };
    let table = match SearchCache::<u32>::with_options(Size::Mib(1), Options::default().keys(keys))
    {
        Ok(t) => t,
        Err(e) => {
            eprintln!("stats_cost: {e}");
            return ExitCode::FAILURE;
        }
    };
    for i in 0..ops {
        table.store(key_of(i), i as u32);
    }
    let keys: Vec<u64> = (0..ops).map(|i| key_of(i * 2)).collect();
    let hits: usize = if mode.as_deref() == Some("batched") {
        keys.chunks(16)
            .map(|batch| {
                batch.iter().for_each(|&k| table.prefetch(k));
                batch.iter().filter(|&&k| table.probe(k).is_some()).count()
            })
            .sum()
    } else {
        keys.iter().filter(|&&k| table.probe(k).is_some()).count()
    };
    searchcache_bench::outln!(
        "{ops} stores, {ops} probes, {hits} hits, counters: {:?}",
        table.stats()
    );
    ExitCode::SUCCESS
}
