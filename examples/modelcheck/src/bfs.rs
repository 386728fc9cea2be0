//! Parallel breadth-first search, level by level: the threads expand the current level's
//! frontier (full states) and insert successors into one shared visited set (signatures), each
//! appending the new states to its own part of the next level.
//!
//! Two ways to hand out the frontier, both level-synchronous (a barrier per level keeps the
//! search breadth-first, so the first counterexample found is a shortest one):
//! `chunks`: threads claim 256-state chunks from one atomic cursor; `steal`: rayon's
//! work-stealing `par_chunks` over the same chunks. BENCHMARKS.md compares them.

use crate::expand::{Expansion, Rule};
use crate::fairness::Fairness;
use crate::liveness_search::LivenessSearch;
use crate::model::Model;
use crate::reporter::{Progress, Reporter};
use crate::sometimes::{At, Sometimes, SometimesReport};
use crate::successors::Successors;
use crate::trace::{replay, Failure, LevelLinks, Trace, TraceLog};
use crate::visited::{Mode, Reader, TableFull, Visited};
use rayon::prelude::*;
use searchcache::StateHash;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// States per unit of work: large enough that claiming one (an atomic add) is noise, small
/// enough that the last chunks of a level spread over the threads.
const CHUNK_STATES: usize = 256;

/// The default bytes of visited storage ([`Options::memory_bytes`]): 256 MiB.
pub const DEFAULT_MEMORY_BYTES: usize = 256 << 20;

/// How the threads share a level's frontier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// 256-state chunks claimed from one atomic cursor (the default).
    Chunks,
    /// rayon's work-stealing over the same chunks.
    Steal,
}

impl Schedule {
    /// Every schedule, in the order of [`Schedule::NAMES`].
    pub const ALL: [Schedule; 2] = [Schedule::Chunks, Schedule::Steal];
    /// Their names, as [`Schedule::name`] gives them and [`FromStr`] reads them.
    pub const NAMES: [&'static str; 2] = ["chunks", "steal"];

    /// The schedule's name: `chunks` or `steal`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Schedule {
    type Err = String;

    /// A schedule by its [`name`](Schedule::name); any other text is an error that lists them.
    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| format!("no schedule `{text}` (one of: {})", Self::NAMES.join(", ")))
    }
}

/// How to check a model: the search, and the storage of the states it has seen.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads, at least 1 (default: every core).
    pub threads: usize,
    /// Levels beyond this depth are not expanded (default: none).
    pub max_depth: Option<usize>,
    /// Report states without successors, when the model counts them as errors (default: yes).
    pub deadlock: bool,
    /// Told of each level searched, each checkpoint written and each warning (default: none;
    /// the library never prints).
    pub reporter: Option<Arc<dyn Reporter>>,
    /// How the frontier is shared (default: [`Schedule::Chunks`]).
    pub schedule: Schedule,
    /// How visited states are stored (default: [`Mode::Fp64`]).
    pub mode: Mode,
    /// Bytes of visited storage (default 256 MiB: 33 M fingerprints, or 67 M signatures in
    /// [`Mode::Fp32`]); pages are only touched as the table fills. The exact mode grows up to
    /// about this much, and so does [`Mode::Fp64`] with [`grow`](Self::grow): a cap, not a size.
    pub memory_bytes: usize,
    /// [`Mode::Fp64`] only: start with a 1 MiB table and grow it between levels up to
    /// `memory_bytes`, hashing each state once (64 bits, so the omission bound is the birthday
    /// figure `n(n − 1)/2^65`: negligible up to 6.1 M states). `false`: one table of
    /// `memory_bytes` from the start, two hashes per state, and Stern and Dill's bound over the
    /// run's comparisons (far smaller for large runs). Default: true. A distributed run's tables
    /// never grow.
    pub grow: bool,
    /// Hash functions per state in [`Mode::Bitstate`], 1 to [`searchcache::consts::MAX_HASHES`]
    /// (default [`searchcache::DEFAULT_HASHES`], SPIN's 3).
    pub hashes: u32,
    /// Set to true (by a signal handler, another thread) to stop the search: each worker
    /// finishes the 256-state chunk it holds, and the search returns [`Verdict::Interrupted`]
    /// with the counts of the levels it completed. Default: none.
    pub stop: Option<Arc<AtomicBool>>,
    /// Store each state's symmetry class, as [`Model::canonical`] gives it, instead of the
    /// state (default: no). The frontier and every trace keep concrete states; the counts are
    /// of classes. The verdicts are those of a search without it when the model's invariants,
    /// properties and deadlocks are symmetric, as `canonical` promises. A state for which
    /// `canonical` gives `None` is stored as itself, so a model without a symmetry is searched
    /// as without this (each successor is cloned once more).
    pub symmetry: bool,
    /// The fairness liveness properties assume (default: [`Fairness::Weak`]).
    pub fairness: Fairness,
    /// The names of the properties ([`crate::Property`]) to check; `None` (the default): all
    /// of the model's. Invariants are checked either way.
    pub properties: Option<Vec<String>>,
    /// How each liveness property's product graph is searched (the default: `Auto`, the index
    /// graph where it fits).
    pub liveness_search: LivenessSearch,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_depth: None,
            deadlock: true,
            reporter: None,
            schedule: Schedule::Chunks,
            mode: Mode::Fp64,
            memory_bytes: DEFAULT_MEMORY_BYTES,
            grow: true,
            hashes: searchcache::DEFAULT_HASHES,
            stop: None,
            symmetry: false,
            fairness: Fairness::Weak,
            properties: None,
            liveness_search: LivenessSearch::Auto,
        }
    }
}

