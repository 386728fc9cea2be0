//! Every flag of the `modelcheck` binary, parsed by clap (derive): one machine's
//! ([`CheckArgs`]), the distributed checker's ([`DistArgs`]), their ranges and conflicts, and
//! what they resolve to ([`Options`], a [`Cluster`], the checkpoint to resume).
//!
//! # Adding a group of flags
//!
//! [`Cli`] is the binary's parser; [`CheckArgs`] holds every flag of a single-machine run, in
//! `#[command(flatten)]` groups ([`SearchArgs`], [`StorageArgs`], [`CheckpointArgs`]), and
//! [`DistArgs`] the distribution's. Another group is one more `#[command(flatten)]` field of
//! [`Cli`]; [`CheckArgs::resolve`] turns the common flags into [`Options`], and
//! [`crate::report`] prints the result.

use crate::exit::EXIT_STATUS_HELP;
use crate::progress::StderrReporter;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser};
use modelcheck::distributed::{
    read_headers, Cluster, ClusterError, DEFAULT_CONNECT_TIMEOUT, DEFAULT_PEER_TIMEOUT,
    DEFAULT_SENT_FILTER, MAX_SENT_FILTER_SLOTS,
};
use modelcheck::models::CATALOGUE;
use modelcheck::{
    CheckpointError, Fairness, Header, LivenessSearch, Mismatch, Mode, Options, Schedule,
    DEFAULT_MEMORY_BYTES,
};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The smallest `--memory`: 1 KiB (16 lines of a set, 8,192 bits of a bitstate array).
pub const MIN_MEMORY: usize = 1 << 10;
/// The largest `--memory`: 128 TiB, the user address space of x86-64 (47 bits). More is a usage
/// error rather than a size the allocator is asked for and refuses.
pub const MAX_MEMORY: usize = 1 << 47;
/// The most worker threads (`--threads`), and timely workers per process (`--workers`).
pub const MAX_THREADS: usize = 1024;
/// The most processes of a distributed run (`--processes`, `--local`).
pub const MAX_CLUSTER_PROCESSES: usize = 1024;
/// The most steps of a simulated walk (`--depth`): its trace is kept, two bytes a step.
pub const MAX_WALK_DEPTH: usize = 10_000_000;
/// Seconds between checkpoints when `--checkpoint-every` is not given.
pub const DEFAULT_CHECKPOINT_SECS: f64 = 600.0;

/// `modelcheck`: the parser of the binary. See the module docs for adding a group of flags.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "modelcheck",
    version,
    about = "Explicit-state model checker: parallel breadth-first search storing visited states as \
             hash-compacted signatures. Stops at the first invariant violation or deadlock and \
             prints a shortest trace, replayed and checked; then checks the model's liveness \
             properties under weak fairness (a violation: a lasso, replayed and checked).",
    after_help = after_help(),
    max_term_width = 100
)]
pub struct Cli {
    /// The flags of a run on one machine.
    #[command(flatten)]
    pub check: CheckArgs,
    /// The distributed checker's flags.
    #[command(flatten)]
    pub dist: DistArgs,
}

/// A model and how to check it: every flag of a single-machine run.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// The model to check (the list is below).
    #[arg(value_parser = PossibleValuesParser::new(model_names()), hide_possible_values = true)]
    pub model: String,
    /// The model's size N (its default is in brackets in the list below).
    #[arg(value_parser = parse_model_size, allow_negative_numbers = true)]
    pub size: Option<usize>,
    /// How the search runs.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Where visited states are stored.
    #[command(flatten)]
    pub storage: StorageArgs,
    /// Checkpoints and resuming.
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    /// Random simulation instead of the exhaustive search.
    #[command(flatten)]
    pub simulation: SimulationArgs,
}

