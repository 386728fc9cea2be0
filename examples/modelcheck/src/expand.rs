//! The one rule both searches apply to a state: how it is expanded (successors into a reused
//! buffer, the successor cap, the deadlock check, the transitions counted) and what is checked
//! on a state stored for the first time (the invariants). The threaded search (`bfs.rs`) and
//! the distributed worker (`distributed/search.rs`) differ only in where successors go and how
//! they pick the error to report; a new property kind (liveness, `sometimes`) belongs here.

use crate::model::{Invariant, Model};
use crate::successors::Successors;
use crate::trace::Failure;

/// The most successors one state may have: the trace log records a step's position in 16 bits.
pub(crate) const MAX_SUCCESSORS: usize = u16::MAX as usize;

/// What expanding a state found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// Its successors are in the buffer (none, when a state without successors is no error),
    /// and counted as transitions.
    Successors,
    /// It has no successors and the run reports deadlocks; nothing was counted.
    Deadlock,
}

/// The expansion rule of one run: the model's invariants and whether deadlocks are errors.
pub(crate) struct Rule<M: Model> {
    invariants: Vec<Invariant<M::State>>,
    deadlock_is_error: bool,
}

impl<M: Model> Rule<M> {
    /// The rule for `model`; `deadlock` is the run's option (deadlocks are errors only when the
    /// model also counts them as such).
    pub(crate) fn new(model: &M, deadlock: bool) -> Self {
        Rule {
            invariants: model.invariants(),
            deadlock_is_error: deadlock && model.deadlock_is_error(),
        }
    }

    /// Expands `state` into `successors` (emptied first) and adds its transitions to
    /// `transitions`. Errors: more successors than the trace log can record (nothing counted).
    #[inline]
    pub(crate) fn expand(
        &self,
        model: &M,
        state: &M::State,
        successors: &mut Vec<(M::Action, M::State)>,
        transitions: &mut u64,
    ) -> Result<Expansion, String> {
        successors.clear();
        model.successors(state, successors);
        self.count(successors.len(), transitions)
    }

    /// As [`expand`](Self::expand), into reused storage: `successors` is cleared first (its
    /// states become spares) and filled by [`Model::successors_reusing`].
    #[inline]
    pub(crate) fn expand_into(
        &self,
        model: &M,
        state: &M::State,
        successors: &mut Successors<M::Action, M::State>,
        transitions: &mut u64,
    ) -> Result<Expansion, String> {
        successors.clear();
        model.successors_reusing(state, successors);
        self.count(successors.len(), transitions)
    }

    /// The verdict on a state with `len` successors, counted as transitions unless it is a
    /// deadlock or too many.
    #[inline]
    fn count(&self, len: usize, transitions: &mut u64) -> Result<Expansion, String> {
        if len == 0 && self.deadlock_is_error {
            return Ok(Expansion::Deadlock);
        }
        if len > MAX_SUCCESSORS {
            return Err(format!(
                "a state has {len} successors; the trace log records at most {MAX_SUCCESSORS}"
            ));
        }
        *transitions += len as u64;
        Ok(Expansion::Successors)
    }

    /// What a state stored for the first time violates: the first of the model's invariants
    /// (in its order) that is false in it, if any.
    #[inline]
    pub(crate) fn check_new(&self, state: &M::State) -> Option<Failure> {
        self.invariants
            .iter()
            .find(|inv| !(inv.holds)(state))
            .map(|inv| Failure::Invariant(inv.name))
    }