/// What a search counted.
///
/// `states`, `transitions` and `depth` count whole levels only: when the search stops in the
/// middle of a level (an error found, a full table, an interrupt), what that level had added
/// so far is in [`Stats::cut_short`] instead, so these three are the same in every run that
/// stops in the same level.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Distinct states of levels 0 to `depth` (as the visited set saw them: with fingerprints,
    /// an omitted state is not counted); with [`Options::symmetry`], distinct symmetry
    /// classes.
    pub states: u64,
    /// Transitions of the states expanded in whole levels: one per enabled action instance,
    /// self-loops included, as models.md counts them (2PC-3: 1,145, although only 886 distinct
    /// (state, successor) pairs exist: receiving a message twice is a second self-loop).
    pub transitions: u64,
    /// The deepest whole level (0 = only initial states).
    pub depth: usize,
    /// Wall-clock time of this run of the search.
    pub elapsed: Duration,
    /// Wall-clock time of the runs this one resumed from a checkpoint (zero when not resumed).
    pub elapsed_before: Duration,
    /// The level this run resumed from, if it did.
    pub resumed_from: Option<usize>,
    /// Bytes of the trace links.
    pub trace_bytes: usize,
    /// States dropped at the end of a level because two threads both got `New` for them
    /// (bitstate only: its inserts do not promise a single winner).
    pub duplicates: u64,
    /// Bytes of the largest pair of frontiers (current and next level) held at once.
    pub frontier_peak_bytes: usize,
    /// The level whose generation was stopped part way, if one was.
    pub cut_short: Option<CutShort>,
    /// With [`Options::symmetry`] (then `states` counts symmetry classes): the states the
    /// classes of levels 0 to `depth` stand for, the sum of [`Model::class_size`]. `None`
    /// without symmetry, when the model does not give class sizes, and in bitstate mode with
    /// more than one thread (whose racing duplicates are dropped after they were counted).
    pub represented: Option<u64>,
}

/// What the expansion of level `level − 1` had added when the search stopped in its middle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutShort {
    /// The level being generated.
    pub level: usize,
    /// Its states stored so far.
    pub states: u64,
    /// Transitions of the states expanded so far.
    pub transitions: u64,
}

/// How a search ended.
pub enum Verdict<M: Model> {
    /// The search ran out of new states: no invariant failed and no deadlock was found in the
    /// states it visited. Whether those are *all* reachable states depends on the storage:
    /// [`crate::Storage::partial`] says when they may not be.
    Complete,
    /// Stopped at `--max-depth` without finding an error.
    DepthLimit,
    /// An invariant failed or a deadlock was reached: a shortest, replayed trace.
    Counterexample(Trace<M>),
    /// The visited storage is full.
    Full(TableFull),
    /// Stopped by [`Options::stop`], with no error found in the states visited.
    Interrupted,
    /// The search could not go on for another reason (a level too wide for the trace log,
    /// a trace that failed its replay).
    Error(String),
}

