//! Shortest counterexamples without keeping full states.
//!
//! Scheme: for every state the BFS stores, in order, the index of its parent in the previous
//! level's frontier (`u32`) and the position of the step in the parent's successor list
//! (`u16`): 6 bytes a state, next to the visited set and independent of its mode. A trace is
//! rebuilt by walking these links back to an initial state and then re-expanding forward: the
//! successor at the recorded position of each state is the next state. Because BFS records a
//! state at the level it was first reached, the trace is a shortest one.
//!
//! Why not TLC's (fingerprint, parent fingerprint) pairs: they cost 16 bytes a state, need a
//! lookup table at reconstruction, and a fingerprint collision could send the walk to the wrong
//! state. Positions cannot collide, and re-expansion needs no hashing. Every trace is replayed
//! from the initial states and checked (each step a real successor, the end state the one the
//! search reported, the violation real and the first on the path) before it is printed.

use crate::model::Model;

/// One BFS level's links: for each state of the level, in frontier order, its parent's index
/// in the previous level (for level 0: its index in `initial_states()`) and its step's
/// position among the parent's successors.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct LevelLinks {
    /// Parent index per state.
    pub parent: Vec<u32>,
    /// Successor position per state.
    pub ordinal: Vec<u16>,
}

/// The links of every level so far.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct TraceLog {
    levels: Vec<LevelLinks>,
}

impl TraceLog {
    /// Appends the next level's links.
    pub fn push_level(&mut self, links: LevelLinks) {
        self.levels.push(links);
    }

    /// Bytes held by the links.
    pub fn memory_bytes(&self) -> usize {
        self.levels
            .iter()
            .map(|l| l.parent.capacity() * 4 + l.ordinal.capacity() * 2)
            .sum()
    }

    /// The states of level `depth` (0 for a level not logged).
    pub fn width(&self, depth: usize) -> u64 {
        self.levels.get(depth).map_or(0, |l| l.parent.len() as u64)
    }

    /// Levels logged (the deepest level is `levels() − 1`).
    pub fn levels(&self) -> usize {
        self.levels.len()
    }

    /// Checks a log read back from a file: each level's two columns of one length, every
    /// parent an index into the level before, and `last_width` states in the last level.
    pub fn check_consistent(&self, last_width: usize) -> Result<(), String> {
        let mut previous = None;
        for (depth, level) in self.levels.iter().enumerate() {
            if level.parent.len() != level.ordinal.len() {
                return Err(format!(
                    "trace log level {depth}: columns of different lengths"
                ));
            }
            if let Some(width) = previous {
                if level.parent.iter().any(|&p| p as usize >= width) {
                    return Err(format!("trace log level {depth}: a parent out of range"));
                }
            }
            previous = Some(level.parent.len());
        }
        match previous {
            Some(width) if width == last_width => Ok(()),
            Some(width) => Err(format!(
                "the trace log's last level has {width} states, the frontier {last_width}"
            )),
            None => Err("the trace log is empty".into()),
        }
    }

    /// The path to state `index` of level `depth`: its initial state's index, then the
    /// successor position of each step. `None` when no such state was logged.
    pub fn path_to(&self, depth: usize, mut index: usize) -> Option<(usize, Vec<u16>)> {
        let mut ordinals = Vec::with_capacity(depth);
        for level in self.levels.get(1..=depth)?.iter().rev() {
            ordinals.push(*level.ordinal.get(index)?);
            index = *level.parent.get(index)? as usize;
        }
        ordinals.reverse();
        Some((*self.levels.first()?.parent.get(index)? as usize, ordinals))
    }
}

/// What went wrong at the end of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The named invariant is false in the last state.
    Invariant(&'static str),
    /// The last state has no successors.
    Deadlock,
}

/// A replayed counterexample: the initial state, then each step's label and state.
pub struct Trace<M: Model> {
    /// The initial state.
    pub initial: M::State,
    /// The steps, in order.
    pub steps: Vec<(M::Action, M::State)>,
    /// What the last state violates.
    pub failure: Failure,
}

/// Re-expands the path from initial state `initial_index` through the successor positions
/// `ordinals`, and checks that it is a counterexample for `failure` ending in `expected`:
/// every step is a successor, no earlier state already fails, and the last one does.
pub fn replay<M: Model>(
    model: &M,
    initial_index: usize,
    ordinals: &[u16],
    failure: Failure,
    expected: &M::State,
) -> Result<Trace<M>, String> {
    let invariants = model.invariants();
    let fails = |s: &M::State, successors: usize| match failure {
        Failure::Deadlock => successors == 0,
        Failure::Invariant(name) => invariants
            .iter()
            .any(|inv| inv.name == name && !(inv.holds)(s)),
    };
    let initial = model
        .initial_states()
        .get(initial_index)
        .cloned()
        .ok_or_else(|| format!("trace replay: no initial state #{initial_index}"))?;
    let mut steps: Vec<(M::Action, M::State)> = Vec::with_capacity(ordinals.len());
    let mut successors = Vec::new();
    let mut current = initial.clone();
    for (i, &k) in ordinals.iter().enumerate() {
        if invariants.iter().any(|inv| !(inv.holds)(&current)) {
            return Err(format!(
                "trace replay: state {i} already violates an invariant"
            ));
        }
        successors.clear();
        model.successors(&current, &mut successors);
        let (action, next) = successors.get(k as usize).cloned().ok_or_else(|| {
            format!(
                "trace replay: state {i} has {} successors, the log says #{k}",
                successors.len()
            )
        })?;
        steps.push((action, next.clone()));
        current = next;
    }
    successors.clear();
    model.successors(&current, &mut successors);
    if &current != expected {
        return Err("trace replay: the path does not end in the reported state".into());
    }
    if !fails(&current, successors.len()) {
        return Err(format!(
            "trace replay: the last state does not show {failure:?}"
        ));
    }
    Ok(Trace {
        initial,
        steps,
        failure,
    })
}
