//! The command line, parsed by clap (derive): the flags, their ranges and conflicts, and the run.
//!
//! # Adding a group of flags
//!
//! [`Cli`] is the `modelcheck` binary's parser; [`CheckArgs`] holds every flag of a single-machine
//! run, in `#[command(flatten)]` groups ([`SearchArgs`], [`StorageArgs`]). Another front end adds
//! its own flags as one more group, without touching these: either a field
//! `#[command(flatten)] pub dist: DistArgs` in [`Cli`] (the distributed checker's `--processes`,
//! `--process`, `--hostfile`, `--workers`, `--local`), or a parser of its own that flattens
//! [`CheckArgs`] next to its group. [`CheckArgs::resolve`] then turns the common flags into
//! [`Options`] and a model, and [`crate::report`] prints the result.

use crate::bfs::{Options, Schedule};
use crate::checkpoint::{self, check_with_checkpoints, CheckpointError, Checkpoints, Header};
use crate::models::{with_model, WithModel, CATALOGUE};
use crate::report::print_report;
use crate::visited::Mode;
use crate::{check, Model};
use clap::builder::PossibleValuesParser;
use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use crate::report::{
    EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE,
};

/// The default visited storage: 256 MiB.
pub const DEFAULT_MEMORY: usize = 256 << 20;
/// The smallest `--memory`: 1 KiB (16 lines of a set, 8,192 bits of a bitstate array).
pub const MIN_MEMORY: usize = 1 << 10;
/// The largest `--memory`: 128 TiB, the user address space of x86-64 (47 bits). More is a usage
/// error rather than a size the allocator is asked for and refuses.
pub const MAX_MEMORY: usize = 1 << 47;
/// The most worker threads.
pub const MAX_THREADS: usize = 1024;

/// `modelcheck`: the parser of the binary. See the module docs for adding a group of flags.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "modelcheck",
    version,
    about = "Explicit-state model checker: parallel breadth-first search storing visited states as \
             hash-compacted signatures. Stops at the first invariant violation or deadlock and \
             prints a shortest trace, replayed and checked.",
    after_help = after_help(),
    max_term_width = 100
)]
pub struct Cli {
    /// The flags of a run on one machine.
    #[command(flatten)]
    pub check: CheckArgs,
    /// The distributed checker's flags.
    #[command(flatten)]
    pub dist: crate::distributed::args::DistArgs,
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
}

/// Checkpoints and resuming.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Checkpoints")]
pub struct CheckpointArgs {
    /// Save the search to PATH at BFS level boundaries: the visited set, the frontier, the
    /// trace log and the counters, written to PATH.tmp, fsynced and renamed over PATH. In a
    /// distributed run PATH is a directory (created if missing) of one file per process,
    /// process-I-of-N.mcheckpt (-worker-J-of-W with --workers W), all of one level; a stop
    /// request (SIGINT, SIGTERM) then lets the level being expanded finish, and every process
    /// saves it before it stops.
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
    #[arg(long, value_enum, value_name = "S", default_value_t = Schedule::Chunks)]
    pub schedule: Schedule,
    /// No progress lines on stderr (checkpoint notices still print).
    #[arg(long)]
    pub quiet: bool,
}

/// Where visited states are stored.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Visited storage")]
pub struct StorageArgs {
    /// How visited states are stored [default: fp64].
    #[arg(long, value_enum, value_name = "M")]
    pub mode: Option<Mode>,
    /// Same as --mode exact.
    #[arg(long, conflicts_with = "mode")]
    pub exact: bool,
    /// Visited storage size: a number of MiB, or with a unit K, M, G or T (KiB to TiB), 1K to
    /// 128T [default: 256M]. A full table stops the search with the size it needs (exact mode:
    /// a cap on its estimated memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    pub memory: Option<usize>,
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
        Ok(Options {
            threads: self.search.threads.unwrap_or(defaults.threads),
            max_depth: self.search.max_depth,
            deadlock: !self.search.no_deadlock,
            progress: !self.search.quiet,
            schedule: self.search.schedule,
            mode,
            memory_bytes: self.storage.memory.or(memory).unwrap_or(DEFAULT_MEMORY),
            hashes: self.storage.hashes.or(hashes).unwrap_or(defaults.hashes),
            stop: None,
        })
    }
}

fn model_names() -> Vec<&'static str> {
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
    text.push_str(crate::report::EXIT_STATUS_HELP);
    text
}

fn parse_model_size(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("the model size N must be a positive whole number, got `{text}`"))
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 1e9)
        .ok_or_else(|| format!("--checkpoint-every takes seconds, 0 to 1e9, got `{text}`"))
}