/// Statistics and verdict.
pub struct Outcome<M: Model> {
    /// What was counted.
    pub stats: Stats,
    /// How it ended.
    pub verdict: Verdict<M>,
    /// The model's `sometimes` properties: each one's example, or why there is none
    /// ([`crate::SometimesVerdict::Vacuous`] after a search that ran out of states from the
    /// initial ones; the caller, who knows the storage, makes it `NotFound` when partial).
    pub sometimes: Vec<SometimesReport<M>>,
}

/// The search between two levels, all workers idle: what a checkpoint saves, with the visited
/// storage. `frontier` is level `stats.depth` in the order of its links in `log`.
pub struct Boundary<'a, S> {
    /// The counts of the whole levels, `elapsed` up to now.
    pub stats: &'a Stats,
    /// The level to expand next.
    pub frontier: &'a [S],
    /// The links of every level so far.
    pub log: &'a TraceLog,
    /// A stop request came during the level just completed: the search returns
    /// [`Verdict::Interrupted`] after this boundary, so this is the last chance to save it.
    pub stopping: bool,
}

/// What [`search`] calls at each level boundary (a checkpoint's writer).
pub type AtLevel<'a, S> = dyn FnMut(Boundary<'_, S>) + 'a;

/// Where a resumed search starts: a [`Boundary`] read back (and the visited storage it was
/// saved with).
pub struct Resume<S> {
    /// The counts of the whole levels; `elapsed` is the time of the earlier runs.
    pub stats: Stats,
    /// Level `stats.depth`, in the order of its links.
    pub frontier: Vec<S>,
    /// The links of levels 0 to `stats.depth`.
    pub log: TraceLog,
}

/// Where the search found an error.
struct Found<S> {
    depth: usize,
    failure: Failure,
    state: S,
    /// How to find it in the trace log.
    at: LogPosition,
}

/// Where a failing state sits in the trace log.
enum LogPosition {
    /// The failing state is state `.0` of its level.
    Logged(usize),
    /// The failing state is successor `.1` of state `.0` of the previous level.
    Child(usize, u16),
    /// The failing state is initial state `.0`.
    Initial(usize),
}

/// A successor that found a growing table full: it waits for the grow at the end of the level.
struct Pending<S> {
    parent: usize,
    ordinal: u16,
    state: S,
    /// The class representative stored for `state` (symmetry), if not `state` itself.
    stored: Option<S>,
    key: StateHash,
}

/// One thread's share of a level.
struct Local<M: Model> {
    next: Vec<M::State>,
    links: LevelLinks,
    transitions: u64,
    successors: Successors<M::Action, M::State>,
    /// The positions in `successors` of the new states, moved to `next` after the inserts.
    kept: Vec<usize>,
    keys: Vec<StateHash>,
    /// The keys of `next`, when the level's duplicates must be dropped (see `dedup_level`).
    next_keys: Vec<StateHash>,
    /// Successors that found the table full while it can still grow.
    pending: Vec<Pending<M::State>>,
    /// With symmetry: the representatives of `successors`, in their order.
    canonical: Vec<M::State>,
    /// With symmetry: the states the classes in `next` stand for (`None`: not known).
    represented: Option<u64>,
}

impl<M: Model> Local<M> {
    fn new() -> Self {
        Local {
            next: Vec::new(),
            links: LevelLinks::default(),
            transitions: 0,
            successors: Successors::new(),
            kept: Vec::new(),
            keys: Vec::new(),
            next_keys: Vec::new(),
            pending: Vec::new(),
            canonical: Vec::new(),
            represented: Some(0),
        }
    }
}

/// What every worker shares during a search.
struct Shared<'a, M: Model> {
    model: &'a M,
    visited: &'a Visited<M::State>,
    rule: Rule<M>,
    /// The `sometimes` properties and the states found for them.
    sometimes: Sometimes<M::State>,
    /// [`Options::symmetry`].
    symmetry: bool,
    /// Whether one state may come back `New` to two threads (bitstate under races).
    dedup: bool,
    /// Set when an error was found or the search cannot go on.
    stop: AtomicBool,
    /// [`Options::stop`].
    interrupt: Option<&'a AtomicBool>,
    /// A stop request lets the level being expanded finish (the caller saves its boundary).
    finish_level_on_stop: bool,
    found: Mutex<Option<Found<M::State>>>,
    error: Mutex<Option<Verdict<M>>>,
}

