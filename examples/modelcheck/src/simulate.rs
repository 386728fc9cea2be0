//! Random simulation, for models whose state spaces do not fit: [`simulate`] runs N random
//! walks of at most D steps, each from a random initial state and each step to a uniformly
//! random successor, and checks every state visited with the exhaustive search's own rule
//! (`expand.rs`: invariants, deadlock, the successor cap). A simulation finds errors; it never
//! proves their absence.
//!
//! Walk `i` draws its choices from SplitMix64 seeded with [`walk_seed`]`(seed, i)`, so it is
//! the same walk whatever the thread count, and a run of one walk from that seed replays it.
//! Threads claim walks from one atomic counter; the violation reported is the one of the
//! lowest-numbered failing walk, so the result does not depend on the threads either.

use crate::expand::{Expansion, Rule};
use crate::model::Model;
use crate::property::{Expectation, Predicate};
use crate::trace::{replay, Failure, Trace};
use crate::walk_rng::WalkRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use crate::walk_rng::walk_seed;

/// Steps of a walk when the caller does not say (TLC's `-depth` default).
pub const DEFAULT_SIMULATION_DEPTH: usize = 100;

/// How a simulation runs.
#[derive(Clone, Debug)]
pub struct SimulateOptions {
    /// Walks to run (default 1,000).
    pub walks: u64,
    /// The most steps of a walk; a walk also ends at a state without successors when
    /// deadlocks are no error (default [`DEFAULT_SIMULATION_DEPTH`]).
    pub depth: usize,
    /// The run's seed: walk `i` uses [`walk_seed`]`(seed, i)` (default 0).
    pub seed: u64,
    /// Worker threads, at least 1 (default: every core). The result does not depend on it.
    pub threads: usize,
    /// Report states without successors, when the model counts them as errors (default: yes).
    pub deadlock: bool,
    /// Set to true to stop: each thread ends its walk within 256 steps, and the run returns
    /// [`SimulationVerdict::Interrupted`] unless a walk had already failed (default: none).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for SimulateOptions {
    fn default() -> Self {
        SimulateOptions {
            walks: 1_000,
            depth: DEFAULT_SIMULATION_DEPTH,
            seed: 0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            deadlock: true,
            stop: None,
        }
    }
}

/// A failing walk: which, its own seed, and its trace (replayed and checked like every
/// counterexample's: each step a real successor, the violation real and the first on the path).
pub struct Violation<M: Model> {
    /// The walk's number, 0 to `walks − 1`: the lowest of the failing walks.
    pub walk: u64,
    /// The walk's own seed: a simulation of one walk with this seed replays it exactly.
    pub seed: u64,
    /// The walk up to its first failing state.
    pub trace: Trace<M>,
}

/// How a simulation ended.
pub enum SimulationVerdict<M: Model> {
    /// Every walk ran without finding an error. This proves nothing about the states the walks
    /// did not visit.
    NoViolation,
    /// A walk reached a state that violates an invariant or is a deadlock.
    Violation(Violation<M>),
    /// Stopped by [`SimulateOptions::stop`] with no error found in the steps walked.
    Interrupted,
    /// A walk could not go on (no initial state, too many successors, a failed replay).
    Error(String),
}

/// What a simulation counted, and how it ended.
pub struct SimulationReport<M: Model> {
    /// Walks run to their end. When one fails, walks after it may have run too, so this count
    /// depends on the threads; the verdict does not.
    pub walks: u64,
    /// Steps taken by those walks (and by any walk cut short by a stop).
    pub steps: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// How it ended.
    pub verdict: SimulationVerdict<M>,
    /// Each `sometimes` property of the model, in its order, with the first walk that visited
    /// a state satisfying it (`None`: no walk did, which says nothing about the states no walk
    /// visited).
    pub sometimes: Vec<(&'static str, Option<Reached>)>,
}

/// Where a walk first visited a state satisfying a `sometimes` property: the lowest-numbered
/// such walk of those run (every walk numbered below a failing one is run, so a walk below it
/// is the same whatever the threads), its seed, and the step (0: its initial state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The walk's number.
    pub walk: u64,
    /// Its own seed: a simulation of one walk with this seed replays it.
    pub seed: u64,
    /// The first step at which the walk's state satisfied the property.
    pub step: usize,
}

