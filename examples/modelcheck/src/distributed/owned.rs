//! What one timely worker owns: its visited set, and its part of the level being generated
//! (the new states in arrival order, their trace links, the first of them that violates an
//! invariant), filled by the insert operator as successors arrive and by the worker itself.

use crate::expand::Rule;
use crate::model::Model;
use crate::trace::Failure;
use crate::visited::Visited;
use searchcache::StateHash;
use serde::{Deserialize, Serialize};
use std::rc::Rc;

use super::messages::WireFull;

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

    /// Bytes the three columns hold.
    pub(super) fn bytes(&self) -> usize {
        self.parent_worker.capacity() * 2 + self.parent.capacity() * 4 + self.ordinal.capacity() * 2
    }
}

/// A new state that violates an invariant: its index in the level, the invariant, the state.
pub(super) type Violation<S> = (u32, String, S);

/// A worker's part of a level, once its successors are in: states, links, a violation.
pub(super) type Level<S> = (Vec<S>, Links, Option<Violation<S>>);

/// A successor of one of this worker's own states, waiting (its line prefetched) to go into
/// its set: key, state, parent's index, step position.
pub(super) type OwnSuccessor<S> = (StateHash, S, u32, u16);

/// What the insert operator fills while a level's successors arrive.
pub(super) struct Owned<M: Model> {
    pub(super) visited: Visited<M::State>,
    rule: Rc<Rule<M>>,
    /// New states, in arrival order: this worker's part of the next level.
    pub(super) next: Vec<M::State>,
    pub(super) links: Links,
    violation: Option<Violation<M::State>>,
    pub(super) full: Option<WireFull>,
    pub(super) error: Option<String>,
    /// Successors received (its own included) and looked up in its set.
    pub(super) looked_up: u64,
}

impl<M: Model> Owned<M> {
    /// An empty level over `visited`, whose new states `rule` checks.
    pub(super) fn new(visited: Visited<M::State>, rule: Rc<Rule<M>>) -> Self {
        Owned {
            visited,
            rule,
            next: Vec::new(),
            links: Links::default(),
            violation: None,
            full: None,
            error: None,
            looked_up: 0,
        }
    }

    /// Looks `state` up in the set and, when new, appends it and its link to the level (the
    /// first new state that violates an invariant is kept). Does nothing more once the set is
    /// full or an error was recorded.
    #[inline]
    pub(super) fn insert(
        &mut self,
        key: StateHash,
        state: M::State,
        parent_worker: u16,
        parent: u32,
        k: u16,
    ) {
        self.looked_up += 1;
        if self.full.is_some() || self.error.is_some() {
            return;
        }
        match self
            .visited
            .insert(&state, self.visited.stored_key(&state, key))
        {
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
                    if let Some(Failure::Invariant(name)) = self.rule.check_new(&state) {
                        self.violation = Some((index as u32, name.to_string(), state.clone()));
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

    /// Inserts worker `me`'s own successors waiting in `waiting` (their lines prefetched).
    #[inline]
    pub(super) fn insert_own(&mut self, waiting: &mut Vec<OwnSuccessor<M::State>>, me: usize) {
        for (key, state, parent, k) in waiting.drain(..) {
            self.insert(key, state, me as u16, parent, k);
        }
    }

    /// Takes this level's results, leaving empty buffers for the next level's arrivals.
    pub(super) fn take_level(&mut self) -> Level<M::State> {
        (
            std::mem::take(&mut self.next),
            std::mem::take(&mut self.links),
            self.violation.take(),
        )
    }
}
