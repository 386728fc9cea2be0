//! One timely worker's part of the distributed search: it owns the states whose
//! [`StateHash::owner`] is its index, keeps them in its own visited set, expands its frontier
//! level by level, and sends every successor to its owner through timely's exchange pact: its
//! own successors go straight into its set, and the others pass its [`SentFilter`] first, which
//! drops the duplicates it remembers sending, and go in [`Parcel`]s of encoded records, one
//! destination each.
//!
//! A level is two timely rounds, each ended by progress tracking (a probe passing the epoch):
//! 1. the successors of level `d`, at epoch `d` of the states input: when the probe passes `d`
//!    every worker has inserted every successor meant for it, and its new states are its part
//!    of level `d + 1`;
//! 2. a summary per worker to every worker (new states, a deadlock or violation, a full table,
//!    totals), at the next epoch of the control input: every worker then takes the same
//!    decision (go on, stop at a counterexample, stop with an error).
//!
//! A counterexample is rebuilt with one control round per step back: the owner of the state
//! broadcasts its link (parent's worker, parent's index, step position), which names the next
//! owner to ask; then the process's first worker replays the path against the model.

use super::checkpoint::{
    part_path, settle_part, write_part, DistCheckpoints, Resumed, WorkerProgress,
};
use super::messages::{Control, Summary, Totals, WireFull, WireStorage};
use super::outcome::ProcessStats;
use super::parcel::{Link, Parcel, Parcels, ToOwner};
use super::sent::SentFilter;
use super::watchdog::Watchdog;
use super::wire::Traffic;
use crate::bfs::{Options, Stats, Verdict};
use crate::check::{Report, Saved};
use crate::checkpoint::{self, Part};
use crate::model::{Invariant, Model};
use crate::reporter::Progress;
use crate::trace::{replay, Failure};
use crate::visited::Storage;
use crate::visited::{Mode, TableFull, Visited};
use searchcache::StateHash;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;
use std::time::{Duration, Instant};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{DistributorPact, Pipeline};
use timely::dataflow::operators::{Exchange, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// States expanded between two steps of the worker, so that successors keep flowing to their
/// owners (and into their sets) while a level is expanded, instead of queueing.
const STEP_EVERY: usize = 256;

/// A worker's own successors wait in a batch this long before they go into its set, so that
/// the lines prefetched when they were made have arrived.
const LOCAL_BATCH: usize = 64;

/// How many successors ahead of its insert a received successor's line is prefetched.
const PREFETCH_AHEAD: usize = 64;

/// How long a waiting worker parks before it looks for a lost peer again.
const POLL: Duration = Duration::from_millis(20);

/// The message of a run that lost a peer (the peer itself is in [`Traffic::fault`]).
const LOST: &str = "a peer was lost";

/// Control messages waiting to be sent, to their worker.
type Outbox<S> = RefCell<InputHandle<u64, CapacityContainerBuilder<Vec<(u16, Control<S>)>>>>;

/// Steps `worker` until `probe` has passed `epoch`, sending heartbeats through `control` to
/// the other processes meanwhile; `Err` when a peer is lost, or silent for the watchdog's
/// timeout.
fn wait_for<S: Clone + 'static>(
    worker: &mut Worker,
    probe: &ProbeHandle<u64>,
    epoch: u64,
    traffic: &Traffic,
    watch: &Watchdog<'_>,
    control: &Outbox<S>,
    workers: usize,
) -> Result<(), String> {
    while probe.less_than(&epoch) {
        if traffic.fault().is_some() || watch.silent_peer().is_some() {
            return Err(LOST.into());
        }
        let beats = watch.beat_due();
        if !beats.is_empty() {
            let mut control = control.borrow_mut();
            for process in beats {
                control.send(((process * workers) as u16, Control::Heartbeat));
            }
            control.flush();
        }
        worker.step_or_park(Some(POLL));
    }
    Ok(())
}

/// The link recorded for an initial state's parent worker.
const INITIAL: u16 = u16::MAX;

/// The portable hash of a state: XXH3-128 ([`StateHash::portable`]) of its bincode encoding,
/// identical on every machine and build, so every process agrees on every state's owner.
pub fn portable_key<S: Serialize>(state: &S, buffer: &mut Vec<u8>) -> Result<StateHash, String> {
    buffer.clear();
    encode_key(state, buffer).map(|(key, _)| key)
}

