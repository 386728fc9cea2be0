//! Where the component search keeps its one number per product state, its depth-first index:
//! searchcache's visited map (a signature and the index in one 64-bit word) in the compacted
//! modes, or a hash map of full product states in the exact mode. Both take inserts from several
//! threads at once (`insert_new`: the map's compare-and-swap, the exact map's lock), for the
//! index graph's parallel breadth-first search (`graph.rs`).

use super::monitor::Product;
use crate::visited::{Mode, Omission, NEGLIGIBLE_OMISSION};
use searchcache::{Inserted, Size, StateHash, VisitedMap};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

/// The payload of a state queued as a later root but not yet given an index.
pub(crate) fn pending(payload_bits: u32) -> u32 {
    if payload_bits >= 32 {
        u32::MAX
    } else {
        (1 << payload_bits) - 1
    }
}

/// The product states' indices.
pub(crate) enum Store<S> {
    /// A signature and the index per state.
    Map(VisitedMap, u32),
    /// Full product states, at most `.1` of them.
    Exact(Mutex<ExactMap<S>>, usize),
}

/// The exact store's map from full product states to their payloads.
pub(crate) type ExactMap<S> = HashMap<Product<S>, u32, ahash::RandomState>;

/// The store has no room for another state.
#[derive(Clone, Debug, PartialEq)]
pub struct LivenessFull {
    /// Product states stored when it filled.
    pub states: u64,
    /// Its size limit in bytes ([`crate::Options::memory_bytes`]).
    pub memory_bytes: usize,
}

/// What the store can say after a liveness run.
#[derive(Clone, Debug)]
pub struct LivenessStorage {
    /// Whether full product states were compared (the exact mode): then no state was missed.
    pub exact: bool,
    /// Bytes of the table (the whole `memory_bytes` for the map: untouched pages cost nothing).
    pub table_bytes: usize,
    /// Product states stored.
    pub stored: u64,
    /// Bytes a stored state costs: the map's 8-byte word (signature and index), or the exact
    /// map's entry.
    pub bytes_per_state: f64,
    /// Bits of each state's signature in the map (0 in the exact mode).
    pub signature_bits: u32,
    /// An upper bound on the probability that a state was taken for another one.
    pub omission: Omission,
}

impl LivenessStorage {
    /// Whether a "holds" verdict may be wrong because of the storage: the bound is above
    /// [`NEGLIGIBLE_OMISSION`] (never in the exact mode). A violation never is: it is replayed.
    pub fn partial(&self) -> bool {
        !self.exact && self.omission.value > NEGLIGIBLE_OMISSION
    }
}

/// Bytes per entry of the exact store: the product state, its index, hashbrown's control byte,
/// at 7/8 load, doubled while it grows.
fn exact_entry_bytes<S>() -> usize {
    (std::mem::size_of::<Product<S>>() + 5) * 8 / 7 * 2
}

/// Bytes of liveness storage in `mode` that hold every product state of a model with `states`
/// states (two per state at most: the monitor's bit), with room to spare: the map's 8-byte
/// words at most 3/4 full, or the exact store's entries; at least 1 MiB. What a run sized by a
/// safety run's count passes as [`crate::Options::memory_bytes`], so that it does not fill.
pub fn liveness_memory<S>(mode: Mode, states: u64) -> usize {
    let products = states.saturating_mul(2).saturating_add(16);
    let bytes = match mode {
        Mode::Exact => products.saturating_mul(exact_entry_bytes::<S>() as u64),
        _ => products.saturating_mul(8).saturating_mul(4) / 3,
    };
    usize::try_from(bytes).unwrap_or(usize::MAX).max(1 << 20)
}

impl<S: Hash + Eq + Clone> Store<S> {
    /// A store for `mode` in `memory_bytes`: a map whose payload holds any index below its
    /// slot count, and the pending mark.
    pub(crate) fn new(mode: Mode, memory_bytes: usize) -> Result<Self, String> {
        if mode == Mode::Exact {
            let most = memory_bytes / exact_entry_bytes::<S>();
            let map = HashMap::with_hasher(ahash::RandomState::new());
            return Ok(Store::Exact(Mutex::new(map), most));
        }
        // The payload holds any index below the states the map takes at its load limit, and
        // the pending mark: each bit more would halve the signature's width. (A map that takes
        // more states than that stops the search as full.)
        let slots = (memory_bytes / 8).max(2) as f64;
        let most = (slots * searchcache::consts::MAX_LOAD) as u64 + 2;
        let bits = (64 - most.leading_zeros()).clamp(1, 32);
        let map = VisitedMap::new(Size::Bytes(memory_bytes), bits)
            .map_err(|e| format!("cannot build the liveness map: {e}"))?;
        Ok(Store::Map(map, bits))
    }

