#![no_main]
//! `cargo fuzz run -s none map_vs_hashmap`: see `searchcache_fuzz::map_vs_hashmap`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::map_vs_hashmap::run(data));
