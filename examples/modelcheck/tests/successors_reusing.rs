//! `Model::successors_reusing` (what the search calls, writing successors over spare states)
//! gives the same successors, in the same order, as `Model::successors` (what traces, replay
//! and the distributed search call), for every built-in model, on the first few hundred states
//! of a breadth-first walk, with one list reused throughout so that its spares are states of
//! earlier expansions.

use modelcheck::models::{self, WithModel, CATALOGUE};
use modelcheck::{Model, Successors};
use std::collections::{HashSet, VecDeque};

/// States compared per model.
const STATES: usize = 400;

/// Walks `STATES` states breadth-first and compares the two methods on each; returns how many
/// successors were compared.
struct Compare;

impl WithModel for Compare {
    type Output = usize;
    fn visit<M: Model>(self, model: M) -> usize {
        let mut reused: Successors<M::Action, M::State> = Successors::new();
        let mut seen = HashSet::new();
        let mut queue: VecDeque<M::State> = model.initial_states().into();
        let (mut expanded, mut compared) = (0, 0);
        while let Some(state) = queue.pop_front().filter(|_| expanded < STATES) {
            expanded += 1;
            let mut plain = Vec::new();
            model.successors(&state, &mut plain);
            reused.clear();
            model.successors_reusing(&state, &mut reused);
            let name = model.name();
            assert_eq!(reused.len(), plain.len(), "{name}: {state:?}");
            for (k, (action, next)) in plain.into_iter().enumerate() {
                let (reused_action, reused_next) = &reused.as_slice()[k];
                assert_eq!(*reused_next, next, "{name}: successor {k} of {state:?}");
                let (a, b) = (reused_action.to_string(), action.to_string());
                assert_eq!(a, b, "{name}: action {k} of {state:?}");
                compared += 1;
                if seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
        compared
    }
}

#[test]
fn both_methods_give_the_same_successors_for_every_model() {
    for &(name, size, _) in CATALOGUE {
        let compared = models::with_model(name, size, Compare).expect("a catalogue model");
        assert!(compared > 0, "{name} {size}: no successor compared");
    }
}

#[test]
fn the_actor_models_reuse_their_spares_across_expansions() {
    // Paxos and ABD with 2 clients: states whose vectors differ in length from one
    // expansion to the next, written over spares of other states.
    for name in ["paxos", "abd"] {
        let compared = models::with_model(name, 2, Compare).expect("an actor model");
        assert!(compared >= STATES, "{name}: {compared} successors compared");
    }
}