    /// The largest index the store can hold, plus one: the pending mark.
    pub(crate) fn pending(&self) -> u32 {
        match self {
            Store::Map(_, bits) => pending(*bits),
            Store::Exact(..) => u32::MAX,
        }
    }

    /// Starts loading the line of the state whose hash is `key` into the cache (the map's hint;
    /// nothing for the exact map, whose slot the hash alone does not give).
    #[inline]
    pub(crate) fn prefetch(&self, key: StateHash) {
        if let Store::Map(map, _) = self {
            map.prefetch(key);
        }
    }

    /// The payload of `state` (whose hash is `key`), if stored.
    pub(crate) fn get(&self, state: &Product<S>, key: StateHash) -> Option<u32> {
        match self {
            Store::Map(map, _) => map.get(key),
            Store::Exact(map, _) => lock(map).get(state).copied(),
        }
    }

    /// The index of `state`, if it has one (not pending).
    pub(crate) fn index_of(&self, state: &Product<S>) -> Option<u32> {
        self.get(state, StateHash::of(state))
            .filter(|&i| i != self.pending())
    }

    /// Sets the payload of `state` to `value`, inserting it if absent.
    pub(crate) fn set(
        &mut self,
        state: &Product<S>,
        key: StateHash,
        value: u32,
    ) -> Result<(), LivenessFull> {
        let memory_bytes = self.memory_bytes();
        let full = |states: usize| LivenessFull {
            states: states as u64,
            memory_bytes,
        };
        match self {
            Store::Map(map, _) => match map.insert(key, value) {
                Ok((_, held)) if held == value => Ok(()),
                Ok(_) => {
                    // Present with another payload (pending, or a signature shared with
                    // another state): this state's index replaces it.
                    let _ = map.fetch_update(key, |_| Some(value));
                    Ok(())
                }
                Err(_) => Err(full(map.len())),
            },
            Store::Exact(map, most) => {
                let map = map.get_mut().unwrap_or_else(PoisonError::into_inner);
                if map.len() >= *most && !map.contains_key(state) {
                    return Err(full(map.len()));
                }
                map.insert(state.clone(), value);
                Ok(())
            }
        }
    }

    /// Inserts `state` (whose hash is `key`) with payload `value` unless it is stored:
    /// `(true, value)` when this call inserted it, `(false, its payload)` when it was there
    /// (or, in the map, a state of the same signature). Of several threads inserting one state
    /// at once, exactly one gets `true`.
    pub(crate) fn insert_new(
        &self,
        state: &Product<S>,
        key: StateHash,
        value: u32,
    ) -> Result<(bool, u32), LivenessFull> {
        let full = |states: usize| LivenessFull {
            states: states as u64,
            memory_bytes: self.memory_bytes(),
        };
        match self {
            Store::Map(map, _) => match map.insert(key, value) {
                Ok((inserted, held)) => Ok((inserted == Inserted::New, held)),
                Err(_) => Err(full(map.len())),
            },
            Store::Exact(map, most) => {
                let mut map = lock(map);
                if let Some(&held) = map.get(state) {
                    return Ok((false, held));
                }
                if map.len() >= *most {
                    return Err(full(map.len()));
                }
                map.insert(state.clone(), value);
                Ok((true, value))
            }
        }
    }

    /// The size limit it was built with (the map's table; the exact store's cap).
    pub(crate) fn memory_bytes(&self) -> usize {
        match self {
            Store::Map(map, _) => map.memory_bytes(),
            Store::Exact(_, most) => most * exact_entry_bytes::<S>(),
        }
    }

    /// Its figures after the run.
    pub(crate) fn storage(&self) -> LivenessStorage {
        match self {
            Store::Map(map, bits) => LivenessStorage {
                exact: false,
                table_bytes: map.memory_bytes(),
                stored: map.len() as u64,
                bytes_per_state: map.memory_bytes() as f64 / map.capacity().max(1) as f64,
                signature_bits: 64 - bits,
                omission: Omission {
                    name: "the visited map's bound with this run's signature comparisons",
                    value: map.omission_probability(),
                },
            },
            Store::Exact(map, _) => {
                let map = lock(map);
                LivenessStorage {
                    exact: true,
                    table_bytes: map.capacity() * 8 / 7 * (std::mem::size_of::<Product<S>>() + 5),
                    stored: map.len() as u64,
                    bytes_per_state: exact_entry_bytes::<S>() as f64 / 2.0,
                    signature_bits: 0,
                    omission: Omission {
                        name: "none: full states are compared",
                        value: 0.0,
                    },
                }
            }
        }
    }
}

/// The exact map, also after a thread panicked holding it (its entries stay valid: each insert
/// is one call).
fn lock<S>(map: &Mutex<ExactMap<S>>) -> std::sync::MutexGuard<'_, ExactMap<S>> {
    map.lock().unwrap_or_else(PoisonError::into_inner)
}