/// Random simulation: walks instead of the exhaustive search.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Random simulation")]
pub struct SimulationArgs {
    /// Run N random walks instead of the exhaustive search, each from a random initial state
    /// and each step to a uniformly random successor, checking the invariants (and deadlocks)
    /// on every state visited, and where each `sometimes` property is first reached; stops at
    /// the lowest-numbered failing walk and prints its seed.
    /// For models too large to search: finding no error proves nothing (exit 4).
    #[arg(long, value_name = "N", value_parser = parse_walks, conflicts_with_all = [
        "local", "processes", "workers", "connect_timeout", "peer_timeout", "sent_filter",
        "checkpoint", "resume", "mode", "exact", "memory", "fixed_table", "hashes", "max_depth",
        "schedule", "symmetry", "encoded_states",
    ])]
    pub simulate: Option<u64>,
    /// The most steps of a walk, 0 to 10,000,000 [default: 100].
    #[arg(long, value_name = "D", requires = "simulate", value_parser = parse_walk_depth)]
    pub depth: Option<usize>,
    /// The simulation's seed, 0 to 2^64-1; walk I's seed is derived from it and I, and walk 0's
    /// is the seed itself [default: from the clock, printed].
    #[arg(long, value_name = "S", requires = "simulate")]
    pub seed: Option<u64>,
}

/// Checkpoints and resuming.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Checkpoints")]
pub struct CheckpointArgs {
    /// Save the search to PATH at BFS level boundaries: the visited set, the frontier, the
    /// trace log and the counters, written to PATH.tmp, fsynced and renamed over PATH. A stop
    /// request (SIGINT, SIGTERM) then lets the level being expanded finish and saves it before
    /// the run stops (exit 5); a second one exits at once. In a distributed run PATH is a
    /// directory (created if missing) of one file per process, process-I-of-N.mcheckpt
    /// (-worker-J-of-W with --workers W), all of one level, every process saving it.
    #[arg(long, value_name = "PATH")]
    pub checkpoint: Option<PathBuf>,
    /// Save at the first level boundary SECS seconds (a decimal; 0: every level) after the
    /// start or the last checkpoint [default: 600].
    #[arg(long, value_name = "SECS", requires = "checkpoint", value_parser = parse_seconds)]
    pub checkpoint_every: Option<f64>,
    /// Resume the search saved in PATH, for the same model and size; --mode, --memory and
    /// --hashes default to the checkpoint's and must match it, as must --no-deadlock. A
    /// distributed run resumes the directory its --checkpoint wrote, with the same N and
    /// --workers (--local N resumes every process's part).
    #[arg(long, value_name = "PATH")]
    pub resume: Option<PathBuf>,
}

/// How the search runs.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Search")]
pub struct SearchArgs {
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Do not expand states deeper than D.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<usize>,
    /// Do not stop at states without successors (deadlocks are not errors).
    #[arg(long)]
    pub no_deadlock: bool,
    /// How the threads share a level's frontier.
    #[arg(long, value_name = "S", default_value = "chunks", value_parser = schedules())]
    pub schedule: Schedule,
    /// No progress lines on stderr (checkpoint notices still print).
    #[arg(long)]
    pub quiet: bool,
    /// Store one state per symmetry class (2pc, philosophers, ticket, buggy): counts are of
    /// classes, traces stay concrete. Not with checkpoints or a distributed run.
    #[arg(long, conflicts_with_all = ["local", "processes", "workers", "checkpoint", "resume"])]
    pub symmetry: bool,
    /// Check only the property NAME among the model's liveness properties (repeat for more)
    /// [default: every one]. Liveness is checked after a complete search of one machine, not in
    /// bitstate mode, nor with --max-depth, --checkpoint, --resume or a distributed run.
    #[arg(long, value_name = "NAME")]
    pub property: Vec<String>,
    /// Check invariants (and deadlocks) only, not the model's liveness properties.
    #[arg(long, conflicts_with_all = ["property", "fairness"])]
    pub no_liveness: bool,
    /// The fairness liveness properties assume.
    #[arg(long, value_name = "F", default_value = "weak", value_parser = fairnesses())]
    pub fairness: Fairness,
    /// How each liveness property's product graph is searched.
    #[arg(long, value_name = "S", default_value = "auto", value_parser = liveness_searches())]
    pub liveness_search: LivenessSearch,
}