/// How one walk ended.
enum WalkEnd<S> {
    /// It took its steps, or reached a state without successors that is no error.
    Clean,
    /// Its last state fails: the initial state's index, and the failure; the step positions
    /// are in the walker's `ordinals`.
    Failed(usize, Failure, S),
    /// It could not go on.
    Error(String),
    /// The run was stopped.
    Stopped,
}

/// One thread's walking: the shared rule and its own reused buffers.
struct Walker<'a, M: Model> {
    model: &'a M,
    rule: &'a Rule<M>,
    /// The `sometimes` predicates, and this thread's first (lowest) walk and step for each.
    sometimes: &'a [&'a Predicate<M::State>],
    reached: Vec<Option<(u64, usize)>>,
    initials: &'a [M::State],
    depth: usize,
    stop: Option<&'a AtomicBool>,
    successors: Vec<(M::Action, M::State)>,
    ordinals: Vec<u16>,
    transitions: u64,
    steps: u64,
}

impl<M: Model> Walker<'_, M> {
    /// Walks from `seed`, checking each state with the rule; records each step's position.
    fn walk(&mut self, (index, seed): (u64, u64)) -> WalkEnd<M::State> {
        let mut rng = WalkRng::new(seed);
        self.ordinals.clear();
        let initial = rng.below(self.initials.len());
        let mut state = self.initials[initial].clone();
        for step in 0..=self.depth {
            for (p, reached) in self.sometimes.iter().zip(&mut self.reached) {
                if reached.is_none() && p(&state) {
                    *reached = Some((index, step));
                }
            }
            if let Some(failure) = self.rule.check_new(&state) {
                return WalkEnd::Failed(initial, failure, state);
            }
            if step % 256 == 255 && self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return WalkEnd::Stopped;
            }
            let expansion = self.rule.expand(
                self.model,
                &state,
                &mut self.successors,
                &mut self.transitions,
            );
            match expansion {
                Err(e) => return WalkEnd::Error(e),
                Ok(Expansion::Deadlock) => {
                    return WalkEnd::Failed(initial, Failure::Deadlock, state)
                }
                Ok(Expansion::Successors) if step == self.depth || self.successors.is_empty() => {
                    break
                }
                Ok(Expansion::Successors) => {}
            }
            let k = rng.below(self.successors.len());
            // `expand` caps the successors at u16::MAX + 1 positions, 0 to u16::MAX.
            self.ordinals.push(k as u16);
            state = self.successors.swap_remove(k).1;
            self.steps += 1;
        }
        WalkEnd::Clean
    }
}

/// The first failing walk, by number: its number, end and step positions.
type Found<S> = Option<(u64, WalkEnd<S>, Vec<u16>)>;

/// What the threads share.
struct Shared<S> {
    next: AtomicU64,
    /// The lowest number of a failing walk so far (`u64::MAX`: none): later walks are not
    /// started.
    first_failing: AtomicU64,
    found: Mutex<Found<S>>,
    walks: AtomicU64,
    steps: AtomicU64,
    stopped: AtomicBool,
    /// The lowest walk and its step that reached each `sometimes` property.
    reached: Mutex<Vec<Option<(u64, usize)>>>,
}

impl<S> Shared<S> {
    /// Keeps walk `index`'s end if it is the lowest-numbered failing walk so far.
    fn record(&self, index: u64, end: WalkEnd<S>, ordinals: &[u16]) {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if found.as_ref().is_none_or(|(i, _, _)| index < *i) {
            *found = Some((index, end, ordinals.to_vec()));
        }
        self.first_failing.fetch_min(index, Ordering::Relaxed);
    }
}

