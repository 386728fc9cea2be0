//! Everything the matrix runs an operation mix on: `SearchCache` and the peers a user would pick
//! instead, behind one trait so a single generic loop drives them all.
//!
//! Sizing, per table size `S` bytes (the cache holds `S / 16` entries, the "universe"):
//! * exact maps (`Mutex<HashMap>`, dashmap, papaya, scc's `HashMap`) are pre-sized for the whole
//!   universe, as a user who knows the key count would, and so take more memory than `S`;
//! * bounded caches (scc's `HashCache`, quick_cache) are given the universe as their capacity;
//! * fixed-cache pads each entry to 128 bytes, so it gets the same memory `S`, not the same
//!   entry count (a universe's worth would be 8 × S).
//!
//! Every peer hashes with `ahash` (fixed seeds) except quick_cache, which keeps its bundled
//! foldhash: the comparison is of table designs, not of hashers.

use searchcache::{Keys, SearchCache};
use std::collections::HashMap;
use std::sync::Mutex;

use crate::run::{self, Outcome, Spec};

/// The hasher the peers share.
pub type Hasher = ahash::RandomState;

fn hasher() -> Hasher {
    ahash::RandomState::with_seeds(1, 2, 3, 4)
}

/// A key-value structure the workloads can drive from many threads at once.
pub trait Contender: Sync {
    /// Looks `key` up; `true` on a hit.
    fn read(&self, key: u64) -> bool;
    /// Inserts `key` (a store, for a cache).
    fn insert(&self, key: u64, value: u32);
    /// Removes `key` (for `SearchCache`, which cannot remove: a store, the same memory work).
    fn remove(&self, key: u64);
    /// Overwrites `key`'s value.
    fn update(&self, key: u64, value: u32) {
        self.insert(key, value);
    }
    /// Starts loading the memory `key` will touch. Only `SearchCache` has such an API.
    fn prefetch(&self, _key: u64) {}
    /// Whether `prefetch` does anything.
    fn can_prefetch(&self) -> bool {
        false
    }
}

/// `Contender` for `$krate::SearchCache<u32>` and the constructor `searchcache_with` in module
/// `$module`: once for this crate, and once more for the baseline of `benches/ab.sh`.
macro_rules! searchcache_contender {
    ($krate:ident, $module:ident) => {
        /// `SearchCache` as a contender, and how to build one.
        pub mod $module {
            use super::Contender;
            use $krate::{HugePages, Options, SearchCache, Size};

            impl Contender for SearchCache<u32> {
                #[inline(always)]
                fn read(&self, key: u64) -> bool {
                    self.probe(key).is_some()
                }
                #[inline(always)]
                fn insert(&self, key: u64, value: u32) {
                    self.store(key, value);
                }
                #[inline(always)]
                fn remove(&self, key: u64) {
                    self.store(key, 0);
                }
                #[inline(always)]
                fn prefetch(&self, key: u64) {
                    SearchCache::prefetch(self, key);
                }
                fn can_prefetch(&self) -> bool {
                    true
                }
            }

            /// A `SearchCache<u32>` of `bytes`, with or without transparent huge pages, told
            /// what its keys are (`random`: `Keys::Random`, used unmixed; the workloads' keys
            /// are random-looking, see [`crate::rng::key_of`]).
            pub fn searchcache_with(
                bytes: usize,
                huge_pages: bool,
                random: bool,
            ) -> Result<SearchCache<u32>, $krate::Error> {
                let pages = if huge_pages {
                    HugePages::Advise
                } else {
                    HugePages::Never
                };
                let keys = if random {
                    $krate::Keys::Random
                } else {
                    $krate::Keys::Any
                };
                SearchCache::with_options(
                    Size::Bytes(bytes),
                    Options::default().huge_pages(pages).keys(keys),
                )
            }
        }
    };
}

searchcache_contender!(searchcache, current);

// The crate at another revision, built beside this one by `benches/ab.sh` (which adds the
// dependency and sets the cfg), for paired A/B measurements in the `lean` and `targets` runners.
#[cfg(searchcache_ab)]
searchcache_contender!(searchcache_baseline, baseline);