/// Where visited states are stored.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Visited storage")]
pub struct StorageArgs {
    /// How visited states are stored [default: fp64].
    #[arg(long, value_name = "M", value_parser = modes())]
    pub mode: Option<Mode>,
    /// Same as --mode exact.
    #[arg(long, conflicts_with = "mode")]
    pub exact: bool,
    /// Visited storage size: a number of MiB, or with a unit K, M, G or T (KiB to TiB), 1K to
    /// 128T [default: 256M]. fp64 and exact: a cap (the fp64 table starts at 1 MiB and grows
    /// between levels); fp32 and bitstate: the table's size. A full table stops the search with
    /// the size it needs.
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<usize>,
    /// fp64: one table of --memory from the start, with two hashes per state and Stern and
    /// Dill's omission bound (far below the growing table's birthday bound, which passes 1e-6
    /// at 6.1 M states); for runs of many millions of states that need a negligible bound.
    #[arg(long)]
    pub fixed_table: bool,
    /// Keep each state of the frontier (and of the exact set) as its postcard encoding, one
    /// heap block, instead of the model's own value: less memory for states that own heap
    /// memory, more time (a decode per state expanded, an encode per successor). Single-process
    /// runs without checkpoints.
    #[arg(long, conflicts_with_all = [
        "local", "processes", "workers", "checkpoint", "resume",
    ])]
    pub encoded_states: bool,
    /// Bitstate mode: hash functions per state, k = 1 to 32 (each state sets k bits of the
    /// array) [default: 3, SPIN's -k3].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub hashes: Option<u32>,
}

impl CheckArgs {
    /// The model's size: the one given, or the catalogue's default.
    pub fn size(&self) -> usize {
        self.size.unwrap_or_else(|| {
            CATALOGUE
                .iter()
                .find(|(name, _, _)| *name == self.model)
                .map_or(0, |(_, n, _)| *n)
        })
    }

    /// The storage mode the flags ask for, if any.
    pub fn mode(&self) -> Option<Mode> {
        if self.storage.exact {
            Some(Mode::Exact)
        } else {
            self.storage.mode
        }
    }

    /// The search options these flags ask for. Errors: flags that only mean something together
    /// (`--hashes` without bitstate mode), as a usage message.
    pub fn resolve(&self) -> Result<Options, String> {
        self.resolve_resuming(None)
    }

    /// [`resolve`](Self::resolve), with the mode, `--memory` and `--hashes` the flags leave
    /// open taken from the header of the checkpoint being resumed.
    pub fn resolve_resuming(&self, resumed: Option<&Header>) -> Result<Options, String> {
        let mode = self
            .mode()
            .or_else(|| resumed.and_then(Header::mode))
            .unwrap_or(Mode::Fp64);
        if self.storage.hashes.is_some() && mode != Mode::Bitstate {
            return Err(format!(
                "--hashes sets the bitstate mode's hash functions; the mode is {}",
                mode.name()
            ));
        }
        let defaults = Options::default();
        let memory = resumed.and_then(|h| usize::try_from(h.memory_bytes).ok());
        let hashes = resumed.filter(|_| mode == Mode::Bitstate).map(|h| h.hashes);
        // A fixed fp64 table was saved with StateHash::of ("ahash"): resume it fixed.
        let saved_fixed = resumed.is_some_and(|h| h.state_hash == "ahash");
        Ok(Options {
            threads: self.search.threads.unwrap_or(defaults.threads),
            max_depth: self.search.max_depth,
            deadlock: !self.search.no_deadlock,
            reporter: Some(Arc::new(StderrReporter {
                quiet: self.search.quiet,
            })),
            schedule: self.search.schedule,
            mode,
            memory_bytes: self
                .storage
                .memory
                .or(memory)
                .unwrap_or(DEFAULT_MEMORY_BYTES),
            hashes: self.storage.hashes.or(hashes).unwrap_or(defaults.hashes),
            grow: !self.storage.fixed_table && !saved_fixed,
            stop: None,
            symmetry: self.search.symmetry,
            fairness: self.search.fairness,
            liveness_search: self.search.liveness_search,
            properties: (!self.search.property.is_empty()).then(|| self.search.property.clone()),
        })
    }
}

