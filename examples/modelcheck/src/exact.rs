//! The exact mode's set of full states, keyed by one 64-bit hash per state: the hash the search
//! computed for the state picks its shard and its bucket, so the set never hashes a state
//! again (not on insert, not when a shard grows), and a state is looked up and, when new,
//! inserted in one probe. A state is cloned into the set only when it is new.
//!
//! Two distinct states may have the same 64-bit hash: the table holds the first, and a side
//! map from the hash to the others holds the rest, so both are kept and counted (a collision
//! costs the side map's probe, once in about 2^64 / n states).
//!
//! Race policy: 64 shards, each behind its own mutex, picked by 6 bits of the hash (two
//! threads rarely queue on one lock).

use crate::state_hash::fixed_state_hasher;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Mutex, MutexGuard};

/// Shards of the set.
const SHARDS: usize = 64;

/// A hasher that passes a `u64` key through: the keys are hashes already.
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; any other input is folded in, never lost.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type ByHash<V> = HashMap<u64, V, BuildHasherDefault<Identity>>;

/// One shard: the first state of each hash, and the other states of hashes that collided.
struct Shard<S> {
    table: ByHash<S>,
    collided: ByHash<Vec<S>>,
    len: usize,
}

/// The set was at its limit when a new state came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactFull;

/// Full states in 64 mutex-guarded shards, keyed by a 64-bit hash of each state, holding at
/// most about `memory_bytes` (see [`ExactSet::bytes_per_state`]).
pub struct ExactSet<S> {
    shards: Vec<Mutex<Shard<S>>>,
    /// States one shard may hold within the memory limit.
    per_shard: usize,
    memory_bytes: usize,
    hasher: ahash::RandomState,
}