    /// The invariant named `name`, as [`Failure::Invariant`] (a violation that crossed the
    /// wire by name); `None` for a name the model does not have.
    pub(crate) fn invariant_named(&self, name: &str) -> Option<Failure> {
        self.invariants
            .iter()
            .find(|inv| inv.name == name)
            .map(|inv| Failure::Invariant(inv.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States 0 to 3, each stepping to the next (two ways, so that transitions outnumber
    /// states); 3 has no successor. Its invariant: below 3. (A model of the tests' own: the
    /// built-in models import the search, which imports this file.)
    struct Chain;

    impl Model for Chain {
        type State = u8;
        type Action = u8;

        fn name(&self) -> String {
            "chain".into()
        }
        fn initial_states(&self) -> Vec<u8> {
            vec![0]
        }
        fn successors(&self, &state: &u8, out: &mut Vec<(u8, u8)>) {
            if state < 3 {
                out.extend([(0, state + 1), (1, state + 1)]);
            }
        }
        fn invariants(&self) -> Vec<Invariant<u8>> {
            vec![Invariant::new("BelowThree", |&s: &u8| s < 3)]
        }
    }

    #[test]
    fn a_state_without_successors_is_a_deadlock_only_when_both_say_so() {
        let model = Chain;
        let (mut buffer, mut transitions) = (Vec::new(), 0);
        let rule = Rule::new(&model, false);
        // A breadth-first walk to a state without successors (3).
        let mut seen = std::collections::HashSet::new();
        let mut queue: std::collections::VecDeque<_> = model.initial_states().into();
        let state = loop {
            let state = queue.pop_front().expect("a deadlock is reachable");
            rule.expand(&model, &state, &mut buffer, &mut transitions)
                .unwrap();
            if buffer.is_empty() {
                break state;
            }
            for (_, next) in buffer.drain(..) {
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        };
        let before = transitions;
        assert_eq!(
            rule.expand(&model, &state, &mut buffer, &mut transitions),
            Ok(Expansion::Successors)
        );
        let reporting = Rule::new(&model, true);
        assert_eq!(
            reporting.expand(&model, &state, &mut buffer, &mut transitions),
            Ok(Expansion::Deadlock)
        );
        assert_eq!(transitions, before);
    }

    /// A state with `.0` successors, all to itself.
    struct Fan(usize);

    impl Model for Fan {
        type State = u8;
        type Action = u8;

        fn name(&self) -> String {
            format!("fan({})", self.0)
        }
        fn initial_states(&self) -> Vec<u8> {
            vec![0]
        }
        fn successors(&self, &state: &u8, out: &mut Vec<(u8, u8)>) {
            out.extend(std::iter::repeat_n((0, state), self.0));
        }
    }

    #[test]
    fn more_successors_than_the_log_records_is_an_error_that_counts_nothing() {
        let (mut buffer, mut transitions) = (Vec::new(), 0);
        let most = Fan(MAX_SUCCESSORS);
        let rule = Rule::new(&most, true);
        assert_eq!(
            rule.expand(&most, &0, &mut buffer, &mut transitions),
            Ok(Expansion::Successors)
        );
        assert_eq!(transitions, MAX_SUCCESSORS as u64);
        let too_many = Fan(MAX_SUCCESSORS + 1);
        let rule = Rule::new(&too_many, true);
        let why = rule
            .expand(&too_many, &0, &mut buffer, &mut transitions)
            .expect_err("over the cap");
        assert!(why.contains("65536 successors"), "{why}");
        assert_eq!(transitions, MAX_SUCCESSORS as u64);
    }

    #[test]
    fn transitions_are_counted_and_invariants_checked_by_name() {
        let model = Chain;
        let rule = Rule::new(&model, true);
        let (mut buffer, mut transitions) = (vec![], 0);
        let initial = &model.initial_states()[0];
        assert_eq!(
            rule.expand(&model, initial, &mut buffer, &mut transitions),
            Ok(Expansion::Successors)
        );
        assert!(!buffer.is_empty());
        assert_eq!(transitions, buffer.len() as u64);
        assert_eq!(rule.check_new(initial), None);
        assert_eq!(rule.check_new(&3), Some(Failure::Invariant("BelowThree")));
        let name = model.invariants()[0].name;
        assert_eq!(rule.invariant_named(name), Some(Failure::Invariant(name)));
        assert_eq!(rule.invariant_named("NoSuchInvariant"), None);
    }
}
