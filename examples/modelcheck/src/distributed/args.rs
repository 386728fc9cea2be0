//! The distributed checker's command-line flags (a `#[command(flatten)]` group of the
//! `modelcheck` parser) and the run they start.

use super::checkpoint::{read_headers, DistCheckpoints};
use super::{
    check_with_checkpoint_parts, local, report, Cluster, ClusterError, DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_SENT_FILTER,
};
use crate::bfs::Options;
use crate::checkpoint::{CheckpointError, Header};
use crate::cli::{usage_error, Cli, EXIT_ERROR, EXIT_USAGE};
use crate::model::Model;
use crate::models::{with_model, WithModel};
use clap::Args;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The most processes of a run (`--processes`, `--local`).
pub const MAX_PROCESSES: usize = 1024;

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
    let most = super::sent::MAX_SLOTS;
    text.parse::<usize>()
        .ok()
        .filter(|n| *n <= most)
        .ok_or_else(|| format!("takes 0 to {most} slots, got `{text}`"))
}

fn parse_processes(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_PROCESSES).contains(n))
        .ok_or_else(|| format!("takes 1 to {MAX_PROCESSES} processes, got `{text}`"))
}

fn parse_workers(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=crate::cli::MAX_THREADS).contains(n))
        .ok_or_else(|| {
            format!(
                "takes 1 to {} workers, got `{text}`",
                crate::cli::MAX_THREADS
            )
        })
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
                peer_timeout: super::DEFAULT_PEER_TIMEOUT,
            },
        };
        cluster.connect_timeout = self.connect_timeout();
        cluster.peer_timeout = self
            .peer_timeout
            .map_or(super::DEFAULT_PEER_TIMEOUT, Duration::from_secs);
        cluster.sent_filter = self.sent_filter.unwrap_or(DEFAULT_SENT_FILTER);
        Ok(cluster)
    }
}

impl DistArgs {
    /// The header of the checkpoint parts in `dir` that this run resumes: every process's
    /// (`--local N`), or this process's (`--processes N --process I`, `--workers W`), each part
    /// checked to be there, of this N, process and workers, and of one level.
    pub fn resume_header(&self, dir: &std::path::Path) -> Result<Header, CheckpointError> {
        let workers = self.workers.unwrap_or(1);
        match (self.local, self.processes, self.process) {
            (Some(n), _, _) => read_headers(dir, n, None, workers),
            (None, Some(n), Some(i)) if i < n => read_headers(dir, n, Some(i), workers),
            (None, Some(n), Some(i)) => Err(CheckpointError::Mismatch(format!(
                "--process {i} is out of range for --processes {n}"
            ))),
            _ => read_headers(dir, 1, Some(0), workers),
        }
    }
}

/// Runs a distributed command line: `--local N` starts the processes and prints their combined
/// report; otherwise this is one process of the cluster. Returns the exit status.
pub fn run(
    cli: &Cli,
    options: Options,
    argv: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if let Some(processes) = cli.dist.local {
        return local::launch(processes, argv, options.stop.as_deref(), out, err);
    }
    let cluster = match cli.dist.cluster() {
        Ok(cluster) => cluster,
        Err(e) => {
            let _ = write!(err, "{}", usage_error(&e.to_string()));
            return EXIT_USAGE;
        }
    };
    let flags = &cli.check.checkpoint;
    let checkpoints = DistCheckpoints {
        save_to: flags.checkpoint.clone(),
        every: Duration::from_secs_f64(
            flags
                .checkpoint_every
                .unwrap_or(crate::cli::DEFAULT_CHECKPOINT_SECS),
        ),
        resume_from: flags.resume.clone(),
    };
    let visit = Distributed {
        options,
        cluster,
        checkpoints,
        out,
        err,
    };
    match with_model(&cli.check.model, cli.check.size(), visit) {
        Ok(status) => status,
        Err(message) => {
            let _ = write!(err, "{}", usage_error(&message));
            EXIT_USAGE
        }
    }
}

struct Distributed<'a> {
    options: Options,
    cluster: Cluster,
    checkpoints: DistCheckpoints,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl WithModel for Distributed<'_> {
    type Output = i32;

    fn visit<M: Model>(self, model: M) -> i32
    where
        M::State: Serialize + DeserializeOwned,
    {
        let Distributed {
            options,
            cluster,
            checkpoints,
            out,
            err,
        } = self;
        let model = std::sync::Arc::new(model);
        match check_with_checkpoint_parts(
            std::sync::Arc::clone(&model),
            &options,
            &cluster,
            &checkpoints,
        ) {
            Ok(report) => report::print(&*model, &options, &report, out),
            Err(ClusterError::Usage(message)) => {
                let _ = write!(err, "{}", usage_error(&message));
                EXIT_USAGE
            }
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                EXIT_ERROR
            }
        }
    }
}
