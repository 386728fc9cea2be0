//! The three table layouts behind one trait, so that one test body checks a promise on all:
//! [`Wide`] (`SearchCache`, four two-word entries per line), [`Dense`] (`DenseCache`, eight
//! one-word entries per line) and [`Cluster`] (`ClusterCache`, six ten-byte entries per line).
//! `layouts!` turns generic test functions into a test per layout, `wide::name`,
//! `dense::name` and `cluster::name`.
#![allow(dead_code)] // each test file uses part of it

use searchcache::{ClusterCache, DenseCache, Error, Options, Pack64, Placement, SearchCache, Size};

/// What the tests do with a table, whichever the layout and `Placement` (`with_options` and
/// `load` are `with_placement` and `load_placed`, the same for the default placement).
pub trait Table<V: Pack64>: Sized + Sync + std::fmt::Debug + std::panic::UnwindSafe {
    fn with_options(size: Size, options: Options) -> Result<Self, Error>;
    fn options(&self) -> Options;
    fn probe(&self, key: u64) -> Option<V>;
    fn probe_refresh(&self, key: u64) -> Option<V>;
    fn store(&self, key: u64, value: V);
    fn new_generation(&self);
    fn generation(&self) -> u8;
    fn hashfull(&self) -> usize;
    fn clear(&self);
    fn prefault(&self);
    fn capacity(&self) -> usize;
    /// Buckets (wide) or lines (dense): 64-byte lines either way.
    fn lines(&self) -> usize;
    fn memory_bytes(&self) -> usize;
    fn huge_page_bytes(&self) -> Option<usize>;
    fn resize(&mut self, size: Size) -> Result<(), Error>;
    fn line_of(&self, key: u64) -> usize;
    fn save(&self, w: &mut Vec<u8>) -> Result<(), Error>;
    fn load(r: &[u8]) -> Result<Self, Error>;
    fn stats(&self) -> Option<searchcache::CacheStats>;
    fn reset_stats(&self);
    /// What tells `key` apart in the table: its line and its key check (the whole key for the
    /// wide layout, the 16-bit tag for the dense one). Keys of one identity are one key.
    fn identity(&self, key: u64) -> (usize, u64);

    fn new(size: Size) -> Result<Self, Error> {
        Self::with_options(size, Options::default())
    }
}

macro_rules! forward {
    ($table:ident, $line_of:ident, $lines:ident, $check:expr) => {
        impl<V: Pack64, P: Placement> Table<V> for $table<V, P> {
            fn with_options(size: Size, options: Options) -> Result<Self, Error> {
                $table::with_placement(size, options)
            }
            fn options(&self) -> Options {
                $table::options(self)
            }
            fn probe(&self, key: u64) -> Option<V> {
                $table::probe(self, key)
            }
            fn probe_refresh(&self, key: u64) -> Option<V> {
                $table::probe_refresh(self, key)
            }
            fn store(&self, key: u64, value: V) {
                $table::store(self, key, value);
            }
            fn new_generation(&self) {
                $table::new_generation(self);
            }
            fn generation(&self) -> u8 {
                $table::generation(self)
            }
            fn hashfull(&self) -> usize {
                $table::hashfull(self)
            }
            fn clear(&self) {
                $table::clear(self);
            }
            fn prefault(&self) {
                $table::prefault(self);
            }
            fn capacity(&self) -> usize {
                $table::capacity(self)
            }
            fn lines(&self) -> usize {
                $table::$lines(self)
            }
            fn memory_bytes(&self) -> usize {
                $table::memory_bytes(self)
            }
            fn huge_page_bytes(&self) -> Option<usize> {
                $table::huge_page_bytes(self)
            }
            fn resize(&mut self, size: Size) -> Result<(), Error> {
                $table::resize(self, size)
            }
            fn line_of(&self, key: u64) -> usize {
                $table::$line_of(self, key)
            }
            fn save(&self, w: &mut Vec<u8>) -> Result<(), Error> {
                $table::save(self, w)
            }
            fn load(r: &[u8]) -> Result<Self, Error> {
                $table::load_placed(r)
            }
            fn stats(&self) -> Option<searchcache::CacheStats> {
                $table::stats(self)
            }
            fn reset_stats(&self) {
                $table::reset_stats(self);
            }
            fn identity(&self, key: u64) -> (usize, u64) {
                ($table::$line_of(self, key), $check(self, key))
            }
        }
    };
}

forward!(
    SearchCache,
    bucket_of,
    buckets,
    |_: &SearchCache<V, P>, key| key
);
forward!(DenseCache, line_of, lines, |t: &DenseCache<V, P>, key| {
    u64::from(t.tag_of(key))
});
forward!(
    ClusterCache,
    line_of,
    lines,
    |t: &ClusterCache<V, P>, key| { u64::from(t.tag_of(key)) }
);

/// The keys of `keys` that `t` tells apart (the first of each identity): all of them for the
/// wide layout, all but about `n² · 2^-16 / lines` for the dense one, whose false hits
/// tests/dense.rs measures.
pub fn distinct<V: Pack64, T: Table<V>>(t: &T, keys: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut seen = std::collections::HashSet::new();
    keys.filter(|&k| seen.insert(t.identity(k))).collect()
}

/// A layout: its table type and its numbers.
pub trait Layout {
    type T<V: Pack64>: Table<V>;
    /// Entries per 64-byte line.
    const ENTRIES: usize;
    /// Payload bits a value may use.
    const PAYLOAD: u32;
}

/// `SearchCache`.
pub struct Wide;

/// `DenseCache`.
pub struct Dense;

impl Layout for Wide {
    type T<V: Pack64> = SearchCache<V>;
    const ENTRIES: usize = 4;
    const PAYLOAD: u32 = searchcache::consts::PAYLOAD_BITS;
}

impl Layout for Dense {
    type T<V: Pack64> = DenseCache<V>;
    const ENTRIES: usize = 8;
    const PAYLOAD: u32 = searchcache::consts::DENSE_PAYLOAD_BITS;
}

/// `ClusterCache`.
pub struct Cluster;

impl Layout for Cluster {
    type T<V: Pack64> = ClusterCache<V>;
    const ENTRIES: usize = 6;
    const PAYLOAD: u32 = searchcache::consts::PAYLOAD_BITS;
}

/// A table of exactly one line: every key collides.
pub fn one_line<L: Layout, V: Pack64>() -> L::T<V> {
    let t = L::T::<V>::new(Size::Entries(L::ENTRIES)).unwrap();
    assert_eq!((t.lines(), t.capacity()), (1, L::ENTRIES));
    t
}

/// `layouts!(a, b)`: `wide::a`, `dense::a`, `cluster::a`, `wide::b`, …, each a `#[test]`
/// calling the generic `a::<Wide>()` (or `::<Dense>()`, `::<Cluster>()`) of the file.
#[allow(unused_macros)] // tests/torture.rs instantiates by hand
macro_rules! layouts {
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        mod wide {
            $( $(#[$attr])* #[test] fn $name() { super::$name::<crate::common::Wide>() } )*
        }
        mod dense {
            $( $(#[$attr])* #[test] fn $name() { super::$name::<crate::common::Dense>() } )*
        }
        mod cluster {
            $( $(#[$attr])* #[test] fn $name() { super::$name::<crate::common::Cluster>() } )*
        }
    };
}
