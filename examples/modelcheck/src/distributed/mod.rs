//! The distributed checker: the breadth-first search hash-partitioned over processes (and
//! threads) with timely dataflow.
//!
//! Every state has one owner among the run's `processes × workers` timely workers, chosen by
//! [`searchcache::StateHash::owner`] from the state's portable hash ([`portable_key`]: XXH3-128 of
//! its bincode encoding, the same on every machine). Each worker keeps the states it owns in its
//! own visited set (any [`Mode`](crate::Mode)), expands its part of each level, inserts its own
//! successors and sends the others to their owners through timely's `exchange`, less the
//! duplicates its [`SentFilter`] remembers sending; timely's progress tracking ends each
//! level. The counts, depth and first violation level are those of one process; a
//! counterexample is rebuilt across the workers' link logs and replayed before it is returned.
//!
//! Not here (yet): a distributed run checks invariants and deadlocks only. Its report lists no
//! `sometimes` property ([`crate::Report::sometimes`] is empty, claiming nothing about them),
//! and [`Options::symmetry`] is refused as a usage error before any connection.
//!
//! ```no_run
//! use modelcheck::distributed::{
//!     check, Cluster, DEFAULT_CONNECT_TIMEOUT, DEFAULT_PEER_TIMEOUT, DEFAULT_SENT_FILTER,
//! };
//! use modelcheck::models::two_phase::TwoPhase;
//! use modelcheck::Options;
//!
//! // Process 1 of 2 (process 0 runs the same with `process: 0`).
//! let cluster = Cluster {
//!     addresses: vec!["10.0.0.1:2101".into(), "10.0.0.2:2101".into()],
//!     process: 1,
//!     workers: 1,
//!     connect_timeout: DEFAULT_CONNECT_TIMEOUT,
//!     sent_filter: DEFAULT_SENT_FILTER,
//!     peer_timeout: DEFAULT_PEER_TIMEOUT,
//! };
//! let report = check(TwoPhase::new(5)?, &Options::default(), &cluster)?;
//! assert_eq!(report.report.stats.states, 8_832);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Only this path needs `Model::State: Serialize + DeserializeOwned`; [`crate::check`] does not.

mod checkpoint;
mod cluster;
mod dataflow;
mod expansion;
mod messages;
mod misconfiguration;
mod outcome;
mod owned;
mod parcel;
mod search;
mod sent;
mod watchdog;
mod wire;

pub use checkpoint::{read_headers, DistCheckpoints};
pub use cluster::{
    Cluster, ClusterError, DEFAULT_CONNECT_TIMEOUT, DEFAULT_SENT_FILTER, MAX_WORKERS,
};
pub use misconfiguration::Misconfiguration;
pub use outcome::{DistributedReport, ProcessStats};
pub use search::portable_key;
pub use sent::{SentFilter, MAX_SLOTS as MAX_SENT_FILTER_SLOTS};
pub use watchdog::DEFAULT_PEER_TIMEOUT;

use crate::bfs::Options;
use crate::model::Model;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::Arc;
use timely::communication::allocator::zero_copy::initialize::{
    initialize_networking_from_sockets, CommsGuard,
};
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};
use wire::{Counted, Traffic};

/// Describes the run for the handshake: processes that would not check the same thing (model,
/// size, mode, memory, deadlock and depth flags, checker version, portable hash) refuse each
/// other.
pub fn run_description<M: Model>(model: &M, options: &Options) -> String {
    format!(
        "modelcheck {} hash={} {} mode={} memory={} deadlock={} max-depth={:?}",
        env!("CARGO_PKG_VERSION"),
        searchcache::consts::PORTABLE_HASH,
        model.name(),
        options.mode.name(),
        options.memory_bytes,
        options.deadlock && model.deadlock_is_error(),
        options.max_depth
    )
}

