//! What the workers send each other, serialized by timely (bincode) when it crosses processes.

use searchcache::StateHash;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A successor on its way to its owner: the state, its portable hash (so the owner need not
/// hash it again), and its trace link (the parent's worker and index in its level, and the
/// step's position among the parent's successors).
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(bound = "S: Serialize + DeserializeOwned")]
pub struct Successor<S> {
    /// [`StateHash::index`] of the state's portable hash.
    pub index: u64,
    /// [`StateHash::signature`] of the state's portable hash.
    pub signature: u64,
    /// The state.
    pub state: S,
    /// The worker that owns the parent.
    pub parent_worker: u16,
    /// The parent's index in its owner's level.
    pub parent: u32,
    /// The step's position among the parent's successors.
    pub ordinal: u16,
}

impl<S> Successor<S> {
    /// The state's portable hash.
    pub fn hash(&self) -> StateHash {
        StateHash {
            index: self.index,
            signature: self.signature,
        }
    }
}

/// A worker's totals so far, sent with every level's summary.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct Totals {
    /// States this worker owns (stored as new).
    pub states: u64,
    /// Transitions of the states it expanded.
    pub transitions: u64,
    /// Successors it received (its own included) and looked up in its set.
    pub looked_up: u64,
    /// Bytes of its visited storage.
    pub storage_bytes: u64,
    /// Its set's load factor, for the compacted modes.
    pub load: Option<f64>,
    /// Its set's omission figure (see `Visited::omission`).
    pub omission: f64,
    /// TLC's optimistic figure for its set (fp64 only).
    pub tlc_optimistic: Option<f64>,
    /// Bytes of its trace links.
    pub trace_bytes: u64,
    /// Bytes this process wrote to its peers (filled by the process's first worker only).
    pub bytes_sent: u64,
    /// Bytes this process read from its peers (filled by the process's first worker only).
    pub bytes_received: u64,
}

/// A level's news from one worker.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(bound = "S: Serialize + DeserializeOwned")]
pub struct Summary<S> {
    /// The sender.
    pub worker: u16,
    /// The states it stored as new at this level.
    pub new_states: u64,
    /// A state without successors in the level it expanded: its index there, and the state.
    pub deadlock: Option<(u32, S)>,
    /// A new state of this level that violates an invariant: index, invariant, state.
    pub violation: Option<(u32, String, S)>,
    /// Its visited storage is full: the storage's message.
    pub full: Option<String>,
    /// It cannot go on for another reason.
    pub error: Option<String>,
    /// Its totals.
    pub totals: Totals,
}

/// Control traffic: level summaries (to every worker), and the trace links asked for when a
/// counterexample is rebuilt (from the link's owner to every worker).
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(bound = "S: Serialize + DeserializeOwned")]
pub enum Control<S> {
    /// A level's summary.
    Summary(Summary<S>),
    /// The link of one state: its parent's worker and index (at level 0: `u16::MAX` and the
    /// initial state's index), and its step's position.
    Link {
        /// The parent's owner.
        parent_worker: u16,
        /// The parent's index in its level.
        parent: u32,
        /// The step's position among the parent's successors.
        ordinal: u16,
    },
}
