//! The transposition table: what the search remembers about a position, packed into the 56-bit
//! payload of a `searchcache::SearchCache` entry, and the rules for keeping it.
//!
//! Payload layout (56 bits):
//!
//! ```text
//!  55 54 | 53 ...... 47 | 46 ..... 31 | 30 ...... 15 | 14 ........ 0
//!  bound | depth + 8 (7)| eval (i16)  | score (i16)  | move: from 6, to 6, promotion 3
//! ```
//!
//! The move `0` (a1a1, which no legal move is) means "no move". Depth takes 7 bits with an
//! offset of 8, so quiescence entries (depth 0 and below, down to -8) and searches up to depth
//! 119 fit; the engine never iterates deeper than `MAX_DEPTH` (100).

use crate::tt_dense::DenseEntry;
use cozy_chess::{Board, Move, Piece, Square};
use searchcache::{DenseCache, HugePages, Keys, Options, Pack64, SearchCache, Size, Slots};

/// Scores at or beyond this magnitude are mates: `MATE - plies to mate`.
pub const MATE: i32 = 32_000;
/// The deepest ply a search path can reach (mate scores are `MATE - ply` with `ply < MAX_PLY`).
pub const MAX_PLY: i32 = 128;
/// Any score above this is a mate for the side to move.
pub const MATE_BOUND: i32 = MATE - MAX_PLY;
/// Stored depth = depth + DEPTH_OFFSET in 7 bits: depths -8 ..= 119.
const DEPTH_OFFSET: i32 = 8;
const DEPTH_BITS: u32 = 7;
const MIN_DEPTH: i32 = -DEPTH_OFFSET;
const MAX_STORED_DEPTH: i32 = (1 << DEPTH_BITS) - 1 - DEPTH_OFFSET;
/// A same-generation entry this many plies deeper than the new one survives a non-Exact store
/// (the seed's "depth + 4" guard against a shallow result replacing a deep one).
const DEEPER_GUARD: i32 = 4;

/// The `eval` of an entry that does not keep one (the dense layout's, `tt_dense.rs`): no
/// evaluation is this low (they are clamped well inside the mate bounds).
pub const NO_EVAL: i16 = i16::MIN;

/// What a stored score means relative to the window it was searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is an upper bound (no move beat alpha).
    Upper = 1,
    /// The score is a lower bound (a move failed high).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    /// What a node's result is, given its window: a lower bound when it failed high (`best ≥
    /// beta`), exact when it raised alpha, else an upper bound (no move beat alpha).
    pub fn of_result(best: i32, original_alpha: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One position's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found, if any. Must be checked for legality before use.
    pub mv: Option<Move>,
    /// Score, node-relative for mates (see [`score_to_tt`]).
    pub score: i16,
    /// Static evaluation of the position ([`NO_EVAL`] when the table did not keep it).
    pub eval: i16,
    /// Search depth (quiescence: 0 or below).
    pub depth: i8,
    /// How to read `score`.
    pub bound: Bound,
}

impl TtEntry {
    /// The static evaluation the table kept, if it kept one (the dense layout does not).
    pub fn stored_eval(&self) -> Option<i32> {
        (self.eval != NO_EVAL).then_some(i32::from(self.eval))
    }
}

/// Packs a move in 15 bits: from (6), to (6), promotion (3: 0 none, 1 knight … 4 queen).
pub fn pack_move(mv: Option<Move>) -> u64 {
    let Some(mv) = mv else { return 0 };
    let promotion = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        // Only knight..queen are legal promotions; anything else is stored as a queen and
        // rejected later by the legality check.
        Some(_) => 4,
    };
    mv.from as u64 | (mv.to as u64) << 6 | promotion << 12
}

/// Inverse of [`pack_move`] (any 15-bit pattern decodes to some move or `None`).
pub fn unpack_move(bits: u64) -> Option<Move> {
    let bits = bits & 0x7FFF;
    if bits == 0 {
        return None;
    }
    let promotion = match (bits >> 12) & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        _ => Some(Piece::Queen),
    };
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion,
    })
}

