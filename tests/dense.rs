//! Promises of the 16-bit-check layouts, `DenseCache` and `ClusterCache`, that the wide layout
//! does not make: their measured false-hit rate, their payloads, their density. (The promises
//! all layouts make are tested on all in tests/table.rs; races in tests/torture.rs and
//! tests/loom.rs; the cluster's torn pairs in src/cluster_line.rs.)

mod common;

use common::{Cluster, Dense, Layout, Table};
use searchcache::consts::{DENSE_PAYLOAD_BITS, PAYLOAD_BITS, TAG_BITS};
use searchcache::{ClusterCache, DenseCache, Keys, Options, Pack64, SearchCache, Size, Slots};

/// The `i`th key of stream `seed`: random 64-bit values.
fn random(i: u64, seed: u64) -> u64 {
    searchcache::mix64(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed.wrapping_mul(0xbf58_476d))
}

/// The chance that two random keys share a tag: `(2^16 + 2) / 2^32` (0 and 1 both read as 1).
fn same_tag() -> f64 {
    ((1u64 << TAG_BITS) + 2) as f64 / (1u64 << 32) as f64
}

/// Probes of `probes` keys never stored into a full table; returns the hits, all false.
fn false_hits(store: impl Fn(u64), probe: impl Fn(u64) -> bool, capacity: usize) -> u64 {
    // 20 keys per entry: every line full (the chance that one stays short is negligible).
    for i in 0..20 * capacity as u64 {
        store(random(i, 1));
    }
    let probes = 4_000_000u64;
    (0..probes).filter(|&i| probe(random(i, 2))).count() as u64
}

/// The documented false-hit rate: `1 − (1 − p)^e` per probe of an absent key, `e` entries in
/// its line (8 dense, 6 cluster; half that with `Slots::Half`, 1 with `Slots::Single`),
/// `p ≈ 2^-16`. Counts are Poisson with
/// mean λ; the bounds are λ ± 6√λ.
fn false_hits_match_the_formula<L: Layout>() {
    const PROBES: f64 = 4_000_000.0;
    for keys in [Keys::Random, Keys::Any] {
        let whole = L::ENTRIES as i32;
        for (slots, e) in [
            (Slots::Bucket, whole),
            (Slots::Half, whole / 2),
            (Slots::Single, 1),
        ] {
            let options = Options::default().keys(keys).slots(slots);
            let t = L::T::<u32>::with_options(Size::Entries(8192), options).unwrap();
            assert_eq!(t.hashfull(), 0);
            let hits = false_hits(|k| t.store(k, 1), |k| t.probe(k).is_some(), t.capacity());
            assert_eq!(t.hashfull(), 1000, "the sampled lines are full");
            let lambda = PROBES * (1.0 - (1.0 - same_tag()).powi(e));
            let (lower, upper) = (lambda - 6.0 * lambda.sqrt(), lambda + 6.0 * lambda.sqrt());
            eprintln!(
                "{keys:?} {slots:?}: {hits} false hits in 4,000,000 probes, formula {lambda:.0}"
            );
            assert!(
                (lower..=upper).contains(&(hits as f64)),
                "{keys:?} {slots:?}: {hits} false hits, formula {lambda:.0} ({lower:.0}..{upper:.0})"
            );
        }
    }
}

/// The wide layout, checking 64 bits, shows no false hit at all where the others show the
/// formula's.
#[test]
fn the_wide_layout_has_no_false_hits() {
    let wide = SearchCache::<u32>::new(Size::Entries(8192)).unwrap();
    let hits = false_hits(|k| wide.store(k, 1), |k| wide.probe(k).is_some(), 8192);
    assert_eq!(hits, 0, "the wide layout checks 64 key bits");
}

