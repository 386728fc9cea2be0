//! The fp64 visited set of a single-process run: it starts small and grows, between BFS levels,
//! up to a cap ([`crate::Options::memory_bytes`]), so a small model pays for a small table and a
//! large one does not need a rerun with a larger `--memory`.
//!
//! A set can move into a larger table only when each slot says where it belongs there:
//! [`searchcache::VisitedSet::grow`] needs keys made by [`StateHash::from_u64`], one 64-bit hash
//! per state serving as index and signature (hashed once, where the fixed-size sets hash twice).
//! The price is the omission bound: two states are confused exactly when their 64-bit hashes
//! are equal, so the bound is the birthday figure `n(n − 1)/2^65` ([`omission::birthday`]), not
//! Stern and Dill's `E/2^64` over the comparisons made: 7.8 · 10^-8 for 1.7 M states, 2.7 · 10^-6
//! for 10 M; it passes [`crate::NEGLIGIBLE_OMISSION`] (10^-6) at 6.1 M states, beyond which an
//! fp64 run says it may be partial (the README has the trade).
//!
//! Race policy: the inserts of a level run under a shared read lock, taken once per chunk of
//! states (the lock's counter is not touched per insert); growing takes the write lock, between
//! levels, when no worker runs. A worker whose insert finds the table full keeps the state
//! aside; the search grows the table at the end of the level and inserts those states then.

use crate::state_hash::fixed_state_hasher;
use searchcache::{omission, FingerprintSet, Size, StateHash};
use std::hash::Hash;
use std::sync::{RwLock, RwLockReadGuard};

/// The first table of a growing set: 1 MiB, 131,072 slots (a model whose states, with the next
/// level's projection, stay under half of them
/// never grows; the table is mapped lazily, so it costs the pages its states touch).
pub const FIRST_BYTES: usize = 1 << 20;

/// Each grow makes the table at least this many times larger: a model that fills its cap moves
/// each state about `1 / (FACTOR − 1)` times on average (a third of a move with 4).
const FACTOR: usize = 4;

/// The load a level boundary grows the table below, counting the next level's projected states:
/// well under the load at which a line walk starts to fail (0.75 to 0.9, see the crate's
/// `WALK_LINES`), so that grows happen between levels and rarely in one.
const TARGET_LOAD: f64 = 0.5;

/// A growing fp64 set: the table behind a lock and the most bytes it may take.
pub struct GrowingSet {
    set: RwLock<FingerprintSet>,
    cap: usize,
    hasher: ahash::RandomState,
}

impl GrowingSet {
    /// An empty set of [`FIRST_BYTES`] (or `cap`, if smaller) that grows up to `cap` bytes.
    pub fn new(cap: usize) -> Result<Self, searchcache::Error> {
        let set = FingerprintSet::new(Size::Bytes(FIRST_BYTES.min(cap)))?;
        Ok(Self::from_set(set, cap))
    }

    /// `set` (a loaded one, whose states came from [`GrowingSet::key`]) as a growing set.
    pub fn from_set(set: FingerprintSet, cap: usize) -> Self {
        GrowingSet {
            set: RwLock::new(set),
            cap,
            hasher: fixed_state_hasher(),
        }
    }

    /// The state's one 64-bit hash, as a key the table can grow with.
    #[inline]
    pub fn key<S: Hash>(&self, state: &S) -> StateHash {
        StateHash::from_u64(self.hasher.hash_one(state))
    }

    /// The table, for inserts: hold it for a chunk of work, not across a level boundary (a grow
    /// waits for every reader).
    pub fn read(&self) -> RwLockReadGuard<'_, FingerprintSet> {
        // A poisoned lock means a worker panicked; the set itself is still consistent.
        self.set.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The most bytes the table may take.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Whether the table can still grow (it is below its cap).
    pub fn can_grow(set: &FingerprintSet, cap: usize) -> bool {
        set.memory_bytes().saturating_mul(2) <= cap
    }

    /// Grows the table, if it can, so that `more` states beyond those it holds keep its load at
    /// most [`TARGET_LOAD`]: at least [`FACTOR`] times larger, at most the cap. `Ok(false)`
    /// when it did not need to; `Ok(true)` when it grew. Call with no reader active.
    pub fn grow_for(&self, more: u64) -> Result<bool, searchcache::Error> {
        let mut set = self.set.write().unwrap_or_else(|e| e.into_inner());
        let wanted = (set.len() as u64).saturating_add(more) as f64 / TARGET_LOAD;
        if wanted <= set.capacity() as f64 || !Self::can_grow(&set, self.cap) {
            return Ok(false);
        }
        let bytes = ((wanted * 8.0) as usize)
            .max(set.memory_bytes().saturating_mul(FACTOR))
            .next_power_of_two()
            .min(self.cap);
        set.grow(Size::Bytes(bytes))?;
        Ok(true)
    }

    /// The chance that the run confused two states: the birthday bound over the 64-bit hashes
    /// of the `stored` states.
    pub fn omission(stored: u64) -> f64 {
        omission::birthday(stored, 64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use searchcache::Inserted;

    #[test]
    fn grows_by_at_least_the_factor_up_to_the_cap_and_keeps_every_state() {
        let growing = GrowingSet::new(16 << 20).unwrap();
        assert_eq!(growing.read().memory_bytes(), FIRST_BYTES);
        let keys: Vec<StateHash> = (0..100_000u64).map(|i| growing.key(&i)).collect();
        for &k in &keys {
            assert_eq!(growing.read().insert(k), Ok(Inserted::New));
        }
        // 100,000 states in 131,072 slots is above the target load: one more state asks to grow.
        assert_eq!(growing.grow_for(1), Ok(true));
        assert_eq!(growing.read().memory_bytes(), 4 * FIRST_BYTES);
        assert_eq!(growing.grow_for(1), Ok(false), "below the target load now");
        // Room for 2 M more states would need 32 MiB: the cap of 16 MiB is the most it takes.
        assert_eq!(growing.grow_for(2_000_000), Ok(true));
        assert_eq!(growing.read().memory_bytes(), 16 << 20);
        assert_eq!(growing.grow_for(2_000_000), Ok(false), "at the cap");
        for &k in &keys {
            assert_eq!(growing.read().insert(k), Ok(Inserted::Present));
        }
        assert_eq!(growing.read().len(), 100_000);
    }

    #[test]
    fn a_cap_below_the_first_table_is_the_table() {
        let growing = GrowingSet::new(64 << 10).unwrap();
        assert_eq!(growing.read().memory_bytes(), 64 << 10);
        assert!(!GrowingSet::can_grow(&growing.read(), growing.cap()));
        assert_eq!(growing.grow_for(1 << 20), Ok(false));
    }

    #[test]
    fn the_omission_is_the_birthday_bound() {
        assert_eq!(GrowingSet::omission(0), 0.0);
        let n = 10_000_000f64;
        let expected = n * (n - 1.0) / 2f64.powi(65);
        assert!((GrowingSet::omission(10_000_000) - expected).abs() < 1e-15);
        // The module docs' figures: under 10^-6 (the checker's negligible bound, `visited.rs`,
        // which tests it against this) up to 6.1 M states, not beyond.
        assert!(GrowingSet::omission(6_000_000) < 1e-6);
        assert!(GrowingSet::omission(6_200_000) > 1e-6);
        assert!((GrowingSet::omission(1_700_000) - 7.8e-8).abs() < 0.1e-8);
        assert!((GrowingSet::omission(10_000_000) - 2.7e-6).abs() < 0.1e-6);
    }
}
