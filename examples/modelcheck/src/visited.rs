//! Where the checker remembers which states it has seen, behind one small interface: full
//! states (`exact`), 64-bit fingerprints, 32-bit compacted signatures, or a bitstate bit array.

use searchcache::{
    omission, Bitstate, CompactSet, FingerprintSet, Full, Inserted, Size, StateHash,
};
use std::collections::HashSet;
use std::fmt;
use std::hash::Hash;
use std::sync::Mutex;

/// How states are remembered (the `value` attributes are the `--mode` help).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// 64-bit fingerprints, 8 bytes per slot (the default).
    #[value(help = "64-bit fingerprints, 8 bytes per slot (the default)")]
    Fp64,
    /// 32-bit compacted signatures, 4 bytes per slot.
    #[value(help = "32-bit compacted signatures, 4 bytes per slot")]
    Fp32,
    /// SPIN-style supertrace: k bits set per state in a bit array; may miss states.
    #[value(
        help = "SPIN's supertrace: a bit array; each state sets k bits, one per hash \
                    function (k = 3 unless --hashes); may miss states"
    )]
    Bitstate,
    /// Full states in a hash set: no omission, most memory.
    #[value(help = "full states in a hash set: no omission, most memory")]
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

/// Full states, in 64 mutex-guarded shards picked by the state's index hash (64 shards keep
/// two threads from queueing on one lock).
pub struct ExactSet<S> {
    shards: Vec<Mutex<HashSet<S, ahash::RandomState>>>,
    /// States one shard may hold within `--memory` (so a huge model stops with a message
    /// instead of exhausting the machine's memory).
    per_shard: usize,
    memory_bytes: usize,
}

const SHARDS: usize = 64;

impl<S: Hash + Eq> ExactSet<S> {
    fn new(memory_bytes: usize) -> Self {
        ExactSet {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(HashSet::with_hasher(ahash::RandomState::new())))
                .collect(),
            per_shard: memory_bytes / Self::bytes_per_state() / SHARDS,
            memory_bytes,
        }
    }

    /// hashbrown's cost of a state: the state and a control byte per bucket, buckets at most
    /// 7/8 full, and up to twice that while a shard grows.
    fn bytes_per_state() -> usize {
        (std::mem::size_of::<S>() + 1) * 8 / 7 * 2
    }

    fn insert(&self, state: &S, key: StateHash) -> Result<bool, TableFull>
    where
        S: Clone,
    {
        let shard = &self.shards[(key.index >> 58) as usize % SHARDS];
        // A poisoned shard means another worker panicked; its set is still consistent.
        let mut set = shard.lock().unwrap_or_else(|e| e.into_inner());
        if set.len() >= self.per_shard && !set.contains(state) {
            let states = self.per_shard * SHARDS;
            return Err(TableFull(format!(
                "the exact set is full: about {states} states fit in --memory {} MiB at about {} \
                 bytes per state. Run again with a larger --memory (twice the states: {} MiB), \
                 or with --mode fp64 (8 bytes per state)",
                self.memory_bytes >> 20,
                Self::bytes_per_state(),
                (2 * states * Self::bytes_per_state()).div_ceil(1 << 20)
            )));
        }
        Ok(set.insert(state.clone()))
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
    /// `--mode fp64`: searchcache's `FingerprintSet`.
    Fp64(FingerprintSet),
    /// `--mode fp32`: searchcache's `CompactSet`.
    Fp32(CompactSet),
    /// `--mode bitstate`: searchcache's `Bitstate` (SPIN's default is 3 hash functions).
    Bitstate(Bitstate),
    /// `--mode exact`.
    Exact(ExactSet<S>),
}

fn full_message(full: Full) -> TableFull {
    TableFull(format!(
        "{full}. Run again with --memory {} (MiB) or more.",
        full.bytes_for(full.states().saturating_mul(2))
            .div_ceil(1 << 20)
    ))
}

