#![no_main]
//! `cargo fuzz run -s none pack_round_trip`: see `searchcache_fuzz::pack_round_trip`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| searchcache_fuzz::pack_round_trip::run(data));
