//! One worker's expansion of its part of a level: each state is expanded by the run's
//! [`Rule`], its successors are hashed (their portable keys) and placed: a step back to the
//! state itself is dropped (this worker's set has it), one the [`SentFilter`] remembers is
//! dropped, one this worker owns goes into its set in batches, and the others go to their
//! owners through the successors' input, in parcels.
//!
//! Successors are placed one state late: a state's successors are hashed and their filter
//! slots prefetched, then the previous state's are placed, so that the slots have a state's
//! work to arrive.

use super::dataflow::{Dataflow, LOST};
use super::messages::Totals;
use super::owned::{OwnSuccessor, Owned};
use super::parcel::{encode_key, ParcelLink};
use super::sent::SentFilter;
use crate::expand::{Expansion, Rule};
use crate::model::Model;
use searchcache::StateHash;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use timely::worker::Worker;

/// States expanded between two steps of the worker, so that successors keep flowing to their
/// owners (and into their sets) while a level is expanded, instead of queueing.
const STATES_PER_STEP: usize = 256;

/// A worker's own successors wait in a batch this long before they go into its set, so that
/// the lines prefetched when they were made have arrived.
const OWN_BATCH: usize = 64;

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

/// What a level's expansion found besides successors: the first state without successors
/// (when deadlocks are errors: its index and the state), and the first error.
pub(super) struct Findings<S> {
    pub(super) deadlock: Option<(u32, S)>,
    pub(super) error: Option<String>,
}

impl<S> Default for Findings<S> {
    fn default() -> Self {
        Findings {
            deadlock: None,
            error: None,
        }
    }
}

/// The successors of one state, hashed and ready to be placed.
struct Made<M: Model> {
    states: Vec<M::State>,
    /// Their encodings, one after the other, hashed for their keys and copied into parcels.
    encodings: Vec<u8>,
    placements: Vec<Placement>,
}

impl<M: Model> Default for Made<M> {
    fn default() -> Self {
        Made {
            states: Vec::new(),
            encodings: Vec::new(),
            placements: Vec::new(),
        }
    }
}

impl<M: Model> Made<M> {
    fn clear(&mut self) {
        self.states.clear();
        self.encodings.clear();
        self.placements.clear();
    }
}

/// A worker's expansion machinery, reused from level to level.
pub(super) struct Expander<'a, M: Model> {
    model: &'a M,
    rule: Rc<Rule<M>>,
    me: usize,
    peers: usize,
    sent: SentFilter<M::State>,
    /// Successors for each worker that this one neither sent nor inserted (filter drops,
    /// steps back to the state itself): each owner counts them as looked up at the end.
    pub(super) dropped_for: Vec<u64>,
    successors: Vec<(M::Action, M::State)>,
    own: Vec<OwnSuccessor<M::State>>,
    /// The successors of the state being expanded, and of the one before (placed now).
    made: Made<M>,
    ready: Made<M>,
    ready_parent: u32,
    /// What the level being expanded found (taken for its summary).
    pub(super) findings: Findings<M::State>,
}

