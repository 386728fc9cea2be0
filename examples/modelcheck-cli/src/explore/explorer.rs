//! The explorer's view of a model whose type is erased: [`Explorer`] walks a path to a state
//! and says what the page shows of it, and runs the check once. [`ModelExplorer`] is it for one
//! [`Model`]; [`Build`] makes one for the model the command line names.

use crate::explore::check_view::check_view;
use crate::explore::path::StatePath;
use crate::explore::view::{
    ActionView, CheckView, ModelView, PropertyHere, PropertyKind, StateView,
};
use modelcheck::models::WithModel;
use modelcheck::{Expectation, Invariant, Model, Options, Property};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// A model to explore, its type erased so that one server serves any of them. Every method
/// takes `&self` and may be called from many threads at once.
pub trait Explorer: Send + Sync {
    /// The model's name, initial states and properties.
    fn model(&self) -> ModelView;
    /// The state `path` leads to, what it shows, its enabled actions and its properties.
    /// `Err`: a step of the path that is not enabled (an index past the enabled actions, or
    /// any step from a state without them), as a message naming the step. Time linear in the
    /// path's length (one `successors` call a step); no recursion.
    fn state(&self, path: &StatePath) -> Result<StateView, String>;
    /// Checks the model (once: later calls, and calls made while it runs, get the first
    /// run's result). Blocks for the whole search.
    fn check(&self) -> CheckView;
}

/// [`Explorer`] for one model.
pub struct ModelExplorer<M: Model> {
    model: M,
    invariants: Vec<Invariant<M::State>>,
    properties: Vec<Property<M::State>>,
    /// The check's options: threads and stop, no reporter.
    options: Options,
    checked: OnceLock<CheckView>,
}

impl<M: Model> ModelExplorer<M> {
    /// Explores `model`; its check runs on `threads` threads and stops at a safe point when
    /// `stop` is set.
    pub fn new(model: M, threads: usize, stop: Option<Arc<AtomicBool>>) -> Self {
        ModelExplorer {
            invariants: model.invariants(),
            properties: model.properties(),
            model,
            options: Options {
                threads,
                stop,
                ..Options::default()
            },
            checked: OnceLock::new(),
        }
    }

    /// Walks `path`: the state it ends in and each step's label; `None` for the empty path.
    fn walk(&self, path: &[usize]) -> Result<Option<Walked<M>>, String> {
        let Some((&first, steps)) = path.split_first() else {
            return Ok(None);
        };
        let mut initials = self.model.initial_states();
        if first >= initials.len() {
            return Err(format!(
                "no initial state #{first}: the model has {} (#0 to #{})",
                initials.len(),
                initials.len().saturating_sub(1)
            ));
        }
        let mut state = initials.swap_remove(first);
        let mut trail = Vec::with_capacity(steps.len());
        let mut successors = Vec::new();
        for (depth, &k) in steps.iter().enumerate() {
            successors.clear();
            self.model.successors(&state, &mut successors);
            if k >= successors.len() {
                return Err(not_enabled(depth, k, successors.len()));
            }
            let (action, next) = successors.swap_remove(k);
            trail.push(action.to_string());
            state = next;
        }
        Ok(Some((state, trail)))
    }

    /// Each property's predicates on `state`.
    fn properties_here(&self, state: &M::State) -> Vec<PropertyHere> {
        let invariants = self.invariants.iter().map(|inv| PropertyHere {
            name: inv.name,
            kind: "invariant",
            p: (inv.holds)(state),
            q: None,
        });
        let others = self.properties.iter().map(|prop| {
            let (p, q) = match &prop.expectation {
                Expectation::Sometimes(p) | Expectation::Eventually(p) => (p(state), None),
                Expectation::LeadsTo(p, q) => (p(state), Some(q(state))),
            };
            PropertyHere {
                name: prop.name,
                kind: kind(&prop.expectation),
                p,
                q,
            }
        });
        invariants.chain(others).collect()
    }
}

/// Where a path ends: its last state, and each step's label.
type Walked<M> = (<M as Model>::State, Vec<String>);

/// The message for step `depth + 1` of a path, action #`k`, from a state with `enabled`
/// actions.
fn not_enabled(depth: usize, k: usize, enabled: usize) -> String {
    let step = depth + 1;
    if enabled == 0 {
        format!(
            "step {step} of the path (action #{k}) is not enabled: the state at depth {depth} \
             has no enabled actions"
        )
    } else {
        format!(
            "step {step} of the path (action #{k}) is not enabled: the state at depth {depth} \
             has {enabled} enabled actions, #0 to #{}",
            enabled - 1
        )
    }
}

/// A property's kind, as the JSON names it.
fn kind<S>(expectation: &Expectation<S>) -> &'static str {
    match expectation {
        Expectation::Sometimes(_) => "sometimes",
        Expectation::Eventually(_) => "eventually",
        Expectation::LeadsTo(..) => "leads_to",
    }
}

impl<M: Model> Explorer for ModelExplorer<M> {
    fn model(&self) -> ModelView {
        let invariants = self.invariants.iter().map(|inv| PropertyKind {
            name: inv.name,
            kind: "invariant",
        });
        let others = self.properties.iter().map(|prop| PropertyKind {
            name: prop.name,
            kind: kind(&prop.expectation),
        });
        ModelView {
            name: self.model.name(),
            initial_states: self.model.initial_states().len(),
            properties: invariants.chain(others).collect(),
        }
    }

    fn state(&self, path: &StatePath) -> Result<StateView, String> {
        let path = path.indices();
        let Some((state, trail)) = self.walk(path)? else {
            let initials = self.model.initial_states();
            return Ok(StateView {
                path: Vec::new(),
                state: None,
                trail: Vec::new(),
                actions: initials
                    .iter()
                    .enumerate()
                    .map(|(index, s)| ActionView {
                        index,
                        action: "initial state".into(),
                        state: self.model.show(s),
                    })
                    .collect(),
                deadlock: false,
                properties: Vec::new(),
            });
        };
        let mut successors = Vec::new();
        self.model.successors(&state, &mut successors);
        let actions = successors
            .iter()
            .enumerate()
            .map(|(index, (a, s))| ActionView {
                index,
                action: a.to_string(),
                state: self.model.show(s),
            });
        Ok(StateView {
            path: path.to_vec(),
            state: Some(self.model.show(&state)),
            trail,
            actions: actions.collect(),
            deadlock: successors.is_empty() && self.model.deadlock_is_error(),
            properties: self.properties_here(&state),
        })
    }

    fn check(&self) -> CheckView {
        self.checked
            .get_or_init(|| check_view(&self.model, &self.options))
            .clone()
    }
}

/// Builds the [`Explorer`] of the model the command line names (see
/// [`modelcheck::models::with_model`]).
pub struct Build {
    /// The check's threads.
    pub threads: usize,
    /// Set to stop a check that is running.
    pub stop: Option<Arc<AtomicBool>>,
}

impl WithModel for Build {
    type Output = Arc<dyn Explorer>;

    fn visit<M: Model>(self, model: M) -> Arc<dyn Explorer>
    where
        M::State: Serialize + DeserializeOwned,
    {
        Arc::new(ModelExplorer::new(model, self.threads, self.stop))
    }
}
