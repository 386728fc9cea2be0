//! `sometimes` properties and `--symmetry` as users run them: the examples printed, what an
//! incomplete search says, the exit statuses, the class counts, and the runs refused.

mod common;

use common::{field, run, trace_lines};
use modelcheck::{check, Model, Options, Property};
use modelcheck_cli as cli;

/// The lines of the example of `name`: "k: action state", up to the next heading.
fn example_lines<'a>(report: &'a str, name: &str) -> Vec<&'a str> {
    let heading = format!("example of sometimes {name} (replayed and checked):");
    report
        .lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect()
}

/// Done-when: `modelcheck 2pc 3` prints examples for its `sometimes` properties, shortest ones:
/// all commit in 10 steps (3 prepares, 3 records, the commit, 3 receipts), all abort in 3.
#[test]
fn two_phase_commit_prints_its_examples() {
    let (status, out, err) = run(&["2pc", "3", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}{err}");
    assert!(
        out.contains("sometimes AllCommitted: example found, 10 steps"),
        "{out}"
    );
    assert!(
        out.contains("sometimes AllAborted: example found, 3 steps"),
        "{out}"
    );
    let committed = example_lines(&out, "AllCommitted");
    assert_eq!(committed.len(), 11, "{out}");
    assert!(committed[10].contains("rm=[committed, committed, committed]"));
    let aborted = example_lines(&out, "AllAborted");
    assert_eq!(aborted.len(), 4, "{out}");
    assert!(aborted[0].starts_with("  0: initial"), "{out}");
    assert!(aborted[3].contains("rm=[aborted, aborted, aborted]"));
    assert!(trace_lines(&out).is_empty(), "no counterexample: {out}");
}

/// Cut at --max-depth 2, neither is found, and neither is called vacuous: the status is the
/// search's (0 up to --max-depth).
#[test]
fn a_capped_search_finds_nothing_and_claims_nothing() {
    let (status, out, err) = run(&["2pc", "3", "--max-depth", "2", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}{err}");
    for name in ["AllCommitted", "AllAborted"] {
        let line = format!("sometimes {name}: not found in the states visited");
        assert!(out.contains(&line), "{out}");
    }
    assert!(!out.contains("VACUOUS"), "{out}");
    assert!(!out.contains("example of"), "{out}");
}

/// The broken lock: the example (2 steps) is printed before the counterexample (4 steps), which
/// stays the report's last part.
#[test]
fn an_example_and_a_counterexample_are_told_apart() {
    let (status, out, err) = run(&["buggy", "3", "--quiet"]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}{err}");
    assert!(
        out.contains("sometimes CriticalReachable: example found, 2 steps"),
        "{out}"
    );
    assert_eq!(example_lines(&out, "CriticalReachable").len(), 3, "{out}");
    let trace = trace_lines(&out);
    assert_eq!(trace.len(), 5, "{out}");
    assert_eq!(trace[4].matches("CRITICAL").count(), 2, "{out}");
}

/// A counter that only goes up to 3: "it reaches 4" is vacuous.
struct UpToThree;

impl Model for UpToThree {
    type State = u8;
    type Action = &'static str;

    fn name(&self) -> String {
        "up-to-three".into()
    }
    fn initial_states(&self) -> Vec<u8> {
        vec![0]
    }
    fn successors(&self, &s: &u8, out: &mut Vec<(&'static str, u8)>) {
        if s < 3 {
            out.push(("up", s + 1));
        }
    }
    fn properties(&self) -> Vec<Property<u8>> {
        vec![
            Property::sometimes("ReachesThree", |&s: &u8| s == 3),
            Property::sometimes("ReachesFour", |&s: &u8| s == 4),
        ]
    }
    fn deadlock_is_error(&self) -> bool {
        false
    }
}

/// A vacuous property after a complete exact search is a failure: exit 1, and the report says
/// VACUOUS; the same property after a partial search (fp32) is only not found: exit 4.
#[test]
fn a_vacuous_property_fails_the_run() {
    let model = UpToThree;
    for (mode, expected) in [
        (modelcheck::Mode::Exact, cli::EXIT_COUNTEREXAMPLE),
        (modelcheck::Mode::Fp32, cli::EXIT_PARTIAL),
    ] {
        let options = Options {
            threads: 1,
            mode,
            memory_bytes: 1 << 20,
            ..Options::default()
        };
        let report = check(&model, &options);
        let mut out = Vec::new();
        let status = cli::report::print_report(&model, &options, &report, &mut out);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(status, expected, "{out}");
        assert!(
            out.contains("sometimes ReachesThree: example found, 3 steps"),
            "{out}"
        );
        let vacuous = out.contains("sometimes ReachesFour: VACUOUS");
        assert_eq!(vacuous, mode == modelcheck::Mode::Exact, "{out}");
    }
}

/// Done-when: `modelcheck 2pc N --symmetry` stores fewer classes than the states and reaches
/// the same verdict; the classes stand for exactly the states of the run without it.
#[test]
fn symmetry_stores_classes_with_the_same_verdict() {
    for (args, states) in [(["2pc", "5"], 8_832), (["philosophers", "6"], 198)] {
        // Liveness is not checked with --symmetry (tests/liveness.rs): the safety verdicts.
        let (plain_status, plain, _) = run(&[
            args[0],
            args[1],
            "--quiet",
            "--no-deadlock",
            "--exact",
            "--no-liveness",
        ]);
        let (status, out, err) = run(&[
            args[0],
            args[1],
            "--quiet",
            "--no-deadlock",
            "--exact",
            "--symmetry",
        ]);
        assert_eq!(status, plain_status, "{out}{err}");
        assert_eq!(field(&plain, "states"), states, "{plain}");
        let result = |r: &str| {
            r.lines()
                .find(|l| l.starts_with("result:"))
                .map(String::from)
        };
        assert_eq!(result(&out), result(&plain));
        let classes = field(&out, "states");
        assert!(classes < states, "{out}");
        let line =
            format!("states: {classes} symmetry classes stored, standing for {states} states");
        assert!(out.contains(&line), "{out}");
    }
}

/// With symmetry, the broken lock's counterexample is the same length, over concrete states
/// (the report's trace was replayed against the model).
#[test]
fn symmetry_keeps_the_counterexample_concrete() {
    let (status, out, err) = run(&["buggy", "4", "--quiet", "--symmetry"]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}{err}");
    assert!(
        out.contains("result: Invariant(\"MutualExclusion\") after 4 steps"),
        "{out}"
    );
    assert_eq!(trace_lines(&out).len(), 5, "{out}");
}

/// Runs `--symmetry` cannot do are usage errors, before any search.
#[test]
fn symmetry_where_it_cannot_apply_is_a_usage_error() {
    let (status, _, err) = run(&["peterson", "2", "--symmetry"]);
    assert_eq!(status, cli::EXIT_USAGE, "{err}");
    assert!(err.contains("peterson(n=2) declares no symmetry"), "{err}");
    for with in [
        &["--local", "2"][..],
        &["--checkpoint", "never-written.mcheckpt"],
        &["--simulate", "3"],
    ] {
        let mut args = vec!["2pc", "3", "--symmetry"];
        args.extend(with);
        let (status, out, err) = run(&args);
        assert_eq!(status, cli::EXIT_USAGE, "{args:?}: {out}{err}");
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
    assert!(!std::path::Path::new("never-written.mcheckpt").exists());
}

/// A distributed run checks no `sometimes` property, and its report says so instead of
/// claiming anything about them.
#[test]
fn a_distributed_run_says_it_checked_no_sometimes_property() {
    let (status, out, err) = common::cluster::run(&["2pc", "3", "--local", "2", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}{err}");
    assert!(
        out.contains("sometimes: not checked by a distributed run (AllCommitted, AllAborted)"),
        "{out}"
    );
    assert!(!out.contains("example of"), "{out}");
}