/// [`portable_key`] of a state encoded at the end of `encodings`: its key, and where its
/// encoding lies there.
#[inline(always)]
fn encode_key<S: Serialize>(
    state: &S,
    encodings: &mut Vec<u8>,
) -> Result<(StateHash, Range<usize>), String> {
    let start = encodings.len();
    if let Err(e) = bincode::serialize_into(&mut *encodings, state) {
        // A failed encoding takes no room: the next one starts where this one would have.
        encodings.truncate(start);
        return Err(format!("cannot serialize a state: {e}"));
    }
    Ok((
        StateHash::portable(&encodings[start..]),
        start..encodings.len(),
    ))
}

/// One level's trace links of one worker, in the order of its part of the level: for each
/// state, its parent's worker and index in its level, and its step's position.
#[derive(Default, Serialize, Deserialize)]
pub struct Links {
    pub(super) parent_worker: Vec<u16>,
    pub(super) parent: Vec<u32>,
    pub(super) ordinal: Vec<u16>,
}

impl Links {
    /// Whether the three columns have one entry per state (a checkpoint read back).
    pub fn consistent(&self) -> bool {
        self.parent_worker.len() == self.parent.len() && self.ordinal.len() == self.parent.len()
    }

    fn push(&mut self, parent_worker: u16, parent: u32, ordinal: u16) {
        self.parent_worker.push(parent_worker);
        self.parent.push(parent);
        self.ordinal.push(ordinal);
    }

    fn bytes(&self) -> usize {
        self.parent_worker.capacity() * 2 + self.parent.capacity() * 4 + self.ordinal.capacity() * 2
    }
}

/// A new state that violates an invariant: its index in the level, the invariant, the state.
type Violation<S> = (u32, String, S);

/// A worker's part of a level, once its successors are in: states, links, a violation.
type Level<S> = (Vec<S>, Links, Option<Violation<S>>);

/// Control messages received, with the epoch they were sent at.
type Inbox<S> = Rc<RefCell<Vec<(u64, Control<S>)>>>;

/// What the insert operator fills while a level's successors arrive.
struct Owned<M: Model> {
    visited: Visited<M::State>,
    invariants: Vec<Invariant<M::State>>,
    /// New states, in arrival order: this worker's part of the next level.
    next: Vec<M::State>,
    links: Links,
    violation: Option<Violation<M::State>>,
    full: Option<WireFull>,
    error: Option<String>,
    looked_up: u64,
}

impl<M: Model> Owned<M> {
    fn insert(&mut self, key: StateHash, state: M::State, parent_worker: u16, parent: u32, k: u16) {
        self.looked_up += 1;
        if self.full.is_some() || self.error.is_some() {
            return;
        }
        match self.visited.insert(&state, key) {
            Ok(false) => {}
            Ok(true) => {
                let index = self.next.len();
                if index >= u32::MAX as usize {
                    self.error = Some(format!(
                        "a worker's part of a level holds {index} states; the trace log \
                         indexes at most {}",
                        u32::MAX
                    ));
                    return;
                }
                if self.violation.is_none() {
                    if let Some(inv) = self.invariants.iter().find(|inv| !(inv.holds)(&state)) {
                        self.violation = Some((index as u32, inv.name.to_string(), state.clone()));
                    }
                }
                self.next.push(state);
                self.links.push(parent_worker, parent, k);
            }
            Err(full) => {
                self.full = Some(WireFull {
                    capacity: full.capacity as u64,
                    bytes_per_state: full.bytes_per_state as u64,
                    load: full.load,
                });
            }
        }
    }

    /// Takes this level's results, leaving empty buffers for the next level's arrivals.
    fn take_level(&mut self) -> Level<M::State> {
        (
            std::mem::take(&mut self.next),
            std::mem::take(&mut self.links),
            self.violation.take(),
        )
    }
}

/// Where one successor of the state being expanded goes.
#[derive(Clone, Copy)]
enum Placement {
    /// Its portable key, and where its encoding ends in its state's successors' encodings
    /// (it starts where the one before ends).
    To(StateHash, usize),
    /// It is the state itself.
    Itself,
    /// It could not be serialized (the error is recorded).
    Failed,
}

/// Inserts a worker's own successors waiting in `local` (their lines prefetched), whose parents
/// are its states.
fn insert_local<M: Model>(
    owned: &mut Owned<M>,
    local: &mut Vec<(StateHash, M::State, u32, u16)>,
    me: usize,
) {
    for (key, state, parent, k) in local.drain(..) {
        owned.insert(key, state, me as u16, parent, k);
    }
}