pub(crate) fn model_names() -> Vec<&'static str> {
    CATALOGUE.iter().map(|(name, _, _)| *name).collect()
}

/// The text after the flags: every model, then the exit statuses.
fn after_help() -> String {
    let mut text = String::from("Models (default N in brackets):\n");
    for (name, default, about) in CATALOGUE {
        text.push_str(&format!("  {name} [{default}]\n"));
        for line in about.lines() {
            text.push_str(&format!("      {}\n", line.trim()));
        }
    }
    text.push_str(EXPLORE_HELP);
    text.push_str(EXIT_STATUS_HELP);
    text
}

/// The explorer's line in `--help`.
const EXPLORE_HELP: &str = "
Explorer:
  modelcheck explore MODEL [N] [--port P] [--bind ADDR] serves a page on 127.0.0.1 for
  stepping through the model's states and its check's trace (modelcheck explore --help).
";

pub(crate) fn parse_model_size(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("the model size N must be a positive whole number, got `{text}`"))
}

fn parse_walks(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("--simulate takes a number of walks, 1 or more, got `{text}`"))
}

fn parse_walk_depth(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&d| d <= MAX_WALK_DEPTH)
        .ok_or_else(|| format!("--depth takes 0 to {MAX_WALK_DEPTH} steps, got `{text}`"))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e9)
        .ok_or_else(|| format!("--checkpoint-every takes seconds, 0 to 1e9, got `{text}`"))
}

pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| format!("--threads takes 1 to {MAX_THREADS}, got `{text}`"))
}

/// A size in bytes: `N` MiB, or `N` followed by K, M, G or T (powers of 1024, an optional
/// `iB`), from [`MIN_MEMORY`] to [`MAX_MEMORY`].
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let bad = || {
        format!(
            "--memory takes a size from 1K to 128T (a plain number is MiB; units K, M, G, T), \
             got `{text}`"
        )
    };
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u128 = number.parse().map_err(|_| bad())?;
    let shift = match unit.to_ascii_lowercase().as_str() {
        "k" | "kib" => 10,
        "" | "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => return Err(bad()),
    };
    let bytes = number.checked_shl(shift).filter(|&b| b >> shift == number);
    match bytes {
        Some(b) if (MIN_MEMORY as u128..=MAX_MEMORY as u128).contains(&b) => Ok(b as usize),
        _ => Err(bad()),
    }
}

/// `bytes` as a `--memory` value: in the largest unit (K, M, G, T) that divides it.
pub fn memory_flag(bytes: usize) -> String {
    modelcheck::size_text(bytes)
}

/// `--mode`'s values, each with its help.
fn modes() -> impl TypedValueParser<Value = Mode> {
    let help = |mode: Mode| match mode {
        Mode::Fp64 => "64-bit fingerprints, 8 bytes per slot (the default)",
        Mode::Fp32 => "32-bit compacted signatures, 4 bytes per slot",
        Mode::Bitstate => {
            "SPIN's supertrace: a bit array; each state sets k bits, one per hash function (k = \
             3 unless --hashes); may miss states"
        }
        Mode::Exact => "full states in a hash set: no omission, most memory",
    };
    let values = Mode::ALL.map(|m| PossibleValue::new(m.name()).help(help(m)));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Mode>())
}

