//! The benchmark suite of `searchcache` (issue 8): `SearchCache` measured side by side with the
//! machine's limit (bare random reads, pointer chasing) and with the concurrent maps and caches
//! users would pick instead, on the same keys and operation mixes.
//!
//! * `cargo run --release --bin matrix -- --help`: the matrix, its table, CSV and plots.
//! * `cargo bench --bench micro`: criterion micro benchmarks (probe hit/miss, store).
//! * `cargo run --release --bin dense`: the dense layout against the wide one and a
//!   hand-written Stockfish-style table and a hand-written table of the dense layout (issue 29).

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod bare;
pub mod contender;
pub mod handwritten;
pub mod handwritten_dense;
pub mod host;
pub mod memory;
pub mod pages;
pub mod plot;
pub mod report;
pub mod rng;
pub mod run;
pub mod spread;
pub mod stdout;
pub mod workload;
