//! What a search tells its caller while it runs: a completed level, a checkpoint written, a
//! warning. The library never prints; a caller that wants lines (the `modelcheck` binary's
//! stderr) implements [`Reporter`] and puts it in [`crate::Options::reporter`].

use std::fmt;
use std::path::Path;
use std::time::Duration;

/// Receives a running search's events, as stateright's `Reporter` does; every method has an
/// empty default, so an implementation picks the events it wants.
///
/// Calls come from the search's own threads (a distributed run's first worker of each
/// process), between two levels: a slow method slows the search by its time. A search that
/// runs to its end reports each of its levels 1 to `depth` once, in order; one stopped in the
/// middle of a level does not report that level.
///
/// ```
/// use modelcheck::models::two_phase::TwoPhase;
/// use modelcheck::{check, Options, Progress, Reporter};
/// use std::sync::{Arc, Mutex};
///
/// /// Keeps the width of every level.
/// #[derive(Default)]
/// struct Widths(Mutex<Vec<u64>>);
///
/// impl Reporter for Widths {
///     fn level(&self, progress: &Progress) {
///         self.0.lock().unwrap().push(progress.new_states);
///     }
/// }
///
/// let widths = Arc::new(Widths::default());
/// let options = Options { reporter: Some(widths.clone()), ..Options::default() };
/// let report = check(&TwoPhase::new(3)?, &options);
/// let widths = widths.0.lock().unwrap();
/// assert_eq!(widths.len(), report.stats.depth);
/// assert_eq!(1 + widths.iter().sum::<u64>(), report.stats.states); // one initial state
/// # Ok::<(), String>(())
/// ```
pub trait Reporter: Send + Sync {
    /// A level was searched whole and added `progress.new_states` states (never 0).
    fn level(&self, progress: &Progress) {
        let _ = progress;
    }

    /// A checkpoint (or a distributed run's part of one) was written and put in place.
    fn checkpoint_written(&self, written: &CheckpointWritten<'_>) {
        let _ = written;
    }

    /// Something went wrong that the search survives (it goes on).
    fn warning(&self, warning: &Warning<'_>) {
        let _ = warning;
    }
}

/// `Options` derives `Debug`; a reporter shows as its name only.
impl fmt::Debug for dyn Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reporter")
    }
}

/// A level searched whole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The level's depth (1 = the initial states' successors).
    pub depth: usize,
    /// The level's new states (a distributed run: of every process).
    pub new_states: u64,
    /// States of levels 0 to `depth`.
    pub states: u64,
    /// Time since this run of the search started (not counting the runs it resumed).
    pub elapsed: Duration,
}

/// A checkpoint written: where, at which level, and how long it took.
#[derive(Clone, Copy, Debug)]
pub struct CheckpointWritten<'a> {
    /// The file written.
    pub path: &'a Path,
    /// The deepest level it holds.
    pub depth: usize,
    /// States of levels 0 to `depth` (a distributed run: of every process).
    pub states: u64,
    /// The time the write took.
    pub took: Duration,
    /// For one worker's part of a distributed checkpoint: its own figures.
    pub part: Option<PartWritten>,
}

/// One worker's part of a distributed checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartWritten {
    /// The states this worker owns.
    pub states: u64,
    /// The part's file size in bytes.
    pub bytes: u64,
}

/// A problem the search goes on after.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Warning<'a> {
    /// A checkpoint could not be written; the previous one, if any, is left whole.
    CheckpointNotWritten {
        /// The level it would have held.
        depth: usize,
        /// Whether it was one worker's part of a distributed checkpoint.
        part: bool,
        /// Why.
        error: &'a str,
    },
}
