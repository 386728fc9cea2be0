//! The `modelcheck` binary as a library: its command line ([`args`]), the run it starts
//! ([`run`], [`run_until`]), the `--local` launcher, the report it prints and the exit statuses
//! ([`exit`]), and the explorer's web page ([`explore`]: `modelcheck explore MODEL [N]`). The
//! model checker itself is the `modelcheck` library; this package only speaks to people: flags
//! in, lines and pages out.
//!
//! ```
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let status = modelcheck_cli::run(["2pc", "3", "--quiet"], &mut out, &mut err);
//! assert_eq!(status, modelcheck_cli::EXIT_OK);
//! assert!(String::from_utf8(out).unwrap().contains("states: 288"));
//! ```

// The modules, each using only those listed before it: exit, progress, cluster_errors; args,
// launcher_watch, sometimes; report, local; liveness, simulation; explore; run.
pub mod args;
mod checkpoint_errors;
mod cluster_errors;
pub mod exit;
pub mod explore;
mod launcher_watch;
mod liveness;
mod local;
mod progress;
pub mod report;
mod run;
mod simulation;
mod sometimes;

pub use args::{memory_flag, parse_memory, Cli};
pub use exit::{
    EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE,
};
pub use progress::StderrReporter;
pub use run::{run, run_until};
