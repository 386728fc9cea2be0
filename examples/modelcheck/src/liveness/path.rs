//! Building a counterexample once the search found one: a shortest stem by a breadth-first
//! search of the product graph from the initial states, and for a lasso a cycle inside the
//! fair component, leg by leg, each leg a shortest path within the component to a state or
//! edge that serves a process weak fairness still asks for, the last leg back to the cycle's
//! start. These searches hold full states (a counterexample's cost, paid once); what they
//! return is a list of successor positions that `replay.rs` checks.

use super::monitor::{Monitor, Product};
use crate::model::Model;
use std::collections::HashSet;

/// A path: the position of its first state among the starts, then successor positions.
pub(crate) struct Path<S> {
    pub(crate) start: usize,
    pub(crate) ordinals: Vec<u16>,
    pub(crate) end: Product<S>,
}

/// One state reached by a breadth-first search.
struct Node<S> {
    /// The node it was reached from; `usize::MAX` for a start.
    parent: usize,
    /// Its successor position from the parent; its position among the starts for a start.
    step: usize,
    state: Product<S>,
}

/// A test of a product state.
type StateTest<'g, S> = &'g dyn Fn(&Product<S>) -> bool;
/// A test of a product state given its successors.
type ExpandedTest<'g, A, S> = &'g dyn Fn(&Product<S>, &[(A, S)]) -> bool;
/// A test of an edge: its action and target.
type EdgeTest<'g, A, S> = &'g dyn Fn(&A, &Product<S>) -> bool;

/// What a breadth-first search looks for.
pub(crate) struct Goal<'g, M: Model> {
    /// Which product states it may enter.
    pub(crate) within: StateTest<'g, M::State>,
    /// A state that ends the search, given its successors.
    pub(crate) state: ExpandedTest<'g, M::Action, M::State>,
    /// An edge that ends the search.
    pub(crate) edge: EdgeTest<'g, M::Action, M::State>,
}

/// The shortest path from one of `starts` (all within the goal's states) to a goal state or
/// through a goal edge; `None` when there is none.
pub(crate) fn shortest<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    starts: Vec<Product<M::State>>,
    goal: &Goal<'_, M>,
) -> Option<Path<M::State>> {
    let mut seen: HashSet<Product<M::State>, ahash::RandomState> =
        HashSet::with_hasher(ahash::RandomState::new());
    let mut nodes: Vec<Node<M::State>> = Vec::new();
    for (i, state) in starts.into_iter().enumerate() {
        if seen.insert(state.clone()) {
            nodes.push(Node {
                parent: usize::MAX,
                step: i,
                state,
            });
        }
    }
    let mut successors = Vec::new();
    let mut at = 0;
    while at < nodes.len() {
        successors.clear();
        model.successors(&nodes[at].state.0, &mut successors);
        if (goal.state)(&nodes[at].state, &successors) {
            return Some(path_to(&nodes, at, None));
        }
        let bad = nodes[at].state.1;
        for (k, (action, next)) in successors.iter().enumerate() {
            let to = monitor.step(bad, next);
            let state = (next.clone(), to);
            if !monitor.explored(to) || !(goal.within)(&state) {
                continue;
            }
            if (goal.edge)(action, &state) {
                return Some(path_to(&nodes, at, Some((k, state))));
            }
            if seen.insert(state.clone()) {
                nodes.push(Node {
                    parent: at,
                    step: k,
                    state,
                });
            }
        }
        at += 1;
    }
    None
}

/// The path to node `at`, then through successor `last` if given.
fn path_to<S: Clone>(
    nodes: &[Node<S>],
    mut at: usize,
    last: Option<(usize, Product<S>)>,
) -> Path<S> {
    let end = match &last {
        Some((_, state)) => state.clone(),
        None => nodes[at].state.clone(),
    };
    let mut ordinals: Vec<u16> = last.iter().map(|(k, _)| *k as u16).collect();
    while nodes[at].parent != usize::MAX {
        ordinals.push(nodes[at].step as u16);
        at = nodes[at].parent;
    }
    ordinals.reverse();
    Path {
        start: nodes[at].step,
        ordinals,
        end,
    }
}

/// The processes (bits of `all`) a state's successors leave disabled.
pub(crate) fn disabled<M: Model>(model: &M, all: u64, successors: &[(M::Action, M::State)]) -> u64 {
    let enabled = successors
        .iter()
        .filter_map(|(a, _)| model.process_of(a))
        .fold(0u64, |acc, p| acc | 1u64.checked_shl(p as u32).unwrap_or(0));
    all & !enabled
}

/// The process bit of `action` within `all`.
pub(crate) fn bit<M: Model>(model: &M, all: u64, action: &M::Action) -> u64 {
    model
        .process_of(action)
        .map_or(0, |p| 1u64.checked_shl(p as u32).unwrap_or(0) & all)
}

/// Walks `ordinals` from `from`: the state reached and the processes served on the way (taken
/// on an edge, or disabled at a state, the first and last included). `None` if a position is
/// not a successor.
fn walk<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    all: u64,
    from: &Product<M::State>,
    ordinals: &[u16],
) -> Option<(Product<M::State>, u64)> {
    let mut successors = Vec::new();
    let mut state = from.clone();
    let mut served = 0;
    for &k in ordinals {
        successors.clear();
        model.successors(&state.0, &mut successors);
        served |= disabled(model, all, &successors);
        let (action, next) = successors.get(k as usize)?;
        served |= bit(model, all, action);
        let to = monitor.step(state.1, next);
        state = (next.clone(), to);
    }
    successors.clear();
    model.successors(&state.0, &mut successors);
    served |= disabled(model, all, &successors);
    Some((state, served))
}

/// A cycle from `start` through states of the component (`within`) that serves every process
/// of `all` (weak fairness; `all` is 0 without it) and has at least one step: its successor
/// positions. `None` if the component has none (it is then not a fair component).
pub(crate) fn fair_cycle<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    all: u64,
    start: &Product<M::State>,
    within: &dyn Fn(&Product<M::State>) -> bool,
) -> Option<Vec<u16>> {
    let (_, mut needed) = walk(model, monitor, all, start, &[])?;
    needed = all & !needed;
    let mut cycle: Vec<u16> = Vec::new();
    let mut at = start.clone();
    while needed != 0 {
        let wanted = needed;
        let goal = Goal::<M> {
            within,
            state: &|_, successors| disabled(model, all, successors) & wanted != 0,
            edge: &|action, _| bit(model, all, action) & wanted != 0,
        };
        let leg = shortest(model, monitor, vec![at.clone()], &goal)?;
        let (end, served) = walk(model, monitor, all, &at, &leg.ordinals)?;
        needed &= !served;
        cycle.extend(leg.ordinals);
        at = end;
    }
    if at != *start || cycle.is_empty() {
        let goal = Goal::<M> {
            within,
            state: &|_, _| false,
            edge: &|_, next| next == start,
        };
        cycle.extend(shortest(model, monitor, vec![at], &goal)?.ordinals);
    }
    Some(cycle)
}
