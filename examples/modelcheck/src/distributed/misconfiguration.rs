//! A cluster set up wrongly, in numbers: what the caller asked for or what a peer said, never
//! the flag that set it (the `modelcheck` binary words it as its flags).

use std::fmt;
use std::path::PathBuf;

/// Why the processes of a cluster cannot run together: a usage error, found before the search
/// (in [`Cluster::validate`](super::Cluster::validate), the hostfile, or a peer's hello).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Misconfiguration {
    /// The hostfile at `path` lists `listed` addresses, not one per process.
    HostfileCount {
        /// The hostfile.
        path: PathBuf,
        /// The addresses it lists.
        listed: usize,
        /// The processes of the run.
        processes: usize,
    },
    /// This process's index is not below the number of processes.
    ProcessOutOfRange {
        /// This process's index.
        process: usize,
        /// The processes of the run.
        processes: usize,
    },
    /// The filter of successors sent has more slots than the most allowed.
    SentFilterTooLarge {
        /// The slots asked for.
        slots: usize,
        /// The most allowed ([`MAX_SENT_FILTER_SLOTS`](super::MAX_SENT_FILTER_SLOTS)).
        max: usize,
    },
    /// A peer counts another number of processes in the run.
    ProcessCount {
        /// The peer's index.
        peer: usize,
        /// Its count.
        theirs: usize,
        /// This process's count.
        ours: usize,
    },
    /// A peer runs another number of workers.
    Workers {
        /// The peer's index.
        peer: usize,
        /// Its workers.
        theirs: usize,
        /// This process's workers.
        ours: usize,
    },
    /// Two processes say they have the same index.
    SameProcess {
        /// The index both claim.
        peer: usize,
    },
}

impl fmt::Display for Misconfiguration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Misconfiguration::HostfileCount {
                path,
                listed,
                processes,
            } => write!(
                f,
                "the hostfile {} lists {listed} addresses for {processes} processes",
                path.display()
            ),
            Misconfiguration::ProcessOutOfRange { process, processes } => write!(
                f,
                "process {process} is out of range: the processes are 0 to {}",
                processes.saturating_sub(1)
            ),
            Misconfiguration::SentFilterTooLarge { slots, max } => {
                write!(f, "a sent filter of {slots} slots: at most {max}")
            }
            Misconfiguration::ProcessCount { peer, theirs, ours } => write!(
                f,
                "process {peer} counts {theirs} processes in the run, this one {ours}"
            ),
            Misconfiguration::Workers { peer, theirs, ours } => {
                write!(f, "process {peer} runs {theirs} workers, this one {ours}")
            }
            Misconfiguration::SameProcess { peer } => {
                write!(f, "two processes say they are process {peer}")
            }
        }
    }
}
