//! Behaviour of `SearchCache`, `DenseCache` and `ClusterCache` as the docs and the seed
//! documents describe it, single-threaded: most promises as one generic test per layout
//! (`wide::…`, `dense::…`, `cluster::…`, tests/common). (Races: tests/torture.rs and tests/loom.rs.)

#[macro_use]
mod common;

use common::{one_line, Cluster, Dense, Layout, Table, Wide};
use searchcache::{
    consts::PAYLOAD_BITS, ClusterCache, DenseCache, Error, HugePages, Keys, Options, Pack64,
    SearchCache, Size, Slots,
};

/// A chess-like entry: the seed's replacement rules, to prove a real policy fits the trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChessLike {
    mv: u16,
    depth: u8,
    exact: bool,
}

impl Pack64 for ChessLike {
    const BITS: u32 = 25;
    fn pack(self) -> u64 {
        u64::from(self.mv) | u64::from(self.depth) << 16 | u64::from(self.exact) << 24
    }
    fn unpack(bits: u64) -> Self {
        ChessLike {
            mv: bits as u16,
            depth: (bits >> 16) as u8,
            exact: bits >> 24 & 1 == 1,
        }
    }
    fn depth(&self) -> i32 {
        i32::from(self.depth)
    }
    fn merge(mut self, old: Self, age: u8) -> Option<Self> {
        // Don't overwrite a much deeper entry of this search unless the new one is exact.
        if age == 0 && !self.exact && i32::from(self.depth) + 4 < i32::from(old.depth) {
            return None;
        }
        // Keep the old best move when the new result has none.
        if self.mv == 0 {
            self.mv = old.mv;
        }
        Some(self)
    }
}

/// A value using every payload bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Full56(u64);

impl Pack64 for Full56 {
    fn pack(self) -> u64 {
        self.0
    }
    fn unpack(bits: u64) -> Self {
        Full56(bits)
    }
}

fn deep(depth: u8) -> ChessLike {
    ChessLike {
        mv: 1,
        depth,
        exact: false,
    }
}

#[test]
fn round_trips_at_the_edges() {
    let t = SearchCache::<Full56>::new(Size::Mib(1)).unwrap();
    let max = (1u64 << PAYLOAD_BITS) - 1;
    for (key, value) in [
        (0, 0),
        (0, max),
        (u64::MAX, max),
        (1, 0),
        (u64::MAX, 0),
        (42, 1 << 55),
    ] {
        t.store(key, Full56(value));
        assert_eq!(t.probe(key), Some(Full56(value)), "key {key:#x}");
    }
    let i = SearchCache::<i32>::new(Size::Mib(1)).unwrap();
    for v in [i32::MIN, -1, 0, i32::MAX] {
        i.store(9, v);
        assert_eq!(i.probe(9), Some(v));
    }
    let b = SearchCache::<bool>::new(Size::Entries(4)).unwrap();
    b.store(0, false);
    assert_eq!(b.probe(0), Some(false));
}

layouts!(
    an_empty_slot_never_matches,
    the_key_whose_mix_is_zero_is_found_in_every_slot,
    replacement_weighs_depth_against_age,
    an_empty_slot_is_used_before_anything_is_evicted,
    ties_evict_the_first_entry,
    same_key_guard_keeps_a_much_deeper_entry_of_this_search,
    a_result_without_a_move_keeps_the_old_move,
    a_merge_by_max_only_grows,
    generations_wrap_at_128,
    hashfull_counts_this_generation_in_permille,
    clear_empties_small_and_large_tables,
    sizes_and_memory,
    bad_sizes_are_errors_not_panics,
    a_failed_resize_keeps_the_old_table,
    structured_keys_spread_evenly_over_buckets,
    random_keys_are_used_as_given,
    single_slot_keys_live_in_their_bucket_slot,
    half_line_keys_live_in_their_half,
    huge_pages_are_reported,
    #[cfg(feature = "stats")]
    counters_count_exactly_when_quiet,
    #[cfg(not(feature = "stats"))]
    counters_are_absent_without_the_feature,
    #[cfg(target_os = "linux")]
    a_large_table_costs_memory_only_where_touched,
    #[cfg(target_os = "linux")]
    clear_of_a_mapped_table_releases_its_pages_and_the_table_works_after,
    #[cfg(target_os = "linux")]
    prefault_commits_every_page_and_keeps_entries,
    allocation_failures_keep_their_cause,
    probe_refresh_keeps_a_hit_entry_young,
    saved_tables_load_back_entry_for_entry,
);