impl<S: Hash + Eq + Clone> Visited<S> {
    /// Storage for `mode` in at most `memory_bytes` (the exact mode grows up to about that);
    /// `hashes` is the bitstate mode's k.
    pub fn new(mode: Mode, memory_bytes: usize, hashes: u32) -> Result<Self, String> {
        let size = Size::Bytes(memory_bytes);
        let error = |e: searchcache::Error| format!("cannot build the visited storage: {e}");
        Ok(match mode {
            Mode::Fp64 => Visited::Fp64(FingerprintSet::new(size).map_err(error)?),
            Mode::Fp32 => Visited::Fp32(CompactSet::new(size).map_err(error)?),
            Mode::Bitstate => Visited::Bitstate(Bitstate::new(size, hashes).map_err(error)?),
            Mode::Exact => Visited::Exact(ExactSet::new(memory_bytes)),
        })
    }

    /// The state's two 64-bit hashes (index and signature), computed once per successor.
    #[inline]
    pub fn key(&self, state: &S) -> StateHash {
        StateHash::of(state)
    }

    /// Starts loading the memory `insert(_, key)` will touch.
    #[inline]
    pub fn prefetch(&self, key: StateHash) {
        match self {
            Visited::Fp64(set) => set.prefetch(key),
            Visited::Fp32(set) => set.prefetch(key),
            Visited::Bitstate(bits) => bits.prefetch(key),
            Visited::Exact(_) => {}
        }
    }

    /// Records `state` (whose [`key`](Self::key) is `key`): `Ok(true)` when it was not seen
    /// before. With fingerprints a new state can be taken for a seen one (an omission, bounded
    /// by [`Visited::omission`]); a seen state is never reported new.
    #[inline]
    pub fn insert(&self, state: &S, key: StateHash) -> Result<bool, TableFull> {
        match self {
            Visited::Fp64(set) => set.insert(key).map(Inserted::is_new).map_err(full_message),
            Visited::Fp32(set) => set.insert(key).map(Inserted::is_new).map_err(full_message),
            Visited::Bitstate(bits) => Ok(bits.insert(key).is_new()),
            Visited::Exact(set) => set.insert(state, key),
        }
    }

    /// Bits stored per state: the signature width, bitstate's k bits, or the full state.
    pub fn slot_bits(&self) -> usize {
        match self {
            Visited::Fp64(_) => 64,
            Visited::Fp32(_) => 32,
            Visited::Bitstate(bits) => bits.hashes() as usize,
            Visited::Exact(_) => 8 * std::mem::size_of::<S>(),
        }
    }

    /// Whether two threads inserting one state may both be told it is new (bitstate: its k
    /// bits are set by separate atomic operations).
    pub fn may_report_new_twice(&self) -> bool {
        matches!(self, Visited::Bitstate(_))
    }

    /// Stored states / slots, for the compacted modes.
    pub fn load_factor(&self) -> Option<f64> {
        match self {
            Visited::Fp64(set) => Some(set.load_factor()),
            Visited::Fp32(set) => Some(set.load_factor()),
            Visited::Bitstate(_) | Visited::Exact(_) => None,
        }
    }

    /// Bytes the storage holds now (the whole table for the compacted modes).
    pub fn memory_bytes(&self) -> usize {
        match self {
            Visited::Fp64(set) => set.memory_bytes(),
            Visited::Fp32(set) => set.memory_bytes(),
            Visited::Bitstate(bits) => bits.memory_bytes(),
            Visited::Exact(set) => set.memory_bytes(),
        }
    }

    /// The omission bound of this run, after it (`generated`: transitions explored).
    pub fn omission(&self, generated: u64) -> Omission {
        match self {
            Visited::Fp64(set) => Omission {
                name: "P(any state omitted), Stern-Dill with the signature comparisons made",
                value: set.omission_probability(),
            },
            Visited::Fp32(set) => Omission {
                name: "P(any state omitted), Stern-Dill with the signature comparisons made",
                value: set.omission_probability(),
            },
            Visited::Bitstate(bits) => Omission {
                name: "expected fraction of states missed, Bloom filter estimate",
                value: bits.expected_miss_fraction(),
            },
            Visited::Exact(_) => {
                let _ = generated;
                Omission {
                    name: "none: full states are compared",
                    value: 0.0,
                }
            }
        }
    }

    /// TLC's "optimistic" figure n·(g − n)/2^64 for 64-bit fingerprints, for users comparing with
    /// TLC's output; `None` for the other modes.
    pub fn tlc_optimistic(&self, states: usize, generated: u64) -> Option<f64> {
        match self {
            Visited::Fp64(_) => Some(omission::tlc_optimistic(states as u64, generated)),
            _ => None,
        }
    }
}
