//! One run of the command line: parse it, resume what it names, check the model on this
//! machine, as one process of a cluster or as the `--local` launcher, print the report, and
//! come to the exit status.

use crate::args::{parse, usage_error, Cli, DEFAULT_CHECKPOINT_SECS};
use crate::checkpoint_errors::checkpoint_error_text;
use crate::cluster_errors::cluster_error_text;
use crate::exit::{EXIT_ERROR, EXIT_INTERRUPTED, EXIT_USAGE};
use crate::explore::explore;
use crate::launcher_watch::{self, started_by_launcher};
use crate::liveness::{after_safety, liveness_names, not_checked_with, unknown_property};
use crate::local;
use crate::report::{print_distributed, print_report};
use crate::simulation::Simulation;
use modelcheck::distributed::{self, Cluster, ClusterError, DistCheckpoints};
use modelcheck::models::{with_model, WithModel};
use modelcheck::{
    check, check_with_checkpoints, CheckpointError, Checkpoints, Encoded, Model, Options,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::ffi::OsString;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

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
/// [`EXIT_INTERRUPTED`](crate::EXIT_INTERRUPTED).
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
    if argv.first().is_some_and(|word| word == "explore") {
        return explore(&argv[1..], out, err, stop);
    }
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
    let mut options = match options(&cli, stop) {
        Ok(options) => options,
        Err(status) => return status.print(err),
    };
    let skip_liveness = not_checked_with(&cli);
    if let (Some(why), false) = (skip_liveness, cli.check.search.property.is_empty()) {
        return Failed::Usage(format!("--property checks liveness, but {why}")).print(err);
    }
    if let Some(walks) = cli.check.simulation.simulate {
        let simulation = Simulation::new(&cli, &options, walks, out);
        return match with_model(&cli.check.model, cli.check.size(), simulation) {
            Ok(status) => status,
            Err(message) => Failed::Usage(message).print(err),
        };
    }
    if let Some(processes) = cli.dist.local {
        return local::launch(processes, &argv, options.stop.as_deref(), out, err);
    }
    if cli.dist.is_distributed() && started_by_launcher() {
        let stop = options.stop.get_or_insert_with(Arc::default);
        launcher_watch::watch(Arc::clone(stop), cli.dist.hostfile.clone());
    }
    let target = match target(&cli) {
        Ok(target) => target,
        Err(status) => return status.print(err),
    };
    let run = Run {
        options,
        target,
        encoded: cli.check.storage.encoded_states,
        skip_liveness,
        out,
        err: &mut *err,
    };
    match with_model(&cli.check.model, cli.check.size(), run) {
        Ok(status) => status,
        Err(message) => Failed::Usage(message).print(err),
    }
}

/// A run that cannot start or finish, and how it is printed.
enum Failed {
    /// A usage error, in clap's format; status [`EXIT_USAGE`].
    Usage(String),
    /// An error; status [`EXIT_ERROR`].
    Error(String),
    /// Stopped by a signal before the search started; status [`EXIT_INTERRUPTED`].
    Interrupted(String),
}

impl Failed {
    /// Prints it to `err`; returns the exit status.
    fn print(self, err: &mut dyn Write) -> i32 {
        match self {
            Failed::Usage(message) => {
                let _ = write!(err, "{}", usage_error(&message));
                EXIT_USAGE
            }
            Failed::Error(message) => {
                let _ = writeln!(err, "error: {message}");
                EXIT_ERROR
            }
            Failed::Interrupted(message) => {
                let _ = writeln!(err, "{message}: nothing was searched");
                EXIT_INTERRUPTED
            }
        }
    }
}

/// A checkpoint that cannot be used: a usage error (status 2) for one of another model, size,
/// mode or options or an unwritable `--checkpoint`, an error (status 3) for a file that
/// cannot be read as a checkpoint.
impl From<CheckpointError> for Failed {
    fn from(e: CheckpointError) -> Failed {
        let text = checkpoint_error_text(&e);
        match e {
            CheckpointError::Unreadable(_) => Failed::Error(text),
            _ => Failed::Usage(text),
        }
    }
}

/// The search options of `cli`, with the mode and sizes of the checkpoint it resumes, and
/// `stop`.
fn options(cli: &Cli, stop: Option<Arc<AtomicBool>>) -> Result<Options, Failed> {
    let resumed = match &cli.check.checkpoint.resume {
        Some(path) if cli.dist.is_distributed() => Some(cli.dist.resume_header(path)?),
        Some(path) => Some(modelcheck::read_checkpoint_header(path)?),
        None => None,
    };
    let options = cli
        .check
        .resolve_resuming(resumed.as_ref())
        .map_err(Failed::Usage)?;
    Ok(Options { stop, ..options })
}

/// Where the model is checked: on this machine, or as one process of a cluster.
enum Target {
    Single(Checkpoints),
    Distributed(Cluster, DistCheckpoints),
}