fn an_empty_slot_never_matches<L: Layout>() {
    // Key 0 with an all-zero value packs to the same payload as an empty slot: it must not match
    // until it is stored.
    let unit = L::T::<()>::new(Size::Mib(1)).unwrap();
    let word = L::T::<u32>::new(Size::Mib(1)).unwrap();
    for key in [0, 1, u64::MAX] {
        assert_eq!(unit.probe(key), None);
        assert_eq!(word.probe(key), None);
    }
    unit.store(0, ());
    word.store(0, 0);
    assert_eq!(unit.probe(0), Some(()));
    assert_eq!(word.probe(0), Some(0));
    assert_eq!(word.probe(1), None);
}

/// Probes match entries on the key alone, and an empty entry vouches for the key whose mix is 0
/// (key 0) in the wide layout (the dense one reads tag 0 as 1). It must still be found
/// wherever it lands in a line, and never be found in one where it is not stored, whatever
/// the fill of the line.
fn the_key_whose_mix_is_zero_is_found_in_every_slot<L: Layout>() {
    assert_eq!(searchcache::mix64(0), 0);
    for before in 0..L::ENTRIES as u64 {
        let t = one_line::<L, u32>();
        for k in 1..=before {
            t.store(k, k as u32);
        }
        assert_eq!(t.probe(0), None, "{before} entries before it");
        t.store(0, 77);
        assert_eq!(t.probe(0), Some(77), "{before} entries before it");
        for k in 1..=before {
            assert_eq!(t.probe(k), Some(k as u32));
        }
        // A full line still finds it; a cleared one, all empty entries, must not.
        for k in before + 1..L::ENTRIES as u64 {
            t.store(k + 100, 1);
        }
        assert_eq!(t.probe(0), Some(77));
        t.clear();
        assert_eq!(t.probe(0), None);
    }
}

/// The seed's example: a depth-14 entry from the previous search against depth-2 entries from
/// this one, the shallow goes; two searches after it was written, the old one goes first. Run
/// from several starting generations, so the age arithmetic is checked across the wrap at 128.
fn replacement_weighs_depth_against_age<L: Layout>() {
    let e = L::ENTRIES as u64;
    for start in [0u32, 1, 126, 127] {
        let t = one_line::<L, ChessLike>();
        for _ in 0..start {
            t.new_generation();
        }
        // Keys 1..=e fill the line; 1 is the deep old one.
        t.store(1, deep(14));
        t.new_generation();
        for k in 2..=e {
            t.store(k, deep(2));
        }
        // Worth: key 1 = 14 − 8·1 = 6, the others 2: the first of the shallow ones goes.
        t.store(e + 1, deep(2));
        assert_eq!(t.probe(2), None, "start {start}");
        for k in (1..=e + 1).filter(|&k| k != 2) {
            assert!(t.probe(k).is_some(), "start {start}, key {k}");
        }
        t.new_generation();
        for k in 3..=e + 1 {
            t.store(k, deep(2)); // rewritten in this generation
        }
        // Worth: key 1 = 14 − 8·2 = −2, the others 2: the old deep entry goes first.
        t.store(e + 2, deep(2));
        assert_eq!(t.probe(1), None, "start {start}");
        for k in 3..=e + 2 {
            assert!(t.probe(k).is_some(), "start {start}, key {k}");
        }
    }
}

fn an_empty_slot_is_used_before_anything_is_evicted<L: Layout>() {
    let e = L::ENTRIES as u64;
    let t = one_line::<L, ChessLike>();
    t.store(1, deep(0));
    t.store(2, deep(200));
    for k in 3..=e {
        t.store(k, deep(0)); // the last fills the last empty slot, although 1 is worth less
    }
    for k in 1..=e {
        assert!(t.probe(k).is_some());
    }
}