/// Runs `options.walks` random walks of `model` on `options.threads` threads and reports the
/// lowest-numbered walk that reaches an invariant violation or a deadlock (replayed before it
/// is returned), or that none did. Walk `i` is the same in every run with the same seed,
/// model and depth, whatever the threads; every walk numbered below a failing one is run.
#[must_use]
pub fn simulate<M: Model>(model: &M, options: &SimulateOptions) -> SimulationReport<M> {
    let start = Instant::now();
    let initials = model.initial_states();
    let properties = model.properties();
    let sometimes: Vec<(&'static str, &Predicate<M::State>)> = properties
        .iter()
        .filter_map(|p| match &p.expectation {
            Expectation::Sometimes(q) => Some((p.name, q)),
            _ => None,
        })
        .collect();
    let predicates: Vec<&Predicate<M::State>> = sometimes.iter().map(|&(_, q)| q).collect();
    let report = |walks, steps, verdict, reached: Vec<Option<(u64, usize)>>| SimulationReport {
        walks,
        steps,
        elapsed: start.elapsed(),
        verdict,
        sometimes: sometimes
            .iter()
            .zip(reached.into_iter().chain(std::iter::repeat(None)))
            .map(|(&(name, _), r)| {
                let reached = r.map(|(walk, step)| Reached {
                    walk,
                    seed: walk_seed(options.seed, walk),
                    step,
                });
                (name, reached)
            })
            .collect(),
    };
    if initials.is_empty() {
        let why = "the model has no initial states".to_string();
        return report(0, 0, SimulationVerdict::Error(why), Vec::new());
    }
    let rule = Rule::new(model, options.deadlock);
    let shared = Shared {
        next: AtomicU64::new(0),
        first_failing: AtomicU64::new(u64::MAX),
        found: Mutex::new(None),
        walks: AtomicU64::new(0),
        steps: AtomicU64::new(0),
        stopped: AtomicBool::new(false),
        reached: Mutex::new(vec![None; predicates.len()]),
    };
    let threads = (options.threads as u64).clamp(1, options.walks.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (rule, initials) = (&rule, &initials[..]);
            scope.spawn(|| walk_claimed((model, rule, initials, &predicates), options, &shared));
        }
    });
    let verdict = verdict(model, options, &shared);
    let reached = shared
        .reached
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    report(
        shared.walks.into_inner(),
        shared.steps.into_inner(),
        verdict,
        reached,
    )
}

/// One thread: claims walks by number until they run out, a lower one failed, or a stop.
type Walking<'a, M> = (
    &'a M,
    &'a Rule<M>,
    &'a [<M as Model>::State],
    &'a [&'a Predicate<<M as Model>::State>],
);

fn walk_claimed<M: Model>(
    (model, rule, initials, sometimes): Walking<'_, M>,
    options: &SimulateOptions,
    shared: &Shared<M::State>,
) {
    let mut walker = Walker {
        model,
        rule,
        sometimes,
        reached: vec![None; sometimes.len()],
        initials,
        depth: options.depth,
        stop: options.stop.as_deref(),
        successors: Vec::new(),
        ordinals: Vec::new(),
        transitions: 0,
        steps: 0,
    };
    loop {
        if walker.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            shared.stopped.store(true, Ordering::Relaxed);
            break;
        }
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if index >= options.walks || index >= shared.first_failing.load(Ordering::Relaxed) {
            break;
        }
        match walker.walk((index, walk_seed(options.seed, index))) {
            WalkEnd::Clean => {}
            WalkEnd::Stopped => {
                shared.stopped.store(true, Ordering::Relaxed);
                break;
            }
            end => shared.record(index, end, &walker.ordinals),
        }
        shared.walks.fetch_add(1, Ordering::Relaxed);
    }
    shared.steps.fetch_add(walker.steps, Ordering::Relaxed);
    // Each thread's first hit is its lowest walk (walks are claimed in increasing order).
    let mut reached = shared.reached.lock().unwrap_or_else(|e| e.into_inner());
    for (all, mine) in reached.iter_mut().zip(walker.reached) {
        if mine.is_some_and(|m| all.is_none_or(|a| m.0 < a.0)) {
            *all = mine;
        }
    }
}

/// The verdict once every thread ended: the failing walk's trace, replayed, if any.
fn verdict<M: Model>(
    model: &M,
    options: &SimulateOptions,
    shared: &Shared<M::State>,
) -> SimulationVerdict<M> {
    let found = shared
        .found
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    match found {
        Some((walk, WalkEnd::Failed(initial, failure, last), ordinals)) => {
            match replay(model, initial, &ordinals, failure, &last) {
                Ok(trace) => SimulationVerdict::Violation(Violation {
                    walk,
                    seed: walk_seed(options.seed, walk),
                    trace,
                }),
                Err(e) => SimulationVerdict::Error(format!("walk {walk}: {e}")),
            }
        }
        Some((walk, WalkEnd::Error(e), _)) => SimulationVerdict::Error(format!("walk {walk}: {e}")),
        _ if shared.stopped.load(Ordering::Relaxed) => SimulationVerdict::Interrupted,
        _ => SimulationVerdict::NoViolation,
    }
}
