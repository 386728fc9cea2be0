#![no_main]
//! `cargo fuzz run -s none dense_differential`: see `searchcache_fuzz::differential::run_dense`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::differential::run_dense(data));
