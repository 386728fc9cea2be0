//! Each line marked `MUST_USE` drops a value that searchcache marks `#[must_use]`: with the
//! lint denied, each must be a compile error (tests/must_use.rs checks them line by line).
#![deny(unused_must_use)]

use searchcache::{
    mix64, omission, Bitstate, FingerprintSet, HugePages, Keys, Options, Pack64, SearchCache,
    Slots, StateHash,
};

/// Calls whose results are thrown away.
pub fn thrown_away(table: &SearchCache<u32>, set: &FingerprintSet, bits: &Bitstate) {
    let h = StateHash::from_u64(7);
    Options::default().keys(Keys::Random); // MUST_USE
    Options::default().slots(Slots::Single); // MUST_USE
    Options::default().huge_pages(HugePages::Never); // MUST_USE
    table.probe(1); // MUST_USE
    table.hashfull(); // MUST_USE
    table.bucket_of(1); // MUST_USE
    set.contains(h); // MUST_USE
    set.insert(h); // MUST_USE
    set.omission_probability(); // MUST_USE
    bits.insert(h); // MUST_USE
    bits.contains(h); // MUST_USE
    bits.expected_miss_fraction(); // MUST_USE
    mix64(3); // MUST_USE
    StateHash::of(&1u8); // MUST_USE
    StateHash::portable(b"state"); // MUST_USE
    omission::birthday(10, 64); // MUST_USE
    5u32.pack(); // MUST_USE
}