impl<M: Model> Shared<'_, M> {
    /// Whether the workers must stop claiming chunks: an error, or an interrupt.
    fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || (self.interrupted() && !self.finish_level_on_stop)
    }

    fn interrupted(&self) -> bool {
        self.interrupt
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn report(&self, found: Found<M::State>) {
        let mut slot = self.found.lock().unwrap_or_else(|e| e.into_inner());
        let shallower = match slot.as_ref() {
            Some(f) => found.depth < f.depth,
            None => true,
        };
        if shallower {
            *slot = Some(found);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    fn fail(&self, verdict: Verdict<M>) {
        let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
        slot.get_or_insert(verdict);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Expands state `index` (at `depth`) into `local`, inserting its successors through
    /// `reader`.
    fn expand(
        &self,
        reader: &Reader<'_, M::State>,
        (depth, index): (usize, usize),
        state: &M::State,
        local: &mut Local<M>,
    ) {
        let expanded = self.rule.expand_into(
            self.model,
            state,
            &mut local.successors,
            &mut local.transitions,
        );
        match expanded {
            Ok(Expansion::Successors) => {}
            Ok(Expansion::Deadlock) => {
                return self.report(Found {
                    depth,
                    failure: Failure::Deadlock,
                    state: state.clone(),
                    at: LogPosition::Logged(index),
                })
            }
            Err(too_many) => return self.fail(Verdict::Error(too_many)),
        }
        // Hash every successor and prefetch its table line first, so the cache misses of the
        // inserts overlap instead of queueing.
        local.keys.clear();
        local.canonical.clear();
        for (_, next) in local.successors.as_slice() {
            // With symmetry, one representative per successor, in order (the state itself
            // where the model gives none).
            let key = if self.symmetry {
                let canonical = self.representative(next).unwrap_or_else(|| next.clone());
                let key = self.visited.key(&canonical);
                local.canonical.push(canonical);
                key
            } else {
                self.visited.key(next)
            };
            reader.prefetch(key);
            local.keys.push(key);
        }
        local.kept.clear();
        // Out of `local` while its states are borrowed (moving two empty `Vec`s allocates
        // nothing).
        let mut successors = std::mem::take(&mut local.successors);
        let mut stopped = None;
        for (k, (_, next)) in successors.as_slice().iter().enumerate() {
            let key = local.keys[k];
            let stored = local.canonical.get(k).unwrap_or(next);
            match reader.insert(stored, key) {
                Ok(false) => {}
                Ok(true) => {
                    let class = self.class_size(stored);
                    self.accept(depth + 1, (index, k as u16), (next, key), class, local);
                    local.kept.push(k);
                }
                Err(_) if reader.can_grow() => local.pending.push(Pending {
                    parent: index,
                    ordinal: k as u16,
                    state: next.clone(),
                    stored: local.canonical.get(k).cloned(),
                    key,
                }),
                Err(full) => {
                    stopped = Some(full);
                    break;
                }
            }
        }
        // The new states move to the level (in the order of their links), the rest are spares.
        successors.move_out(&local.kept, &mut local.next);
        local.successors = successors;
        if let Some(full) = stopped {
            self.fail(Verdict::Full(full));
        }
    }

    /// A new state of level `depth`, successor `ordinal` of state `parent` of the level before,
    /// whose stored class stands for `class` states (symmetry; `None`: not known or no
    /// symmetry): its invariants and `sometimes` properties checked, its link added to
    /// `local`'s part of the level (the caller appends the state to `local.next`, in the same
    /// order).
    fn accept(
        &self,
        depth: usize,
        (parent, ordinal): (usize, u16),
        (state, key): (&M::State, StateHash),
        class: Option<u64>,
        local: &mut Local<M>,
    ) {
        if self.symmetry {
            local.represented = local.represented.zip(class).map(|(a, b)| a + b);
        }
        if let Some(failure) = self.rule.check_new(state) {
            self.report(Found {
                depth,
                failure,
                state: state.clone(),
                at: LogPosition::Child(parent, ordinal),
            });
        }
        self.sometimes
            .check_new(state, depth, At::Child(parent, ordinal));
        if self.dedup {
            local.next_keys.push(key);
        }
        local.links.parent.push(parent as u32);
        local.links.ordinal.push(ordinal);
    }

    /// With symmetry, the states the class of `stored` stands for, if the model says.
    #[inline]
    fn class_size(&self, stored: &M::State) -> Option<u64> {
        if self.symmetry {
            self.model.class_size(stored)
        } else {
            None
        }
    }

    /// The representative the visited set stores for `state`: with symmetry, its class's, when
    /// the model declares one; `None` when the state itself is stored.
    #[inline]
    fn representative(&self, state: &M::State) -> Option<M::State> {
        if self.symmetry {
            self.model.canonical(state)
        } else {
            None
        }
    }

    fn expand_chunk(&self, depth: usize, first: usize, chunk: &[M::State], local: &mut Local<M>) {
        // One read lock of a growing set per chunk, not per insert.
        let reader = self.visited.reader();
        for (j, state) in chunk.iter().enumerate() {
            self.expand(&reader, (depth, first + j), state, local);
        }
    }

    /// Grows the table for the successors that found it full in this level (every worker
    /// idle), then inserts them, into the first worker's part of the level.
    fn insert_pending(&self, depth: usize, locals: &mut [Local<M>]) {
        let pending: Vec<Pending<M::State>> = locals
            .iter_mut()
            .flat_map(|l| l.pending.drain(..))
            .collect();
        let Some(local) = locals.first_mut().filter(|_| !pending.is_empty()) else {
            return;
        };
        if let Err(e) = self.visited.grow_for(pending.len() as u64) {
            return self.fail(Verdict::Error(e));
        }
        let reader = self.visited.reader();
        for Pending {
            parent,
            ordinal,
            state,
            stored,
            key,
        } in pending
        {
            let stored = stored.as_ref().unwrap_or(&state);
            match reader.insert(stored, key) {
                Ok(false) => {}
                Ok(true) => {
                    let class = self.class_size(stored);
                    self.accept(depth + 1, (parent, ordinal), (&state, key), class, local);
                    local.next.push(state);
                }
                Err(full) => return self.fail(Verdict::Full(full)),
            }
        }
    }
}

/// Searches `model` breadth-first, storing visited states in `visited` (`config.mode` and
/// `config.memory_bytes` are the caller's to apply): from its initial states, or from `resume`
/// (whose visited storage `visited` must be). Stops at the first (shallowest) invariant
/// violation or deadlock, a full table, `config.max_depth`, or `config.stop`.
///
/// `at_level`, if given, is called between levels, with every worker idle, before each level
/// but the first one this run expands: the place to save a checkpoint. With it, a stop request
/// lets the level being expanded finish, and the search stops at its boundary, called with
/// [`Boundary::stopping`]; without it, the workers stop within their chunks.
pub fn search<M: Model>(
    model: &M,
    visited: &Visited<M::State>,
    config: &Options,
    resume: Option<Resume<M::State>>,
    mut at_level: Option<&mut AtLevel<'_, M::State>>,
) -> Outcome<M> {
    let started = Instant::now();
    let shared = Shared {
        model,
        visited,
        rule: Rule::new(model, config.deadlock),
        sometimes: Sometimes::new(model),
        symmetry: config.symmetry,
        dedup: visited.may_report_new_twice() && config.threads > 1,
        stop: AtomicBool::new(false),
        interrupt: config.stop.as_deref(),
        finish_level_on_stop: at_level.is_some(),
        found: Mutex::new(None),
        error: Mutex::new(None),
    };
    let threads = config.threads.max(1);
    let pool = match thread_pool(config.schedule, threads) {
        Ok(pool) => pool,
        Err(e) => {
            return Outcome {
                stats: Stats::default(),
                verdict: Verdict::Error(e),
                sometimes: Vec::new(),
            }
        }
    };
    let (mut stats, mut frontier, mut log) = start(&shared, resume);
    while !frontier.is_empty() && !shared.halted() {
        if config.max_depth.is_some_and(|max| stats.depth >= max) {
            break;
        }
        let mut locals = expand_level(&shared, pool.as_ref(), threads, stats.depth, &frontier);
        shared.insert_pending(stats.depth, &mut locals);
        let Some((next, links)) = next_level(&shared, locals, &mut stats) else {
            break;
        };
        let width = next.len();
        // Room for the next level before it starts, projected from this level's growth.
        let growth = width as f64 / frontier.len().max(1) as f64;
        if let Err(e) = visited.grow_for((width as f64 * growth.max(1.0)) as u64) {
            shared.fail(Verdict::Error(e));
            break;
        }
        let frontier_bytes =
            (frontier.capacity() + next.capacity()) * std::mem::size_of::<M::State>();
        stats.frontier_peak_bytes = stats.frontier_peak_bytes.max(frontier_bytes);
        stats.states += width as u64;
        drop_level(std::mem::replace(&mut frontier, next), threads);
        if width == 0 {
            break;
        }
        stats.depth += 1;
        log.push_level(links);
        stats.elapsed = started.elapsed();
        report_level(config.reporter.as_deref(), &stats, width);
        let stopping = shared.interrupted();
        if let Some(at_level) = at_level.as_mut().filter(|_| !shared.halted()) {
            stats.trace_bytes = log.memory_bytes();
            at_level(Boundary {
                stats: &stats,
                frontier: &frontier,
                log: &log,
                stopping,
            });
        }
        if stopping {
            break;
        }
    }
    stats.elapsed = started.elapsed();
    stats.trace_bytes = log.memory_bytes();
    outcome(shared, stats, frontier.is_empty(), &log)
}

/// A level's states smaller than this are dropped on the calling thread.
const DROP_ALONE: usize = 1 << 14;

/// Drops an expanded level: its states' heap parts are freed on `threads` threads (a state
/// that owns `Vec`s is several frees), unless the states own nothing or are few.
fn drop_level<S: Send>(mut level: Vec<S>, threads: usize) {
    if threads < 2 || !std::mem::needs_drop::<S>() || level.len() < DROP_ALONE {
        return;
    }
    let part = level.len().div_ceil(threads);
    std::thread::scope(|scope| {
        while level.len() > part {
            let tail = level.split_off(level.len() - part);
            scope.spawn(move || drop(tail));
        }
        drop(level);
    });
}

/// rayon's pool for [`Schedule::Steal`]; none for [`Schedule::Chunks`].
fn thread_pool(schedule: Schedule, threads: usize) -> Result<Option<rayon::ThreadPool>, String> {
    match schedule {
        Schedule::Steal => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(Some)
            .map_err(|e| format!("could not start {threads} threads: {e}")),
        Schedule::Chunks => Ok(None),
    }
}

/// The counts, level to expand and trace log a search starts from: `resume`'s, or level 0.
fn start<M: Model>(
    shared: &Shared<'_, M>,
    resume: Option<Resume<M::State>>,
) -> (Stats, Vec<M::State>, TraceLog) {
    match resume {
        Some(Resume {
            stats,
            frontier,
            log,
        }) => (
            Stats {
                elapsed_before: stats.elapsed,
                elapsed: Duration::ZERO,
                resumed_from: Some(stats.depth),
                cut_short: None,
                ..stats
            },
            frontier,
            log,
        ),
        None => {
            let (frontier, log) = initial_level(shared);
            let model = shared.model;
            let represented = frontier.iter().try_fold(0, |sum, s| {
                Some(sum + model.class_size(&model.canonical(s)?)?)
            });
            let stats = Stats {
                states: frontier.len() as u64,
                represented: represented.filter(|_| shared.symmetry),
                ..Stats::default()
            };
            (stats, frontier, log)
        }
    }
}

/// The next level from the threads' parts: concatenated, links in the same order, its
/// transitions and racing duplicates counted in `stats`. `None` when the search stops in its
/// middle (what it had added goes to [`Stats::cut_short`]) or it is too wide for the log.
fn next_level<M: Model>(
    shared: &Shared<'_, M>,
    locals: Vec<Local<M>>,
    stats: &mut Stats,
) -> Option<(Vec<M::State>, LevelLinks)> {
    let width: usize = locals.iter().map(|l| l.next.len()).sum();
    if width > u32::MAX as usize {
        shared.fail(Verdict::Error(format!(
            "level {} holds {width} states; the trace log indexes at most {}",
            stats.depth + 1,
            u32::MAX
        )));
        return None;
    }
    let mut next_keys = Vec::new();
    let mut next = Vec::with_capacity(width);
    let mut links = LevelLinks {
        parent: Vec::with_capacity(width),
        ordinal: Vec::with_capacity(width),
    };
    let (mut transitions, mut represented) = (0, Some(0));
    for local in locals {
        transitions += local.transitions;
        represented = represented.zip(local.represented).map(|(a, b)| a + b);
        next.extend(local.next);
        next_keys.extend(local.next_keys);
        links.parent.extend(local.links.parent);
        links.ordinal.extend(local.links.ordinal);
    }
    let duplicates = if shared.dedup {
        dedup_level(&mut next, &mut links, &next_keys)
    } else {
        0
    };
    if shared.halted() {
        // Some of the level's chunks were not expanded: count it apart.
        stats.cut_short = Some(CutShort {
            level: stats.depth + 1,
            states: next.len() as u64,
            transitions,
        });
        return None;
    }
    stats.transitions += transitions;
    stats.duplicates += duplicates;
    let represented = represented.filter(|_| !shared.dedup);
    stats.represented = stats.represented.zip(represented).map(|(a, b)| a + b);
    Some((next, links))
}

/// Tells `reporter` of the level `stats.depth` just searched, of `width` new states.
fn report_level(reporter: Option<&dyn Reporter>, stats: &Stats, width: usize) {
    if let Some(reporter) = reporter {
        reporter.level(&Progress {
            depth: stats.depth,
            new_states: width as u64,
            states: stats.states,
            elapsed: stats.elapsed,
        });
    }
}

/// How the search ended, once it has: an error, a counterexample (rebuilt from `log` and
/// replayed), or why it stopped without one (`exhausted`: no level left to expand); and the
/// `sometimes` properties' examples.
fn outcome<M: Model>(
    shared: Shared<'_, M>,
    stats: Stats,
    exhausted: bool,
    log: &TraceLog,
) -> Outcome<M> {
    let (interrupted, model) = (shared.interrupted(), shared.model);
    let error = shared.error.into_inner().unwrap_or_else(|e| e.into_inner());
    let found = shared.found.into_inner().unwrap_or_else(|e| e.into_inner());
    let visited_all =
        error.is_none() && found.is_none() && exhausted && stats.resumed_from.is_none();
    let sometimes = shared.sometimes.verdicts(model, log, visited_all);
    if let Some(mut error) = error {
        if let Verdict::Full(full) = &mut error {
            // One number, the same in every run that fills up in this level.
            full.level = stats.depth + 1;
            full.states = stats.states;
            let width = |back: usize| stats.depth.checked_sub(back).map_or(0, |d| log.width(d));
            full.last_widths = [width(2), width(1), width(0)];
        }
        return Outcome {
            stats,
            verdict: error,
            sometimes,
        };
    }
    let verdict = match found {
        Some(found) => counterexample(model, log, found),
        None if exhausted => Verdict::Complete,
        None if interrupted => Verdict::Interrupted,
        None => Verdict::DepthLimit,
    };
    Outcome {
        stats,
        verdict,
        sometimes,
    }
}

/// Level 0: the distinct initial states, and the log that starts with their links.
fn initial_level<M: Model>(shared: &Shared<'_, M>) -> (Vec<M::State>, TraceLog) {
    let visited = shared.visited;
    let mut frontier = Vec::new();
    let mut links = LevelLinks::default();
    for (i, state) in shared.model.initial_states().into_iter().enumerate() {
        let canonical = shared.representative(&state);
        let stored = canonical.as_ref().unwrap_or(&state);
        let key = visited.key(stored);
        // A growing set grows for as many initial states as it has taken so far.
        let inserted = match visited.insert(stored, key) {
            Err(_) if visited.grow_for(frontier.len() as u64 + 1) == Ok(true) => {
                visited.insert(stored, key)
            }
            inserted => inserted,
        };
        match inserted {
            Ok(true) => {
                if let Some(failure) = shared.rule.check_new(&state) {
                    shared.report(Found {
                        depth: 0,
                        failure,
                        state: state.clone(),
                        at: LogPosition::Initial(i),
                    });
                }
                shared.sometimes.check_new(&state, 0, At::Initial(i));
                frontier.push(state);
                links.parent.push(i as u32);
                links.ordinal.push(0);
            }
            Ok(false) => {}
            Err(full) => shared.fail(Verdict::Full(full)),
        }
    }
    let mut log = TraceLog::default();
    log.push_level(links);
    (frontier, log)
}

/// Expands level `depth` on the workers; each returns its part of the next level. A worker
/// stops claiming chunks once the search is halted, and always finishes the one it claimed,
/// so every state of a claimed chunk is expanded.
fn expand_level<M: Model>(
    shared: &Shared<'_, M>,
    pool: Option<&rayon::ThreadPool>,
    threads: usize,
    depth: usize,
    frontier: &[M::State],
) -> Vec<Local<M>> {
    match pool {
        None if threads == 1 => {
            let mut local = Local::new();
            for (c, chunk) in frontier.chunks(CHUNK_STATES).enumerate() {
                if shared.halted() {
                    break;
                }
                shared.expand_chunk(depth, c * CHUNK_STATES, chunk, &mut local);
            }
            vec![local]
        }
        None => {
            let cursor = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut local = Local::new();
                            while !shared.halted() {
                                let first = cursor.fetch_add(CHUNK_STATES, Ordering::Relaxed);
                                if first >= frontier.len() {
                                    break;
                                }
                                let end = (first + CHUNK_STATES).min(frontier.len());
                                shared.expand_chunk(
                                    depth,
                                    first,
                                    &frontier[first..end],
                                    &mut local,
                                );
                            }
                            local
                        })
                    })
                    .collect();
                workers.into_iter().filter_map(|w| w.join().ok()).collect()
            })
        }
        Some(pool) => pool.install(|| {
            frontier
                .par_chunks(CHUNK_STATES)
                .enumerate()
                .fold(Local::new, |mut local, (c, chunk)| {
                    if !shared.halted() {
                        shared.expand_chunk(depth, c * CHUNK_STATES, chunk, &mut local);
                    }
                    local
                })
                .collect()
        }),
    }
}