fn ties_evict_the_first_entry<L: Layout>() {
    let e = L::ENTRIES as u64;
    let t = one_line::<L, u32>();
    for k in 1..=e {
        t.store(k, k as u32);
    }
    t.store(e + 1, 5);
    assert_eq!(t.probe(1), None);
    assert_eq!(
        (2..=e + 1).filter(|&k| t.probe(k).is_some()).count() as u64,
        e
    );
}

fn same_key_guard_keeps_a_much_deeper_entry_of_this_search<L: Layout>() {
    let t = L::T::<ChessLike>::new(Size::Mib(1)).unwrap();
    let entry = |mv, depth, exact| ChessLike { mv, depth, exact };
    t.store(7, entry(3, 12, false));
    t.store(7, entry(4, 2, false));
    assert_eq!(
        t.probe(7).map(|e| e.depth),
        Some(12),
        "shallow bound must not replace deep"
    );
    t.store(7, entry(4, 8, false));
    assert_eq!(
        t.probe(7).map(|e| e.depth),
        Some(8),
        "within 4 plies it replaces"
    );
    t.store(7, entry(4, 30, false));
    t.store(7, entry(5, 1, true));
    assert_eq!(t.probe(7), Some(entry(5, 1, true)), "exact replaces");
    t.store(7, entry(4, 30, false));
    t.new_generation();
    t.store(7, entry(6, 1, false));
    assert_eq!(
        t.probe(7).map(|e| e.depth),
        Some(1),
        "an older search's entry is replaced"
    );
}

fn a_result_without_a_move_keeps_the_old_move<L: Layout>() {
    let t = L::T::<ChessLike>::new(Size::Mib(1)).unwrap();
    let entry = |mv, depth| ChessLike {
        mv,
        depth,
        exact: false,
    };
    t.store(11, entry(77, 3));
    t.store(11, entry(0, 5));
    assert_eq!(t.probe(11), Some(entry(77, 5)));
    t.store(11, entry(78, 6));
    assert_eq!(t.probe(11).map(|e| e.mv), Some(78));
}

fn a_merge_by_max_only_grows<L: Layout>() {
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Bound(u16);
    impl Pack64 for Bound {
        const BITS: u32 = 16;
        fn pack(self) -> u64 {
            u64::from(self.0)
        }
        fn unpack(bits: u64) -> Self {
            Bound(bits as u16)
        }
        fn merge(self, old: Self, _age: u8) -> Option<Self> {
            Some(Bound(self.0.max(old.0)))
        }
    }
    let t = L::T::<Bound>::new(Size::Mib(1)).unwrap();
    t.store(5, Bound(40));
    t.store(5, Bound(38));
    assert_eq!(t.probe(5), Some(Bound(40)));
    t.store(5, Bound(44));
    assert_eq!(t.probe(5), Some(Bound(44)));
}

fn generations_wrap_at_128<L: Layout>() {
    let t = L::T::<u8>::new(Size::Mib(1)).unwrap();
    assert_eq!(t.generation(), 0);
    for i in 1..=300u32 {
        t.new_generation();
        assert_eq!(u32::from(t.generation()), i % 128);
    }
}

fn hashfull_counts_this_generation_in_permille<L: Layout>() {
    let t = L::T::<u32>::new(Size::Entries(4000)).unwrap();
    assert_eq!(t.hashfull(), 0);
    // Enough keys to fill the 1,000 sampled entries (4,000-entry table, 100,000 keys).
    for k in 0..100_000u64 {
        t.store(k, 1);
    }
    assert_eq!(t.hashfull(), 1000);
    t.new_generation();
    assert_eq!(t.hashfull(), 0, "last search's entries do not count");
    for k in 0..1_000u64 {
        t.store(k, 1);
    }
    let h = t.hashfull();
    // 1,000 of 4,000 slots rewritten: about a quarter of the sample.
    assert!((150..=350).contains(&h), "{h}");

    let small = one_line::<L, u32>();
    small.store(1, 1);
    assert_eq!(
        small.hashfull(),
        1000 / L::ENTRIES,
        "a table smaller than the sample is sampled whole"
    );
}