/// Two keys of one line with one tag are one key to the table: the false hit the formula
/// counts, shown on a constructed pair (the line of a one-line table, tags from the low bits).
fn keys_of_one_line_and_one_tag_are_one_key<L: Layout>() {
    let t = L::T::<u32>::with_options(
        Size::Entries(L::ENTRIES),
        Options::default().keys(Keys::Random),
    )
    .unwrap();
    let (a, b) = (0x1111_0000_0000_abcd_u64, 0x2222_0000_0000_abcd_u64);
    assert_eq!(t.identity(a), t.identity(b));
    t.store(a, 7);
    assert_eq!(t.probe(b), Some(7), "b reads a's entry");
    // A different tag misses, and tag 0 reads as 1.
    assert_eq!(t.probe(a ^ 1), None);
    assert_eq!(t.identity(0x5_0000), t.identity(1));
    assert_eq!(t.identity(1), (0, 1));
}

mod dense {
    #[test]
    fn false_hits_match_the_formula() {
        super::false_hits_match_the_formula::<super::Dense>();
    }
    #[test]
    fn keys_of_one_line_and_one_tag_are_one_key() {
        super::keys_of_one_line_and_one_tag_are_one_key::<super::Dense>();
    }
}

mod cluster {
    #[test]
    fn false_hits_match_the_formula() {
        super::false_hits_match_the_formula::<super::Cluster>();
    }
    #[test]
    fn keys_of_one_line_and_one_tag_are_one_key() {
        super::keys_of_one_line_and_one_tag_are_one_key::<super::Cluster>();
    }
}

/// Every payload bit round-trips, at the key edges.
#[test]
fn round_trips_at_the_edges() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Full41(u64);
    impl Pack64 for Full41 {
        const BITS: u32 = DENSE_PAYLOAD_BITS;
        fn pack(self) -> u64 {
            self.0
        }
        fn unpack(bits: u64) -> Self {
            Full41(bits)
        }
    }
    let t = DenseCache::<Full41>::new(Size::Mib(1)).unwrap();
    let max = (1u64 << DENSE_PAYLOAD_BITS) - 1;
    for (key, value) in [(0, 0), (0, max), (u64::MAX, max), (1, 0), (42, 1 << 40)] {
        for _ in 0..130 {
            t.new_generation(); // every generation next to every payload
        }
        t.store(key, Full41(value));
        assert_eq!(t.probe(key), Some(Full41(value)), "key {key:#x}");
    }
}

/// Twice the wide layout's entries in the same memory: 131,072 entries per MiB.
#[test]
fn twice_the_entries_per_mib() {
    let dense = DenseCache::<u32>::new(Size::Mib(16)).unwrap();
    let wide = SearchCache::<u32>::new(Size::Mib(16)).unwrap();
    assert_eq!(dense.memory_bytes(), wide.memory_bytes());
    assert_eq!(dense.capacity(), 2 * wide.capacity());
    assert_eq!(dense.capacity(), 16 * 131_072);
}

/// Every one of the wide table's 56 payload bits round-trips in the cluster layout, next to
/// every generation.
#[test]
fn cluster_round_trips_all_56_bits() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Full56(u64);
    impl Pack64 for Full56 {
        fn pack(self) -> u64 {
            self.0
        }
        fn unpack(bits: u64) -> Self {
            Full56(bits)
        }
    }
    assert_eq!(Full56::BITS, PAYLOAD_BITS);
    let t = ClusterCache::<Full56>::new(Size::Mib(1)).unwrap();
    let max = (1u64 << PAYLOAD_BITS) - 1;
    for (key, value) in [(0, 0), (0, max), (u64::MAX, max), (1, 0), (42, 1 << 55)] {
        for _ in 0..130 {
            t.new_generation();
        }
        t.store(key, Full56(value));
        assert_eq!(t.probe(key), Some(Full56(value)), "key {key:#x}");
    }
}

/// 1.5 times the wide layout's entries in the same memory: 98,304 entries per MiB.
#[test]
fn cluster_holds_one_and_a_half_times_the_entries_per_mib() {
    let cluster = ClusterCache::<u32>::new(Size::Mib(16)).unwrap();
    let wide = SearchCache::<u32>::new(Size::Mib(16)).unwrap();
    assert_eq!(cluster.memory_bytes(), wide.memory_bytes());
    assert_eq!(2 * cluster.capacity(), 3 * wide.capacity());
    assert_eq!(cluster.capacity(), 16 * 98_304);
}
