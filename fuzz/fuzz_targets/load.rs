#![no_main]
//! `cargo fuzz run -s none load`: see `searchcache_fuzz::load`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::load::run(data));
