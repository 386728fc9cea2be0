//! The transposition table: a `searchcache` table of the entries of `tt_entry.rs` (wide, dense
//! or cluster, the `TTLayout` option), and the rules for keeping them.

use crate::tt_dense::DenseEntry;
pub use crate::tt_entry::*;
use searchcache::{ClusterCache, DenseCache, HugePages, Keys, Options, SearchCache, Size, Slots};

/// How the table is built: the engine's `Hash`, `TTSlots` and `HugePages` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// MiB; 0 means no table at all (for measuring what the table buys).
    pub mib: usize,
    /// Buckets of four or one slot per key.
    pub slots: Slots,
    /// Ask for transparent huge pages.
    pub huge_pages: bool,
    /// Wide (`SearchCache`), dense (`DenseCache`) or cluster (`ClusterCache`) entries: the
    /// `TTLayout` option.
    pub layout: TtLayout,
}

/// The table's layout (the `TTLayout` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TtLayout {
    /// Four entries of 56 bits per line, a 64-bit key check: `SearchCache`.
    #[default]
    Wide,
    /// Eight entries of 41 bits per line (the entry without its eval), a 16-bit key check:
    /// `DenseCache`, twice the entries per MiB.
    Dense,
    /// Six entries of 56 bits per line (the whole entry), a 16-bit check tied to the data:
    /// `ClusterCache`, 1.5 times the entries per MiB.
    Cluster,
}

/// The table itself, in one layout or the other.
enum Cache {
    Wide(SearchCache<TtEntry>),
    Dense(DenseCache<DenseEntry>),
    Cluster(ClusterCache<TtEntry>),
}

/// `$body` with `$c` bound to the table, whichever its layout.
macro_rules! either {
    ($cache:expr, $c:ident => $body:expr) => {
        match $cache {
            Cache::Wide($c) => $body,
            Cache::Dense($c) => $body,
            Cache::Cluster($c) => $body,
        }
    };
}

impl TableConfig {
    fn options(&self) -> Options {
        let pages = if self.huge_pages {
            HugePages::Advise
        } else {
            HugePages::Never
        };
        // Board hashes are Zobrist keys (XORs of random 64-bit numbers): random already, so the
        // table need not mix them again.
        Options::default()
            .slots(self.slots)
            .huge_pages(pages)
            .keys(Keys::Random)
    }
}

/// The engine's table: a `SearchCache` or a `ClusterCache` of [`TtEntry`], or a `DenseCache` of
/// [`DenseEntry`], or nothing when `Hash` is 0.
pub struct TranspositionTable {
    cache: Option<Cache>,
    config: TableConfig,
    /// Prefetch children's buckets (the `TTPrefetch` option, for measuring it).
    pub prefetch: bool,
    /// Refresh a hit entry's generation (`TTRefresh`; `SearchCache::probe_refresh`).
    pub refresh: bool,
}

impl TranspositionTable {
    /// A table as `config` says. Errors carry the crate's message.
    pub fn new(config: TableConfig) -> Result<Self, String> {
        let cache = Self::build(config)?;
        Ok(TranspositionTable {
            cache,
            config,
            prefetch: true,
            refresh: false,
        })
    }

    fn build(config: TableConfig) -> Result<Option<Cache>, String> {
        if config.mib == 0 {
            return Ok(None);
        }
        let (size, options) = (Size::Mib(config.mib), config.options());
        let cache = match config.layout {
            TtLayout::Wide => SearchCache::with_options(size, options).map(Cache::Wide),
            TtLayout::Dense => DenseCache::with_options(size, options).map(Cache::Dense),
            TtLayout::Cluster => ClusterCache::with_options(size, options).map(Cache::Cluster),
        };
        cache.map(Some).map_err(|e| e.to_string())
    }

