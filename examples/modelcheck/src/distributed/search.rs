//! One timely worker's part of the distributed search: it owns the states whose
//! [`searchcache::StateHash::owner`] is its index, keeps them in its own visited set, expands its frontier
//! level by level, and sends every successor to its owner through timely's exchange pact: its
//! own successors go straight into its set, and the others pass its [`SentFilter`] first, which
//! drops the duplicates it remembers sending, and go in [`super::parcel::Parcel`]s of encoded records,
//! one destination each.
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
//!
//! In timely's shape (its `examples/hello.rs`): `dataflow::build` installs the
//! dataflow, and [`run`] drives its rounds (a `WorkerSearch`: its state and one method per
//! step of a level); `expansion.rs` expands a level through the one expansion rule of
//! both searches (`crate::expand`).

use super::checkpoint::{
    part_path, settle_part, write_part, DistCheckpoints, Resumed, WorkerProgress,
};
use super::dataflow::{self, Dataflow, Peers};
use super::expansion::Expander;
use super::messages::{Control, Summary, Totals, WireStorage};
use super::outcome::ProcessStats;
use super::owned::Owned;
use super::sent::SentFilter;
use super::watchdog::Watchdog;
use super::wire::Traffic;
use crate::bfs::{Options, Stats, Verdict};
use crate::check::{Report, Saved};
use crate::checkpoint::{self, Part};
use crate::expand::Rule;
use crate::model::Model;
use crate::reporter::Progress;
use crate::trace::{replay, Failure};
use crate::visited::{Mode, Storage, TableFull, Visited};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use timely::worker::Worker;

pub use super::owned::Links;
pub use super::parcel::portable_key;

/// The parent worker recorded in the link of an initial state.
const INITIAL_PARENT_WORKER: u16 = u16::MAX;

/// Where a counterexample ends: the owner, the level, the index in the owner's part.
#[derive(Clone, Copy)]
struct Location {
    worker: usize,
    level: usize,
    index: u32,
}

/// How the rounds ended: the verdict, and where the counterexample ends if there is one
/// (its trace is rebuilt after the rounds).
type Ended<M> = (Verdict<M>, Option<(Location, Failure, <M as Model>::State)>);

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
    let mut search = WorkerSearch::new(worker, setup, resumed)?;
    let ended = search.drive(worker)?;
    search.finish(worker, ended)
}

/// One worker's search between its rounds: the dataflow it drives, what it owns, and the
/// counts it keeps.
struct WorkerSearch<'a, M: Model> {
    model: &'a M,
    options: &'a Options,
    checkpoints: &'a DistCheckpoints,
    started: Instant,
    me: usize,
    peers: usize,
    workers: usize,
    part: Part,
    rule: Rc<Rule<M>>,
    owned: Rc<RefCell<Owned<M>>>,
    flow: Dataflow<'a, M::State>,
    expander: Expander<'a, M>,
    /// Links of the levels so far (this worker's part of each).
    log: Vec<Links>,
    stats: Stats,
    totals: Totals,
    /// The largest part of a level each process held.
    process_frontier: Vec<u64>,
    /// The last level's summaries, every worker's, in worker order.
    last: Vec<Summary<M::State>>,
    /// The widths (every worker's states) of the last four levels counted, the oldest first:
    /// a full table's estimate of what is left.
    recent_widths: [u64; 4],
    /// This worker's part of the level to expand.
    frontier: Vec<M::State>,
    level: usize,
    /// This process was asked to stop during the last expansion (or at its end).
    interrupted: bool,
    /// A stop request cut the level being generated short (it is not counted).
    interrupted_midway: bool,
    /// With checkpoints, a stop request lets the level finish, so that it can be saved whole.
    finish_level: bool,
    last_saved: Instant,
    saved: Saved,
}

