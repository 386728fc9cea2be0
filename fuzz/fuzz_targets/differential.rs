#![no_main]
//! `cargo fuzz run -s none differential`: see `searchcache_fuzz::differential`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::differential::run(data));
