//! `--simulate N --depth D --seed S`: the buggy lock's violation with a replay command that
//! reproduces it, a correct model's "partial" status, and the flags it cannot be used with.

mod common;

use common::{field, modelcheck, run, trace_lines};
use modelcheck_cli as cli;

/// The `replay: ` line's command, without the program name.
fn replay_args(report: &str) -> Vec<String> {
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix("replay: modelcheck "))
        .unwrap_or_else(|| panic!("no replay line:\n{report}"));
    line.split_whitespace().map(String::from).collect()
}

/// Runs the binary; its status and stdout.
fn binary(args: &[&str]) -> (i32, String) {
    let output = modelcheck(args).output().expect("the binary runs");
    let text = String::from_utf8(output.stdout).expect("the output is UTF-8");
    (output.status.code().expect("an exit status"), text)
}

#[test]
fn the_buggy_lock_fails_and_its_replay_command_fails_the_same_way() {
    let (status, report) = binary(&[
        "buggy",
        "3",
        "--simulate",
        "1000",
        "--depth",
        "50",
        "--seed",
        "1",
    ]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{report}");
    assert!(
        report.contains("result: Invariant(\"MutualExclusion\")"),
        "{report}"
    );
    let args = replay_args(&report);
    assert!(args.contains(&"--simulate".to_string()) && args.contains(&"1".to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (again_status, again) = binary(&args);
    assert_eq!(again_status, cli::EXIT_COUNTEREXAMPLE, "{again}");
    assert!(!trace_lines(&report).is_empty());
    assert_eq!(trace_lines(&again), trace_lines(&report));
}

/// The walk number in a result line `... in walk K (seed S)`.
fn failing_walk(report: &str) -> Option<u64> {
    let rest = report.split(", in walk ").nth(1)?;
    rest.split_whitespace().next()?.parse().ok()
}

#[test]
fn a_later_walks_replay_seed_reproduces_it_alone() {
    // Short walks rarely fail, so some seed's first failing walk is not walk 0: its replay
    // command names another seed than the run's.
    let (seed, report) = (0..1000)
        .map(|seed| {
            let seed = seed.to_string();
            let args = [
                "buggy",
                "3",
                "--simulate",
                "1000",
                "--depth",
                "4",
                "--seed",
                &seed,
            ];
            (seed.clone(), run(&args).1)
        })
        .find(|(_, report)| failing_walk(report).is_some_and(|w| w > 0))
        .expect("a seed whose walk 0 passes");
    let args = replay_args(&report);
    assert!(
        !args.ends_with(&[seed]),
        "the walk's own seed, not the run's"
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, again) = binary(&args);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{again}");
    assert_eq!(failing_walk(&again), Some(0));
    assert_eq!(trace_lines(&again), trace_lines(&report));
}

#[test]
fn no_error_found_is_partial_and_counts_every_walk() {
    let (status, report, _) = run(&[
        "2pc",
        "3",
        "--simulate",
        "200",
        "--depth",
        "20",
        "--seed",
        "4",
    ]);
    assert_eq!(status, cli::EXIT_PARTIAL, "{report}");
    assert!(report.contains("result: partial search: no error in 200 random walks"));
    assert_eq!(field(&report, "walks"), 200);
    assert!(field(&report, "steps") <= 200 * 20);
    assert!(!report.contains("replay:"));
    // 2PC's sometimes targets: where a walk first reached each, or that none did.
    for name in ["AllCommitted", "AllAborted"] {
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("sometimes {name}: ")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{report}"));
        assert!(
            line.contains("reached in walk ") || line.contains("no walk reached it"),
            "{line}"
        );
    }
    let (_, none, _) = run(&["2pc", "3", "--simulate", "5", "--depth", "0", "--seed", "4"]);
    assert!(
        none.contains("sometimes AllAborted: no walk reached it"),
        "{none}"
    );
}

#[test]
fn without_a_seed_the_clocks_is_printed() {
    let (status, report, _) = run(&["2pc", "3", "--simulate", "10"]);
    assert_eq!(status, cli::EXIT_PARTIAL, "{report}");
    let line = report
        .lines()
        .find(|l| l.starts_with("simulation: "))
        .expect("a simulation line");
    assert!(line.contains("walks of at most 100 steps, seed "), "{line}");
}

#[test]
fn flags_that_do_not_fit_a_simulation_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["2pc", "--simulate", "0"],
            "--simulate takes a number of walks, 1 or more",
        ),
        (
            &["2pc", "--simulate", "x"],
            "--simulate takes a number of walks",
        ),
        (&["2pc", "--depth", "5"], "--simulate <N>"),
        (&["2pc", "--seed", "5"], "--simulate <N>"),
        (
            &["2pc", "--simulate", "5", "--seed", "-1"],
            "invalid value '-1'",
        ),
        (
            &["2pc", "--simulate", "5", "--depth", "10000001"],
            "--depth takes 0 to 10000000",
        ),
        (
            &["2pc", "--simulate", "5", "--exact"],
            "cannot be used with",
        ),
        (
            &["2pc", "--simulate", "5", "--mode", "fp32"],
            "cannot be used with",
        ),
        (
            &["2pc", "--simulate", "5", "--checkpoint", "x"],
            "cannot be used with",
        ),
        (
            &["2pc", "--simulate", "5", "--resume", "x"],
            "cannot be used with",
        ),
        (
            &["2pc", "--simulate", "5", "--local", "2"],
            "cannot be used with",
        ),
        (
            &["2pc", "--simulate", "5", "--workers", "2"],
            "cannot be used with",
        ),
        (
            &["2pc", "--simulate", "5", "--max-depth", "3"],
            "cannot be used with",
        ),
        (&["2pc", "99", "--simulate", "5"], "2pc needs 1 to 15"),
    ];
    for (args, expected) in cases {
        let (status, out, err) = run(args);
        assert_eq!(status, cli::EXIT_USAGE, "{args:?}: {out}{err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn a_stop_request_is_status_5_with_the_walks_so_far() {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["2pc", "3", "--simulate", "1000", "--seed", "1"];
    let status = cli::run_until(args, &mut out, &mut err, Some(stop));
    let report = String::from_utf8(out).expect("the output is UTF-8");
    assert_eq!(status, cli::EXIT_INTERRUPTED, "{report}");
    assert!(
        report.contains("result: interrupted: no error in the 0 walks"),
        "{report}"
    );
}
