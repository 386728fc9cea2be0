//! The evaluation cache: the engine's second table, a `searchcache::SearchCache` of static
//! evaluations keyed by the board's hash, sized by the `EvalHash` option and shared by the
//! search threads beside the transposition table.
//!
//! The transposition table keeps a position's eval too, but only while it keeps the position's
//! entry; this cache keeps evals the table has lost or never stored. A hit returns exactly what
//! [`evaluate`] returns for the position: the table's 64-bit key check makes a wrong value as
//! likely as a 64-bit hash collision, and the evaluation depends on nothing the hash leaves out
//! (the move clocks play no part in it).

use crate::eval::evaluate;
use cozy_chess::Board;
use searchcache::{HugePages, Keys, Options, Pack64, SearchCache, Size};

/// One cached static evaluation, centipawns from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CachedEval(pub i16);

impl Pack64 for CachedEval {
    const BITS: u32 = 16;

    fn pack(self) -> u64 {
        u64::from(self.0 as u16)
    }

    fn unpack(bits: u64) -> Self {
        CachedEval(bits as u16 as i16)
    }
    // `depth` stays 0 and the engine never starts a new generation of this table: every eval is
    // worth the same for good (an eval does not go stale), and a full bucket gives up whichever
    // entry the crate's replacement rule picks among equals.
}

/// The evaluation cache, or nothing when its size is 0 (`EvalHash 0`).
pub struct EvalCache {
    cache: Option<SearchCache<CachedEval>>,
    mib: usize,
}

impl EvalCache {
    /// A cache of `mib` MiB (0: none, every evaluation computed). Errors carry the crate's
    /// message.
    pub fn new(mib: usize) -> Result<Self, String> {
        Ok(EvalCache {
            cache: Self::build(mib)?,
            mib,
        })
    }

    /// No cache: every evaluation is computed (what self-play and traces use).
    pub fn off() -> Self {
        EvalCache {
            cache: None,
            mib: 0,
        }
    }

    fn build(mib: usize) -> Result<Option<SearchCache<CachedEval>>, String> {
        if mib == 0 {
            return Ok(None);
        }
        // Zobrist keys are random already; the cache is small, so no huge pages are asked for.
        let options = Options::default()
            .keys(Keys::Random)
            .huge_pages(HugePages::Never);
        let cache =
            SearchCache::with_options(Size::Mib(mib), options).map_err(|e| e.to_string())?;
        // Committed now, so that no search pays for the first store to each page.
        cache.prefault();
        Ok(Some(cache))
    }

    /// Rebuilds the cache at `mib` MiB, unless it already is that size; on error the old cache
    /// is kept.
    pub fn resize(&mut self, mib: usize) -> Result<(), String> {
        if mib != self.mib {
            self.cache = Self::build(mib)?;
            self.mib = mib;
        }
        Ok(())
    }

    /// The size in MiB (0: off).
    pub fn mib(&self) -> usize {
        self.mib
    }

    /// Whether there is a cache at all.
    pub fn is_on(&self) -> bool {
        self.cache.is_some()
    }

    /// The static evaluation of `board` ([`evaluate`]'s value, always), from the cache when it
    /// holds it, else computed and stored. The flag says whether it came from the cache.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> (i32, bool) {
        let Some(cache) = &self.cache else {
            return (evaluate(board), false);
        };
        let key = board.hash();
        if let Some(CachedEval(eval)) = cache.probe(key) {
            return (i32::from(eval), true);
        }
        let eval = evaluate(board);
        // Every eval fits an i16 (material and terms stay far below 32,767); one that did not
        // is simply not cached.
        if let Ok(small) = i16::try_from(eval) {
            cache.store(key, CachedEval(small));
        }
        (eval, false)
    }

    /// Empties the cache (`ucinewgame`, `Clear Hash`, each bench position), leaving its pages
    /// committed (the crate's `clear` gives a mapped table's pages back to the OS).
    pub fn clear(&self) {
        if let Some(cache) = &self.cache {
            cache.clear();
            cache.prefault();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 3] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 b - - 0 22",
    ];

    #[test]
    fn every_eval_round_trips() {
        for eval in [i16::MIN, -1, 0, 1, 12, i16::MAX] {
            assert_eq!(
                CachedEval::unpack(CachedEval(eval).pack()),
                CachedEval(eval)
            );
            assert!(CachedEval(eval).pack() < 1 << CachedEval::BITS);
        }
    }

    #[test]
    fn a_cached_eval_is_the_computed_one_and_a_second_call_hits() {
        let cache = EvalCache::new(1).unwrap();
        for fen in FENS {
            let board: Board = fen.parse().unwrap();
            assert_eq!(cache.evaluate(&board), (evaluate(&board), false));
            assert_eq!(cache.evaluate(&board), (evaluate(&board), true));
        }
        cache.clear();
        let board = Board::default();
        assert_eq!(cache.evaluate(&board), (evaluate(&board), false));
    }

    #[test]
    fn size_zero_is_no_cache_and_never_hits() {
        let mut cache = EvalCache::new(0).unwrap();
        assert!(!cache.is_on());
        let board = Board::default();
        assert_eq!(cache.evaluate(&board), (evaluate(&board), false));
        assert_eq!(cache.evaluate(&board), (evaluate(&board), false));
        cache.resize(2).unwrap();
        assert!(cache.is_on());
        assert_eq!(cache.mib(), 2);
        assert_eq!(cache.evaluate(&board), (evaluate(&board), false));
        assert_eq!(cache.evaluate(&board), (evaluate(&board), true));
    }
}
