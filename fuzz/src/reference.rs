//! A reference model of `SearchCache`, written from its documentation and not from its code:
//! plain `Option`s in plain vectors, the original keys, no bit packing, no atomics.
//!
//! Documented rules it implements: a key lives in bucket `⌊mix64(key) · n / 2^64⌋` (with
//! `Slots::Single`, in entry `⌊mix64(key) · 4n / 2^64⌋` of the table; with `Slots::Half`, in
//! half `⌊mix64(key) · 2n / 2^64⌋` of the table, each bucket's first entries its even half; with
//! `Keys::Random`, the key itself in place of `mix64(key)`); a store goes to the entry
//! holding the same key (the value's `merge` decides what is written, `None` leaves the entry
//! untouched, generation included), else to the first empty entry, else evicts the entry of
//! least `depth − AGE_WEIGHT · age` (saturating, first of equals); age is generations since the
//! write, modulo 128; `clear` empties every entry and keeps the generation; `hashfull` is the
//! permille of the first 1,000 entries written in the current generation.
//!
//! The dense mode models `DenseCache` from its docs: lines of eight entries, and a key matches
//! an entry when both lie in one line and have one tag, the low 16 bits of the table's key
//! (`mix64(key)`, or the key with `Keys::Random`) with 0 read as 1. The cluster mode models
//! `ClusterCache` the same way with six entries per line.

use searchcache::{mix64, Pack64, Slots};

/// What an occupied entry holds.
#[derive(Clone, Copy, Debug)]
struct Entry<V> {
    key: u64,
    value: V,
    generation: u8,
}

/// The model of a table of `entries.len() / per_line` buckets.
pub struct Reference<V> {
    entries: Vec<Option<Entry<V>>>,
    /// Entries per line: 4, 8 in the dense mode, 6 in the cluster mode.
    per_line: usize,
    /// The dense mode: keys match on their 16-bit tag.
    dense: bool,
    slots: Slots,
    /// `Keys::Random`: keys are used unmixed.
    random_keys: bool,
    generation: u8,
}

impl<V: Pack64> Reference<V> {
    /// An empty model of `buckets` buckets, keys placed by `slots`; `random_keys` for
    /// `Keys::Random`.
    pub fn new(buckets: usize, slots: Slots, random_keys: bool) -> Self {
        Reference {
            entries: vec![None; buckets * 4],
            per_line: 4,
            dense: false,
            slots,
            random_keys,
            generation: 0,
        }
    }

    /// An empty model of a `DenseCache` of `lines` lines.
    pub fn dense(lines: usize, slots: Slots, random_keys: bool) -> Self {
        Reference {
            entries: vec![None; lines * 8],
            per_line: 8,
            dense: true,
            ..Self::new(lines, slots, random_keys)
        }
    }

    /// An empty model of a `ClusterCache` of `lines` lines: six entries per line, matched on
    /// the 16-bit tag as in the dense mode (single-threaded, a cluster entry's check vouches
    /// exactly for its key's tag).
    pub fn cluster(lines: usize, slots: Slots, random_keys: bool) -> Self {
        Reference {
            entries: vec![None; lines * 6],
            per_line: 6,
            ..Self::dense(lines, slots, random_keys)
        }
    }

    /// The table's key: mixed, or as given with `Keys::Random`.
    fn used(&self, key: u64) -> u64 {
        if self.random_keys {
            key
        } else {
            mix64(key)
        }
    }

    /// Whether an entry stored for `stored` answers for `key` (both in one line).
    fn same(&self, stored: u64, key: u64) -> bool {
        let tag = |k: u64| (self.used(k) & 0xffff).max(1);
        if self.dense {
            tag(stored) == tag(key)
        } else {
            stored == key
        }
    }

    /// The entries `key` may use, as indices into `entries`.
    fn candidates(&self, key: u64) -> std::ops::Range<usize> {
        let used = self.used(key);
        let high_product = |n: usize| ((u128::from(used) * n as u128) >> 64) as usize;
        let n = self.per_line;
        match self.slots {
            Slots::Single => {
                let slot = high_product(self.entries.len());
                slot..slot + 1
            }
            Slots::Half => {
                let half = high_product(self.entries.len() / n * 2);
                half * (n / 2)..(half + 1) * (n / 2)
            }
            Slots::Bucket => {
                let bucket = high_product(self.entries.len() / n);
                bucket * n..bucket * n + n
            }
        }
    }

    fn age(&self, written: u8) -> u8 {
        (self.generation + 128 - written) % 128
    }

    fn worth(&self, entry: &Entry<V>) -> i64 {
        let worth = i64::from(entry.value.depth())
            - i64::from(V::AGE_WEIGHT) * i64::from(self.age(entry.generation));
        worth.clamp(i32::MIN.into(), i32::MAX.into())
    }

    /// The documented store.
    pub fn store(&mut self, key: u64, value: V) {
        let candidates = self.candidates(key);
        let now = self.generation;
        let same = candidates
            .clone()
            .find(|&i| self.entries[i].is_some_and(|e| self.same(e.key, key)));
        if let Some(i) = same {
            let old = self.entries[i].unwrap();
            if let Some(merged) = value.merge(old.value, self.age(old.generation)) {
                self.entries[i] = Some(Entry {
                    key,
                    value: merged,
                    generation: now,
                });
            }
            return;
        }
        let target = candidates
            .clone()
            .find(|&i| self.entries[i].is_none())
            .unwrap_or_else(|| {
                // `min_by_key` returns the first of equal minima.
                candidates
                    .min_by_key(|&i| self.worth(self.entries[i].as_ref().unwrap()))
                    .unwrap()
            });
        self.entries[target] = Some(Entry {
            key,
            value,
            generation: now,
        });
    }

    /// The documented probe: the value stored for `key`, if it is still there.
    pub fn probe(&self, key: u64) -> Option<V> {
        self.candidates(key)
            .filter_map(|i| self.entries[i])
            .find(|e| self.same(e.key, key))
            .map(|e| e.value)
    }

    /// Starts a new generation (modulo 128).
    pub fn new_generation(&mut self) {
        self.generation = (self.generation + 1) % 128;
    }

    /// The current generation.
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    /// Permille of the (first 1,000) entries written in the current generation.
    pub fn hashfull(&self) -> usize {
        let sample = &self.entries[..self.entries.len().min(1000)];
        let current = sample
            .iter()
            .flatten()
            .filter(|e| e.generation == self.generation)
            .count();
        current * 1000 / sample.len()
    }
}