/// `--fairness`'s values, each with its help.
fn fairnesses() -> impl TypedValueParser<Value = Fairness> {
    let help = |fairness: Fairness| match fairness {
        Fairness::Weak => {
            "weak fairness per process (the default): a process enabled in every state of a \
             cycle must move in it"
        }
        Fairness::None => "no fairness: every cycle counts",
    };
    let values = Fairness::ALL.map(|f| PossibleValue::new(f.name()).help(help(f)));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Fairness>())
}

/// `--liveness-search`'s values, each with its help.
fn liveness_searches() -> impl TypedValueParser<Value = LivenessSearch> {
    let help = |search: LivenessSearch| match search {
        LivenessSearch::Auto => "the index graph when it fits, else on the fly",
        LivenessSearch::IndexGraph => {
            "a parallel breadth-first search records the graph on indices, then components \
             on it: all threads on one property, more memory per state and edge"
        }
        LivenessSearch::OnTheFly => {
            "one depth-first search per property, one index per product state (the default)"
        }
    };
    let values = LivenessSearch::ALL.map(|s| PossibleValue::new(s.name()).help(help(s)));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<LivenessSearch>())
}

/// `--schedule`'s values, each with its help.
fn schedules() -> impl TypedValueParser<Value = Schedule> {
    let help = |schedule: Schedule| match schedule {
        Schedule::Chunks => "256-state chunks claimed from one atomic cursor (the default)",
        Schedule::Steal => "rayon's work-stealing over the same chunks",
    };
    let values = Schedule::ALL.map(|s| PossibleValue::new(s.name()).help(help(s)));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Schedule>())
}

/// Parses `args` (without the program name). `Err`: the text to print and the exit status
/// (`--help` and `--version` are 0 with the text for stdout; usage errors are
/// [`EXIT_USAGE`](crate::EXIT_USAGE) with the text for stderr).
pub fn parse<I, T>(args: I) -> Result<Cli, (i32, String)>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let argv =
        std::iter::once(OsString::from("modelcheck")).chain(args.into_iter().map(Into::into));
    Cli::try_parse_from(argv).map_err(|e| (e.exit_code(), e.to_string()))
}

/// A usage error in clap's format (message, usage line, pointer to `--help`), for errors found
/// after parsing (a model size out of range, flags that do not fit together).
pub fn usage_error(message: &str) -> String {
    Cli::command()
        .error(ErrorKind::ValueValidation, message)
        .to_string()
}

/// How a run is spread over processes and timely workers. With none of these flags the
/// single-machine checker runs; `--workers W` alone is one process of W timely workers.
#[derive(Args, Debug, Clone, Default)]
#[command(
    next_help_heading = "Distribution (timely dataflow; timely's -n, -p, -h and -w, as \
                               long flags)"
)]
pub struct DistArgs {
    /// Processes in the run (timely's -n); each one is started with the same flags, its own
    /// --process, and the same --hostfile.
    #[arg(long, value_name = "N", value_parser = parse_processes,
          requires_all = ["process", "hostfile"], conflicts_with_all = ["local", "threads"])]
    pub processes: Option<usize>,
    /// This process's index, 0 to N-1: its line in the hostfile (timely's -p).
    #[arg(long, value_name = "I", requires = "processes")]
    pub process: Option<usize>,
    /// A file of N lines `host:port`, one per process in process order (timely's -h format;
    /// blank lines and # comments are skipped). Process I listens on line I.
    #[arg(long, value_name = "FILE", requires = "processes")]
    pub hostfile: Option<PathBuf>,
    /// Timely worker threads per process, each owning its share of the states (timely's -w)
    /// [default: 1].
    #[arg(long, value_name = "W", value_parser = parse_workers, conflicts_with = "threads")]
    pub workers: Option<usize>,
    /// Start N processes on 127.0.0.1 (free ports, a temporary hostfile) and print one combined
    /// report; --memory is each process's.
    #[arg(long, value_name = "N", value_parser = parse_processes, conflicts_with = "threads")]
    pub local: Option<usize>,
    /// Seconds to wait for every peer to connect; a peer still missing then is named in the
    /// error [default: 30].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub connect_timeout: Option<u64>,
    /// Seconds a peer process may send nothing while this one waits for it (stopped, hung, a
    /// frozen machine) before the run stops with an error that names it. Waiting processes
    /// send a heartbeat every quarter of it; it must exceed the longest pause of a peer's
    /// search (a checkpoint write gets four times this process's own write time more)
    /// [default: 60].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub peer_timeout: Option<u64>,
    /// Slots (16 bytes each, rounded up to a power of two) of each worker's filter of the
    /// successors it placed: a duplicate it remembers is not sent or looked up again. Changes no result; 0
    /// turns it off [default: 65536].
    #[arg(long, value_name = "SLOTS", value_parser = parse_sent_filter)]
    pub sent_filter: Option<usize>,
}