fn clear_empties_small_and_large_tables<L: Layout>() {
    for size in [Size::Entries(64), Size::Mib(32)] {
        let t = L::T::<u32>::new(size).unwrap();
        for k in 0..10_000u64 {
            t.store(k, k as u32);
        }
        assert!(t.probe(9_999).is_some());
        t.new_generation();
        t.clear();
        assert!((0..10_000u64).all(|k| t.probe(k).is_none()), "{size:?}");
        assert_eq!(t.hashfull(), 0);
        assert_eq!(t.generation(), 1, "clear keeps the generation");
    }
}

fn sizes_and_memory<L: Layout>() {
    let e = L::ENTRIES;
    let t = L::T::<u32>::new(Size::Mib(1)).unwrap();
    assert_eq!(
        (t.capacity(), t.memory_bytes(), t.lines()),
        (16_384 * e, 1 << 20, 16_384)
    );
    let t = L::T::<u32>::new(Size::Bytes(1000)).unwrap();
    assert_eq!(
        (t.lines(), t.memory_bytes()),
        (15, 960),
        "bytes round down to whole lines"
    );
    let t = L::T::<u32>::new(Size::Entries(10)).unwrap();
    assert_eq!(
        t.capacity(),
        10usize.next_multiple_of(e),
        "entries round up to whole lines"
    );
    let t = L::T::<u32>::new(Size::Mib(3)).unwrap();
    assert_eq!(t.lines(), 3 << 14, "any size, not only powers of two");
}

fn bad_sizes_are_errors_not_panics<L: Layout>() {
    for size in [
        Size::Bytes(0),
        Size::Bytes(63),
        Size::Entries(0),
        Size::Mib(0),
    ] {
        let e = L::T::<u32>::new(size).unwrap_err();
        assert!(matches!(e, Error::ZeroSize { .. }), "{size:?}: {e}");
        assert!(e.to_string().contains("too small"), "{e}");
    }
    for size in [
        Size::Mib(usize::MAX),
        Size::Entries(usize::MAX),
        Size::Bytes(usize::MAX),
    ] {
        let e = L::T::<u32>::new(size).unwrap_err();
        assert!(matches!(e, Error::TooLarge { .. }), "{size:?}: {e}");
    }
    // 2^62 bytes passes the address-space check but no machine can map it.
    let e = L::T::<u32>::new(Size::Bytes(1 << 62)).unwrap_err();
    assert!(matches!(e, Error::AllocationFailed { .. }), "{e}");
    assert!(e.to_string().contains("could not allocate"), "{e}");
}

fn a_failed_resize_keeps_the_old_table<L: Layout>() {
    let e = L::ENTRIES;
    let mut t = L::T::<u32>::new(Size::Mib(1)).unwrap();
    t.store(3, 33);
    t.new_generation();
    assert!(t.resize(Size::Bytes(1 << 62)).is_err());
    assert_eq!((t.probe(3), t.capacity()), (Some(33), 16_384 * e));
    t.resize(Size::Mib(2)).unwrap();
    assert_eq!(
        (t.probe(3), t.capacity(), t.generation()),
        (None, 32_768 * e, 1)
    );
}

/// Structured keys (counters, packed boards, keys that differ only in high bits) must spread
/// over lines like random ones. Pearson's chi-square over 1,024 lines has 1,023 degrees of
/// freedom: mean 1,023, standard deviation √2046 ≈ 45; 1,400 is 8 standard deviations out.
fn structured_keys_spread_evenly_over_buckets<L: Layout>() {
    let t = L::T::<u32>::new(Size::Entries(1024 * L::ENTRIES)).unwrap();
    let n = t.lines();
    assert_eq!(n, 1024);
    let chi_square = |keys: &mut dyn Iterator<Item = u64>| {
        let mut counts = vec![0u64; n];
        let mut total = 0u64;
        for k in keys {
            counts[t.line_of(k)] += 1;
            total += 1;
        }
        let expected = total as f64 / n as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum::<f64>()
    };
    let counter = chi_square(&mut (0..65_536u64));
    let high_bits = chi_square(&mut (0..65_536u64).map(|k| k << 48));
    let strided = chi_square(&mut (0..65_536u64).map(|k| k * 1024));
    // 15-puzzle-like boards: 4 bits per tile, permutations of a few tiles.
    let boards = chi_square(&mut (0..65_536u64).map(|k| {
        let base = 0xFEDC_BA98_7654_3210u64;
        base ^ (k & 0xF) << 4 ^ (k >> 4 & 0xF) << 20 ^ (k >> 8 & 0xF) << 36 ^ (k >> 12) << 52
    }));
    for (name, x2) in [
        ("counter", counter),
        ("high", high_bits),
        ("stride", strided),
        ("boards", boards),
    ] {
        assert!(
            x2 < 1_400.0,
            "{name}: chi-square {x2:.0} over 1023 degrees of freedom"
        );
    }
}