/// A `SearchCache<u32>` of `bytes`, with or without transparent huge pages.
pub fn searchcache(bytes: usize, huge_pages: bool) -> Result<SearchCache<u32>, searchcache::Error> {
    searchcache_with(bytes, huge_pages, Keys::Any)
}

/// The same, told what its keys are ([`Keys::Random`]: used unmixed; the workloads' keys are
/// random-looking, see [`crate::rng::key_of`]).
pub fn searchcache_with(
    bytes: usize,
    huge_pages: bool,
    keys: Keys,
) -> Result<SearchCache<u32>, searchcache::Error> {
    current::searchcache_with(bytes, huge_pages, keys == Keys::Random)
}

/// `std::sync::Mutex<HashMap>`: the map a user writes first.
pub struct MutexMap(Mutex<HashMap<u64, u32, Hasher>>);

impl Contender for MutexMap {
    fn read(&self, key: u64) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&key)
    }
    fn insert(&self, key: u64, value: u32) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, value);
    }
    fn remove(&self, key: u64) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&key);
    }
}

impl Contender for dashmap::DashMap<u64, u32, Hasher> {
    fn read(&self, key: u64) -> bool {
        self.get(&key).is_some()
    }
    fn insert(&self, key: u64, value: u32) {
        dashmap::DashMap::insert(self, key, value);
    }
    fn remove(&self, key: u64) {
        dashmap::DashMap::remove(self, &key);
    }
}

impl Contender for papaya::HashMap<u64, u32, Hasher> {
    fn read(&self, key: u64) -> bool {
        self.pin().get(&key).is_some()
    }
    fn insert(&self, key: u64, value: u32) {
        self.pin().insert(key, value);
    }
    fn remove(&self, key: u64) {
        self.pin().remove(&key);
    }
}

impl Contender for scc::HashMap<u64, u32, Hasher> {
    fn read(&self, key: u64) -> bool {
        self.read_sync(&key, |_, v| *v).is_some()
    }
    fn insert(&self, key: u64, value: u32) {
        self.upsert_sync(key, value);
    }
    fn remove(&self, key: u64) {
        self.remove_sync(&key);
    }
}

impl Contender for scc::HashCache<u64, u32, Hasher> {
    fn read(&self, key: u64) -> bool {
        self.read_sync(&key, |_, v| *v).is_some()
    }
    fn insert(&self, key: u64, value: u32) {
        // `put` keeps an existing key's value; an insert of a present key changes nothing.
        let _ = self.put_sync(key, value);
    }
    fn remove(&self, key: u64) {
        self.remove_sync(&key);
    }
    fn update(&self, key: u64, value: u32) {
        if let Some(mut entry) = self.get_sync(&key) {
            *entry.get_mut() = value;
        }
    }
}

impl Contender for quick_cache::sync::Cache<u64, u32> {
    fn read(&self, key: u64) -> bool {
        self.get(&key).is_some()
    }
    fn insert(&self, key: u64, value: u32) {
        quick_cache::sync::Cache::insert(self, key, value);
    }
    fn remove(&self, key: u64) {
        quick_cache::sync::Cache::remove(self, &key);
    }
}

impl Contender for fixed_cache::Cache<u64, u32, Hasher> {
    fn read(&self, key: u64) -> bool {
        self.get(&key).is_some()
    }
    fn insert(&self, key: u64, value: u32) {
        fixed_cache::Cache::insert(self, key, value);
    }
    fn remove(&self, key: u64) {
        fixed_cache::Cache::remove(self, &key);
    }
}

/// The peers, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// `std::sync::Mutex<std::collections::HashMap>`.
    MutexHashMap,
    /// `dashmap::DashMap`.
    DashMap,
    /// `papaya::HashMap`.
    Papaya,
    /// `scc::HashMap`.
    SccHashMap,
    /// `scc::HashCache`.
    SccHashCache,
    /// `quick_cache::sync::Cache`.
    QuickCache,
    /// `fixed_cache::Cache`.
    FixedCache,
}

/// Every peer, in the order the matrix runs them.
pub const PEERS: [Peer; 7] = [
    Peer::MutexHashMap,
    Peer::DashMap,
    Peer::Papaya,
    Peer::SccHashMap,
    Peer::SccHashCache,
    Peer::QuickCache,
    Peer::FixedCache,
];