    /// Rebuilds the table as `config` says, unless it already is. On error the old table (and
    /// its entries) is kept. A resize keeps the slot and page options of the old table, so a
    /// change of those builds a fresh one. The new table's pages are not committed: see
    /// [`prefault`](Self::prefault). A change of layout builds a fresh table too.
    pub fn reconfigure(&mut self, config: TableConfig) -> Result<(), String> {
        if config == self.config {
            return Ok(());
        }
        let same_kind =
            config.options() == self.config.options() && config.layout == self.config.layout;
        match &mut self.cache {
            Some(cache) if config.mib > 0 && same_kind => {
                let size = Size::Mib(config.mib);
                either!(cache, c => c.resize(size)).map_err(|e| e.to_string())?;
            }
            _ => self.cache = Self::build(config)?,
        }
        self.config = config;
        Ok(())
    }

    /// The configuration in force.
    pub fn config(&self) -> TableConfig {
        self.config
    }

    /// The stored entry for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        #[cfg(feature = "trace")]
        crate::trace::record(crate::trace::Op::Probe, key, 0);
        match (self.cache.as_ref()?, self.refresh) {
            (Cache::Wide(c), false) => c.probe(key),
            (Cache::Wide(c), true) => c.probe_refresh(key),
            (Cache::Dense(c), false) => c.probe(key).map(|e| e.0),
            (Cache::Dense(c), true) => c.probe_refresh(key).map(|e| e.0),
            (Cache::Cluster(c), false) => c.probe(key),
            (Cache::Cluster(c), true) => c.probe_refresh(key),
        }
    }

    /// Stores an entry for `key` (merge rules: `TtEntry`'s `Pack64::merge`, in `tt_entry.rs`).
    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry) {
        #[cfg(feature = "trace")]
        crate::trace::record(crate::trace::Op::Store, key, entry.depth);
        match &self.cache {
            Some(Cache::Wide(c)) => c.store(key, entry),
            Some(Cache::Dense(c)) => c.store(key, DenseEntry(entry)),
            Some(Cache::Cluster(c)) => c.store(key, entry),
            None => {}
        }
    }

    /// Starts loading `key`'s bucket, when prefetching is on.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if self.prefetch {
            if let Some(cache) = &self.cache {
                either!(cache, c => c.prefetch(key));
            }
        }
    }

    /// A new search starts: older entries age.
    pub fn new_generation(&self) {
        #[cfg(feature = "trace")]
        crate::trace::record(crate::trace::Op::NewGeneration, 0, 0);
        if let Some(cache) = &self.cache {
            either!(cache, c => c.new_generation());
        }
    }

    /// Empties the table, leaving every page committed (`bench`, self-play: what follows is
    /// measured or on a clock).
    pub fn clear(&self) {
        self.clear_entries();
        self.prefault();
    }

    /// Empties the table; whether its pages stay committed is the crate's `clear`'s business
    /// (the engine then commits them on a thread of its own: [`prefault`](Self::prefault)).
    pub fn clear_entries(&self) {
        #[cfg(feature = "trace")]
        crate::trace::record(crate::trace::Op::Clear, 0, 0);
        if let Some(cache) = &self.cache {
            either!(cache, c => c.clear());
        }
    }

    /// Commits every page of the table now, so that a search does not pay for the first store
    /// to each page (a fresh table lives on the kernel's zero page; that first store cost up to
    /// 3 s per GiB of table on the clock: BENCHMARKS.md, "Chess engine (issue 5)"). Changes no
    /// entry, so it may run while the table is searched.
    pub fn prefault(&self) {
        if let Some(cache) = &self.cache {
            either!(cache, c => c.prefault());
        }
    }

    /// UCI `hashfull`, permille.
    pub fn hashfull(&self) -> usize {
        self.cache
            .as_ref()
            .map_or(0, |cache| either!(cache, c => c.hashfull()))
    }

    /// Bytes backed by huge pages right now, where the OS says.
    pub fn huge_page_bytes(&self) -> Option<usize> {
        either!(self.cache.as_ref()?, c => c.huge_page_bytes())
    }
}