/// Checks `model` as process `cluster.process` of the cluster, with `cluster.workers` timely
/// workers here; every process of the cluster calls this with the same model and options, and
/// every one gets the same report (the whole run's totals and per-process figures).
///
/// `model` may be shared (an `Arc`) with the caller, which keeps it for printing the trace.
/// `options.memory_bytes` is this process's visited storage, split evenly over its workers;
/// `options.threads` and `options.schedule` are not used (the workers are the threads).
///
/// Errors: a bad cluster or processes that disagree on the run ([`ClusterError::Usage`]), a peer
/// not reached within `cluster.connect_timeout`, lost mid-run, or silent for
/// `cluster.peer_timeout` while this process waits for it ([`ClusterError::Peer`], which names
/// it: this process stops instead of waiting), a failure of this process
/// ([`ClusterError::Other`]). A full visited set on any process is not an error here: every
/// process stops with [`Verdict::Full`](crate::Verdict::Full), which names it and the bytes
/// needed.
pub fn check<M>(
    model: impl Into<Arc<M>>,
    options: &Options,
    cluster: &Cluster,
) -> Result<DistributedReport<M>, ClusterError>
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    check_with_checkpoint_parts(model, options, cluster, &DistCheckpoints::default())
}

/// [`check`] with checkpoint parts ([`DistCheckpoints`]: one file per worker): every worker of this
/// process reads its part from `checkpoints.resume_from` before any peer is contacted (the
/// resumed run reports what an uninterrupted one reports), and saves its part to
/// `checkpoints.save_to` at the level boundaries every worker agrees on.
///
/// Errors, as [`check`]'s, and before any connection: a part of another run, N, process,
/// model, size, mode or options (a [`ClusterError::Usage`]), a missing or unreadable part, a
/// `save_to` that cannot be written. Processes whose parts are of different levels refuse each
/// other in their handshake (a usage error).
pub fn check_with_checkpoint_parts<M>(
    model: impl Into<Arc<M>>,
    options: &Options,
    cluster: &Cluster,
    checkpoints: &DistCheckpoints,
) -> Result<DistributedReport<M>, ClusterError>
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let model: Arc<M> = model.into();
    if options.symmetry {
        return Err(ClusterError::Usage(
            "a distributed run does not support symmetry reduction: check the model on one machine"
                .into(),
        ));
    }
    cluster.validate()?;
    let (resumed, description) = read_parts(&*model, options, cluster, checkpoints)?;
    let traffic = Arc::new(Traffic::default());
    let (builders, comms) =
        communication(cluster, &description, &traffic, options.stop.as_deref())?;
    let workers = cluster.workers;
    let (sent_filter, peer_timeout) = (cluster.sent_filter, cluster.peer_timeout);
    let checkpoints = checkpoints.clone();
    let shared_model = Arc::clone(&model);
    let shared_traffic = Arc::clone(&traffic);
    let options = options.clone();
    let resumed = std::sync::Mutex::new(resumed);
    let guards = timely::execute::execute_from(
        builders,
        Box::new(()),
        timely::WorkerConfig::default(),
        move |worker| {
            let setup = search::Setup {
                model: &*shared_model,
                options: &options,
                workers,
                traffic: &shared_traffic,
                sent_filter,
                peer_timeout,
                checkpoints: &checkpoints,
            };
            let part = resumed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_mut(worker.index() % workers)
                .and_then(Option::take);
            let result = search::run(worker, &setup, part);
            if result.is_err() {
                // Let the peers know at once, and end this worker without waiting for
                // progress that will not come.
                shared_traffic.close_all();
                for dataflow in worker.installed_dataflows() {
                    worker.drop_dataflow(dataflow);
                }
            }
            result
        },
    )
    .map_err(ClusterError::Other)?;
    let first = first_result(guards.join(), cluster, &traffic, comms)?;
    Ok(DistributedReport {
        report: first.report,
        processes: first.processes,
        workers,
    })
}

/// What a worker of this process resumes from: its checkpoint part, when the run resumes.
type ResumedParts<S> = Vec<Option<checkpoint::Resumed<S>>>;

