//! The stateright ports of the actor models (`src/bin/stateright_actors/`) count the same
//! states as `examples/modelcheck`'s exact mode on the models they port, written apart: Paxos
//! and ABD with 1 and 2 clients, and no property violated in either checker; and, with a depth
//! bound, the same states up to that depth (how BENCHMARKS.md compares 3 clients).

use modelcheck::{check, models, Mode, Model, Options, Verdict};
use std::process::Command;

/// modelcheck's exact count of the model `name` with `n` clients, up to the depth bound if
/// one is given.
struct ExactCount(Option<usize>);

impl models::WithModel for ExactCount {
    type Output = u64;
    fn visit<M: Model>(self, model: M) -> u64 {
        let options = Options {
            threads: 2,
            mode: Mode::Exact,
            memory_bytes: 256 << 20,
            max_depth: self.0,
            ..Options::default()
        };
        let report = check(&model, &options);
        let expected = match self.0 {
            None => matches!(report.verdict, Verdict::Complete),
            Some(_) => matches!(report.verdict, Verdict::DepthLimit),
        };
        assert!(expected, "{}", model.name());
        report.stats.states
    }
}

/// The stateright port's count on `threads` threads, to the depth bound if one is given (then
/// on one thread, where its search is breadth-first and a depth-bounded count exact).
fn stateright_count(name: &str, n: usize, bound: Option<usize>) -> u64 {
    let threads = if bound.is_some() { "1" } else { "2" };
    let out = Command::new(env!("CARGO_BIN_EXE_stateright_actors"))
        .args([name, &n.to_string(), threads])
        .args(bound.map(|depth| depth.to_string()))
        .output()
        .expect("run stateright_actors");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{name} {n}: {text}");
    let states = text
        .split("states ")
        .nth(1)
        .and_then(|t| t.split(' ').next());
    states
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no count in {text}"))
}

#[test]
fn ports_count_the_same_states_as_the_exact_mode() {
    for (name, n) in [("paxos", 1), ("paxos", 2), ("abd", 1), ("abd", 2)] {
        let ours = models::with_model(name, n, ExactCount(None)).unwrap();
        assert_eq!(stateright_count(name, n, None), ours, "{name} {n}");
    }
}

#[test]
fn a_depth_bound_keeps_the_same_states_on_both_sides() {
    // Depth 9 of 3 clients: levels still growing, thousands of states, well short of the end.
    for (name, depth) in [("paxos", 9), ("abd", 9)] {
        let ours = models::with_model(name, 3, ExactCount(Some(depth))).unwrap();
        let whole_to_next = models::with_model(name, 3, ExactCount(Some(depth + 1))).unwrap();
        assert!(
            ours < whole_to_next,
            "{name}: the bound must cut the search"
        );
        let theirs = stateright_count(name, 3, Some(depth));
        assert_eq!(theirs, ours, "{name} 3 to depth {depth}");
    }
}

#[test]
fn bad_arguments_are_a_usage_error() {
    for args in [
        &["paxos"][..],
        &["raft", "2", "2"],
        &["abd", "0", "2"],
        &["abd", "2", "x"],
        &["abd", "2", "2", "deep"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_stateright_actors"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