/// `Keys::Random` uses keys as given: the line is the high bits of `key × lines`, and the
/// table otherwise behaves as with mixed keys (every survivor probes back to its own value).
fn random_keys_are_used_as_given<L: Layout>() {
    let t = L::T::<u32>::with_options(Size::Entries(4096), Options::default().keys(Keys::Random))
        .unwrap();
    let n = t.lines() as u128;
    let mut state = 0x0123_4567_89ab_cdefu64;
    let keys = (0..8192).map(|_| {
        state = searchcache::mix64(state.wrapping_add(0x9e37_79b9_7f4a_7c15));
        state
    });
    // Keys the table tells apart (all of them in the wide layout).
    let keys = common::distinct(&t, keys);
    assert!(keys.len() > 8000, "{}", keys.len());
    for &k in &keys {
        assert_eq!(t.line_of(k) as u128, (u128::from(k) * n) >> 64);
        t.store(k, (k >> 32) as u32);
    }
    let found = keys.iter().filter(|&&k| t.probe(k).is_some()).count();
    assert!(found > 3000 && found <= 4096, "{found}");
    assert!(keys
        .iter()
        .all(|&k| t.probe(k).is_none_or(|v| v == (k >> 32) as u32)));
    // Key 0 is no special case here either.
    assert_eq!(t.probe(0), None);
    t.store(0, 5);
    assert_eq!(t.probe(0), Some(5));
    let mixed = L::T::<u32>::new(Size::Entries(4096)).unwrap();
    assert_eq!(
        mixed.line_of(keys[0]) as u128,
        (u128::from(searchcache::mix64(keys[0])) * n) >> 64
    );
}

fn single_slot_keys_live_in_their_bucket_slot<L: Layout>() {
    let single =
        L::T::<u32>::with_options(Size::Entries(64), Options::default().slots(Slots::Single))
            .unwrap();
    // With one slot per key, two keys sharing a slot evict each other, so of many keys stored
    // at most `capacity` survive, and each survivor probes back to its own value.
    for k in 0..1_000u64 {
        single.store(k, k as u32);
    }
    let survivors: Vec<u64> = (0..1_000).filter(|&k| single.probe(k).is_some()).collect();
    // 64 entries, 66 in the cluster layout (whole lines of six).
    let capacity = single.capacity();
    assert!(
        survivors.len() <= capacity && survivors.len() > capacity / 2,
        "{}",
        survivors.len()
    );
    assert!(survivors.iter().all(|&k| single.probe(k) == Some(k as u32)));
    // The last key stored always survives (nothing came after it).
    assert_eq!(single.probe(999), Some(999));
}

/// With `Slots::Half` a key lives in the half of its line that bit `⌊x · 2n / 2^64⌋ mod 2` of
/// its table key names: in a one-line table, the top bit. One key more than a half holds
/// evicts the half's first key (ties evict the first), although the other half has room (with
/// `Slots::Bucket` all of them stay), and the other half's keys are untouched.
fn half_line_keys_live_in_their_half<L: Layout>() {
    let half = L::ENTRIES / 2;
    for slots in [Slots::Half, Slots::Bucket] {
        let options = Options::default().keys(Keys::Random).slots(slots);
        let t = L::T::<u32>::with_options(Size::Entries(L::ENTRIES), options).unwrap();
        assert_eq!(t.capacity(), L::ENTRIES);
        // Distinct low 16 bits: distinct tags in the dense and cluster layouts.
        let low: Vec<u64> = (1..=half as u64 + 1).collect();
        let high: Vec<u64> = (1..half as u64).map(|k| 1 << 63 | k << 8).collect();
        for &k in high.iter().chain(&low) {
            t.store(k, k as u32);
        }
        let kept = |keys: &[u64]| {
            keys.iter()
                .filter(|&&k| t.probe(k) == Some(k as u32))
                .count()
        };
        assert_eq!(
            kept(&high),
            half - 1,
            "{slots:?}: the other half is untouched"
        );
        if slots == Slots::Half {
            assert_eq!(t.probe(low[0]), None, "the half's first key is evicted");
            assert_eq!(kept(&low[1..]), half);
        } else {
            assert_eq!(kept(&low), half + 1, "the whole line holds them all");
        }
    }
}

