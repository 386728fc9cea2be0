//! `HandDense` (`searchcache_bench::handwritten_dense`) is the dense layout written by hand: the
//! same lines, tags, generations and replacement rule as `DenseCache`, so the same stores in the
//! same order leave the same answers in both. BENCHMARKS.md compares their speed on that
//! premise; this test holds it, over generations, replacements and merges.

use searchcache::{DenseCache, Keys, Options, Pack64, Size};
use searchcache_bench::handwritten_dense::HandDense;
use searchcache_bench::rng::{below, key_of, WyRand};

/// A value with a depth, whose merge refuses a shallower value over one of the same generation
/// (so `merge` decides some stores).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    id: u32,
    depth: u8,
}

impl Pack64 for Entry {
    const BITS: u32 = 40;
    fn pack(self) -> u64 {
        u64::from(self.id) | u64::from(self.depth) << 32
    }
    fn unpack(bits: u64) -> Self {
        Entry {
            id: bits as u32,
            depth: (bits >> 32) as u8,
        }
    }
    fn depth(&self) -> i32 {
        self.depth.into()
    }
    fn merge(self, old: Self, age: u8) -> Option<Self> {
        (age > 0 || self.depth >= old.depth).then_some(self)
    }
}

#[test]
fn same_stores_leave_the_same_answers() {
    const UNIVERSE: u64 = 1 << 18;
    let options = Options::default().keys(Keys::Random);
    let crate_table: DenseCache<Entry> = DenseCache::with_options(Size::Mib(1), options).unwrap();
    let hand: HandDense<Entry> = HandDense::new(1 << 20, false).unwrap();
    assert_eq!(crate_table.capacity(), hand.capacity());
    let mut rng = WyRand::new(29);
    for generation in 0..4u32 {
        for n in 0..300_000u32 {
            let key = key_of(below(rng.next_u64(), UNIVERSE));
            let depth = (rng.next_u64() % 20) as u8;
            let entry = Entry {
                id: generation << 24 | n,
                depth,
            };
            crate_table.store(key, entry);
            hand.store(key, entry);
        }
        crate_table.new_generation();
        hand.new_generation();
    }
    let mut hits = 0;
    for i in 0..UNIVERSE {
        let key = key_of(i);
        let answer = crate_table.probe(key);
        assert_eq!(answer, hand.probe(key), "key {key:#x}");
        hits += usize::from(answer.is_some());
    }
    // The tables are full and were overfilled: most keys, not all, are kept.
    assert!(hits > 100_000 && hits < UNIVERSE as usize, "{hits} hits");
}

/// One line, eight keys of equal depth, then a ninth: both tables evict the key stored first,
/// then, a generation later, the ninth key (which took its slot). Only which keys stay is
/// compared: a tie rule reversed in both layouts' empty and full cases alike would keep the
/// same keys in other slots.
#[test]
fn one_line_evicts_alike() {
    let options = Options::default().keys(Keys::Random);
    let crate_table: DenseCache<Entry> =
        DenseCache::with_options(Size::Bytes(64), options).unwrap();
    let hand: HandDense<Entry> = HandDense::new(64, false).unwrap();
    let key = |tag: u64| tag << 32 | tag;
    let entry = |id: u32, depth: u8| Entry { id, depth };
    for t in 1..=8 {
        crate_table.store(key(t), entry(t as u32, 5));
        hand.store(key(t), entry(t as u32, 5));
    }
    crate_table.store(key(9), entry(9, 5));
    hand.store(key(9), entry(9, 5));
    crate_table.new_generation();
    hand.new_generation();
    crate_table.store(key(10), entry(10, 1));
    hand.store(key(10), entry(10, 1));
    for t in 1..=10 {
        assert_eq!(crate_table.probe(key(t)), hand.probe(key(t)), "tag {t}");
    }
    let kept: Vec<u64> = (1..=10)
        .filter(|&t| crate_table.probe(key(t)).is_some())
        .collect();
    assert_eq!(kept, [2, 3, 4, 5, 6, 7, 8, 10]);
}
