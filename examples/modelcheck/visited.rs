//! Where the checker remembers which states it has seen, behind one small interface: full
//! states (`exact`), 64-bit fingerprints, 32-bit compacted signatures, or a bitstate bit array.

use std::collections::HashSet;
use std::fmt;
use std::hash::Hash;
use std::sync::Mutex;

/// How states are remembered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// 64-bit fingerprints, 8 bytes per slot (the default).
    Fp64,
    /// 32-bit compacted signatures, 4 bytes per slot.
    Fp32,
    /// SPIN-style supertrace: k bits per state in a bit array; may miss states.
    Bitstate,
    /// Full states in a hash set: no omission, most memory.
    Exact,
}

impl Mode {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Fp64 => "fp64",
            Mode::Fp32 => "fp32",
            Mode::Bitstate => "bitstate",
            Mode::Exact => "exact",
        }
    }

    /// Parses a command-line name.
    pub fn parse(name: &str) -> Option<Mode> {
        [Mode::Fp64, Mode::Fp32, Mode::Bitstate, Mode::Exact]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// The visited storage ran out of room: what it held and what it needs.
#[derive(Clone, Debug)]
pub struct TableFull(pub String);

impl fmt::Display for TableFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The chance that the search missed a reachable state because of the storage, as a named
/// figure (each mode has its own formula).
#[derive(Clone, Copy, Debug)]
pub struct Omission {
    /// Which bound this is.
    pub name: &'static str,
    /// The bound (a probability, or an expected fraction for bitstate).
    pub value: f64,
}

/// Full states, in 64 mutex-guarded shards picked by hash (64 shards keep two threads from
/// queueing on one lock; a single mutex serialized 2 threads to below 1-thread speed).
pub struct ExactSet<S> {
    shards: Vec<Mutex<HashSet<S, ahash::RandomState>>>,
    hasher: ahash::RandomState,
}

const SHARDS: usize = 64;

impl<S: Hash + Eq> ExactSet<S> {
    fn new() -> Self {
        let seeded = || ahash::RandomState::with_seeds(1, 2, 3, 4);
        ExactSet {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(HashSet::with_hasher(seeded())))
                .collect(),
            hasher: seeded(),
        }
    }

    fn insert(&self, state: &S) -> bool
    where
        S: Clone,
    {
        let h = self.hasher.hash_one(state);
        let shard = &self.shards[(h >> 58) as usize % SHARDS];
        // A poisoned shard means another worker panicked; its set is still consistent.
        let mut set = shard.lock().unwrap_or_else(|e| e.into_inner());
        set.insert(state.clone())
    }

    fn memory_bytes(&self) -> usize {
        // hashbrown: one slot of S plus one control byte per bucket.
        let per_slot = std::mem::size_of::<S>() + 1;
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).capacity() * 8 / 7 * per_slot)
            .sum()
    }
}

/// The visited storage of one run.
pub enum Visited<S> {
    /// `--mode exact`.
    Exact(ExactSet<S>),
}

impl<S: Hash + Eq + Clone> Visited<S> {
    /// Storage for `mode` in at most `memory_bytes` (fingerprint and bitstate modes; the exact
    /// mode grows as needed).
    pub fn new(mode: Mode, memory_bytes: usize) -> Result<Self, String> {
        let _ = memory_bytes;
        match mode {
            Mode::Exact => Ok(Visited::Exact(ExactSet::new())),
            other => Err(format!("mode {} is not available yet", other.name())),
        }
    }

    /// Records `state`: `Ok(true)` when it was not seen before. With fingerprints a new state
    /// can be taken for a seen one (an omission, bounded by [`Visited::omission`]); a seen
    /// state is never reported new.
    #[inline]
    pub fn insert(&self, state: &S) -> Result<bool, TableFull> {
        match self {
            Visited::Exact(set) => Ok(set.insert(state)),
        }
    }

    /// Bits stored per state slot (for exact: the full state's size).
    pub fn slot_bits(&self) -> usize {
        match self {
            Visited::Exact(_) => 8 * std::mem::size_of::<S>(),
        }
    }

    /// Bytes the storage holds now.
    pub fn memory_bytes(&self) -> usize {
        match self {
            Visited::Exact(set) => set.memory_bytes(),
        }
    }

    /// The omission bound for `states` distinct states stored and `generated` successors
    /// generated.
    pub fn omission(&self, states: usize, generated: u64) -> Omission {
        let _ = (states, generated);
        match self {
            Visited::Exact(_) => Omission {
                name: "none (full states)",
                value: 0.0,
            },
        }
    }
}
