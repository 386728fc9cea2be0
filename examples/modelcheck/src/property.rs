//! Properties beyond invariants: a state that must be reachable (`sometimes`), a state every
//! behaviour must reach (`eventually`), and a response that must follow a request (`leads_to`).
//! Invariants (`always`) stay in [`crate::Invariant`]; a model lists these in
//! [`crate::Model::properties`].

/// A predicate on states. A closure, so it may capture the model's size.
pub type Predicate<S> = Box<dyn Fn(&S) -> bool + Send + Sync>;

/// What a [`Property`] asks of the model's behaviours.
pub enum Expectation<S> {
    /// Some reachable state satisfies the predicate: the checker shows a shortest path to one
    /// as an example, and reports the model vacuous there when none exists.
    Sometimes(Predicate<S>),
    /// Every maximal behaviour (finite or infinite) reaches a state satisfying the predicate.
    Eventually(Predicate<S>),
    /// Every state satisfying the first predicate is followed, on every behaviour from it, by a
    /// state satisfying the second (□(p → ◇q)); the state itself counts.
    LeadsTo(Predicate<S>, Predicate<S>),
}

/// A named property of a model, other than an invariant.
pub struct Property<S> {
    /// Printed with its verdict; unique among a model's properties and invariants.
    pub name: &'static str,
    /// What it asks.
    pub expectation: Expectation<S>,
}

impl<S> Property<S> {
    /// Some reachable state satisfies `p`.
    pub fn sometimes(name: &'static str, p: impl Fn(&S) -> bool + Send + Sync + 'static) -> Self {
        Property {
            name,
            expectation: Expectation::Sometimes(Box::new(p)),
        }
    }

    /// Every maximal behaviour reaches a state satisfying `p`.
    pub fn eventually(name: &'static str, p: impl Fn(&S) -> bool + Send + Sync + 'static) -> Self {
        Property {
            name,
            expectation: Expectation::Eventually(Box::new(p)),
        }
    }

    /// Every `p`-state is followed, on every behaviour from it, by a `q`-state.
    pub fn leads_to(
        name: &'static str,
        p: impl Fn(&S) -> bool + Send + Sync + 'static,
        q: impl Fn(&S) -> bool + Send + Sync + 'static,
    ) -> Self {
        Property {
            name,
            expectation: Expectation::LeadsTo(Box::new(p), Box::new(q)),
        }
    }
}
