//! An explicit-state model checker whose visited states are searchcache's compacted signatures,
//! as a library: write a [`Model`] in plain Rust, name its [`Invariant`]s, and [`check`] it.
//!
//! The search is a parallel breadth-first search, level by level, so the first error found is
//! at the shallowest depth; its trace is rebuilt from a 6-byte-per-state link log and replayed
//! against the model before it is returned. The `modelcheck` binary (the `modelcheck-cli`
//! package) is this library with a command line and the built-in [`models`].
//!
//! [`Storage::partial`] says whether "no error" covers every reachable state (exact mode, fp64
//! with a negligible omission bound) or only those visited; [`Options::stop`] stops a search at
//! a safe point with the counts so far; [`check_with_checkpoints`] saves the search at level
//! boundaries and resumes it (for models whose states are serde types); a [`Reporter`] in
//! [`Options::reporter`] hears of each level, each checkpoint written and each warning, since
//! the library itself never prints. Errors carry numbers (bytes, states, levels), not advice
//! about a command line: [`TableFull`] says how many bytes the table had and
//! [`TableFull::bytes_needed`] how many to try next.
//!
//! A [`Property::sometimes`] in [`Model::properties`] gets a shortest replayed [`Example`] in
//! [`Report::sometimes`], or is [`SometimesVerdict::Vacuous`] after a search that visited every
//! reachable state. [`Options::symmetry`] stores one state per class of [`Model::canonical`],
//! the traces staying concrete.
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

// Private modules behind the re-exports below. Each uses only modules of the layers before
// it: property, fairness, successors; model, regular_file, reporter, resident, size; encoded, trace, frame,
// sometimes; growing, exact; visited; expand; bfs; check; checkpoint; simulate (with walk_rng, of the
// first layer); liveness; models, distributed.
mod bfs;
mod check;
mod checkpoint;
pub mod distributed;
mod encoded;
mod exact;
mod expand;
mod fairness;
mod frame;
mod growing;
mod liveness;
mod liveness_search;
mod model;
pub mod models;
mod property;
mod regular_file;
mod reporter;
mod resident;
mod simulate;
mod size;
mod sometimes;
mod state_hash;
mod successors;
mod trace;
mod visited;
mod walk_rng;

pub use bfs::{CutShort, Options, Schedule, Stats, Verdict, DEFAULT_MEMORY_BYTES};
pub use check::{check, Report, Saved};
pub use checkpoint::{
    check_with_checkpoints, read_header as read_checkpoint_header, CheckpointError, Checkpoints,
    Header, Mismatch, Part, FORMAT_VERSION as CHECKPOINT_FORMAT_VERSION,
};
pub use encoded::{Encoded, EncodedState};
pub use fairness::{Fairness, MAX_PROCESSES};
pub use liveness::{
    check_liveness, liveness_memory, Lasso, LivenessFull, LivenessReport, LivenessStorage,
    LivenessVerdict, PropertyReport, SearchCounts, GRAPH_BYTES_PER_EDGE, GRAPH_BYTES_PER_STATE,
    GRAPH_MEMORY_FACTOR,
};
pub use liveness_search::LivenessSearch;
pub use model::{Invariant, Model};
pub use property::{Expectation, Predicate, Property};
pub use reporter::{CheckpointWritten, PartWritten, Progress, Reporter, Warning};
pub use resident::peak_resident_bytes;
pub use simulate::{
    simulate, walk_seed, Reached, SimulateOptions, SimulationReport, SimulationVerdict, Violation,
    DEFAULT_SIMULATION_DEPTH,
};
pub use size::size_text;
pub use sometimes::{Example, SometimesReport, SometimesVerdict};
pub use successors::Successors;
pub use trace::{Failure, Trace};
pub use visited::{Mode, Omission, Storage, TableFull, MAX_GROWTH, NEGLIGIBLE_OMISSION};
