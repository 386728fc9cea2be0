//! The JSON the explorer's API answers with: the README's "JSON API" section documents each
//! field. Plain data, built by [`crate::explore::explorer`] and serialised by serde.

use serde::Serialize;

/// `GET /api/model`: what is being explored.
#[derive(Serialize, Debug, Clone)]
pub struct ModelView {
    /// The model's name and size, e.g. `2pc(rms=3)`.
    pub name: String,
    /// How many initial states it has.
    pub initial_states: usize,
    /// Its invariants, then its other properties, each with its kind.
    pub properties: Vec<PropertyKind>,
}

/// A property's name and kind.
#[derive(Serialize, Debug, Clone)]
pub struct PropertyKind {
    /// Its name.
    pub name: &'static str,
    /// `invariant`, `sometimes`, `eventually` or `leads_to`.
    pub kind: &'static str,
}

/// `GET /api/state`: one state, reached by a path.
#[derive(Serialize, Debug, Clone)]
pub struct StateView {
    /// The path, as its indices.
    pub path: Vec<usize>,
    /// The state as the model's `show` prints it; `null` for the empty path.
    pub state: Option<String>,
    /// The label of each step of the path (one fewer than `path` holds; empty for `[]`).
    pub trail: Vec<String>,
    /// The enabled actions, in the model's order: the last index of a successor's path. For
    /// the empty path, the initial states.
    pub actions: Vec<ActionView>,
    /// The state has no enabled action and the model calls that an error.
    pub deadlock: bool,
    /// Each property on this state (empty for the empty path).
    pub properties: Vec<PropertyHere>,
}

/// One enabled action.
#[derive(Serialize, Debug, Clone)]
pub struct ActionView {
    /// Its index: append it to the path to reach `state`.
    pub index: usize,
    /// Its label (`initial state` for an initial state).
    pub action: String,
    /// The state it leads to, as `show` prints it.
    pub state: String,
}

/// A property's predicates on one state.
#[derive(Serialize, Debug, Clone)]
pub struct PropertyHere {
    /// Its name.
    pub name: &'static str,
    /// `invariant`, `sometimes`, `eventually` or `leads_to`.
    pub kind: &'static str,
    /// The predicate on this state: an invariant holds; `sometimes(p)`, `eventually(p)`: p is
    /// true; `leads_to(p, q)`: p is true.
    pub p: bool,
    /// `leads_to(p, q)`'s q on this state; absent for the other kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<bool>,
}

/// `POST /api/check`: the check's outcome.
#[derive(Serialize, Debug, Clone)]
pub struct CheckView {
    /// `complete`, `partial`, `counterexample`, `depth limit`, `full`, `interrupted` or
    /// `error`.
    pub result: &'static str,
    /// One line for a person, as the command line's `result:` says it.
    pub message: String,
    /// Distinct states stored.
    pub states: u64,
    /// Transitions generated.
    pub transitions: u64,
    /// The deepest whole level searched.
    pub depth: usize,
    /// Seconds the search took.
    pub seconds: f64,
    /// The traces found: a counterexample, and (once the checker finds them) the examples of
    /// `sometimes` properties. Each is a path to open in the explorer.
    pub traces: Vec<TraceView>,
}

/// A trace the check found, as a path the explorer walks.
#[derive(Serialize, Debug, Clone)]
pub struct TraceView {
    /// `counterexample` or `example`.
    pub kind: &'static str,
    /// What it shows: the invariant violated, `deadlock`, or the property reached.
    pub property: String,
    /// The path to its last state: initial index, then each step's index.
    pub path: Vec<usize>,
    /// The label of each step (one fewer than `path`).
    pub actions: Vec<String>,
}

/// Every error's body: `{"error": "..."}`.
#[derive(Serialize, Debug, Clone)]
pub struct ErrorView {
    /// What was wrong, for a person.
    pub error: String,
}