fn parse_threads(text: &str) -> Result<usize, String> {
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
    let unit = ["K", "M", "G", "T"]
        .iter()
        .enumerate()
        .rev()
        .find(|(i, _)| bytes.is_multiple_of(1 << (10 * (i + 1))));
    match unit {
        Some((i, unit)) => format!("{}{unit}", bytes >> (10 * (i + 1))),
        None => format!("{}K", bytes.div_ceil(1 << 10)),
    }
}

/// Parses `args` (without the program name). `Err`: the text to print and the exit status
/// (`--help` and `--version` are 0 with the text for stdout; usage errors are
/// [`EXIT_USAGE`] with the text for stderr).
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

/// Runs the command line `args` (without the program name): the report goes to `out`, usage
/// errors to `err`, progress lines to stderr. Returns the exit status.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_until(args, out, err, None)
}

/// [`run`], stopped at the next safe point when `stop` becomes true (the binary's SIGINT and
/// SIGTERM handlers set it): the report then says what was searched, and the status is
/// [`EXIT_INTERRUPTED`].
pub fn run_until<I, T>(
    args: I,
    out: &mut dyn Write,
    err: &mut dyn Write,
    stop: Option<Arc<AtomicBool>>,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let argv: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match parse(argv.iter().cloned()) {
        Ok(cli) => cli,
        Err((status, text)) => {
            let _ = if status == 0 {
                write!(out, "{text}")
            } else {
                write!(err, "{text}")
            };
            return status;
        }
    };
    let args = &cli.check;
    let resumed = match &args.checkpoint.resume {
        Some(path) if cli.dist.is_distributed() => match cli.dist.resume_header(path) {
            Ok(header) => Some(header),
            Err(e) => return checkpoint_error(&e, err),
        },
        Some(path) => match checkpoint::read_header(path) {
            Ok(header) => Some(header),
            Err(e) => return checkpoint_error(&e, err),
        },
        None => None,
    };
    let options = match args.resolve_resuming(resumed.as_ref()) {
        Ok(options) => Options { stop, ..options },
        Err(message) => {
            let _ = write!(err, "{}", usage_error(&message));
            return EXIT_USAGE;
        }
    };
    if cli.dist.is_distributed() {
        return crate::distributed::args::run(&cli, options, &argv, out, err);
    }
    if cli.dist.connect_timeout.is_some()
        || cli.dist.sent_filter.is_some()
        || cli.dist.peer_timeout.is_some()
    {
        let message = "--connect-timeout, --peer-timeout and --sent-filter apply to distributed \
                       runs only (--local, --processes or --workers)";
        let _ = write!(err, "{}", usage_error(message));
        return EXIT_USAGE;
    }
    let checkpoints = Checkpoints {
        save_to: args.checkpoint.checkpoint.clone(),
        every: Duration::from_secs_f64(
            args.checkpoint
                .checkpoint_every
                .unwrap_or(DEFAULT_CHECKPOINT_SECS),
        ),
        resume_from: args.checkpoint.resume.clone(),
    };
    let run = Run {
        options,
        checkpoints,
        out,
        err: &mut *err,
    };
    match with_model(&args.model, args.size(), run) {
        Ok(status) => status,
        Err(message) => {
            let _ = write!(err, "{}", usage_error(&message));
            EXIT_USAGE
        }
    }
}

/// Seconds between checkpoints when `--checkpoint-every` is not given.
pub const DEFAULT_CHECKPOINT_SECS: f64 = 600.0;

/// Prints a checkpoint that cannot be used: a usage error (status 2) for one of another model,
/// size, mode or options or an unwritable `--checkpoint`, an error (status 3) for a file that
/// cannot be read as a checkpoint.
fn checkpoint_error(e: &CheckpointError, err: &mut dyn Write) -> i32 {
    match e {
        CheckpointError::Mismatch(why) | CheckpointError::Unwritable(why) => {
            let _ = write!(err, "{}", usage_error(why));
            EXIT_USAGE
        }
        CheckpointError::Unreadable(why) => {
            let _ = writeln!(err, "error: {why}");
            EXIT_ERROR
        }
    }
}

struct Run<'a> {
    options: Options,
    checkpoints: Checkpoints,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl WithModel for Run<'_> {
    type Output = i32;

    fn visit<M: Model>(self, model: M) -> i32
    where
        M::State: Serialize + DeserializeOwned,
    {
        let Run {
            options,
            checkpoints,
            out,
            err,
        } = self;
        let report = if checkpoints.save_to.is_some() || checkpoints.resume_from.is_some() {
            match check_with_checkpoints(&model, &options, &checkpoints) {
                Ok(report) => report,
                Err(e) => return checkpoint_error(&e, err),
            }
        } else {
            check(&model, &options)
        };
        print_report(&model, &options, &report, out)
    }
}
