//! One process's share of a distributed run, as its report shows it.

/// One process's share of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProcessStats {
    /// States its workers own.
    pub states: u64,
    /// Transitions of the states its workers expanded.
    pub transitions: u64,
    /// Successors its workers sent to other workers.
    pub successors_sent: u64,
    /// Successors for other workers that its workers dropped as sent before
    /// ([`super::sent::SentFilter`]); with `successors_sent`, every successor of another worker's.
    pub successors_dropped: u64,
    /// Bytes it wrote to its peers during the search (timely's frames: successors, summaries,
    /// progress messages), counted on its sockets.
    pub bytes_sent: u64,
    /// Bytes it read from its peers during the search.
    pub bytes_received: u64,
    /// The most states of one level it held (its part of the widest level).
    pub largest_frontier: u64,
    /// Bytes of its visited storage (its workers' sets).
    pub storage_bytes: u64,
    /// Its peak resident memory (Linux's `VmHWM`, read after the search), when known.
    pub peak_resident_bytes: Option<u64>,
}