/// Drops repeated states from a level (same 128-bit key: the same state, or a 2^-128 event),
/// keeping each one's first occurrence, with its link. Returns how many were dropped.
///
/// Bitstate sets k bits per state with separate `fetch_or`s, so two threads inserting one state
/// can both see a bit of theirs clear and both get `New`. Sorting the level's keys (16 bytes per
/// new state, for this level only) removes those duplicates before they are expanded, so counts
/// stay exact; the visited storage itself still holds only bits.
fn dedup_level<S>(next: &mut Vec<S>, links: &mut LevelLinks, keys: &[StateHash]) -> u64 {
    let key = |i: u32| (keys[i as usize].index, keys[i as usize].signature, i);
    let mut order: Vec<u32> = (0..next.len() as u32).collect();
    order.sort_unstable_by_key(|&i| key(i));
    let mut keep = vec![true; next.len()];
    for pair in order.windows(2) {
        let (a, b) = (key(pair[0]), key(pair[1]));
        if (a.0, a.1) == (b.0, b.1) {
            keep[b.2 as usize] = false;
        }
    }
    let dropped = keep.iter().filter(|&&k| !k).count();
    if dropped > 0 {
        let mut i = 0;
        next.retain(|_| (keep[i], i += 1).0);
        let mut i = 0;
        links.parent.retain(|_| (keep[i], i += 1).0);
        let mut i = 0;
        links.ordinal.retain(|_| (keep[i], i += 1).0);
    }
    dropped as u64
}

/// Rebuilds and replays the trace to `found`.
fn counterexample<M: Model>(model: &M, log: &TraceLog, found: Found<M::State>) -> Verdict<M> {
    let path = match found.at {
        LogPosition::Initial(i) => Some((i, Vec::new())),
        LogPosition::Logged(index) => log.path_to(found.depth, index),
        LogPosition::Child(parent, k) => {
            log.path_to(found.depth - 1, parent)
                .map(|(i, mut ordinals)| {
                    ordinals.push(k);
                    (i, ordinals)
                })
        }
    };
    let Some((initial, ordinals)) = path else {
        return Verdict::Error("the trace log has no path to the failing state".into());
    };
    match replay(model, initial, &ordinals, found.failure, &found.state) {
        Ok(trace) => Verdict::Counterexample(trace),
        Err(e) => Verdict::Error(e),
    }
}
