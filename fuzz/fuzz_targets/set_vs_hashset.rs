#![no_main]
//! `cargo fuzz run -s none set_vs_hashset`: see `searchcache_fuzz::set_vs_hashset`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::set_vs_hashset::run(data));
