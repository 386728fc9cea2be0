//! The product of a model with a one-bit monitor of a liveness property: the bit is set in a
//! "bad" product state, one in which the property still waits for its good state. A violation
//! is a maximal behaviour that stays bad forever (a cycle) or ends bad (a state without
//! successors).
//!
//! - `eventually(p)`: bad = no `p`-state yet, this one included. Once `p` held the behaviour is
//!   satisfied for good, so a good product state is not explored at all.
//! - `leads_to(p, q)`: bad = "`p` seen, no `q` since", this state included: `m' = (m ∨ p) ∧ ¬q`.
//!   Good states are explored too (a later `p` makes a new request), but an edge from a bad
//!   state to a good one (the response) is cut from the graph whose components are searched,
//!   so every component is all bad or all good.

use crate::property::{Expectation, Predicate};

/// A product state: the model's state and the monitor's bit (true: bad).
pub(crate) type Product<S> = (S, bool);

/// The monitor of one liveness property.
pub(crate) enum Monitor<'a, S> {
    /// `eventually(p)`.
    Eventually(&'a Predicate<S>),
    /// `leads_to(p, q)`.
    LeadsTo(&'a Predicate<S>, &'a Predicate<S>),
}

/// What an edge of the product graph is to the component search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edge {
    /// An edge of the searched graph.
    Kept,
    /// From a bad state to a good one: its target is explored later, as a new root.
    Cut,
    /// Into a state the search never explores (`eventually` satisfied).
    Pruned,
}

impl<'a, S> Monitor<'a, S> {
    /// The monitor of `expectation`; `None` for a property that is not a liveness property.
    pub(crate) fn of(expectation: &'a Expectation<S>) -> Option<Self> {
        match expectation {
            Expectation::Eventually(p) => Some(Monitor::Eventually(p)),
            Expectation::LeadsTo(p, q) => Some(Monitor::LeadsTo(p, q)),
            Expectation::Sometimes(_) => None,
        }
    }

    /// The bit of an initial state.
    pub(crate) fn initial(&self, s: &S) -> bool {
        self.step(false, s)
    }

    /// The bit after a step into `t` from a state whose bit was `bad` (an initial state steps
    /// from `false` for `leads_to` and from `true` for `eventually`).
    pub(crate) fn step(&self, bad: bool, t: &S) -> bool {
        match self {
            Monitor::Eventually(p) => !p(t),
            Monitor::LeadsTo(p, q) => (bad || p(t)) && !q(t),
        }
    }

    /// Whether a product state with this bit is explored (a satisfied `eventually` is not).
    pub(crate) fn explored(&self, bad: bool) -> bool {
        bad || matches!(self, Monitor::LeadsTo(..))
    }

    /// What the edge from a state with bit `from` to one with bit `to` is.
    pub(crate) fn edge(&self, from: bool, to: bool) -> Edge {
        if !self.explored(to) {
            Edge::Pruned
        } else if from && !to {
            Edge::Cut
        } else {
            Edge::Kept
        }
    }
}
