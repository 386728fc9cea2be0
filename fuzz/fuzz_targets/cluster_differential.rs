#![no_main]
//! `cargo fuzz run -s none cluster_differential`: see `searchcache_fuzz::differential::run_cluster`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::differential::run_cluster(data));