fn huge_pages_are_reported<L: Layout>() {
    let touch = |t: &L::T<u32>| {
        for k in 0..(t.capacity() as u64) {
            t.store(k, 1);
        }
    };
    let never = L::T::<u32>::with_options(
        Size::Mib(8),
        Options::default().huge_pages(HugePages::Never),
    )
    .unwrap();
    touch(&never);
    let advised = L::T::<u32>::new(Size::Mib(8)).unwrap();
    touch(&advised);
    if cfg!(target_os = "linux") {
        assert_eq!(
            never.huge_page_bytes(),
            Some(0),
            "MADV_NOHUGEPAGE was ignored"
        );
        let granted = advised.huge_page_bytes();
        assert!(granted.is_some());
        eprintln!("8 MiB table, MADV_HUGEPAGE: {granted:?} bytes on huge pages");
    }
}

#[cfg(feature = "stats")]
fn counters_count_exactly_when_quiet<L: Layout>() {
    let e = L::ENTRIES as u64;
    let t = one_line::<L, u32>();
    for k in 1..=e + 2 {
        t.store(k, 1); // e into empty slots, 2 evictions
    }
    t.store(e + 2, 2); // same key: not a replacement
    let hits = (1..=e + 2).filter(|&k| t.probe(k).is_some()).count() as u64;
    let s = t.stats().unwrap();
    assert_eq!(
        (s.stores, s.replacements, s.probes, s.hits),
        (e + 3, 2, e + 2, hits)
    );
    assert_eq!(hits, e);
    t.reset_stats();
    assert_eq!(t.stats().unwrap().probes, 0);
}

#[cfg(not(feature = "stats"))]
fn counters_are_absent_without_the_feature<L: Layout>() {
    assert_eq!(one_line::<L, u32>().stats(), None);
}

/// Held by each test that measures this process's resident memory, so that one test's table
/// (a prefault, a release) is never counted in another's difference.
#[cfg(target_os = "linux")]
static RESIDENT_MEASURE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The lock of [`RESIDENT_MEASURE`], also after a test that held it failed.
#[cfg(target_os = "linux")]
fn measuring_resident() -> std::sync::MutexGuard<'static, ()> {
    RESIDENT_MEASURE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Resident memory of this process in bytes, from /proc/self/status.
#[cfg(target_os = "linux")]
fn resident_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// A 4 GiB table is mapped, not written: only the pages its entries touch become resident.
/// (Eager zeroing, as a `collect()` of buckets or glibc's aligned `calloc`, would make all
/// 4 GiB resident before the first probe.) With huge pages a touch commits 2 MiB, so 16 stores
/// may commit 32 MiB. Other tests in this process allocate a few tens of MiB at the same time,
/// hence the 256 MiB margin, still 16 times less than the table.
#[cfg(target_os = "linux")]
fn a_large_table_costs_memory_only_where_touched<L: Layout>() {
    let _measuring = measuring_resident();
    let before = resident_bytes();
    let t = L::T::<u32>::new(Size::Mib(4096)).unwrap();
    for k in 0..16u64 {
        t.store(k, 1);
    }
    let grown = resident_bytes().saturating_sub(before);
    assert!(
        grown < 256 << 20,
        "a fresh 4 GiB table made {grown} bytes resident"
    );
    assert!((0..16).all(|k| t.probe(k) == Some(1)));
}