/// The target of `cli` (not `--local`), with its checkpoints.
fn target(cli: &Cli) -> Result<Target, Failed> {
    let flags = &cli.check.checkpoint;
    let every = Duration::from_secs_f64(flags.checkpoint_every.unwrap_or(DEFAULT_CHECKPOINT_SECS));
    if cli.dist.is_distributed() {
        let cluster = cli
            .dist
            .cluster()
            .map_err(|e| Failed::Usage(cluster_error_text(&e)))?;
        let checkpoints = DistCheckpoints {
            save_to: flags.checkpoint.clone(),
            every,
            resume_from: flags.resume.clone(),
        };
        return Ok(Target::Distributed(cluster, checkpoints));
    }
    let dist = &cli.dist;
    if dist.connect_timeout.is_some() || dist.sent_filter.is_some() || dist.peer_timeout.is_some() {
        return Err(Failed::Usage(
            "--connect-timeout, --peer-timeout and --sent-filter apply to distributed runs only \
             (--local, --processes or --workers)"
                .into(),
        ));
    }
    Ok(Target::Single(Checkpoints {
        save_to: flags.checkpoint.clone(),
        every,
        resume_from: flags.resume.clone(),
    }))
}

/// The run dispatch: the model the command line names, checked at its target and reported.
struct Run<'a> {
    options: Options,
    target: Target,
    /// `--encoded-states`: the model runs as [`Encoded`].
    encoded: bool,
    /// Why liveness is not checked, if it is not.
    skip_liveness: Option<&'static str>,
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
            target,
            encoded,
            skip_liveness,
            out,
            err,
        } = self;
        let declared = model
            .initial_states()
            .first()
            .map(|s| model.canonical(s).is_some());
        if options.symmetry && declared == Some(false) {
            let text = format!(
                "--symmetry: the model {} declares no symmetry",
                model.name()
            );
            return Failed::Usage(text).print(err);
        }
        if let Some(message) = unknown_property(&model, &options) {
            return Failed::Usage(message).print(err);
        }
        let printed = match target {
            Target::Single(checkpoints) if encoded => {
                let model = Encoded::new(model);
                single(&model, &options, &checkpoints, skip_liveness, out)
            }
            Target::Single(checkpoints) => {
                single(&model, &options, &checkpoints, skip_liveness, out)
            }
            Target::Distributed(cluster, checkpoints) => {
                cluster_process(model, &options, &cluster, &checkpoints, out)
            }
        };
        printed.unwrap_or_else(|failed| failed.print(err))
    }
}

/// Checks `model` on this machine (with checkpoints when asked) and prints the report, then
/// checks its liveness properties unless `skip_liveness` says why not.
fn single<M: Model>(
    model: &M,
    options: &Options,
    checkpoints: &Checkpoints,
    skip_liveness: Option<&str>,
    out: &mut dyn Write,
) -> Result<i32, Failed>
where
    M::State: Serialize + DeserializeOwned,
{
    let report = if checkpoints.save_to.is_some() || checkpoints.resume_from.is_some() {
        check_with_checkpoints(model, options, checkpoints)?
    } else {
        check(model, options)
    };
    let status = print_report(model, options, &report, out);
    let written = after_safety(model, options, &report, status, skip_liveness, out);
    Ok(finish_liveness(status, written, out))
}

/// The status once the liveness section is written (see [`crate::report::finish`]).
fn finish_liveness(status: i32, written: std::io::Result<i32>, out: &mut dyn Write) -> i32 {
    match written {
        Ok(status) => crate::report::finish(status, out.flush()),
        Err(e) => crate::report::finish(status, Err(e)),
    }
}

/// Checks `model` as one process of `cluster` and prints the run's report.
fn cluster_process<M: Model>(
    model: M,
    options: &Options,
    cluster: &Cluster,
    checkpoints: &DistCheckpoints,
    out: &mut dyn Write,
) -> Result<i32, Failed>
where
    M::State: Serialize + DeserializeOwned,
{
    let model = Arc::new(model);
    match distributed::check_with_checkpoint_parts(
        Arc::clone(&model),
        options,
        cluster,
        checkpoints,
    ) {
        Ok(report) => {
            let status = print_distributed(&*model, options, &report, out);
            let names = liveness_names(&*model);
            let complete = matches!(report.report.verdict, modelcheck::Verdict::Complete);
            if !names.is_empty() && complete && cluster.process == 0 {
                let _ = writeln!(
                    out,
                    "liveness: {} properties not checked: a distributed run checks invariants only",
                    names.len()
                );
            }
            Ok(status)
        }
        Err(ClusterError::Usage(message)) => Err(Failed::Usage(message)),
        Err(e @ ClusterError::Misconfigured(_)) => Err(Failed::Usage(cluster_error_text(&e))),
        Err(e @ ClusterError::Interrupted) => Err(Failed::Interrupted(e.to_string())),
        Err(e) => Err(Failed::Error(cluster_error_text(&e))),
    }
}
