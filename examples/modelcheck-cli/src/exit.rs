//! The exit statuses of the `modelcheck` binary, and their `--help` text.

/// Exit status: no error found, and every reachable state was visited (exact mode, or fp64
/// with an omission bound below [`modelcheck::NEGLIGIBLE_OMISSION`]), or every state up to
/// `--max-depth`.
pub const EXIT_OK: i32 = 0;
/// Exit status: a counterexample was found, replayed and printed (an invariant violation, a
/// deadlock, or a liveness property's lasso); or a `sometimes` property is vacuous (no
/// reachable state satisfies it, after a search that visited them all).
pub const EXIT_COUNTEREXAMPLE: i32 = 1;
/// Exit status: bad command line (or a checkpoint made for another model, size or mode).
pub const EXIT_USAGE: i32 = 2;
/// Exit status: the search could not finish (full table, unreadable checkpoint, trace error).
pub const EXIT_ERROR: i32 = 3;
/// Exit status: no error found in the states visited, but the search was partial: the storage
/// may have missed reachable states (bitstate, fp32, or fp64 with a bound that is not
/// negligible).
pub const EXIT_PARTIAL: i32 = 4;
/// Exit status: stopped by SIGINT, SIGTERM or SIGHUP; the partial report was printed (or,
/// stopped while connecting to its peers, a line saying nothing was searched).
pub const EXIT_INTERRUPTED: i32 = 5;

/// The exit statuses, for `--help`.
pub const EXIT_STATUS_HELP: &str = "
Exit status:
  0  no error found, every reachable state visited (exact mode; fp64 with an omission
     bound below 1e-6), or every state up to --max-depth
  1  counterexample found, replayed and printed (an invariant violation, a deadlock, or a
     violated liveness property's lasso); or a sometimes property is vacuous (no reachable
     state satisfies it, every reachable state visited)
  2  usage error (also: a checkpoint of another model, size or mode; a checkpoint path that
     is a directory, a FIFO or another non-file)
  3  could not finish (full table, unreadable checkpoint, a liveness check that could not)
  4  no error found, but the search was partial: bitstate or fp32 mode, or an fp64 bound
     (or a liveness map's) above 1e-6, may have missed reachable states
  5  interrupted by SIGINT, SIGTERM or SIGHUP (the report so far was printed; a second
     signal exits at once)
";