impl<'a, M: Model> Expander<'a, M>
where
    M::State: Serialize + DeserializeOwned,
{
    /// The expander of `model` for worker `me` of `peers`, with its filter.
    pub(super) fn new(
        model: &'a M,
        rule: Rc<Rule<M>>,
        me: usize,
        peers: usize,
        sent: SentFilter<M::State>,
    ) -> Self {
        Expander {
            model,
            rule,
            me,
            peers,
            sent,
            dropped_for: vec![0u64; peers],
            successors: Vec::new(),
            own: Vec::with_capacity(OWN_BATCH),
            made: Made::default(),
            ready: Made::default(),
            ready_parent: 0,
            findings: Findings::default(),
        }
    }

    /// Expands `frontier` (this worker's part of the level): successors go to their owners as
    /// they are made, and the worker steps every [`STATES_PER_STEP`] states so that they are
    /// inserted as they arrive. `stop_now` is asked at each step; when it says so the
    /// expansion ends there and `Ok(true)` says it was cut short. `Err` for a lost peer.
    pub(super) fn expand_level(
        &mut self,
        worker: &mut Worker,
        frontier: &[M::State],
        owned: &RefCell<Owned<M>>,
        flow: &mut Dataflow<'_, M::State>,
        totals: &mut Totals,
        stop_now: &dyn Fn() -> bool,
    ) -> Result<bool, String> {
        // The extra last turn (`None`) places the last state's successors. (An interrupt may
        // have left the last level's unplaced; they are not counted.)
        let expanding = frontier.iter().map(Some).chain([None]);
        self.ready.clear();
        let mut cut_short = false;
        for (i, state) in expanding.enumerate() {
            self.made.clear();
            if let Some(state) = state {
                self.make(i as u32, state, totals);
            }
            self.place_ready(owned, flow, totals);
            std::mem::swap(&mut self.ready, &mut self.made);
            self.ready_parent = i as u32;
            if i % STATES_PER_STEP == STATES_PER_STEP - 1 {
                if flow.peers.traffic.fault().is_some() {
                    return Err(LOST.into());
                }
                if stop_now() {
                    cut_short = true;
                    break;
                }
                worker.step();
            }
        }
        owned.borrow_mut().insert_own(&mut self.own, self.me);
        Ok(cut_short)
    }

    /// Expands state `index`: its successors into `self.made`, each hashed (but a step back
    /// to the state itself) and its filter slot prefetched.
    #[inline]
    fn make(&mut self, index: u32, state: &M::State, totals: &mut Totals) {
        let expanded = self.rule.expand(
            self.model,
            state,
            &mut self.successors,
            &mut totals.transitions,
        );
        let findings = &mut self.findings;
        match expanded {
            Ok(Expansion::Successors) => {}
            Ok(Expansion::Deadlock) => {
                findings.deadlock.get_or_insert((index, state.clone()));
                return;
            }
            Err(too_many) => {
                findings.error.get_or_insert(too_many);
                return;
            }
        }
        let made = &mut self.made;
        for (_, next) in self.successors.drain(..) {
            made.placements.push(if next == *state {
                // A step back to the state itself: this worker's set has it (in every mode),
                // so it is not hashed; it counts as looked up.
                Placement::Itself
            } else {
                match encode_key(&next, &mut made.encodings) {
                    Ok((key, range)) => {
                        self.sent.prefetch(key);
                        Placement::To(key, range.end)
                    }
                    Err(e) => {
                        findings.error.get_or_insert(e);
                        Placement::Failed
                    }
                }
            });
            made.states.push(next);
        }
    }

    /// Places the successors in `self.ready` (of state `self.ready_parent`).
    #[inline]
    fn place_ready(
        &mut self,
        owned: &RefCell<Owned<M>>,
        flow: &mut Dataflow<'_, M::State>,
        totals: &mut Totals,
    ) {
        let (me, parent) = (self.me, self.ready_parent);
        let ready = &mut self.ready;
        let mut start = 0;
        for (k, (next, placement)) in ready.states.drain(..).zip(&ready.placements).enumerate() {
            let (key, range) = match *placement {
                Placement::To(key, end) => (key, start..end),
                Placement::Itself => {
                    self.dropped_for[me] += 1;
                    continue;
                }
                Placement::Failed => continue,
            };
            start = range.end;
            let owner = key.owner(self.peers);
            // The filter holds this worker's own successors too: a duplicate it remembers
            // costs no miss in the set.
            if self.sent.sent_before(key, &next) {
                self.dropped_for[owner] += 1;
                if owner != me {
                    totals.successors_dropped += 1;
                }
            } else if owner == me {
                owned.borrow().visited.prefetch(key);
                self.own.push((key, next, parent, k as u16));
                if self.own.len() >= OWN_BATCH {
                    owned.borrow_mut().insert_own(&mut self.own, me);
                }
            } else {
                let link = ParcelLink {
                    parent_worker: me as u16,
                    parent,
                    ordinal: k as u16,
                };
                totals.successors_sent += 1;
                flow.states_in.send((owner, &ready.encodings[range], link));
            }
        }
    }
}
