//! The component search: Tarjan's strongly connected components over the product graph,
//! iterative, with one depth-first index per product state in the store (no lowlink, no
//! on-stack bit, no component number per state).
//!
//! Why it needs so little per state: the frames of the depth-first path hold the full states
//! (re-expanded when the search comes back to one, so a frame holds no successor list), their
//! lowlinks and fairness masks. A finished component is the index range `[root, counter)` minus
//! the components finished inside it, so "finished" is one stack of disjoint index intervals,
//! searched by bisection, instead of Tarjan's stack of states.
//!
//! Weak fairness is a test per component, not a product with counters (SPIN's `-f`): a
//! component of bad states holds a weakly fair cycle iff it has an edge and every process is
//! either disabled at one of its states or takes one of its edges (a cycle through every state
//! and edge of the component is fair then, and a fair cycle's states show it). Each frame ORs
//! the processes disabled at its state and taken on edges inside its component; a returning
//! child that is not a root is in its parent's component, and hands its mask up.

use super::monitor::{Edge, Monitor, Product};
use super::store::{LivenessFull, Store};
use crate::fairness::Fairness;
use crate::model::Model;
use searchcache::StateHash;
use std::sync::atomic::{AtomicBool, Ordering};

/// How often (in steps of the search) the stop flag is read.
const STOP_POLL: u32 = 1024;

/// Why the search ended early.
pub(crate) enum Found {
    /// A bad state without successors is reachable: a finite counterexample exists.
    Terminal,
    /// A fair component of bad states: the indices `[root, end)` not inside `done`.
    Component(Component),
    /// The store is full.
    Full(LivenessFull),
    /// Stopped by the caller's flag.
    Interrupted,
    /// The model broke a rule (a process number out of range).
    Error(String),
}

/// A finished component: as index ranges (this search's: its members are the states whose
/// index is in `[root, end)` but in none of `done`'s intervals), or as a sorted list of its
/// members' indices (the index graph's, `components.rs`).
pub(crate) enum Component {
    Ranges {
        root: u32,
        end: u32,
        done: Vec<(u32, u32)>,
    },
    Listed(Vec<u32>),
}

impl Component {
    /// The component of these members, sorted by index.
    pub(crate) fn listed(members: Vec<u32>) -> Self {
        debug_assert!(members.is_sorted());
        Component::Listed(members)
    }

    /// Whether a state of this index is in the component.
    pub(crate) fn contains(&self, index: u32) -> bool {
        match self {
            Component::Ranges { root, end, done } => {
                (*root..*end).contains(&index) && !finished(done, index)
            }
            Component::Listed(members) => members.binary_search(&index).is_ok(),
        }
    }
}

/// Whether `index` is inside one of the disjoint intervals of `done` (sorted by start).
fn finished(done: &[(u32, u32)], index: u32) -> bool {
    let after = done.partition_point(|&(start, _)| start <= index);
    after > 0 && index < done[after - 1].1
}

/// One state on the depth-first path.
struct Frame<S> {
    state: Product<S>,
    index: u32,
    low: u32,
    /// The next successor position to follow.
    next: usize,
    /// Processes disabled at states of its component so far, and taken on edges inside it.
    mask: u64,
    /// Whether an edge inside its component was seen.
    inside: bool,
    /// The process of the edge from its parent.
    via: u64,
}

/// What the search counted.
#[derive(Clone, Debug, Default)]
pub struct SearchCounts {
    /// Product states given an index.
    pub states: u64,
    /// Their transitions (each state's, once).
    pub transitions: u64,
    /// Components finished.
    pub components: u64,
    /// The deepest depth-first path, in states.
    pub deepest: usize,
    /// Expansions to come back to a state (one per tree edge).
    pub re_expansions: u64,
}

/// The search of one property's product graph.
pub(crate) struct Search<'a, M: Model> {
    model: &'a M,
    monitor: &'a Monitor<'a, M::State>,
    /// Every process's bit under weak fairness; 0 without fairness.
    all: u64,
    processes: usize,
    pub(crate) store: Store<M::State>,
    stop: Option<&'a AtomicBool>,
    counter: u32,
    done: Vec<(u32, u32)>,
    frames: Vec<Frame<M::State>>,
    /// Targets of cut edges, stored as pending, searched from once the path is empty.
    later: Vec<Product<M::State>>,
    successors: Vec<(M::Action, M::State)>,
    /// The frame whose successors are in `successors`.
    expanded: Option<usize>,
    polls: u32,
    pub(crate) counts: SearchCounts,
}

impl<'a, M: Model> Search<'a, M> {
    pub(crate) fn new(
        model: &'a M,
        monitor: &'a Monitor<'a, M::State>,
        fairness: Fairness,
        store: Store<M::State>,
        stop: Option<&'a AtomicBool>,
    ) -> Self {
        let processes = model.processes();
        let all = fairness.mask(processes);
        Search {
            model,
            monitor,
            all,
            processes,
            store,
            stop,
            counter: 0,
            done: Vec::new(),
            frames: Vec::new(),
            later: Vec::new(),
            successors: Vec::new(),
            expanded: None,
            polls: 0,
            counts: SearchCounts::default(),
        }
    }