/// Where a counterexample ends: the owner, the level, the index in the owner's part.
#[derive(Clone, Copy)]
struct Location {
    worker: usize,
    level: usize,
    index: u32,
}

/// What the process's first worker returns.
pub struct WorkerResult<M: Model> {
    /// The totals and verdict, as one process would report them.
    pub report: Report<M>,
    /// Per process.
    pub processes: Vec<ProcessStats>,
}

/// The parameters every worker of the run shares.
pub struct Setup<'a, M: Model> {
    /// The model.
    pub model: &'a M,
    /// The search options (`memory_bytes` is this process's, split over its workers).
    pub options: &'a Options,
    /// Workers per process.
    pub workers: usize,
    /// This process's socket counters.
    pub traffic: &'a Traffic,
    /// Slots of each worker's [`SentFilter`] (0: none).
    pub sent_filter: usize,
    /// How long a peer process may send nothing while this one waits for it.
    pub peer_timeout: Duration,
    /// Where and when to save checkpoints (the resumed parts come to [`run`] apart).
    pub checkpoints: &'a DistCheckpoints,
}

/// Runs one worker's part of the search, from its checkpoint part `resumed` if given. Returns
/// the report on the process's first worker (`None` on the others), or an error message.
pub fn run<M>(
    worker: &mut Worker,
    setup: &Setup<'_, M>,
    resumed: Option<Resumed<M::State>>,
) -> Result<Option<WorkerResult<M>>, String>
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let started = Instant::now();
    let Setup {
        model,
        options,
        workers,
        traffic,
        sent_filter,
        peer_timeout,
        checkpoints,
    } = *setup;
    let me = worker.index();
    let peers = worker.peers();
    let first_of_process = me.is_multiple_of(workers);
    let memory = (options.memory_bytes / workers).max(1);
    let (visited, resumed) = match resumed {
        Some(r) => (r.visited, Some((r.header, r.progress))),
        None => (Visited::new(options.mode, memory, options.hashes)?, None),
    };
    let watch = Watchdog::new(traffic, peer_timeout, me / workers, peers / workers);
    let part = Part {
        process: (me / workers) as u32,
        processes: (peers / workers) as u32,
        worker: (me % workers) as u32,
        workers: workers as u32,
    };
    // The exact set tells states apart by value; the others by their key alone.
    let mut sent = SentFilter::new(sent_filter, options.mode == Mode::Exact)?;
    let mut dropped_for = vec![0u64; peers];
    let mut local: Vec<(StateHash, M::State, u32, u16)> = Vec::with_capacity(LOCAL_BATCH);
    // The successors of the state being expanded, and of the one before (placed now).
    let (mut made, mut ready) = (Vec::new(), Vec::new());
    // Their encodings, hashed for their keys and copied into parcels for their owners.
    let (mut encodings, mut ready_encodings) = (Vec::new(), Vec::new());
    let (mut placements, mut ready_placements): (Vec<Placement>, Vec<Placement>) =
        Default::default();
    let mut ready_parent = 0u32;
    let owned = Rc::new(RefCell::new(Owned::<M> {
        visited,
        invariants: model.invariants(),
        next: Vec::new(),
        links: Links::default(),
        violation: None,
        full: None,
        error: None,
        looked_up: 0,
    }));
    let inbox: Inbox<M::State> = Rc::default();
    let mut states_in = InputHandle::<u64, Parcels>::new_with_builder();
    let control_in: Outbox<M::State> = RefCell::new(InputHandle::new());
    let states_probe = ProbeHandle::new();
    let control_probe = ProbeHandle::new();
    worker.dataflow::<u64, _, _>(|scope| {
        let insert_into = Rc::clone(&owned);
        // Timely's exchange pact, with parcels of encoded successors for one worker each.
        let to_owner = DistributorPact(|_peers: usize| ToOwner);
        let mut keys: Vec<StateHash> = Vec::new();
        let mut arrived: Vec<(M::State, Link)> = Vec::new();
        states_in
            .to_stream(scope)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(to_owner, "Insert", |_, _| {
                move |input, _output| {
                    input.for_each(|_time, parcel: &mut Parcel| {
                        let mut owned = insert_into.borrow_mut();
                        keys.clear();
                        arrived.clear();
                        let decoded = parcel.decode(|key, state, link| {
                            keys.push(key);
                            arrived.push((state, link));
                        });
                        if let Err(e) = decoded {
                            // Recorded; `insert` does nothing more once there is an error.
                            owned.error.get_or_insert(e);
                        }
                        // Load the lines `PREFETCH_AHEAD` successors ahead of the insert, so
                        // that the inserts' cache misses overlap instead of queueing.
                        for &key in keys.iter().take(PREFETCH_AHEAD) {
                            owned.visited.prefetch(key);
                        }
                        for (i, (state, link)) in arrived.drain(..).enumerate() {
                            if let Some(&ahead) = keys.get(i + PREFETCH_AHEAD) {
                                owned.visited.prefetch(ahead);
                            }
                            let Link {
                                parent_worker,
                                parent,
                                ordinal,
                            } = link;
                            owned.insert(keys[i], state, parent_worker, parent, ordinal);
                        }
                    });
                }
            })
            .probe_with(&states_probe);
        let deliver_to = Rc::clone(&inbox);
        control_in
            .borrow_mut()
            .to_stream(scope)
            .exchange(|(to, _): &(u16, Control<M::State>)| *to as u64)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(Pipeline, "Deliver", |_, _| {
                move |input, _output| {
                    input.for_each(|time, data| {
                        let epoch = time.least().copied().unwrap_or(0);
                        let mut inbox = deliver_to.borrow_mut();
                        inbox.extend(data.drain(..).map(|(_, c)| (epoch, c)));
                    });
                }
            })
            .probe_with(&control_probe);
    });

    let mut control_epoch = 0u64;
    // One control round: send `messages`, close the epoch, wait until every worker's messages
    // of it have arrived, and return them (later epochs' early arrivals stay in the inbox).
    let mut round = |worker: &mut Worker,
                     messages: Vec<(u16, Control<M::State>)>|
     -> Result<Vec<Control<M::State>>, String> {
        {
            let mut control = control_in.borrow_mut();
            for message in messages {
                control.send(message);
            }
            control_epoch += 1;
            control.advance_to(control_epoch);
        }
        wait_for(
            worker,
            &control_probe,
            control_epoch,
            traffic,
            &watch,
            &control_in,
            workers,
        )?;
        let mut inbox = inbox.borrow_mut();
        let (now, later): (Vec<_>, Vec<_>) = inbox
            .drain(..)
            .partition(|(epoch, _)| *epoch < control_epoch);
        *inbox = later;
        Ok(now.into_iter().map(|(_, c)| c).collect())
    };
    let broadcast = |control: Control<M::State>| -> Vec<(u16, Control<M::State>)> {
        (0..peers).map(|to| (to as u16, control.clone())).collect()
    };

    let deadlock_is_error = options.deadlock && model.deadlock_is_error();
    let mut buffer = Vec::new();
    let mut error: Option<String> = None;
    let mut log: Vec<Links> = Vec::new();
    let mut stats = Stats::default();
    let mut totals = Totals::default();
    let mut process_states = vec![0u64; peers / workers];
    let mut process_transitions = vec![0u64; peers / workers];
    let mut process_frontier = vec![0u64; peers / workers];
    let mut last: Vec<Summary<M::State>> = Vec::new();
    let mut frontier: Vec<M::State> = Vec::new();
    let mut level = 0usize;
    match resumed {
        // Level 0: the initial states this worker owns.
        None => {
            for (i, state) in model.initial_states().into_iter().enumerate() {
                match portable_key(&state, &mut buffer) {
                    Ok(key) if key.owner(peers) == me => {
                        let i = u32::try_from(i).unwrap_or(u32::MAX);
                        owned.borrow_mut().insert(key, state, INITIAL, i, 0);
                    }
                    Ok(_) => {}
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            }
        }
        // The saved level goes back where a level's arrivals wait, so that the loop replays
        // its summary round and every worker takes the same decisions as before.
        Some((_, saved)) => {
            let mut saved_log = saved.log;
            let links = saved_log.pop().unwrap_or_default();
            let mut o = owned.borrow_mut();
            o.looked_up = saved.totals.looked_up;
            totals = saved.totals;
            totals.states -= saved.frontier.len() as u64;
            o.next = saved.frontier;
            o.links = links;
            log = saved_log;
            level = saved.level as usize;
            process_frontier = saved.process_frontier;
            dropped_for = saved.dropped_for;
            stats.states = saved.states_before;
            stats.depth = level.saturating_sub(1);
            stats.elapsed_before = Duration::from_nanos(saved.elapsed_nanos);
            stats.resumed_from = Some(level);
        }
    }
    // With checkpoints, a stop request lets the level finish, so that it can be saved whole.
    let finish_level = checkpoints.save_to.is_some();
    let mut last_saved = Instant::now();
    let mut saved = Saved {
        path: checkpoints.save_to.clone(),
        ..Saved::default()
    };
    let mut deadlock: Option<(u32, M::State)> = None;
    let mut successors = Vec::new();
    let stopped = || {
        options
            .stop
            .as_deref()
            .is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed))
    };
    let mut interrupted = false;
    let mut interrupted_midway = false;
    let (verdict, found) = loop {
        // This level's states are in: take them, and tell every worker what happened.
        let (next, links, violation) = owned.borrow_mut().take_level();
        {
            let owned = owned.borrow();
            totals.states += next.len() as u64;
            totals.looked_up = owned.looked_up;
            totals.trace_bytes =
                (log.iter().map(Links::bytes).sum::<usize>() + links.bytes()) as u64;
            if first_of_process {
                totals.bytes_sent = traffic.sent();
                totals.bytes_received = traffic.received();
            }
            if error.is_none() {
                error = owned.error.clone();
            }
        }
        let summary = Summary {
            worker: me as u16,
            new_states: next.len() as u64,
            deadlock: deadlock.take(),
            violation,
            full: owned.borrow().full.clone(),
            interrupted,
            checkpoint_due: finish_level && last_saved.elapsed() >= checkpoints.every,
            error: error.clone(),
            totals: totals.clone(),
        };
        let mut summaries: Vec<Summary<M::State>> =
            round(worker, broadcast(Control::Summary(summary)))?
                .into_iter()
                .filter_map(|c| match c {
                    Control::Summary(s) => Some(s),
                    _ => None,
                })
                .collect();
        summaries.sort_by_key(|s| s.worker);
        if summaries.len() != peers {
            break (
                Verdict::Error(format!(
                    "level {level}: {} of {peers} workers' summaries arrived",
                    summaries.len()
                )),
                None,
            );
        }
        let width: u64 = summaries.iter().map(|s| s.new_states).sum();
        interrupted_midway = level > 0 && !finish_level && summaries.iter().any(|s| s.interrupted);
        stats.states += width;
        for (p, frontier_peak) in process_frontier.iter_mut().enumerate() {
            let part: u64 = summaries[p * workers..(p + 1) * workers]
                .iter()
                .map(|s| s.new_states)
                .sum();
            *frontier_peak = (*frontier_peak).max(part);
        }
        log.push(links);
        frontier = next;
        last = summaries;
        if width > 0 {
            stats.depth = level;
        }
        if let Some(reporter) = options.reporter.as_deref().filter(|_| me == 0 && width > 0) {
            reporter.level(&Progress {
                depth: level,
                new_states: width,
                states: stats.states,
                elapsed: started.elapsed(),
            });
        }
        // Every worker decides the same from the same summaries: the shallowest error first
        // (a deadlock in the level just expanded), then the lowest worker's.
        if let Some(s) = last.iter().find(|s| s.deadlock.is_some()) {
            let (index, state) = s.deadlock.clone().expect("found above");
            let at = Location {
                worker: s.worker as usize,
                level: level - 1,
                index,
            };
            break (Verdict::Complete, Some((at, Failure::Deadlock, state)));
        }
        if let Some(s) = last.iter().find(|s| s.violation.is_some()) {
            let (index, name, state) = s.violation.clone().expect("found above");
            let invariants = model.invariants();
            let name = invariants.iter().map(|i| i.name).find(|n| *n == name);
            let Some(name) = name else {
                break (
                    Verdict::Error(format!("an unknown invariant `{name:?}`")),
                    None,
                );
            };
            let at = Location {
                worker: s.worker as usize,
                level,
                index,
            };
            break (
                Verdict::Complete,
                Some((at, Failure::Invariant(name), state)),
            );
        }
        if let Some(full) = last.iter().find_map(|s| s.full.clone()) {
            // The set of one worker filled: a process's storage is its workers' sets.
            let full = TableFull {
                mode: options.mode,
                capacity: full.capacity as usize * workers,
                bytes_per_state: full.bytes_per_state as usize,
                memory_bytes: options.memory_bytes,
                load: full.load,
                level,
                states: stats.states - width,
            };
            stats.states -= width;
            stats.depth = level.saturating_sub(1);
            break (Verdict::Full(full), None);
        }
        if let Some(s) = last.iter().find(|s| s.error.is_some()) {
            let message = format!(
                "worker {}: {}",
                s.worker,
                s.error.clone().unwrap_or_default()
            );
            break (Verdict::Error(message), None);
        }
        let at_depth_limit = options.max_depth.is_some_and(|max| level >= max);
        let save_now = last.iter().any(|s| s.interrupted || s.checkpoint_due) || at_depth_limit;
        if let (Some(dir), true) = (&checkpoints.save_to, save_now && width > 0) {
            let progress = WorkerProgress {
                level: level as u64,
                states_before: stats.states - width,
                elapsed_nanos: (stats.elapsed_before + started.elapsed()).as_nanos() as u64,
                totals: totals.clone(),
                process_frontier: process_frontier.clone(),
                dropped_for: dropped_for.clone(),
                log: std::mem::take(&mut log),
                frontier: std::mem::take(&mut frontier),
            };
            let writing = Instant::now();
            let written = write_part(
                dir,
                part,
                model,
                options,
                stats.states,
                &progress,
                &owned.borrow().visited,
            );
            let took = writing.elapsed();
            (log, frontier) = (progress.log, progress.frontier);
            // Every part is renamed into place only once every worker has written its own.
            watch.set_grace(took * 4);
            let answers = round(worker, broadcast(Control::Written(written.is_ok())));
            watch.set_grace(Duration::ZERO);
            let answers = answers.inspect_err(|_| {
                // A peer lost in this round ends the run: this part is no checkpoint's.
                checkpoint::discard(&part_path(dir, part));
            })?;
            let all = answers
                .iter()
                .filter(|c| matches!(c, Control::Written(true)))
                .count()
                == peers;
            let states = (stats.states, totals.states);
            let reporter = options.reporter.as_deref();
            settle_part(
                dir, part, level, states, written, all, took, &mut saved, reporter,
            );
            last_saved = Instant::now();
        }
        if last.iter().any(|s| s.interrupted) {
            // Whole levels only: the one being generated when the signal came is not counted.
            if interrupted_midway {
                stats.states -= width;
                stats.depth = level.saturating_sub(1);
            }
            break (Verdict::Interrupted, None);
        }
        if width == 0 {
            break (Verdict::Complete, None);
        }
        if at_depth_limit {
            break (Verdict::DepthLimit, None);
        }

        // Expand this worker's part of the level; successors go to their owners as they are
        // made, and the worker steps now and then so that they are inserted as they arrive.
        // A stop request ends the expansion at the next step; the level is then not counted.
        totals.transitions_done = totals.transitions;
        // Successors are placed one state late: a state's successors are hashed and their
        // filter slots prefetched, then the previous state's are placed, so that the slots
        // have a state's work to arrive. The extra last turn (`None`) places the last state's.
        let expanding = frontier.iter().map(Some).chain([None]);
        // (An interrupt may have left the last level's unplaced; they are not counted.)
        ready.clear();
        for (i, state) in expanding.enumerate() {
            made.clear();
            placements.clear();
            encodings.clear();
            if let Some(state) = state {
                successors.clear();
                model.successors(state, &mut successors);
                if successors.is_empty() && deadlock_is_error {
                    deadlock.get_or_insert((i as u32, state.clone()));
                } else if successors.len() > u16::MAX as usize {
                    error.get_or_insert(format!(
                        "a state has {} successors; the trace log records at most {}",
                        successors.len(),
                        u16::MAX
                    ));
                } else {
                    totals.transitions += successors.len() as u64;
                    for (_, next) in successors.drain(..) {
                        placements.push(if next == *state {
                            // A step back to the state itself: this worker's set has it (in
                            // every mode), so it is not hashed; it counts as looked up.
                            Placement::Itself
                        } else {
                            match encode_key(&next, &mut encodings) {
                                Ok((key, range)) => {
                                    sent.prefetch(key);
                                    Placement::To(key, range.end)
                                }
                                Err(e) => {
                                    error.get_or_insert(e);
                                    Placement::Failed
                                }
                            }
                        });
                        made.push(next);
                    }
                }
            }
            let mut start = 0;
            for (k, (next, placement)) in ready.drain(..).zip(&ready_placements).enumerate() {
                let (key, range) = match *placement {
                    Placement::To(key, end) => (key, start..end),
                    Placement::Itself => {
                        dropped_for[me] += 1;
                        continue;
                    }
                    Placement::Failed => continue,
                };
                start = range.end;
                let owner = key.owner(peers);
                // The filter holds this worker's own successors too: a duplicate it remembers
                // costs no miss in the set.
                if sent.sent_before(key, &next) {
                    dropped_for[owner] += 1;
                    if owner != me {
                        totals.successors_dropped += 1;
                    }
                } else if owner == me {
                    owned.borrow().visited.prefetch(key);
                    local.push((key, next, ready_parent, k as u16));
                    if local.len() >= LOCAL_BATCH {
                        insert_local(&mut owned.borrow_mut(), &mut local, me);
                    }
                } else {
                    let link = Link {
                        parent_worker: me as u16,
                        parent: ready_parent,
                        ordinal: k as u16,
                    };
                    totals.successors_sent += 1;
                    states_in.send((owner, &ready_encodings[range], link));
                }
            }
            std::mem::swap(&mut ready, &mut made);
            std::mem::swap(&mut ready_encodings, &mut encodings);
            std::mem::swap(&mut ready_placements, &mut placements);
            ready_parent = i as u32;
            if i % STEP_EVERY == STEP_EVERY - 1 {
                if traffic.fault().is_some() {
                    return Err(LOST.into());
                }
                if stopped() && !finish_level {
                    interrupted = true;
                    break;
                }
                worker.step();
            }
        }
        insert_local(&mut owned.borrow_mut(), &mut local, me);
        interrupted |= stopped();
        level += 1;
        states_in.advance_to(level as u64);
        wait_for(
            worker,
            &states_probe,
            level as u64,
            traffic,
            &watch,
            &control_in,
            workers,
        )?;
    };
    drop(frontier);

    // Totals over every worker, from the last summaries; a level cut short by a full table
    // or an interrupt is not counted (whole levels only, as the single-process search does).
    let cut_short = matches!(verdict, Verdict::Full(_))
        || (matches!(verdict, Verdict::Interrupted) && interrupted_midway);
    let transitions = |t: &Totals| {
        if cut_short && !matches!(verdict, Verdict::Full(_)) {
            t.transitions_done
        } else {
            t.transitions
        }
    };
    for s in &last {
        let p = s.worker as usize / workers;
        process_states[p] += s.totals.states - if cut_short { s.new_states } else { 0 };
        process_transitions[p] += transitions(&s.totals);
    }
    stats.transitions = last.iter().map(|s| transitions(&s.totals)).sum();
    stats.trace_bytes = last.iter().map(|s| s.totals.trace_bytes as usize).sum();

    // A counterexample: one control round per step back, then the replay.
    let verdict = match found {
        None => verdict,
        Some((at, failure, state)) => {
            let mut at = at;
            let mut ordinals = Vec::with_capacity(at.level);
            let mut initial = None;
            loop {
                let messages = if at.worker == me {
                    let links = &log[at.level];
                    let i = at.index as usize;
                    broadcast(Control::Link {
                        parent_worker: links.parent_worker[i],
                        parent: links.parent[i],
                        ordinal: links.ordinal[i],
                    })
                } else {
                    Vec::new()
                };
                let link = round(worker, messages)?.into_iter().find_map(|c| match c {
                    Control::Link {
                        parent_worker,
                        parent,
                        ordinal,
                    } => Some((parent_worker, parent, ordinal)),
                    _ => None,
                });
                let Some((parent_worker, parent, ordinal)) = link else {
                    break;
                };
                if at.level == 0 {
                    initial = Some(parent as usize);
                    break;
                }
                ordinals.push(ordinal);
                at = Location {
                    worker: parent_worker as usize,
                    level: at.level - 1,
                    index: parent,
                };
            }
            ordinals.reverse();
            match initial {
                None => Verdict::Error("the trace log has no path to the failing state".into()),
                Some(_) if !first_of_process => Verdict::Complete,
                Some(initial) => match replay(model, initial, &ordinals, failure, &state) {
                    Ok(trace) => Verdict::Counterexample(trace),
                    Err(e) => Verdict::Error(e),
                },
            }
        }
    };
    // Each owner counts the successors dropped for it among those it looked up, as it would
    // have without the filters (the TLC figure uses them).
    let messages = dropped_for
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(to, &n)| (to as u16, Control::Dropped(n)))
        .collect();
    let dropped_here: u64 = round(worker, messages)?
        .into_iter()
        .filter_map(|c| match c {
            Control::Dropped(n) => Some(n),
            _ => None,
        })
        .sum();
    totals.looked_up = owned.borrow().looked_up + dropped_here;
    // Every worker's storage figures, to every worker (bitstate's are counted once, here).
    let mine = owned.borrow().visited.storage(totals.looked_up);
    let figures = WireStorage {
        worker: me as u16,
        table_bytes: mine.table_bytes as u64,
        slots: mine.slots as u64,
        stored: mine.stored,
        bytes_per_state: mine.bytes_per_state,
        fill: mine.fill,
        omission: mine.omission.value,
        reached_missed: mine.reached_missed,
        tlc_optimistic: mine.tlc_optimistic,
        peak_resident_bytes: crate::resident::peak_resident_bytes(),
    };
    let mut storages: Vec<WireStorage> = round(worker, broadcast(Control::Storage(figures)))?
        .into_iter()
        .filter_map(|c| match c {
            Control::Storage(s) => Some(s),
            _ => None,
        })
        .collect();
    storages.sort_by_key(|s| s.worker);
    stats.elapsed = started.elapsed();
    if !first_of_process {
        return Ok(None);
    }
    if storages.len() != peers {
        return Err(format!(
            "{} of {peers} workers' storage figures arrived",
            storages.len()
        ));
    }
    let union = union_storage(mine, &storages);
    let processes = (0..peers / workers)
        .map(|p| {
            let first = &last[p * workers].totals;
            let own = &last[p * workers..(p + 1) * workers];
            ProcessStats {
                successors_sent: own.iter().map(|s| s.totals.successors_sent).sum(),
                successors_dropped: own.iter().map(|s| s.totals.successors_dropped).sum(),
                states: process_states[p],
                transitions: process_transitions[p],
                bytes_sent: first.bytes_sent,
                bytes_received: first.bytes_received,
                largest_frontier: process_frontier[p],
                peak_resident_bytes: storages[p * workers].peak_resident_bytes,
                storage_bytes: storages[p * workers..(p + 1) * workers]
                    .iter()
                    .map(|s| s.table_bytes)
                    .sum(),
            }
        })
        .collect();
    stats.frontier_peak_bytes = process_frontier.iter().copied().max().unwrap_or(0) as usize
        * std::mem::size_of::<M::State>();
    Ok(Some(WorkerResult {
        report: Report {
            stats,
            verdict,
            storage: Some(union),
            checkpoints: checkpoints.save_to.is_some().then_some(saved),
        },
        processes,
    }))
}

