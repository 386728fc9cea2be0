//! The liveness part of the command line: the done-when commands (`tas 2` prints a starvation
//! lasso and exits 1, `ticket 3` holds under weak fairness and exits 0), `--property`,
//! `--fairness`, and the runs that do not check liveness and say so.

use modelcheck_cli as cli;

fn run(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = cli::run(args.iter().copied(), &mut out, &mut err);
    (
        status,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn tas_2_prints_a_starvation_lasso_and_exits_1() {
    let (status, out, err) = run(&["tas", "2", "--quiet"]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}{err}");
    assert!(
        out.contains("liveness: 2 properties, weak fairness"),
        "{out}"
    );
    assert!(
        out.contains("property NoStarvation(p0): violated: a lasso"),
        "{out}"
    );
    assert!(
        out.contains("lasso of NoStarvation(p0) (replayed and checked):"),
        "{out}"
    );
    assert!(
        out.contains("  cycle: from state 1, repeated forever:"),
        "{out}"
    );
    assert!(out.contains("p0: test-and-set fails"), "{out}");
    assert!(out.contains("the cycle is closed"), "{out}");
    // The safety part is unchanged: mutual exclusion holds.
    assert!(out.contains("result: no error"), "{out}");
}

#[test]
fn ticket_3_holds_under_weak_fairness_and_exits_0() {
    let (status, out, err) = run(&["ticket", "3", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}{err}");
    for p in 0..3 {
        assert!(
            out.contains(&format!("property NoStarvation(p{p}): holds (")),
            "{out}"
        );
    }
    let (status, out, _) = run(&["ticket", "3", "--quiet", "--exact"]);
    assert_eq!(status, cli::EXIT_OK, "{out}");
    assert!(out.contains("exact: full states compared"), "{out}");
}

#[test]
fn fairness_and_property_flags() {
    // Peterson starves without fairness; one property asked for, one line.
    let args = ["peterson", "2", "--quiet", "--fairness", "none"];
    let (status, out, _) = run(&[&args[..], &["--property", "NoStarvation(p1)"]].concat());
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}");
    assert!(
        out.contains("liveness: 1 properties, none fairness"),
        "{out}"
    );
    assert!(out.contains("property NoStarvation(p1): violated"), "{out}");
    assert!(!out.contains("property NoStarvation(p0)"), "{out}");
    let (status, out, _) = run(&["peterson", "2", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}");
    // 2PC decides under weak fairness (the decision one class, each RM one), not without.
    let (status, out, _) = run(&["2pc", "3", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}");
    assert!(out.contains("property Decided: holds"), "{out}");
    let (status, out, _) = run(&["2pc", "3", "--quiet", "--fairness", "none"]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}");
    // Both searches give the verdict, and the property's line names the one that ran.
    for search in ["index-graph", "on-the-fly"] {
        let (status, out, _) = run(&["2pc", "3", "--quiet", "--liveness-search", search]);
        assert_eq!(status, cli::EXIT_OK, "{out}");
        assert!(out.contains(&format!(" s, {search}")), "{out}");
    }
}

#[test]
fn bad_property_flags_are_usage_errors() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["tas", "2", "--property", "NoStarvation(p0)", "--symmetry"],
            "--symmetry stores one state per class",
        ),
        (
            &["tas", "2", "--liveness-search", "bfs"],
            "invalid value 'bfs'",
        ),
        (
            &["tas", "2", "--property", "Nope"],
            "has no property `Nope`",
        ),
        (
            &["tas", "2", "--fairness", "strong"],
            "invalid value 'strong'",
        ),
        (
            &[
                "tas",
                "2",
                "--property",
                "NoStarvation(p0)",
                "--mode",
                "bitstate",
            ],
            "bitstate mode keeps no index",
        ),
        (
            &[
                "tas",
                "2",
                "--property",
                "NoStarvation(p0)",
                "--max-depth",
                "3",
            ],
            "--max-depth",
        ),
        (
            &["tas", "2", "--property", "NoStarvation(p0)", "--local", "2"],
            "distributed run",
        ),
    ];
    for (args, message) in cases {
        let (status, out, err) = run(args);
        assert_eq!(status, cli::EXIT_USAGE, "{args:?}: {out}{err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn runs_that_do_not_check_liveness_say_so() {
    // Bitstate: the safety search's partial verdict, liveness not checked.
    let (status, out, _) = run(&["tas", "2", "--quiet", "--mode", "bitstate"]);
    assert_eq!(status, cli::EXIT_PARTIAL, "{out}");
    assert!(
        out.contains("liveness: 2 properties not checked: bitstate mode"),
        "{out}"
    );
    // A safety counterexample first: the philosophers' deadlock, its trace the last lines.
    let (status, out, _) = run(&["philosophers", "5", "--quiet"]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}");
    assert!(!out.contains("liveness"), "{out}");
    assert!(out.trim_end().ends_with("L L L L L"), "{out}");
    // --no-liveness: invariants only.
    let (status, out, _) = run(&["tas", "2", "--quiet", "--no-liveness"]);
    assert_eq!(status, cli::EXIT_OK, "{out}");
    assert!(
        out.contains("liveness: 2 properties not checked: --no-liveness"),
        "{out}"
    );
    // Without deadlock errors the liveness check finds the deadlock as a finite behaviour.
    let (status, out, _) = run(&["philosophers", "5", "--quiet", "--no-deadlock"]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{out}");
    assert!(
        out.contains("property Eats(p0): violated: a finite behaviour of 5 steps"),
        "{out}"
    );
    assert!(out.contains("  state 5 has no successors"), "{out}");
    // --symmetry: classes, not the concrete states a lasso and fairness need.
    let (status, out, _) = run(&["2pc", "3", "--quiet", "--symmetry"]);
    assert_eq!(status, cli::EXIT_OK, "{out}");
    assert!(
        out.contains("liveness: 1 properties not checked: --symmetry stores one state per class"),
        "{out}"
    );
    // Models without liveness properties print nothing more.
    let (status, out, _) = run(&["puzzle", "2", "--quiet"]);
    assert_eq!(status, cli::EXIT_OK, "{out}");
    assert!(!out.contains("liveness"), "{out}");
}