fn parse_sent_filter(text: &str) -> Result<usize, String> {
    let most = MAX_SENT_FILTER_SLOTS;
    text.parse::<usize>()
        .ok()
        .filter(|n| *n <= most)
        .ok_or_else(|| format!("takes 0 to {most} slots, got `{text}`"))
}

fn parse_processes(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_CLUSTER_PROCESSES).contains(n))
        .ok_or_else(|| format!("takes 1 to {MAX_CLUSTER_PROCESSES} processes, got `{text}`"))
}

fn parse_workers(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| format!("takes 1 to {MAX_THREADS} workers, got `{text}`"))
}

impl DistArgs {
    /// Whether these flags ask for the distributed checker.
    pub fn is_distributed(&self) -> bool {
        self.processes.is_some() || self.workers.is_some() || self.local.is_some()
    }

    /// The wait for peers.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
            .map_or(DEFAULT_CONNECT_TIMEOUT, Duration::from_secs)
    }

    /// The cluster of a `--processes` run, or of one process when only `--workers` is given.
    pub fn cluster(&self) -> Result<Cluster, ClusterError> {
        let workers = self.workers.unwrap_or(1);
        let mut cluster = match (self.processes, self.process, &self.hostfile) {
            (Some(processes), Some(process), Some(hostfile)) => {
                Cluster::from_hostfile(hostfile, processes, process, workers)?
            }
            _ => Cluster {
                addresses: vec!["127.0.0.1:0".into()],
                process: 0,
                workers,
                connect_timeout: DEFAULT_CONNECT_TIMEOUT,
                sent_filter: DEFAULT_SENT_FILTER,
                peer_timeout: DEFAULT_PEER_TIMEOUT,
            },
        };
        cluster.connect_timeout = self.connect_timeout();
        cluster.peer_timeout = self
            .peer_timeout
            .map_or(DEFAULT_PEER_TIMEOUT, Duration::from_secs);
        cluster.sent_filter = self.sent_filter.unwrap_or(DEFAULT_SENT_FILTER);
        Ok(cluster)
    }
}

impl DistArgs {
    /// The header of the checkpoint parts in `dir` that this run resumes: every process's
    /// (`--local N`), or this process's (`--processes N --process I`, `--workers W`), each part
    /// checked to be there, of this N, process and workers, and of one level.
    pub fn resume_header(&self, dir: &Path) -> Result<Header, CheckpointError> {
        let workers = self.workers.unwrap_or(1);
        match (self.local, self.processes, self.process) {
            (Some(n), _, _) => read_headers(dir, n, None, workers),
            (None, Some(n), Some(i)) if i < n => read_headers(dir, n, Some(i), workers),
            (None, Some(n), Some(i)) => Err(CheckpointError::Mismatch {
                context: "cannot resume".into(),
                why: Mismatch::Other(format!("--process {i} is out of range for --processes {n}")),
            }),
            _ => read_headers(dir, 1, Some(0), workers),
        }
    }
}
