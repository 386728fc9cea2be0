//! The stateright ports of the actor models (`src/bin/stateright_actors/`) count the same
//! states as `examples/modelcheck`'s exact mode on the models they port, written apart: Paxos
//! and ABD with 1 and 2 clients, and no property violated in either checker.

use modelcheck::{check, models, Mode, Model, Options, Verdict};
use std::process::Command;

/// modelcheck's exact count of the model `name` with `n` clients.
struct ExactCount;

impl models::WithModel for ExactCount {
    type Output = u64;
    fn visit<M: Model>(self, model: M) -> u64 {
        let options = Options {
            threads: 2,
            mode: Mode::Exact,
            memory_bytes: 256 << 20,
            ..Options::default()
        };
        let report = check(&model, &options);
        assert!(
            matches!(report.verdict, Verdict::Complete),
            "{}",
            model.name()
        );
        report.stats.states
    }
}

/// The stateright port's count, from its output line.
fn stateright_count(name: &str, n: usize) -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_stateright_actors"))
        .args([name, &n.to_string(), "2"])
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
        let ours = models::with_model(name, n, ExactCount).unwrap();
        assert_eq!(stateright_count(name, n), ours, "{name} {n}");
    }
}

#[test]
fn bad_arguments_are_a_usage_error() {
    for args in [
        &["paxos"][..],
        &["raft", "2", "2"],
        &["abd", "0", "2"],
        &["abd", "2", "x"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_stateright_actors"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
