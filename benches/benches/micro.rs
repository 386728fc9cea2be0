//! Micro benchmarks of `SearchCache`: probe hit, probe miss and store, in a table that stays in
//! L1 (16 KiB) and in one that lives in DRAM (256 MiB), one thread, random keys.
//!
//! `cargo bench --manifest-path benches/Cargo.toml --bench micro`. Short by default (about a
//! minute); criterion's own flags (`--measurement-time`, a name filter) refine it.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use searchcache::{SearchCache, Size};
use searchcache_bench::rng::{below, key_of, WyRand};
use std::hint::black_box;
use std::time::Duration;

/// A table of `bytes` holding keys `key_of(0..capacity / 2)`: half full, so nearly every stored
/// key is still there and the hit benchmarks hit (their hit rate is asserted below).
fn half_full(bytes: usize) -> (SearchCache<u32>, u64) {
    let table = SearchCache::new(Size::Bytes(bytes)).expect("benchmark table");
    let stored = (table.capacity() / 2) as u64;
    for i in 0..stored {
        table.store(key_of(i), i as u32);
    }
    (table, stored)
}

fn micro(c: &mut Criterion) {
    for (name, bytes) in [("L1 16 KiB", 16 << 10), ("DRAM 256 MiB", 256 << 20)] {
        let (table, stored) = half_full(bytes);
        let hits = (0..1000)
            .filter(|&i| table.probe(key_of(i * stored / 1000)).is_some())
            .count();
        assert!(hits > 950, "{name}: only {hits} of 1000 stored keys found");
        let mut group = c.benchmark_group(name);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        group.sample_size(30);
        let mut rng = WyRand::new(7);
        group.bench_function("probe hit", |b| {
            b.iter(|| black_box(table.probe(key_of(below(rng.next_u64(), stored)))))
        });
        group.bench_function("probe miss", |b| {
            // Indices past `stored` were never stored.
            b.iter(|| black_box(table.probe(key_of(stored + 1 + (rng.next_u64() >> 1)))))
        });
        group.bench_function("store", |b| {
            b.iter(|| {
                let i = below(rng.next_u64(), stored);
                table.store(key_of(i), i as u32)
            })
        });
        group.bench_function("prefetch+probe x16", |b| {
            b.iter_batched(
                || std::array::from_fn::<u64, 16, _>(|_| key_of(below(rng.next_u64(), stored))),
                |keys| {
                    keys.iter().for_each(|&k| table.prefetch(k));
                    keys.map(|k| table.probe(k).is_some())
                        .into_iter()
                        .filter(|&h| h)
                        .count()
                },
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, micro);
criterion_main!(benches);
