//! The model checker's models (the `modelcheck` package's library), unchanged (same state type, same successor function),
//! checked by `stateright` so the comparison in BENCHMARKS.md measures the engines only.
//!
//! `stateright_models <2pc|philosophers> <N> <threads> <bfs|dfs>`

use modelcheck::{models, Invariant, Model};
use stateright::{Checker, Property};
use std::time::Instant;

/// One of our models as a stateright model. The action is the successor state itself, so
/// `next_state` is a copy: stateright pays no second successor computation.
struct Wrapped<M: Model> {
    model: M,
    invariants: Vec<Invariant<M::State>>,
}

impl<M: Model> stateright::Model for Wrapped<M> {
    type State = M::State;
    type Action = M::State;

    fn init_states(&self) -> Vec<M::State> {
        self.model.initial_states()
    }

    fn actions(&self, state: &M::State, actions: &mut Vec<M::State>) {
        let mut out = Vec::new();
        self.model.successors(state, &mut out);
        actions.extend(out.into_iter().map(|(_, s)| s));
    }

    fn next_state(&self, _: &M::State, action: M::State) -> Option<M::State> {
        Some(action)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::always("invariants", |m: &Self, s: &M::State| {
            m.invariants.iter().all(|inv| (inv.holds)(s))
        })]
    }
}

struct Run {
    threads: usize,
    dfs: bool,
}

impl models::WithModel for Run {
    type Output = ();
    fn visit<M: Model>(self, model: M) {
        run_checked(model, self.threads, self.dfs);
    }
}

fn run_checked<M: Model>(model: M, threads: usize, dfs: bool) {
    let name = model.name();
    let invariants = model.invariants();
    let wrapped = Wrapped { model, invariants };
    let started = Instant::now();
    let builder = stateright::Model::checker(wrapped).threads(threads);
    let (unique, generated, depth) = if dfs {
        let c = builder.spawn_dfs().join();
        (c.unique_state_count(), c.state_count(), c.max_depth())
    } else {
        let c = builder.spawn_bfs().join();
        (c.unique_state_count(), c.state_count(), c.max_depth())
    };
    let secs = started.elapsed().as_secs_f64();
    searchcache_bench::outln!(
        "stateright {} {name} threads={threads}: states {unique} (generated {generated}), max depth {depth}, {secs:.3} s, {:.0} states/s",
        if dfs { "dfs" } else { "bfs" },
        unique as f64 / secs
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: stateright_models <2pc|philosophers|...> <N> <threads> <bfs|dfs>";
    let (Some(name), Some(n), Some(threads), Some(order)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse().ok()),
        args.get(2).and_then(|n| n.parse().ok()),
        args.get(3),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let run = Run {
        threads,
        dfs: order == "dfs",
    };
    if let Err(e) = models::with_model(name, n, run) {
        eprintln!("{e}\n{usage}");
        std::process::exit(2);
    }
}
