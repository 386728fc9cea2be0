//! Stateright ports of `examples/modelcheck`'s actor models, Paxos and the ABD register (issue
//! 26), written as `stateright::Model`s of their own (their own state types and handlers, not
//! the `Wrapped` adapter of `stateright_models.rs`), so equal state counts are an independent
//! check of both, and the states/s compare the engines on states that allocate.
//!
//! `stateright_actors <paxos|abd> <clients> <threads> [max depth]`: stateright's BFS, one line of
//! counts. With a max depth, states more than that many steps from an initial state are not
//! stored, as `modelcheck --max-depth` does (stateright counts an initial state's depth as 1, so
//! its `target_max_depth` is one more); one thread keeps stateright's search breadth-first and
//! its count exact, while more threads may reach a state first by a longer path.

mod abd;
mod paxos;

use stateright::{Checker, Model};
use std::time::Instant;

fn run<M>(model: M, name: &str, threads: usize, max_depth: Option<usize>)
where
    M: Model + Send + Sync + 'static,
    M::State: Clone + std::fmt::Debug + std::hash::Hash + PartialEq + Send + Sync + 'static,
    M::Action: Clone + std::fmt::Debug + PartialEq + Send + Sync + 'static,
{
    let started = Instant::now();
    let mut builder = model.checker().threads(threads);
    if let Some(depth) = max_depth {
        builder = builder.target_max_depth(depth + 1);
    }
    let checker = builder.spawn_bfs().join();
    let secs = started.elapsed().as_secs_f64();
    let unique = checker.unique_state_count();
    let violated = !checker.discoveries().is_empty();
    searchcache_bench::outln!(
        "stateright bfs {name} threads={threads}: states {unique} (generated {}), max depth {}, {secs:.3} s, {:.0} states/s{}",
        checker.state_count(),
        checker.max_depth(),
        unique as f64 / secs,
        if violated { ", PROPERTY VIOLATED" } else { "" }
    );
    if violated {
        std::process::exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: stateright_actors <paxos|abd> <clients 1..=8> <threads> [max depth]";
    let (Some(name), Some(clients), Some(threads)) = (
        args.first(),
        args.get(1)
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| (1..=8).contains(n)),
        args.get(2)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n > 0),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let max_depth = match args.get(3).map(|d| d.parse::<usize>()) {
        None => None,
        Some(Ok(depth)) => Some(depth),
        Some(Err(_)) => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    match name.as_str() {
        "paxos" => run(
            paxos::PaxosPort { clients },
            &format!("paxos {clients}"),
            threads,
            max_depth,
        ),
        "abd" => run(
            abd::AbdPort { clients },
            &format!("abd {clients}"),
            threads,
            max_depth,
        ),
        _ => {
            eprintln!("unknown model `{name}`\n{usage}");
            std::process::exit(2);
        }
    }
}
