//! What a model is: initial states, labelled successors, named invariants, and whether a state
//! without successors is an error (a deadlock).

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::property::Property;
use crate::successors::Successors;

/// A named safety property: `holds(state)` must be true in every reachable state.
pub struct Invariant<S> {
    /// Printed when the invariant is violated.
    pub name: &'static str,
    /// True when the state satisfies the property. A closure, so it may capture the model's
    /// size.
    pub holds: Box<dyn Fn(&S) -> bool + Send + Sync>,
}

impl<S> Invariant<S> {
    /// A named invariant.
    pub fn new(name: &'static str, holds: impl Fn(&S) -> bool + Send + Sync + 'static) -> Self {
        Invariant {
            name,
            holds: Box::new(holds),
        }
    }
}

/// A finite transition system, written in plain Rust.
///
/// `successors` must be a pure function of the state: the trace reconstruction re-expands
/// states and identifies a step by its position in this list (see `trace.rs`), and the replay
/// check rejects a trace when the list changed.
pub trait Model: Send + Sync + 'static {
    /// A full state. It lives in the BFS frontier only; the visited set keeps a signature.
    type State: Clone + Hash + Eq + Send + Sync + Debug + 'static;
    /// A step's label, printed in traces.
    type Action: Copy + Display + Send;

    /// Short name and size, e.g. `2pc(rm=3)`.
    fn name(&self) -> String;
    /// The initial states (duplicates are allowed; the checker removes them).
    fn initial_states(&self) -> Vec<Self::State>;
    /// Appends every enabled step from `state` to `out`, including steps back to `state`
    /// itself (self-loops). `out` is empty on entry.
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Action, Self::State)>);
    /// The same successors as [`successors`](Self::successors), in the same order, appended to
    /// `out` (empty on entry): what the search calls. The default calls `successors` on
    /// `out`'s own list. A model whose states own heap memory may write each successor over one of
    /// `out`'s spare states instead ([`Successors::push_copy`], which uses `clone_from`), so that
    /// a successor allocates nothing when the spare's buffers fit; its `Clone` must then
    /// implement `clone_from` to reuse them (`#[derive(Clone)]` does not). The checker does not
    /// verify that the two methods agree; a test of the model should (the actor models' do).
    fn successors_reusing(
        &self,
        state: &Self::State,
        out: &mut Successors<Self::Action, Self::State>,
    ) {
        self.successors(state, out.as_vec());
    }
    /// The properties checked on every distinct reachable state.
    fn invariants(&self) -> Vec<Invariant<Self::State>> {
        Vec::new()
    }
    /// The properties beyond invariants (`sometimes`, `eventually`, `leads_to`), each checked
    /// by a run unless the run restricts them.
    fn properties(&self) -> Vec<Property<Self::State>> {
        Vec::new()
    }
    /// Whether a reachable state without successors is reported (and stops the search).
    fn deadlock_is_error(&self) -> bool {
        true
    }
    /// The representative of `state`'s symmetry class, for [`crate::Options::symmetry`]:
    /// `None` (the default) when the model declares no symmetry; a model that declares one
    /// returns `Some` for every state.
    ///
    /// The promise a model makes: two states with the same representative are interchangeable
    /// (a permutation of its processes, a rotation, ... maps one to the other, and it maps the
    /// initial states to initial states and successors to successors); every invariant,
    /// property predicate and deadlock holds of both or of neither. Then a search that stores
    /// one state per class reaches the same verdicts. The checker does not verify it.
    fn canonical(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }
    /// How many states the class of `representative` (a state [`canonical`](Self::canonical)
    /// returned) holds, when that is cheap to say: [`crate::Stats::represented`] sums it over
    /// the classes stored. `None` (the default): not known.
    fn class_size(&self, _representative: &Self::State) -> Option<u64> {
        None
    }
    /// How many processes (weak-fairness classes) the model has: the values
    /// [`process_of`](Self::process_of) returns are below this, and at most
    /// [`MAX_PROCESSES`](crate::MAX_PROCESSES). Default 0: no action belongs to a process, and
    /// weak fairness asks nothing.
    fn processes(&self) -> usize {
        0
    }
    /// The process (fairness class) whose step `action` is, below
    /// [`processes`](Self::processes); `None` for a step of no process (the default). Under
    /// [`Fairness::Weak`](crate::Fairness::Weak) a behaviour in which a process stays enabled
    /// forever but never moves is no counterexample.
    fn process_of(&self, action: &Self::Action) -> Option<usize> {
        let _ = action;
        None
    }
    /// The state as a human reads it, for traces.
    fn show(&self, state: &Self::State) -> String {
        format!("{state:?}")
    }
}