impl Pack64 for TtEntry {
    const BITS: u32 = 56;

    fn pack(self) -> u64 {
        let depth =
            (i32::from(self.depth).clamp(MIN_DEPTH, MAX_STORED_DEPTH) + DEPTH_OFFSET) as u64;
        pack_move(self.mv)
            | u64::from(self.score as u16) << 15
            | u64::from(self.eval as u16) << 31
            | depth << 47
            | (self.bound as u64) << 54
    }

    fn unpack(bits: u64) -> Self {
        let bound = match (bits >> 54) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        TtEntry {
            mv: unpack_move(bits),
            score: (bits >> 15) as u16 as i16,
            eval: (bits >> 31) as u16 as i16,
            depth: (((bits >> 47) & 0x7F) as i32 - DEPTH_OFFSET) as i8,
            bound,
        }
    }

    fn depth(&self) -> i32 {
        self.depth.into()
    }

    /// Keep the old move when the new entry has none; keep a much deeper entry of this
    /// generation unless the new one is Exact.
    fn merge(mut self, old: Self, age: u8) -> Option<Self> {
        if age == 0
            && self.bound != Bound::Exact
            && i32::from(self.depth) + DEEPER_GUARD < old.depth.into()
        {
            return None;
        }
        if self.mv.is_none() {
            self.mv = old.mv;
        }
        Some(self)
    }
}

/// Ply-relative (distance from the root) → node-relative (distance from this node), for storing.
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    let s = if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// Node-relative → ply-relative, for a probe at `ply`.
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let (s, ply) = (i32::from(score), ply as i32);
    if s > MATE_BOUND {
        s - ply
    } else if s < -MATE_BOUND {
        s + ply
    } else {
        s
    }
}

/// Whether a stored entry decides this node without searching it (non-PV nodes only).
pub fn cuts_off(entry: &TtEntry, score: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    i32::from(entry.depth) >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
}

/// The stored move, if it is legal here: a key collision (or a torn racing write the table could
/// not tell apart) must never make the engine play an illegal move or corrupt its board.
pub fn legal_move(entry: &TtEntry, board: &Board) -> Option<Move> {
    entry.mv.filter(|&mv| board.is_legal(mv))
}

/// How the table is built: the engine's `Hash`, `TTSlots` and `HugePages` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableConfig {
    /// MiB; 0 means no table at all (for measuring what the table buys).
    pub mib: usize,
    /// Buckets of four or one slot per key.
    pub slots: Slots,
    /// Ask for transparent huge pages.
    pub huge_pages: bool,
    /// Wide (`SearchCache`) or dense (`DenseCache`) entries: the `TTLayout` option.
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
}

/// The table itself, in one layout or the other.
enum Cache {
    Wide(SearchCache<TtEntry>),
    Dense(DenseCache<DenseEntry>),
}

/// `$body` with `$c` bound to the table, whichever its layout.
macro_rules! either {
    ($cache:expr, $c:ident => $body:expr) => {
        match $cache {
            Cache::Wide($c) => $body,
            Cache::Dense($c) => $body,
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

/// The engine's table: a `SearchCache` of [`TtEntry`] or a `DenseCache` of [`DenseEntry`], or
/// nothing when `Hash` is 0.
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
        }
    }

    /// Stores an entry for `key` (merge rules in [`TtEntry::merge`]).
    #[inline]
    pub fn store(&self, key: u64, entry: TtEntry) {
        #[cfg(feature = "trace")]
        crate::trace::record(crate::trace::Op::Store, key, entry.depth);
        match &self.cache {
            Some(Cache::Wide(c)) => c.store(key, entry),
            Some(Cache::Dense(c)) => c.store(key, DenseEntry(entry)),
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