impl<S: Hash + Eq + Clone> ExactSet<S> {
    /// An empty set that holds at most about `memory_bytes` of states.
    pub fn new(memory_bytes: usize) -> Self {
        ExactSet {
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(Shard {
                        table: ByHash::default(),
                        collided: ByHash::default(),
                        len: 0,
                    })
                })
                .collect(),
            per_shard: memory_bytes / Self::bytes_per_state() / SHARDS,
            memory_bytes,
            hasher: fixed_state_hasher(),
        }
    }

    /// The state's 64-bit hash, the key [`insert`](Self::insert) expects for it.
    #[inline]
    pub fn hash(&self, state: &S) -> u64 {
        self.hasher.hash_one(state)
    }

    /// hashbrown's cost of a state: the hash, the state and a control byte per bucket, buckets
    /// at most 7/8 full, and up to twice that while a shard grows.
    pub fn bytes_per_state() -> usize {
        (std::mem::size_of::<(u64, S)>() + 1) * 8 / 7 * 2
    }

    /// The most states the set holds.
    pub fn capacity(&self) -> usize {
        self.per_shard * SHARDS
    }

    /// The memory limit it was made with.
    pub fn memory_limit(&self) -> usize {
        self.memory_bytes
    }

    fn shard(&self, hash: u64) -> MutexGuard<'_, Shard<S>> {
        // Bits 51 to 56: neither the bucket index (the low bits) nor hashbrown's tag (the top 7).
        let shard = &self.shards[(hash >> 51) as usize % SHARDS];
        // A poisoned shard means another worker panicked; its maps are still consistent.
        shard.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records `state`, whose hash is `hash` (the same for equal states; [`hash`](Self::hash)
    /// in a single process): `Ok(true)` when it was not in the set (it is cloned in),
    /// `Ok(false)` when it was. `Err` when it is new and its shard is at the limit.
    #[inline]
    pub fn insert(&self, state: &S, hash: u64) -> Result<bool, ExactFull> {
        let mut guard = self.shard(hash);
        let Shard {
            table,
            collided,
            len,
        } = &mut *guard;
        let full = *len >= self.per_shard;
        match table.entry(hash) {
            Entry::Occupied(first) if first.get() == state => Ok(false),
            Entry::Occupied(_) => {
                let others = collided.entry(hash).or_default();
                if others.contains(state) {
                    return Ok(false);
                }
                if full {
                    return Err(ExactFull);
                }
                others.push(state.clone());
                *len += 1;
                Ok(true)
            }
            Entry::Vacant(_) if full => Err(ExactFull),
            Entry::Vacant(slot) => {
                slot.insert(state.clone());
                *len += 1;
                Ok(true)
            }
        }
    }

    /// Bytes the set holds: every shard's buckets at hashbrown's cost, and the collided states.
    pub fn memory_bytes(&self) -> usize {
        let per_bucket = std::mem::size_of::<(u64, S)>() + 1;
        self.shards
            .iter()
            .map(|s| {
                let shard = s.lock().unwrap_or_else(|e| e.into_inner());
                let others: usize = shard.collided.values().map(Vec::len).sum();
                shard.table.capacity() * 8 / 7 * per_bucket + others * std::mem::size_of::<S>()
            })
            .sum()
    }

    /// States held and buckets (capacity at hashbrown's 7/8 load) over all shards.
    pub fn len_and_buckets(&self) -> (u64, usize) {
        self.shards.iter().fold((0, 0), |(n, b), s| {
            let shard = s.lock().unwrap_or_else(|e| e.into_inner());
            (n + shard.len as u64, b + shard.table.capacity() * 8 / 7)
        })
    }

    /// Calls `each` on every state, shard by shard; the first error stops it.
    pub fn try_for_each<E>(&self, mut each: impl FnMut(&S) -> Result<(), E>) -> Result<(), E> {
        for shard in &self.shards {
            let shard = shard.lock().unwrap_or_else(|e| e.into_inner());
            for state in shard
                .table
                .values()
                .chain(shard.collided.values().flatten())
            {
                each(state)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_states_forced_to_one_hash_are_both_kept_and_counted() {
        let set: ExactSet<String> = ExactSet::new(1 << 20);
        let (a, b, c) = ("a".to_string(), "b".to_string(), "c".to_string());
        assert_eq!(set.insert(&a, 7), Ok(true));
        assert_eq!(
            set.insert(&b, 7),
            Ok(true),
            "another state with the same hash"
        );
        assert_eq!(set.insert(&c, 7), Ok(true));
        for s in [&a, &b, &c] {
            assert_eq!(set.insert(s, 7), Ok(false), "{s} is found again");
        }
        assert_eq!(set.len_and_buckets().0, 3);
        let mut held = Vec::new();
        set.try_for_each(|s| {
            held.push(s.clone());
            Ok::<(), ()>(())
        })
        .unwrap();
        held.sort();
        assert_eq!(held, [a, b, c]);
    }

    #[test]
    fn a_full_shard_refuses_new_states_only() {
        // Room for one state per shard: 64 states at most.
        let set: ExactSet<u64> = ExactSet::new(SHARDS * ExactSet::<u64>::bytes_per_state());
        assert_eq!(set.capacity(), SHARDS);
        let hash = set.hash(&1);
        assert_eq!(set.insert(&1, hash), Ok(true));
        assert_eq!(
            set.insert(&1, hash),
            Ok(false),
            "a seen state is no new state"
        );
        assert_eq!(
            set.insert(&2, hash),
            Err(ExactFull),
            "a collision in a full shard"
        );
        // 2's own hash may land in another shard: a shard of the same hash is full.
        assert_eq!(set.insert(&3, hash), Err(ExactFull));
        assert_eq!(set.len_and_buckets().0, 1);
    }

    #[test]
    fn the_hash_is_the_same_in_every_set() {
        let (one, two) = (ExactSet::<u64>::new(1 << 20), ExactSet::<u64>::new(1 << 10));
        assert_eq!(one.hash(&42), two.hash(&42));
        // Distinct states spread over the shards and the buckets.
        let hashes: Vec<u64> = (0..4096u64).map(|i| one.hash(&i)).collect();
        let distinct: std::collections::HashSet<u64> = hashes.iter().copied().collect();
        assert_eq!(distinct.len(), hashes.len());
        let shards: std::collections::HashSet<u64> = hashes.iter().map(|h| h >> 51 & 63).collect();
        assert_eq!(shards.len(), SHARDS);
    }
}