impl<'a, M> WorkerSearch<'a, M>
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    /// The worker's search before its first round: its dataflow built, its level 0 inserted
    /// (or its checkpoint part put back).
    fn new(
        worker: &mut Worker,
        setup: &Setup<'a, M>,
        resumed: Option<Resumed<M::State>>,
    ) -> Result<Self, String> {
        let Setup {
            model,
            options,
            workers,
            traffic,
            sent_filter,
            peer_timeout,
            checkpoints,
        } = *setup;
        let (me, peers) = (worker.index(), worker.peers());
        let memory = (options.memory_bytes / workers).max(1);
        let (visited, resumed) = match resumed {
            Some(r) => (r.visited, Some(r.progress)),
            None => (Visited::new(options.mode, memory, options.hashes)?, None),
        };
        // The exact set tells states apart by value; the others by their key alone.
        let sent = SentFilter::new(sent_filter, options.mode == Mode::Exact)?;
        let rule = Rc::new(Rule::new(model, options.deadlock));
        let owned = Rc::new(RefCell::new(Owned::new(visited, Rc::clone(&rule))));
        let watch = Watchdog::new(traffic, peer_timeout, me / workers, peers / workers);
        let peer_set = Peers {
            traffic,
            watch,
            workers,
            peers,
        };
        let flow = dataflow::build(worker, &owned, peer_set);
        let mut search = WorkerSearch {
            model,
            options,
            checkpoints,
            started: Instant::now(),
            me,
            peers,
            workers,
            part: Part {
                process: (me / workers) as u32,
                processes: (peers / workers) as u32,
                worker: (me % workers) as u32,
                workers: workers as u32,
            },
            expander: Expander::new(model, Rc::clone(&rule), me, peers, sent),
            rule,
            owned,
            flow,
            log: Vec::new(),
            stats: Stats::default(),
            totals: Totals::default(),
            process_frontier: vec![0u64; peers / workers],
            recent_widths: [0; 4],
            last: Vec::new(),
            frontier: Vec::new(),
            level: 0,
            interrupted: false,
            interrupted_midway: false,
            finish_level: checkpoints.save_to.is_some(),
            last_saved: Instant::now(),
            saved: Saved {
                path: checkpoints.save_to.clone(),
                ..Saved::default()
            },
        };
        match resumed {
            None => search.insert_initial_states(),
            Some(saved) => search.put_back(saved),
        }
        Ok(search)
    }

    /// Level 0: the initial states this worker owns, into its set.
    fn insert_initial_states(&mut self) {
        let mut buffer = Vec::new();
        for (i, state) in self.model.initial_states().into_iter().enumerate() {
            match portable_key(&state, &mut buffer) {
                Ok(key) if key.owner(self.peers) == self.me => {
                    let i = u32::try_from(i).unwrap_or(u32::MAX);
                    let mut owned = self.owned.borrow_mut();
                    owned.insert(key, state, INITIAL_PARENT_WORKER, i, 0);
                }
                Ok(_) => {}
                Err(e) => {
                    self.expander.findings.error.get_or_insert(e);
                }
            }
        }
    }

    /// A checkpoint part's level goes back where a level's arrivals wait, so that the first
    /// round replays its summary and every worker takes the same decisions as before.
    fn put_back(&mut self, saved: WorkerProgress<M::State>) {
        let mut saved_log = saved.log;
        let links = saved_log.pop().unwrap_or_default();
        let mut owned = self.owned.borrow_mut();
        owned.looked_up = saved.totals.looked_up;
        self.totals = saved.totals;
        self.totals.states -= saved.frontier.len() as u64;
        owned.next = saved.frontier;
        owned.links = links;
        self.log = saved_log;
        self.level = saved.level as usize;
        self.process_frontier = saved.process_frontier;
        self.expander.dropped_for = saved.dropped_for;
        self.stats.states = saved.states_before;
        self.stats.depth = self.level.saturating_sub(1);
        self.stats.elapsed_before = Duration::from_nanos(saved.elapsed_nanos);
        self.stats.resumed_from = Some(self.level);
    }

    /// The rounds: each level's summaries, the decision every worker takes from them (an
    /// error, a checkpoint, a stop), and the expansion of the next level.
    fn drive(&mut self, worker: &mut Worker) -> Result<Ended<M>, String> {
        loop {
            let summaries = self.exchange_summaries(worker)?;
            if summaries.len() != self.peers {
                let message = format!(
                    "level {}: {} of {} workers' summaries arrived",
                    self.level,
                    summaries.len(),
                    self.peers
                );
                return Ok((Verdict::Error(message), None));
            }
            let width = self.record_level(summaries);
            if let Some(ended) = self.error_found(width) {
                return Ok(ended);
            }
            let at_depth_limit = self.options.max_depth.is_some_and(|max| self.level >= max);
            let save_now =
                self.last.iter().any(|s| s.interrupted || s.checkpoint_due) || at_depth_limit;
            if let (Some(dir), true) = (&self.checkpoints.save_to, save_now && width > 0) {
                self.save_part(worker, dir, width)?;
            }
            if self.last.iter().any(|s| s.interrupted) {
                // Whole levels only: the one being generated when the signal came is not
                // counted.
                if self.interrupted_midway {
                    self.stats.states -= width;
                    self.stats.depth = self.level.saturating_sub(1);
                }
                return Ok((Verdict::Interrupted, None));
            }
            if width == 0 {
                return Ok((Verdict::Complete, None));
            }
            if at_depth_limit {
                return Ok((Verdict::DepthLimit, None));
            }
            self.expand_level(worker)?;
        }
    }

    /// This level's states are in: takes them, and tells every worker what happened. Returns
    /// every worker's summary, in worker order.
    fn exchange_summaries(
        &mut self,
        worker: &mut Worker,
    ) -> Result<Vec<Summary<M::State>>, String> {
        let (next, links, violation) = self.owned.borrow_mut().take_level();
        let full = {
            let owned = self.owned.borrow();
            self.totals.states += next.len() as u64;
            self.totals.looked_up = owned.looked_up;
            self.totals.trace_bytes =
                (self.log.iter().map(Links::bytes).sum::<usize>() + links.bytes()) as u64;
            if self.me.is_multiple_of(self.workers) {
                self.totals.bytes_sent = self.flow.peers.traffic.sent();
                self.totals.bytes_received = self.flow.peers.traffic.received();
            }
            if self.expander.findings.error.is_none() {
                self.expander.findings.error = owned.error.clone();
            }
            owned.full.clone()
        };
        let summary = Summary {
            worker: self.me as u16,
            new_states: next.len() as u64,
            deadlock: self.expander.findings.deadlock.take(),
            violation,
            full,
            interrupted: self.interrupted,
            checkpoint_due: self.finish_level
                && self.last_saved.elapsed() >= self.checkpoints.every,
            error: self.expander.findings.error.clone(),
            totals: self.totals.clone(),
        };
        self.log.push(links);
        self.frontier = next;
        let messages = self.flow.broadcast(Control::Summary(summary));
        let mut summaries: Vec<Summary<M::State>> = self
            .flow
            .round(worker, messages)?
            .into_iter()
            .filter_map(|c| match c {
                Control::Summary(s) => Some(s),
                _ => None,
            })
            .collect();
        summaries.sort_by_key(|s| s.worker);
        Ok(summaries)
    }

    /// Counts the level the summaries describe; returns its width (states, every worker's).
    fn record_level(&mut self, summaries: Vec<Summary<M::State>>) -> u64 {
        let width: u64 = summaries.iter().map(|s| s.new_states).sum();
        let [_, oldest, older, last] = self.recent_widths;
        self.recent_widths = [oldest, older, last, width];
        self.interrupted_midway =
            self.level > 0 && !self.finish_level && summaries.iter().any(|s| s.interrupted);
        self.stats.states += width;
        let workers = self.workers;
        for (p, frontier_peak) in self.process_frontier.iter_mut().enumerate() {
            let part: u64 = summaries[p * workers..(p + 1) * workers]
                .iter()
                .map(|s| s.new_states)
                .sum();
            *frontier_peak = (*frontier_peak).max(part);
        }
        self.last = summaries;
        if width > 0 {
            self.stats.depth = self.level;
        }
        let reporter = self.options.reporter.as_deref();
        if let Some(reporter) = reporter.filter(|_| self.me == 0 && width > 0) {
            reporter.level(&Progress {
                depth: self.level,
                new_states: width,
                states: self.stats.states,
                elapsed: self.started.elapsed(),
            });
        }
        width
    }

    /// The error every worker finds in the same summaries, if any: the shallowest first (a
    /// deadlock in the level just expanded, then a violation in the new level), each the
    /// lowest worker's; then a full set, then another error.
    fn error_found(&mut self, width: u64) -> Option<Ended<M>> {
        let level = self.level;
        if let Some(s) = self.last.iter().find(|s| s.deadlock.is_some()) {
            let (index, state) = s.deadlock.clone().expect("found above");
            let at = Location {
                worker: s.worker as usize,
                level: level - 1,
                index,
            };
            return Some((Verdict::Complete, Some((at, Failure::Deadlock, state))));
        }
        if let Some(s) = self.last.iter().find(|s| s.violation.is_some()) {
            let (index, name, state) = s.violation.clone().expect("found above");
            let Some(failure) = self.rule.invariant_named(&name) else {
                let unknown = format!("an unknown invariant `{name:?}`");
                return Some((Verdict::Error(unknown), None));
            };
            let at = Location {
                worker: s.worker as usize,
                level,
                index,
            };
            return Some((Verdict::Complete, Some((at, failure, state))));
        }
        if let Some(full) = self.last.iter().find_map(|s| s.full.clone()) {
            // The set of one worker filled: a process's storage is its workers' sets.
            self.stats.states -= width;
            self.stats.depth = level.saturating_sub(1);
            let full = TableFull {
                mode: self.options.mode,
                capacity: full.capacity as usize * self.workers,
                bytes_per_state: full.bytes_per_state as usize,
                memory_bytes: self.options.memory_bytes,
                load: full.load,
                level,
                states: self.stats.states,
                // The level that did not fit is the last counted.
                last_widths: [
                    self.recent_widths[0],
                    self.recent_widths[1],
                    self.recent_widths[2],
                ],
            };
            return Some((Verdict::Full(full), None));
        }
        let s = self.last.iter().find(|s| s.error.is_some())?;
        let message = format!(
            "worker {}: {}",
            s.worker,
            s.error.clone().unwrap_or_default()
        );
        Some((Verdict::Error(message), None))
    }

    /// Writes this worker's part of the level just summarized (`width` states, every
    /// worker's) into `dir`, and keeps it only if every worker wrote its own.
    fn save_part(
        &mut self,
        worker: &mut Worker,
        dir: &std::path::Path,
        width: u64,
    ) -> Result<(), String> {
        let progress = WorkerProgress {
            level: self.level as u64,
            states_before: self.stats.states - width,
            elapsed_nanos: (self.stats.elapsed_before + self.started.elapsed()).as_nanos() as u64,
            totals: self.totals.clone(),
            process_frontier: self.process_frontier.clone(),
            dropped_for: self.expander.dropped_for.clone(),
            log: std::mem::take(&mut self.log),
            frontier: std::mem::take(&mut self.frontier),
        };
        let writing = Instant::now();
        let written = write_part(
            dir,
            self.part,
            self.model,
            self.options,
            self.stats.states,
            &progress,
            &self.owned.borrow().visited,
        );
        let took = writing.elapsed();
        (self.log, self.frontier) = (progress.log, progress.frontier);
        // Every part is renamed into place only once every worker has written its own.
        self.flow.peers.watch.set_grace(took * 4);
        let messages = self.flow.broadcast(Control::Written(written.is_ok()));
        let answers = self.flow.round(worker, messages);
        self.flow.peers.watch.set_grace(Duration::ZERO);
        let answers = answers.inspect_err(|_| {
            // A peer lost in this round ends the run: this part is no checkpoint's.
            checkpoint::discard(&part_path(dir, self.part));
        })?;
        let all = answers
            .iter()
            .filter(|c| matches!(c, Control::Written(true)))
            .count()
            == self.peers;
        let states = (self.stats.states, self.totals.states);
        let level = self.level;
        settle_part(
            dir,
            self.part,
            level,
            states,
            written,
            all,
            took,
            &mut self.saved,
            self.options.reporter.as_deref(),
        );
        self.last_saved = Instant::now();
        Ok(())
    }

    /// Expands this worker's part of the level and waits until every worker has inserted
    /// every successor of it. A stop request ends the expansion at the next step (unless the
    /// level is to be saved whole); the level is then not counted.
    fn expand_level(&mut self, worker: &mut Worker) -> Result<(), String> {
        self.totals.transitions_done = self.totals.transitions;
        let stop = self.options.stop.as_deref();
        let stopped = || stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let finish_level = self.finish_level;
        let cut_short = self.expander.expand_level(
            worker,
            &self.frontier,
            &self.owned,
            &mut self.flow,
            &mut self.totals,
            &|| stopped() && !finish_level,
        )?;
        self.interrupted = cut_short || stopped();
        self.level += 1;
        self.flow.end_level(worker, self.level as u64)
    }

    /// The end of the run: the counterexample's trace, the successors dropped for each owner,
    /// every worker's storage figures; the report on the process's first worker.
    fn finish(
        mut self,
        worker: &mut Worker,
        (verdict, found): Ended<M>,
    ) -> Result<Option<WorkerResult<M>>, String> {
        self.frontier = Vec::new();
        let verdict = match found {
            None => verdict,
            Some((at, failure, state)) => self.counterexample(worker, at, failure, &state)?,
        };
        let (mine, storages) = self.exchange_storage(worker)?;
        self.stats.elapsed = self.started.elapsed();
        if !self.me.is_multiple_of(self.workers) {
            return Ok(None);
        }
        if storages.len() != self.peers {
            return Err(format!(
                "{} of {} workers' storage figures arrived",
                storages.len(),
                self.peers
            ));
        }
        let processes = self.process_stats(&verdict, &storages);
        let union = union_storage(mine, &storages);
        self.stats.frontier_peak_bytes = self.process_frontier.iter().copied().max().unwrap_or(0)
            as usize
            * std::mem::size_of::<M::State>();
        Ok(Some(WorkerResult {
            report: Report {
                stats: self.stats,
                verdict,
                storage: Some(union),
                checkpoints: self.checkpoints.save_to.is_some().then_some(self.saved),
                // Not checked by a distributed run (see the module's documentation).
                sometimes: Vec::new(),
            },
            processes,
        }))
    }

    /// Rebuilds the trace to state `at` with one control round per step back (the owner of
    /// each state broadcasts its link, which names the owner to ask next); the process's
    /// first worker replays it.
    fn counterexample(
        &mut self,
        worker: &mut Worker,
        mut at: Location,
        failure: Failure,
        state: &M::State,
    ) -> Result<Verdict<M>, String> {
        let mut ordinals = Vec::with_capacity(at.level);
        let mut initial = None;
        loop {
            let messages = if at.worker == self.me {
                let links = &self.log[at.level];
                let i = at.index as usize;
                self.flow.broadcast(Control::Link {
                    parent_worker: links.parent_worker[i],
                    parent: links.parent[i],
                    ordinal: links.ordinal[i],
                })
            } else {
                Vec::new()
            };
            let link = self
                .flow
                .round(worker, messages)?
                .into_iter()
                .find_map(|c| match c {
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
        Ok(match initial {
            None => Verdict::Error("the trace log has no path to the failing state".into()),
            Some(_) if !self.me.is_multiple_of(self.workers) => Verdict::Complete,
            Some(initial) => match replay(self.model, initial, &ordinals, failure, state) {
                Ok(trace) => Verdict::Counterexample(trace),
                Err(e) => Verdict::Error(e),
            },
        })
    }

    /// Two last rounds: each owner counts the successors dropped for it among those it looked
    /// up, as it would have without the filters (the TLC figure uses them); then every
    /// worker's storage figures go to every worker (bitstate's are counted once, here).
    /// Returns this worker's figures and every worker's, in worker order.
    fn exchange_storage(
        &mut self,
        worker: &mut Worker,
    ) -> Result<(Storage, Vec<WireStorage>), String> {
        let messages = self
            .expander
            .dropped_for
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(to, &n)| (to as u16, Control::Dropped(n)))
            .collect();
        let dropped_here: u64 = self
            .flow
            .round(worker, messages)?
            .into_iter()
            .filter_map(|c| match c {
                Control::Dropped(n) => Some(n),
                _ => None,
            })
            .sum();
        self.totals.looked_up = self.owned.borrow().looked_up + dropped_here;
        let mine = self.owned.borrow().visited.storage(self.totals.looked_up);
        let figures = WireStorage {
            worker: self.me as u16,
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
        let messages = self.flow.broadcast(Control::Storage(figures));
        let mut storages: Vec<WireStorage> = self
            .flow
            .round(worker, messages)?
            .into_iter()
            .filter_map(|c| match c {
                Control::Storage(s) => Some(s),
                _ => None,
            })
            .collect();
        storages.sort_by_key(|s| s.worker);
        Ok((mine, storages))
    }

    /// Totals over every worker, from the last summaries, and per process; a level cut short
    /// by a full table or an interrupt is not counted (whole levels only, as the
    /// single-process search does).
    fn process_stats(
        &mut self,
        verdict: &Verdict<M>,
        storages: &[WireStorage],
    ) -> Vec<ProcessStats> {
        let full = matches!(verdict, Verdict::Full(_));
        let cut_short =
            full || (matches!(verdict, Verdict::Interrupted) && self.interrupted_midway);
        let transitions = |t: &Totals| {
            if cut_short && !full {
                t.transitions_done
            } else {
                t.transitions
            }
        };
        let workers = self.workers;
        let last = &self.last;
        self.stats.transitions = last.iter().map(|s| transitions(&s.totals)).sum();
        self.stats.trace_bytes = last.iter().map(|s| s.totals.trace_bytes as usize).sum();
        (0..self.peers / workers)
            .map(|p| {
                let own = &last[p * workers..(p + 1) * workers];
                let first = &own[0].totals;
                ProcessStats {
                    successors_sent: own.iter().map(|s| s.totals.successors_sent).sum(),
                    successors_dropped: own.iter().map(|s| s.totals.successors_dropped).sum(),
                    states: own
                        .iter()
                        .map(|s| s.totals.states - if cut_short { s.new_states } else { 0 })
                        .sum(),
                    transitions: own.iter().map(|s| transitions(&s.totals)).sum(),
                    bytes_sent: first.bytes_sent,
                    bytes_received: first.bytes_received,
                    largest_frontier: self.process_frontier[p],
                    peak_resident_bytes: storages[p * workers].peak_resident_bytes,
                    storage_bytes: storages[p * workers..(p + 1) * workers]
                        .iter()
                        .map(|s| s.table_bytes)
                        .sum(),
                }
            })
            .collect()
    }
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