/// Checks that `checkpoints.save_to` can hold this process's parts, and reads the parts it
/// resumes (each checked before any peer is contacted). Returns them, one per worker, with
/// the run's description for the handshake (which names the resumed level, so that parts of
/// different levels do not meet).
fn read_parts<M>(
    model: &M,
    options: &Options,
    cluster: &Cluster,
    checkpoints: &DistCheckpoints,
) -> Result<(ResumedParts<M::State>, String), ClusterError>
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let workers = cluster.workers;
    let peers = cluster.processes() * workers;
    let parts = || checkpoint::parts_of(cluster.process, cluster.processes(), workers);
    let checkpoint_error = |e: crate::checkpoint::CheckpointError| match e {
        crate::checkpoint::CheckpointError::Unreadable(why) => ClusterError::Other(why),
        other => ClusterError::Usage(other.to_string()),
    };
    if let Some(dir) = &checkpoints.save_to {
        for part in parts() {
            checkpoint::check_save_dir(dir, part).map_err(checkpoint_error)?;
        }
    }
    let mut description = run_description(model, options);
    let Some(dir) = &checkpoints.resume_from else {
        return Ok(((0..workers).map(|_| None).collect(), description));
    };
    checkpoint::read_headers(dir, cluster.processes(), Some(cluster.process), workers)
        .map_err(checkpoint_error)?;
    let mut resumed = Vec::with_capacity(workers);
    for part in parts() {
        let r =
            checkpoint::read_part(dir, part, model, options, peers).map_err(checkpoint_error)?;
        resumed.push(Some(r));
    }
    if let Some(Some(r)) = resumed.first() {
        description += &format!(
            " resumed-depth={} states={}",
            r.header.depth, r.header.states
        );
    }
    Ok((resumed, description))
}

/// Timely's communication for this process's workers: threads of one process, or the
/// cluster's sockets (connected and checked by [`Cluster::connect_until`], given up when
/// `stop` is set), counted in `traffic`.
/// The second value holds timely's send and receive threads, when there are sockets.
fn communication(
    cluster: &Cluster,
    description: &str,
    traffic: &Arc<Traffic>,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<(Vec<AllocatorBuilder>, Option<CommsGuard>), ClusterError> {
    if cluster.processes() == 1 {
        let (builders, _) = timely::CommunicationConfig::Process(cluster.workers)
            .try_build()
            .map_err(ClusterError::Other)?;
        return Ok((builders, None));
    }
    let streams = cluster.connect_until(description, stop)?;
    let mut counted = Vec::new();
    for (peer, stream) in streams.into_iter().enumerate() {
        counted.push(match stream {
            Some(stream) => {
                let copy = stream
                    .try_clone()
                    .map_err(|e| ClusterError::Other(format!("socket: {e}")))?;
                traffic.keep(copy);
                Some(Counted::new(stream, peer, Arc::clone(traffic)))
            }
            None => None,
        });
    }
    let hooks = Hooks::default();
    let local = ProcessBuilder::new_typed_vector(cluster.workers, hooks.refill.clone(), None);
    let (tcp, comms) =
        initialize_networking_from_sockets(local, counted, cluster.process, cluster.workers, hooks)
            .map_err(|e| ClusterError::Other(format!("timely networking: {e}")))?;
    let builders = tcp.into_iter().map(AllocatorBuilder::Tcp).collect();
    Ok((builders, Some(comms)))
}

/// What one worker's closure returns: the report on the process's first worker, or an error.
type WorkerOutcome<M> = Result<Option<search::WorkerResult<M>>, String>;

/// The result of this process's first worker, once every worker has ended; the first failure
/// otherwise (a lost peer named, when there is one).
fn first_result<M: Model>(
    results: Vec<Result<WorkerOutcome<M>, String>>,
    cluster: &Cluster,
    traffic: &Traffic,
    comms: Option<CommsGuard>,
) -> Result<search::WorkerResult<M>, ClusterError> {
    let peer_fault = || {
        traffic
            .fault()
            .map(|(process, fault)| cluster.stopped_by(process, fault))
    };
    let mut first = None;
    let mut failure = None;
    for result in results {
        match result {
            Ok(Ok(Some(result))) => first = Some(result),
            Ok(Ok(None)) => {}
            Ok(Err(e)) => {
                let fault = peer_fault().unwrap_or(ClusterError::Other(e));
                failure = failure.or(Some(fault));
            }
            Err(panic) => {
                let fault = peer_fault()
                    .unwrap_or_else(|| ClusterError::Other(format!("a worker failed: {panic}")));
                failure = failure.or(Some(fault));
            }
        }
    }
    if let Some(failure) = failure {
        // Close every socket so that the peers see it at once, and leave timely's
        // communication threads behind (parked by `Counted`): joining them would wait forever.
        traffic.close_all();
        std::mem::forget(comms);
        return Err(failure);
    }
    if let Some(comms) = comms {
        // Joins timely's send and receive threads, which end with the peers' clean shutdown.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(comms))).is_err() {
            return Err(peer_fault()
                .unwrap_or_else(|| ClusterError::Other("a communication thread failed".into())));
        }
    }
    first.ok_or_else(|| ClusterError::Other("no worker reported".into()))
}