/// `clear` of a mapped table gives its memory back instead of writing it (issue 25 item 4: a
/// `ucinewgame` on a 20 GB table took seconds): a fully committed 256 MiB table is no longer
/// resident after it, reads empty, and finds what is stored afterwards. (Zeroing the words
/// would keep all 256 MiB resident; other tests in this process may allocate meanwhile, hence
/// a 64 MiB margin.)
#[cfg(target_os = "linux")]
fn clear_of_a_mapped_table_releases_its_pages_and_the_table_works_after<L: Layout>() {
    let _measuring = measuring_resident();
    for pages in [HugePages::Never, HugePages::Advise] {
        let t = L::T::<u32>::with_options(Size::Mib(256), Options::default().huge_pages(pages))
            .unwrap();
        t.prefault();
        let keys = common::distinct(&t, 0..100_000u64);
        for &k in &keys {
            t.store(k, k as u32 + 1);
        }
        let before = resident_bytes();
        t.clear();
        let released = before.saturating_sub(resident_bytes());
        assert!(
            released >= 192 << 20,
            "{pages:?}: clear released only {released} bytes of a committed 256 MiB table"
        );
        assert!((0..100_000u64).all(|k| t.probe(k).is_none()), "{pages:?}");
        assert_eq!(t.hashfull(), 0);
        for &k in &keys {
            t.store(k, k as u32 + 2);
        }
        assert!(
            keys.iter().all(|&k| t.probe(k) == Some(k as u32 + 2)),
            "{pages:?}"
        );
    }
}

/// `prefault` commits the whole table (here 256 MiB on 4 KiB pages) and changes no entry.
/// Other tests of this process allocate and free a few tens of MiB meanwhile (a 64 MiB table
/// with a 60 MiB bar failed once so), hence the 64 MiB margin, a quarter of the table.
#[cfg(target_os = "linux")]
fn prefault_commits_every_page_and_keeps_entries<L: Layout>() {
    let _measuring = measuring_resident();
    let t = L::T::<u32>::with_options(
        Size::Mib(256),
        Options::default().huge_pages(HugePages::Never),
    )
    .unwrap();
    for k in 0..100u64 {
        t.store(k, k as u32 + 1);
    }
    // 100 stores commit at most 100 pages (400 KiB); prefault must commit the other 255.6 MiB.
    let before = resident_bytes();
    t.prefault();
    let grown = resident_bytes().saturating_sub(before);
    assert!(
        grown >= 192 << 20,
        "prefault committed only {grown} bytes of 256 MiB"
    );
    assert!((0..100u64).all(|k| t.probe(k) == Some(k as u32 + 1)));
}

/// A value claiming `B` bits and packing `packed`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Claims<const B: u32>(u64);

impl<const B: u32> Pack64 for Claims<B> {
    const BITS: u32 = B;
    fn pack(self) -> u64 {
        self.0
    }
    fn unpack(bits: u64) -> Self {
        Claims(bits)
    }
}

/// Stores `packed` under a value claiming `B` bits in a one-line table of `L`, and probes it.
fn round_trip<L: Layout, const B: u32>(packed: u64) -> std::thread::Result<Option<Claims<B>>> {
    let t = one_line::<L, Claims<B>>();
    std::panic::catch_unwind(move || {
        t.store(1, Claims(packed));
        t.probe(1)
    })
}

/// `Pack64::BITS` is the mask: a value whose `pack` sets bits at or above `BITS` panics in
/// debug builds, and in release builds comes back with only its low `BITS` bits. Both
/// directions of issue 13: 16 bits claimed, the layout's full payload packed; the full
/// payload (`FULL` bits) claimed, 64 packed. The layout's own bits stay intact either way.
fn pack_bits_are_dropped_or_caught<L: Layout, const FULL: u32>() {
    assert_eq!(FULL, L::PAYLOAD);
    let wide = (1u64 << FULL) - 1;
    let got16 = round_trip::<L, 16>(wide);
    let got_full = round_trip::<L, FULL>(u64::MAX);
    if cfg!(debug_assertions) {
        assert!(
            got16.is_err() && got_full.is_err(),
            "debug builds must catch it"
        );
    } else {
        assert_eq!(got16.unwrap(), Some(Claims(0xffff)));
        assert_eq!(got_full.unwrap(), Some(Claims(wide)));
    }
    // Values within their claim round-trip in both kinds of build.
    assert_eq!(round_trip::<L, 16>(0xbeef).unwrap(), Some(Claims(0xbeef)));
    assert_eq!(round_trip::<L, FULL>(wide).unwrap(), Some(Claims(wide)));
}

