//! An explicit-state model checker whose visited states are searchcache's compacted signatures,
//! as a library: write a [`Model`] in plain Rust, name its [`Invariant`]s, and [`check`] it.
//!
//! The search is a parallel breadth-first search, level by level, so the first error found is
//! at the shallowest depth; its trace is rebuilt from a 6-byte-per-state link log and replayed
//! against the model before it is returned. The `modelcheck` binary is this library with a
//! command line and the built-in [`models`].
//!
//! [`Storage::partial`] says whether "no error" covers every reachable state (exact mode, fp64
//! with a negligible omission bound) or only those visited; [`Options::stop`] stops a search at
//! a safe point with the counts so far; [`check_with_checkpoints`] saves the search at level
//! boundaries and resumes it (for models whose states are serde types).
//!
//! ```
//! use modelcheck::{check, Invariant, Model, Options, Verdict};
//!
//! /// Two counters, each stepped up to 3; they must never both be 3.
//! struct Counters;
//!
//! impl Model for Counters {
//!     type State = (u8, u8);
//!     type Action = &'static str;
//!
//!     fn name(&self) -> String {
//!         "counters".into()
//!     }
//!     fn initial_states(&self) -> Vec<(u8, u8)> {
//!         vec![(0, 0)]
//!     }
//!     fn successors(&self, &(a, b): &(u8, u8), out: &mut Vec<(&'static str, (u8, u8))>) {
//!         if a < 3 {
//!             out.push(("a", (a + 1, b)));
//!         }
//!         if b < 3 {
//!             out.push(("b", (a, b + 1)));
//!         }
//!     }
//!     fn invariants(&self) -> Vec<Invariant<(u8, u8)>> {
//!         vec![Invariant::new("NotBothThree", |&(a, b): &(u8, u8)| a < 3 || b < 3)]
//!     }
//!     fn deadlock_is_error(&self) -> bool {
//!         false
//!     }
//! }
//!
//! let report = check(&Counters, &Options { threads: 2, ..Options::default() });
//! let Verdict::Counterexample(trace) = &report.verdict else { panic!("no counterexample") };
//! assert_eq!(trace.steps.len(), 6); // a shortest trace: three steps of each counter
//! // Whole levels only: 0 to 5 hold 15 states; the failing one is in level 6.
//! assert_eq!((report.stats.states, report.stats.depth), (15, 5));
//! ```

pub mod bfs;
pub mod checkpoint;
pub mod cli;
pub mod distributed;
mod expand;
mod frame;
pub mod model;
pub mod models;
pub mod report;
pub mod trace;
pub mod visited;

pub use bfs::{CutShort, Options, Outcome, Schedule, Stats, Verdict, DEFAULT_MEMORY_BYTES};
pub use checkpoint::{check_with_checkpoints, CheckpointError, Checkpoints};
pub use model::{Invariant, Model};
pub use trace::{Failure, Trace};
pub use visited::{Mode, Omission, Storage, NEGLIGIBLE_OMISSION};

use visited::Visited;

/// What a run found, and what its visited storage can say about the states it may have missed.
pub struct Report<M: Model> {
    /// What was counted.
    pub stats: Stats,
    /// How the search ended.
    pub verdict: Verdict<M>,
    /// The visited storage after the run; `None` when it could not be built (then `verdict` is
    /// [`Verdict::Error`] and nothing was searched).
    pub storage: Option<Storage>,
    /// What the checkpoints came to, when the run saved them
    /// ([`check_with_checkpoints`] with `save_to`).
    pub checkpoints: Option<checkpoint::Saved>,
}

/// Checks `model` as `options` say: a breadth-first search of every reachable state that stops
/// at the first (shallowest) invariant violation or deadlock, a full visited storage,
/// `options.max_depth`, or `options.stop`. A counterexample in the report has been replayed
/// against the model. [`Storage::partial`] says whether "no error" covers every reachable
/// state.
pub fn check<M: Model>(model: &M, options: &Options) -> Report<M> {
    let visited = match Visited::<M::State>::new(options.mode, options.memory_bytes, options.hashes)
    {
        Ok(visited) => visited,
        Err(e) => {
            return Report {
                stats: Stats::default(),
                verdict: Verdict::Error(e),
                storage: None,
                checkpoints: None,
            }
        }
    };
    let Outcome { stats, verdict } = bfs::search(model, &visited, options, None, &mut |_| {});
    let storage = visited.storage(stats.transitions);
    Report {
        stats,
        verdict,
        storage: Some(storage),
        checkpoints: None,
    }
}