    /// Searches every component reachable from the initial states: `Ok` when none is a fair
    /// component of bad states and no bad state lacks successors.
    pub(crate) fn run(&mut self) -> Result<(), Found> {
        for s in self.model.initial_states() {
            let bad = self.monitor.initial(&s);
            if self.monitor.explored(bad) {
                self.root((s, bad))?;
            }
        }
        while let Some(state) = self.later.pop() {
            self.root(state)?;
        }
        Ok(())
    }

    /// A depth-first search from `state`, unless it has an index already.
    fn root(&mut self, state: Product<M::State>) -> Result<(), Found> {
        let key = StateHash::of(&state);
        match self.store.get(&state, key) {
            Some(index) if index != self.store.pending() => Ok(()),
            _ => {
                self.open(state, key, 0)?;
                self.depth_first()
            }
        }
    }

    /// The process bit of `action`: 0 without fairness or for a step of no process.
    fn bit(&self, action: &M::Action) -> Result<u64, Found> {
        match self.model.process_of(action) {
            Some(p) if p < self.processes => Ok((1u64 << (p % 64)) & self.all),
            Some(p) => Err(Found::Error(format!(
                "the model says a step is of process {p}, but it has {} processes",
                self.processes
            ))),
            None => Ok(0),
        }
    }

    /// Gives `state` the next index and pushes its frame (`via`: the process bit of the edge
    /// from its parent).
    fn open(&mut self, state: Product<M::State>, key: StateHash, via: u64) -> Result<(), Found> {
        let index = self.counter;
        if index >= self.store.pending() - 1 {
            return Err(Found::Full(LivenessFull {
                states: u64::from(index),
                memory_bytes: self.store.memory_bytes(),
            }));
        }
        self.store.set(&state, key, index).map_err(Found::Full)?;
        self.counter += 1;
        self.successors.clear();
        self.model.successors(&state.0, &mut self.successors);
        if self.successors.is_empty() && state.1 {
            return Err(Found::Terminal);
        }
        let mut enabled = 0;
        if self.all != 0 {
            for (action, _) in &self.successors {
                enabled |= self.bit(action)?;
            }
        }
        self.counts.transitions += self.successors.len() as u64;
        self.frames.push(Frame {
            state,
            index,
            low: index,
            next: 0,
            mask: self.all & !enabled,
            inside: false,
            via,
        });
        self.expanded = Some(self.frames.len() - 1);
        self.counts.deepest = self.counts.deepest.max(self.frames.len());
        Ok(())
    }

    /// Runs the depth-first search until the path is empty.
    fn depth_first(&mut self) -> Result<(), Found> {
        while let Some(top) = self.frames.len().checked_sub(1) {
            self.poll()?;
            if self.expanded != Some(top) {
                self.successors.clear();
                self.model
                    .successors(&self.frames[top].state.0, &mut self.successors);
                self.expanded = Some(top);
                self.counts.re_expansions += 1;
            }
            let k = self.frames[top].next;
            if k < self.successors.len() {
                self.frames[top].next += 1;
                self.follow(top, k)?;
            } else {
                self.close()?;
            }
        }
        self.counts.states = u64::from(self.counter);
        Ok(())
    }

    fn poll(&mut self) -> Result<(), Found> {
        self.polls += 1;
        if self.polls.is_multiple_of(STOP_POLL)
            && self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(Found::Interrupted);
        }
        Ok(())
    }

    /// Follows successor `k` of frame `top`.
    fn follow(&mut self, top: usize, k: usize) -> Result<(), Found> {
        let (action, next) = &self.successors[k];
        let bit = self.bit(action)?;
        let bad = self.frames[top].state.1;
        let to = self.monitor.step(bad, next);
        let state = (next.clone(), to);
        let edge = self.monitor.edge(bad, to);
        if edge == Edge::Pruned {
            return Ok(());
        }
        let key = StateHash::of(&state);
        let index = self.store.get(&state, key);
        let pending = self.store.pending();
        match (edge, index) {
            (Edge::Cut, None) => {
                self.store.set(&state, key, pending).map_err(Found::Full)?;
                self.later.push(state);
                Ok(())
            }
            (Edge::Cut, Some(_)) => Ok(()),
            (_, Some(i)) if i != pending => {
                if !finished(&self.done, i) {
                    let frame = &mut self.frames[top];
                    frame.low = frame.low.min(i);
                    frame.mask |= bit;
                    frame.inside = true;
                }
                Ok(())
            }
            _ => self.open(state, key, bit),
        }
    }

    /// Pops the top frame, all its successors followed: a root finishes its component.
    fn close(&mut self) -> Result<(), Found> {
        let frame = self.frames.pop().expect("a frame to close");
        self.expanded = None;
        if frame.low == frame.index {
            self.counts.components += 1;
            if frame.state.1 && frame.inside && frame.mask & self.all == self.all {
                self.counts.states = u64::from(self.counter);
                return Err(Found::Component(Component::Ranges {
                    root: frame.index,
                    end: self.counter,
                    done: std::mem::take(&mut self.done),
                }));
            }
            while self.done.last().is_some_and(|&(s, _)| s >= frame.index) {
                self.done.pop();
            }
            self.done.push((frame.index, self.counter));
        } else {
            let parent = self
                .frames
                .last_mut()
                .expect("a non-root frame has a parent");
            parent.low = parent.low.min(frame.low);
            parent.mask |= frame.mask | frame.via;
            parent.inside = true;
        }
        Ok(())
    }

    /// Product states given an index so far.
    pub(crate) fn states(&self) -> u64 {
        u64::from(self.counter)
    }
}
