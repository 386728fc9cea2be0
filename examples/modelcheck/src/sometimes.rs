//! `sometimes` properties: a run notes, for each one, the first state it stores that satisfies
//! the predicate, and where that state sits in the trace log; at the end the path to it is
//! rebuilt and replayed like a counterexample and reported as an [`Example`]. Breadth-first
//! levels make it a shortest one. A property no stored state satisfies is [`Vacuous`] only
//! after a search that visited every reachable state; otherwise it was [`NotFound`] in the
//! states visited.
//!
//! [`Vacuous`]: SometimesVerdict::Vacuous
//! [`NotFound`]: SometimesVerdict::NotFound

use crate::model::Model;
use crate::property::{Expectation, Predicate};
use crate::trace::TraceLog;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A replayed path from an initial state to a state satisfying a `sometimes` property.
pub struct Example<M: Model> {
    /// The initial state.
    pub initial: M::State,
    /// The steps, in order; the last state (the initial one when there is none) satisfies the
    /// property, and no state before it does.
    pub steps: Vec<(M::Action, M::State)>,
}

/// What a run found for one `sometimes` property.
pub enum SometimesVerdict<M: Model> {
    /// A path to a state satisfying it, replayed against the model. A shortest one, except
    /// after a run resumed from a checkpoint (the levels before it were searched by another
    /// run, whose finds are not saved): then a real path, but maybe not a shortest one.
    Example(Example<M>),
    /// No reachable state satisfies it: the search visited every reachable state (it ended
    /// [`Complete`](crate::Verdict::Complete), from the initial states, with storage that is
    /// not [`partial`](crate::Storage::partial)). The model is vacuous there: a failure.
    Vacuous,
    /// No state the search visited satisfies it, and the search did not visit every reachable
    /// state (stopped, depth limit, counterexample, partial storage, resumed): nothing is
    /// claimed about the others.
    NotFound,
    /// The path found could not be rebuilt or replayed (a bug of the model or the checker).
    Error(String),
}

/// One `sometimes` property of the model, and its verdict after the run.
pub struct SometimesReport<M: Model> {
    /// The property's name.
    pub name: &'static str,
    /// What the run found.
    pub verdict: SometimesVerdict<M>,
}

/// Where a state satisfying a property sits in the trace log.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum At {
    /// Initial state `.0` (level 0).
    Initial(usize),
    /// Successor `.1` of state `.0` of the level before.
    Child(usize, u16),
}

/// The first state found for one property: its depth, where it is, and the state.
struct Reached<S> {
    depth: usize,
    at: At,
    state: S,
}

/// A run's `sometimes` properties and what it has found for them so far; shared by the
/// workers.
pub(crate) struct Sometimes<S> {
    names: Vec<&'static str>,
    predicates: Vec<Predicate<S>>,
    found: Vec<AtomicBool>,
    reached: Mutex<Vec<Option<Reached<S>>>>,
}

impl<S: Clone> Sometimes<S> {
    /// The `sometimes` properties of `model` (its other properties are not this file's).
    pub(crate) fn new<M: Model<State = S>>(model: &M) -> Self {
        let (mut names, mut predicates) = (Vec::new(), Vec::new());
        for property in model.properties() {
            if let Expectation::Sometimes(p) = property.expectation {
                names.push(property.name);
                predicates.push(p);
            }
        }
        Sometimes {
            found: names.iter().map(|_| AtomicBool::new(false)).collect(),
            reached: Mutex::new(names.iter().map(|_| None).collect()),
            names,
            predicates,
        }
    }

    /// Checks a state stored for the first time, at `depth` and `at`, against every property
    /// not found yet. Of the states found in one level, the one first in `at` order is kept.
    #[inline]
    pub(crate) fn check_new(&self, state: &S, depth: usize, at: At) {
        for (i, p) in self.predicates.iter().enumerate() {
            if !self.found[i].load(Ordering::Relaxed) && p(state) {
                self.note(i, state, depth, at);
            }
        }
    }

    fn note(&self, i: usize, state: &S, depth: usize, at: At) {
        let mut reached = self.reached.lock().unwrap_or_else(|e| e.into_inner());
        let better = reached[i]
            .as_ref()
            .is_none_or(|r| (depth, at) < (r.depth, r.at));
        if better {
            reached[i] = Some(Reached {
                depth,
                at,
                state: state.clone(),
            });
        }
        self.found[i].store(true, Ordering::Relaxed);
    }

    /// The verdicts: each found state's path rebuilt from `log` and replayed; `visited_all`
    /// says whether a property not found is vacuous (see [`SometimesVerdict`]).
    pub(crate) fn verdicts<M: Model<State = S>>(
        self,
        model: &M,
        log: &TraceLog,
        visited_all: bool,
    ) -> Vec<SometimesReport<M>> {
        let reached = self.reached.into_inner().unwrap_or_else(|e| e.into_inner());
        let checks = self.names.into_iter().zip(self.predicates).zip(reached);
        checks
            .map(|((name, p), reached)| SometimesReport {
                name,
                verdict: match reached {
                    Some(r) => match example(model, log, &p, r) {
                        Ok(example) => SometimesVerdict::Example(example),
                        Err(e) => SometimesVerdict::Error(format!("{name}: {e}")),
                    },
                    None if visited_all => SometimesVerdict::Vacuous,
                    None => SometimesVerdict::NotFound,
                },
            })
            .collect()
    }
}

/// Rebuilds the path to `r` from `log` and replays it: every step a successor, the last state
/// the one found and satisfying `p`. A path through an earlier `p`-state (possible only after a
/// resumed run, whose earlier levels were checked by another run) is cut there.
fn example<M: Model>(
    model: &M,
    log: &TraceLog,
    p: &Predicate<M::State>,
    r: Reached<M::State>,
) -> Result<Example<M>, String> {
    let path = match r.at {
        At::Initial(i) => Some((i, Vec::new())),
        At::Child(parent, k) => log.path_to(r.depth - 1, parent).map(|(i, mut ordinals)| {
            ordinals.push(k);
            (i, ordinals)
        }),
    };
    let (initial_index, ordinals) = path.ok_or("the trace log has no path to the state found")?;
    let initial = model
        .initial_states()
        .get(initial_index)
        .cloned()
        .ok_or_else(|| format!("example replay: no initial state #{initial_index}"))?;
    let mut example = Example {
        initial,
        steps: Vec::with_capacity(ordinals.len()),
    };
    let mut successors = Vec::new();
    for (i, &k) in ordinals.iter().enumerate() {
        let current = example.steps.last().map_or(&example.initial, |(_, s)| s);
        if p(current) {
            return Ok(example);
        }
        successors.clear();
        model.successors(current, &mut successors);
        let step = successors.get(k as usize).cloned().ok_or_else(|| {
            format!(
                "example replay: state {i} has {} successors, the log says #{k}",
                successors.len()
            )
        })?;
        example.steps.push(step);
    }
    let last = example.steps.last().map_or(&example.initial, |(_, s)| s);
    if last != &r.state {
        return Err("example replay: the path does not end in the state found".into());
    }
    if !p(last) {
        return Err("example replay: the last state does not satisfy the property".into());
    }
    Ok(example)
}
