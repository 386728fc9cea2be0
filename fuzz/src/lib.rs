//! The logic of searchcache's fuzz targets, kept out of `fuzz_targets/` so that this package's
//! test (`tests/corpus.rs`, run by `cargo test --workspace`) replays the committed corpus
//! through the very same code without libFuzzer. Each target is a `fn(&[u8])` that panics on a
//! finding.

pub mod differential;
pub mod input;
pub mod load;
pub mod map_vs_hashmap;
pub mod pack_round_trip;
pub mod reference;
pub mod set_vs_hashset;
pub mod values;