#[test]
fn pack_bits_at_or_above_bits_are_dropped_or_caught() {
    pack_bits_are_dropped_or_caught::<Wide, 56>();
}

#[test]
fn dense_pack_bits_at_or_above_bits_are_dropped_or_caught() {
    pack_bits_are_dropped_or_caught::<Dense, 41>();
}

#[test]
fn cluster_pack_bits_at_or_above_bits_are_dropped_or_caught() {
    pack_bits_are_dropped_or_caught::<Cluster, 56>();
}

/// Refused memory keeps the OS's error as the `source()`.
fn allocation_failures_keep_their_cause<L: Layout>() {
    let e = L::T::<u32>::new(Size::Bytes(1 << 62)).unwrap_err();
    let Error::AllocationFailed { bytes, source } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*bytes, 1 << 62);
    let cause = std::error::Error::source(&e).expect("a source");
    assert_eq!(cause.to_string(), source.to_string());
    assert!(e.to_string().contains(&source.to_string()), "{e}");
}

/// `probe_refresh` stamps a hit with the current generation (it counts in `hashfull` and is
/// evicted by its depth alone); a plain `probe` leaves the age as the last store made it.
fn probe_refresh_keeps_a_hit_entry_young<L: Layout>() {
    let e = L::ENTRIES as u64;
    for refresh in [false, true] {
        let t = one_line::<L, ChessLike>();
        t.store(1, deep(4));
        t.new_generation();
        t.new_generation();
        for k in 2..=e {
            t.store(k, deep(3));
        }
        let hit = if refresh {
            t.probe_refresh(1)
        } else {
            t.probe(1)
        };
        assert_eq!(hit, Some(deep(4)));
        let young = if refresh { e } else { e - 1 };
        assert_eq!(t.hashfull() as u64, young * 1000 / e);
        // Worth: key 1 is 4 − 8·2 = −12 unrefreshed, 4 refreshed; the others are 3.
        t.store(e + 1, deep(3));
        assert_eq!(t.probe(1).is_some(), refresh, "refresh {refresh}");
        assert_eq!(t.probe(2).is_some(), !refresh, "refresh {refresh}");
        // A hit of this generation, and a miss, write nothing.
        assert_eq!(t.probe_refresh(e + 1), Some(deep(3)));
        assert_eq!(t.probe_refresh(99), None);
    }
}

/// `save` then `load` gives a table that probes alike, keeps options and generation, and
/// saves back to the same bytes; a file of the other layout is an error, not a table.
fn saved_tables_load_back_entry_for_entry<L: Layout>() {
    let options = Options::default().keys(Keys::Random).slots(Slots::Single);
    let t = L::T::<u32>::with_options(Size::Entries(512), options).unwrap();
    for k in 0..1_000u64 {
        t.store(searchcache::mix64(k), k as u32);
    }
    t.new_generation();
    let mut bytes = Vec::new();
    t.save(&mut bytes).unwrap();
    let back = L::T::<u32>::load(&bytes).unwrap();
    assert_eq!(back.generation(), 1);
    for k in 0..1_000u64 {
        let key = searchcache::mix64(k);
        assert_eq!(back.probe(key), t.probe(key), "key {k}");
    }
    let mut again = Vec::new();
    back.save(&mut again).unwrap();
    assert_eq!(again, bytes);
    let others = [
        (L::ENTRIES != 4).then(|| SearchCache::<u32>::load(&bytes[..]).map(drop)),
        (L::ENTRIES != 8).then(|| DenseCache::<u32>::load(&bytes[..]).map(drop)),
        (L::ENTRIES != 6).then(|| ClusterCache::<u32>::load(&bytes[..]).map(drop)),
    ];
    for other in others.into_iter().flatten() {
        assert!(matches!(other, Err(Error::File(_))), "{other:?}");
    }
}
