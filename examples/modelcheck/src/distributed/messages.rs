//! What the workers send each other besides successors (those travel in [`super::parcel::Parcel`]s),
//! serialized by timely (bincode) when it crosses processes.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A worker's totals so far, sent with every level's summary.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct Totals {
    /// States this worker owns (stored as new).
    pub states: u64,
    /// Transitions of the states it expanded.
    pub transitions: u64,
    /// Successors it received (its own included) and looked up in its set.
    pub looked_up: u64,
    /// Transitions of the levels it expanded completely (an interrupt may stop one midway).
    pub transitions_done: u64,
    /// Bytes of its trace links.
    pub trace_bytes: u64,
    /// Bytes this process wrote to its peers (filled by the process's first worker only).
    pub bytes_sent: u64,
    /// Bytes this process read from its peers (filled by the process's first worker only).
    pub bytes_received: u64,
    /// Successors it sent to other workers.
    pub successors_sent: u64,
    /// Successors for other workers it dropped as sent before ([`super::sent::SentFilter`]).
    pub successors_dropped: u64,
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
    /// Its visited storage is full.
    pub full: Option<WireFull>,
    /// Its process was asked to stop (SIGINT, SIGTERM).
    pub interrupted: bool,
    /// Its process's `--checkpoint-every` has passed since its last checkpoint.
    pub checkpoint_due: bool,
    /// It cannot go on for another reason.
    pub error: Option<String>,
    /// Its totals.
    pub totals: Totals,
}

/// A full set's figures ([`crate::visited::TableFull`] without the mode and level, which the
/// receivers know).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct WireFull {
    /// Slots of the set, or the states the exact set may hold.
    pub capacity: u64,
    /// Bytes per slot, or the exact set's bytes per state.
    pub bytes_per_state: u64,
    /// The set's load when it filled.
    pub load: f64,
}

/// One worker's visited storage after the run ([`crate::visited::Storage`] without the mode
/// and the omission figure's name, which every worker shares).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct WireStorage {
    /// The sender.
    pub worker: u16,
    /// Bytes of its table.
    pub table_bytes: u64,
    /// Slots, bits or buckets.
    pub slots: u64,
    /// States stored.
    pub stored: u64,
    /// Bytes per stored state.
    pub bytes_per_state: f64,
    /// Stored over slots, or bits set over bits.
    pub fill: f64,
    /// Its omission bound.
    pub omission: f64,
    /// Bitstate's expected fraction of reached states missed.
    pub reached_missed: Option<f64>,
    /// TLC's optimistic figure (fp64).
    pub tlc_optimistic: Option<f64>,
    /// The peak resident memory of the sender's process (Linux's `VmHWM`), when known.
    pub peak_resident_bytes: Option<u64>,
}

/// Control traffic: level summaries (to every worker), and the trace links asked for when a
/// counterexample is rebuilt (from the link's owner to every worker).
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(bound = "S: Serialize + DeserializeOwned")]
pub enum Control<S> {
    /// A level's summary.
    Summary(Summary<S>),
    /// A worker's storage figures, once the search has stopped.
    Storage(WireStorage),
    /// Once the search has stopped, to an owner: how many successors for it the sender
    /// neither sent nor inserted (its filter's drops, steps back to the state itself); the
    /// owner counts them among the successors it looked up, as one process would.
    Dropped(u64),
    /// A waiting worker is alive ([`super::watchdog`]); it asks for nothing.
    Heartbeat,
    /// Whether the sender wrote its checkpoint part (each part is kept only if all were).
    Written(bool),
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
