//! A hand-written Stockfish-style transposition table (issue 29): what an engine author writes
//! instead of using the crate, to measure what the crate's generic `DenseCache` costs.
//!
//! Clusters of three 10-byte entries in 32 bytes (six per cache line, as Stockfish packs them):
//! a 16-bit key check (the key's low 16 bits; the cluster comes from the high bits) and a
//! 64-bit data word (occupied bit, 7-bit generation, 56 bits of value, the wide layout's data
//! word). In Rust the race must be atomic, so the half-line is `[AtomicU16; 4]` (three checks
//! and padding) then `[AtomicU64; 3]`, read and written with relaxed accesses, as plain loads
//! and stores. Like Stockfish it does not tie the check to the data: a torn entry (one store's
//! check, another's data) passes. The replacement rule is the crate's: the entry holding the
//! key (the value's `merge` decides), else an empty one, else the least `depth − 8 · age`.

use searchcache::Pack64;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Three entries in 32 bytes.
#[repr(C, align(32))]
struct Cluster {
    checks: [AtomicU16; 4],
    data: [AtomicU64; 3],
}

const OCCUPIED: u64 = 1 << 63;
const PAYLOAD_BITS: u32 = 56;
const GENERATION_MASK: u8 = 127;

/// The hand-written table of `V` (at most 56 bits).
pub struct Stockfish10<V> {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
    _values: std::marker::PhantomData<fn(V) -> V>,
}

impl<V: Pack64> Stockfish10<V> {
    /// A table of `bytes` (32-byte clusters), on 2 MiB pages where the kernel gives them if
    /// `huge` (Stockfish's `madvise(MADV_HUGEPAGE)` before the first touch), else on 4 KiB
    /// pages (`MADV_NOHUGEPAGE`, as the crate's `HugePages::Never`); an error when the memory
    /// cannot be had.
    pub fn new(bytes: usize, huge: bool) -> Result<Self, String> {
        let n = (bytes / 32).max(1);
        let clusters = crate::pages::advised_vec(n, huge, || Cluster {
            checks: Default::default(),
            data: Default::default(),
        })?;
        Ok(Stockfish10 {
            clusters,
            generation: AtomicU8::new(0),
            _values: std::marker::PhantomData,
        })
    }

    /// Entries when full: 3 per 32 bytes.
    pub fn capacity(&self) -> usize {
        3 * self.clusters.len()
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// The value stored for `key` (or for a key of the same cluster and low 16 bits).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<V> {
        let c = self.cluster(key);
        let check = key as u16;
        for i in 0..3 {
            let data = c.data[i].load(Relaxed);
            if c.checks[i].load(Relaxed) == check && data & OCCUPIED != 0 {
                return Some(V::unpack(data & ((1 << PAYLOAD_BITS) - 1)));
            }
        }
        None
    }

    /// Stores `value` for `key` by the crate's replacement rule.
    #[inline]
    pub fn store(&self, key: u64, value: V) {
        let c = self.cluster(key);
        let check = key as u16;
        let now = self.generation.load(Relaxed) & GENERATION_MASK;
        let words: [(u16, u64); 3] =
            std::array::from_fn(|i| (c.checks[i].load(Relaxed), c.data[i].load(Relaxed)));
        let mut slot = None;
        let mut to_write = value;
        for (i, &(k, d)) in words.iter().enumerate() {
            if k == check && d & OCCUPIED != 0 {
                let old = V::unpack(d & ((1 << PAYLOAD_BITS) - 1));
                match value.merge(old, age(now, d)) {
                    Some(v) => to_write = v,
                    None => return,
                }
                slot = Some(i);
                break;
            }
        }
        let slot = slot.unwrap_or_else(|| victim::<V>(&words, now));
        let data = OCCUPIED | u64::from(now) << PAYLOAD_BITS | to_write.pack();
        c.checks[slot].store(check, Relaxed);
        c.data[slot].store(data, Relaxed);
    }

    /// A new search.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Empties every entry.
    pub fn clear(&self) {
        for c in &self.clusters {
            for d in &c.data {
                d.store(0, Relaxed);
            }
        }
    }
}

fn age(now: u8, data: u64) -> u8 {
    now.wrapping_sub((data >> PAYLOAD_BITS) as u8 & GENERATION_MASK) & GENERATION_MASK
}

/// The first empty entry, else the first of least `depth − AGE_WEIGHT · age`.
fn victim<V: Pack64>(words: &[(u16, u64); 3], now: u8) -> usize {
    let worth = |&(_, d): &(u16, u64)| {
        if d & OCCUPIED == 0 {
            i64::MIN
        } else {
            let v = V::unpack(d & ((1 << PAYLOAD_BITS) - 1));
            i64::from(v.depth()) - i64::from(V::AGE_WEIGHT) * i64::from(age(now, d))
        }
    };
    (0..3).min_by_key(|&i| worth(&words[i])).unwrap_or(0)
}