/// The visited storage of the whole run, as one set would report it: sizes and states summed,
/// fill over the sum of the slots, and the bounds over the union.
///
/// A state can only be missed by its owner's set, so the probability that any set made the
/// search miss a state is at most the sum of the sets' bounds (each one [`Storage::omission`]
/// of its set, capped at 1). Bitstate's fraction of reached states missed is the states-weighted
/// mean of the sets'; TLC's figure is a sum over the sets. Each set has one inserting thread,
/// so no state is reported new twice.
fn union_storage(mine: Storage, all: &[WireStorage]) -> Storage {
    let stored: u64 = all.iter().map(|s| s.stored).sum();
    let slots: u64 = all.iter().map(|s| s.slots).sum();
    let weighted = |f: fn(&WireStorage) -> Option<f64>| -> Option<f64> {
        let parts: Option<Vec<f64>> = all
            .iter()
            .map(|s| f(s).map(|v| v * s.stored as f64))
            .collect();
        parts.map(|p| p.iter().sum::<f64>() / stored.max(1) as f64)
    };
    let mut omission = mine.omission;
    omission.value = all.iter().map(|s| s.omission).sum::<f64>().min(1.0);
    Storage {
        table_bytes: all.iter().map(|s| s.table_bytes as usize).sum(),
        slots: slots as usize,
        stored,
        fill: all.iter().map(|s| s.fill * s.slots as f64).sum::<f64>() / slots.max(1) as f64,
        omission,
        reached_missed: weighted(|s| s.reached_missed),
        tlc_optimistic: all.iter().map(|s| s.tlc_optimistic).sum(),
        may_report_new_twice: false,
        ..mine
    }
}