/// Bytes fixed-cache gives every entry (its buckets are `align(128)`).
pub const FIXED_CACHE_ENTRY_BYTES: usize = 128;

impl Peer {
    /// The name in tables and plots.
    pub fn name(self) -> &'static str {
        match self {
            Peer::MutexHashMap => "Mutex<HashMap>",
            Peer::DashMap => "dashmap",
            Peer::Papaya => "papaya",
            Peer::SccHashMap => "scc::HashMap",
            Peer::SccHashCache => "scc::HashCache",
            Peer::QuickCache => "quick_cache",
            Peer::FixedCache => "fixed-cache",
        }
    }

    /// The peer called `name` (as in [`Peer::name`]).
    pub fn named(name: &str) -> Option<Peer> {
        PEERS
            .iter()
            .copied()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// This peer built for a table of `bytes` holding `universe` keys; with `presize` false,
    /// exact maps start at their default (empty) capacity.
    pub fn build(self, bytes: usize, universe: usize, presize: bool) -> Box<dyn Bench> {
        let cap = if presize { universe } else { 0 };
        match self {
            Peer::MutexHashMap => Measured::boxed(
                MutexMap(Mutex::new(HashMap::with_capacity_and_hasher(cap, hasher()))),
                |m| m.0.lock().map(|g| g.len()).unwrap_or(0),
            ),
            Peer::DashMap => Measured::boxed(
                dashmap::DashMap::with_capacity_and_hasher(cap, hasher()),
                |m| m.len(),
            ),
            Peer::Papaya => Measured::boxed(
                papaya::HashMap::with_capacity_and_hasher(cap, hasher()),
                |m| m.len(),
            ),
            Peer::SccHashMap => {
                Measured::boxed(scc::HashMap::with_capacity_and_hasher(cap, hasher()), |m| {
                    m.len()
                })
            }
            Peer::SccHashCache => Measured::boxed(
                scc::HashCache::with_capacity_and_hasher(cap, universe.max(64), hasher()),
                |m| m.len(),
            ),
            Peer::QuickCache => {
                Measured::boxed(quick_cache::sync::Cache::new(universe.max(64)), |m| m.len())
            }
            Peer::FixedCache => {
                let entries = prev_power_of_two((bytes / FIXED_CACHE_ENTRY_BYTES).max(4));
                // fixed-cache keeps no count: report the capacity its memory buys.
                Measured::boxed(fixed_cache::Cache::new(entries, hasher()), move |_| entries)
            }
        }
    }
}

fn prev_power_of_two(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// A contender with its measurement loops instantiated: one virtual call per run, none per
/// operation.
pub trait Bench: Sync {
    /// Runs the workload `spec` describes.
    fn run(&self, spec: &Spec) -> Outcome;
    /// Inserts keys `0..universe` from `threads` threads.
    fn fill(&self, universe: u64, threads: usize);
    /// Entries held now (for memory per entry).
    fn entries(&self) -> usize;
}

struct Measured<C, F> {
    table: C,
    entries: F,
}

impl<C: Contender + 'static, F: Fn(&C) -> usize + Sync + 'static> Measured<C, F> {
    fn boxed(table: C, entries: F) -> Box<dyn Bench> {
        Box::new(Measured { table, entries })
    }
}

impl<C: Contender, F: Fn(&C) -> usize + Sync> Bench for Measured<C, F> {
    fn run(&self, spec: &Spec) -> Outcome {
        run::run(&self.table, spec)
    }
    fn fill(&self, universe: u64, threads: usize) {
        run::fill(&self.table, universe, threads);
    }
    fn entries(&self) -> usize {
        (self.entries)(&self.table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_peer_finds_what_it_was_given() {
        for peer in PEERS {
            let bench = peer.build(1 << 16, 1000, true);
            bench.fill(100, 2);
            assert!(bench.entries() >= 100, "{}", peer.name());
        }
        let table = searchcache(1 << 16, true).unwrap();
        table.insert(7, 1);
        assert!(table.read(7));
        assert!(!table.read(8));
    }

    #[test]
    fn powers_of_two() {
        assert_eq!(prev_power_of_two(1000), 512);
        assert_eq!(prev_power_of_two(1024), 1024);
    }
}
