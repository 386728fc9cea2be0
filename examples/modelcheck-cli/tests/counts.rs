//! The model checker: state and transition counts against models.md, in every visited-storage
//! mode and with 1 and 2 threads; shortest traces; the locks against an independent
//! single-threaded BFS.

mod common;

use common::{field, trace_lines};
use modelcheck::{models, Model};
use modelcheck_cli as cli;

use std::collections::{HashSet, VecDeque};

/// Every storage mode the checker offers.
const MODES: &[&str] = &["exact", "fp64", "fp32", "bitstate"];

/// The exit status of a run that found no error: `exact` and fp64 (whose omission bound is
/// negligible at these sizes) are complete, `fp32` and `bitstate` are partial searches.
fn no_error_status(mode: &str) -> i32 {
    match mode {
        "exact" | "fp64" => cli::EXIT_OK,
        _ => cli::EXIT_PARTIAL,
    }
}

/// The `--memory` (MiB) of a mode's runs: 8, and 16 for the exact set, whose 8-byte hash per
/// state puts the 8-puzzle's 181,440 states (24 bytes each with it) above 8 MiB.
fn memory_mib(mode: &str) -> u32 {
    if mode == "exact" {
        16
    } else {
        8
    }
}

/// Runs the command line; returns the exit status and the report.
fn run(args: &str) -> (i32, String) {
    let args: Vec<&str> = args.split_whitespace().collect();
    let (status, out, err) = common::run(&args);
    (status, out + &err)
}

/// (command line, states, transitions, depth or None) from models.md. The philosophers without
/// deadlock errors violate their liveness properties (every philosopher eventually eats:
/// `tests/liveness.rs`); here they check their invariants only.
const COUNTS: &[(&str, u64, u64, Option<u64>)] = &[
    ("2pc 3", 288, 1_145, None),
    ("2pc 5", 8_832, 58_145, None),
    ("philosophers 5 --no-deadlock --no-liveness", 82, 265, None),
    (
        "philosophers 10 --no-deadlock --no-liveness",
        6_726,
        43_480,
        None,
    ),
    ("puzzle 3", 181_440, 483_840, Some(31)),
];

#[test]
fn counts_match_models_md_in_every_mode_with_1_and_2_threads() {
    for (model, states, transitions, depth) in COUNTS {
        for mode in MODES {
            for threads in [1, 2] {
                let memory = memory_mib(mode);
                let line =
                    format!("{model} --mode {mode} --threads {threads} --memory {memory} --quiet");
                let (status, report) = run(&line);
                assert_eq!(status, no_error_status(mode), "{line}:\n{report}");
                let complete = report.contains("result: no error: every reachable state visited");
                assert_eq!(complete, status == cli::EXIT_OK, "{line}:\n{report}");
                if !complete {
                    assert!(
                        report.contains("result: partial search"),
                        "{line}:\n{report}"
                    );
                }
                assert_eq!(field(&report, "states"), *states, "{line}:\n{report}");
                assert_eq!(
                    field(&report, "transitions"),
                    *transitions,
                    "{line}:\n{report}"
                );
                if let Some(depth) = depth {
                    assert_eq!(field(&report, "depth"), *depth, "{line}:\n{report}");
                }
                let bound = report
                    .lines()
                    .find(|l| l.starts_with("omission: "))
                    .unwrap_or_else(|| panic!("{line}: no omission bound:\n{report}"));
                println!("{line}: {bound}");
            }
        }
    }
}

/// The benchmark sizes, behind `MODELCHECK_LONG=1` (a few seconds each in release on 2 cores).
#[test]
fn long_counts_2pc_8_and_philosophers_16() {
    if std::env::var_os("MODELCHECK_LONG").is_none() {
        println!("skipped: set MODELCHECK_LONG=1 to check 2PC-8 and philosophers-16");
        return;
    }
    let cases: &[(&str, u64, u64)] = &[
        ("2pc 8", 1_745_408, 18_507_777),
        (
            "philosophers 16 --no-deadlock --no-liveness",
            1_331_714,
            13_774_112,
        ),
    ];
    for (model, states, transitions) in cases {
        for mode in ["fp64", "fp32"] {
            let line = format!("{model} --mode {mode} --threads 2 --memory 64 --quiet");
            let (status, report) = run(&line);
            assert_eq!(status, no_error_status(mode), "{line}:\n{report}");
            assert_eq!(field(&report, "states"), *states, "{line}");
            assert_eq!(field(&report, "transitions"), *transitions, "{line}");
        }
    }
}

#[test]
fn work_stealing_schedule_counts_the_same() {
    let (status, report) = run("2pc 5 --schedule steal --threads 2 --quiet");
    assert_eq!(status, cli::EXIT_OK, "{report}");
    assert_eq!(field(&report, "states"), 8_832);
    assert_eq!(field(&report, "transitions"), 58_145);
}

#[test]
fn philosophers_deadlock_has_a_shortest_trace_of_n_steps() {
    for n in [5usize, 10] {
        for mode in MODES {
            for threads in [1, 2] {
                let line = format!("philosophers {n} --mode {mode} --threads {threads} --quiet");
                let (status, report) = run(&line);
                assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{line}:\n{report}");
                assert!(report.contains("result: Deadlock after"), "{report}");
                let trace = trace_lines(&report);
                assert_eq!(
                    trace.len(),
                    n + 1,
                    "initial state plus {n} steps:\n{report}"
                );
                let all_left = vec!["L"; n].join(" ");
                assert!(trace[n].ends_with(&all_left), "{report}");
                assert!(
                    trace[1..].iter().all(|l| l.contains("take-left")),
                    "{report}"
                );
            }
        }
    }
}

#[test]
fn buggy_lock_violation_is_found_with_a_shortest_trace_that_replays() {
    for mode in MODES {
        for threads in [1, 2] {
            let line = format!("buggy 3 --mode {mode} --threads {threads} --quiet");
            let (status, report) = run(&line);
            assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{line}:\n{report}");
            assert!(
                report.contains("result: Invariant(\"MutualExclusion\") after 4 steps"),
                "{report}"
            );
            assert_eq!(trace_lines(&report).len(), 5, "{report}");
        }
    }
    // The trace the search returns replays step by step against the model, independently of
    // the checker's own replay: each step is a successor with that label, and only the last
    // state breaks mutual exclusion.
    let lock = models::buggy_lock::BuggyLock::new(3).unwrap();
    let options = modelcheck::Options {
        threads: 2,
        memory_bytes: 1 << 20,
        ..modelcheck::Options::default()
    };
    let report = modelcheck::check(&lock, &options);
    let modelcheck::Verdict::Counterexample(trace) = report.verdict else {
        panic!("the buggy lock passed");
    };
    assert_eq!(trace.steps.len(), oracle_shortest_violation(&lock).unwrap());
    let invariant = &lock.invariants()[0];
    assert!(lock.initial_states().contains(&trace.initial));
    let mut state = trace.initial;
    for (i, (action, next)) in trace.steps.iter().enumerate() {
        assert!((invariant.holds)(&state), "step {i} already violates");
        let mut successors = Vec::new();
        lock.successors(&state, &mut successors);
        assert!(
            successors
                .iter()
                .any(|(a, s)| a.to_string() == action.to_string() && s == next),
            "step {i} ({action}) is not a transition"
        );
        state = *next;
    }
    assert!(!(invariant.holds)(&state));
}

/// What the oracle counts: states, transitions, depth of the first invariant violation.
type OracleCounts = (u64, u64, Option<usize>);

/// A plain single-threaded BFS with a `HashSet` of full states.
fn oracle<M: Model>(model: &M) -> OracleCounts {
    let invariants = model.invariants();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let mut transitions = 0;
    let mut violation = None;
    for s in model.initial_states() {
        if seen.insert(s.clone()) {
            queue.push_back((s, 0usize));
        }
    }
    while let Some((s, depth)) = queue.pop_front() {
        if violation.is_none() && invariants.iter().any(|inv| !(inv.holds)(&s)) {
            violation = Some(depth);
        }
        let mut out = Vec::new();
        model.successors(&s, &mut out);
        transitions += out.len() as u64;
        for (_, t) in out {
            if seen.insert(t.clone()) {
                queue.push_back((t, depth + 1));
            }
        }
    }
    (seen.len() as u64, transitions, violation)
}

fn oracle_shortest_violation<M: Model>(model: &M) -> Option<usize> {
    oracle(model).2
}

#[test]
fn locks_keep_mutual_exclusion_and_match_an_independent_bfs() {
    let cases: Vec<(&str, OracleCounts)> = vec![
        (
            "peterson 2",
            oracle(&models::peterson::Peterson::new(2).unwrap()),
        ),
        (
            "peterson 3",
            oracle(&models::peterson::Peterson::new(3).unwrap()),
        ),
        ("ticket 3", oracle(&models::ticket::Ticket::new(3).unwrap())),
        ("ticket 4", oracle(&models::ticket::Ticket::new(4).unwrap())),
    ];
    for (model, (states, transitions, violation)) in cases {
        assert_eq!(violation, None, "{model} breaks mutual exclusion");
        for mode in MODES {
            let line = format!("{model} --mode {mode} --threads 2 --memory 8 --quiet");
            let (status, report) = run(&line);
            assert_eq!(status, no_error_status(mode), "{line}:\n{report}");
            assert_eq!(field(&report, "states"), states, "{line}");
            assert_eq!(field(&report, "transitions"), transitions, "{line}");
        }
    }
}

#[test]
fn max_depth_stops_at_that_level() {
    // States of the 8-puzzle at most 5 moves from the goal, counted by the oracle.
    let puzzle = models::puzzle::Puzzle::new(3).unwrap();
    let mut level = puzzle.initial_states();
    let mut seen: HashSet<_> = level.iter().cloned().collect();
    for _ in 0..5 {
        let mut next = Vec::new();
        for s in &level {
            let mut out = Vec::new();
            puzzle.successors(s, &mut out);
            next.extend(out.into_iter().map(|(_, t)| t).filter(|t| seen.insert(*t)));
        }
        level = next;
    }
    let (status, report) = run("puzzle 3 --max-depth 5 --quiet");
    assert_eq!(status, cli::EXIT_OK, "{report}");
    assert!(report.contains("no error up to --max-depth 5"), "{report}");
    assert_eq!(field(&report, "states"), seen.len() as u64);
    assert_eq!(field(&report, "depth"), 5);
}

#[test]
fn encoded_states_count_the_same_and_show_the_same_trace() {
    // The actor models (states that own heap memory), exact and fp64, and the philosophers'
    // deadlock, whose trace is printed through the decode.
    for args in ["paxos 2", "abd 2", "philosophers 5"] {
        for mode in ["exact", "fp64"] {
            let plain = run(&format!("{args} --mode {mode} --threads 2"));
            let encoded = run(&format!(
                "{args} --mode {mode} --threads 2 --encoded-states"
            ));
            assert_eq!(encoded.0, plain.0, "{args} {mode}: {}", encoded.1);
            for key in ["states", "transitions", "depth"] {
                assert_eq!(field(&encoded.1, key), field(&plain.1, key), "{args} {key}");
            }
            assert_eq!(
                trace_lines(&encoded.1),
                trace_lines(&plain.1),
                "{args} {mode}"
            );
        }
    }
    let (status, report) = run("philosophers 5 --encoded-states");
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{report}");
    let trace = trace_lines(&report);
    assert_eq!(trace.len(), 6, "initial state plus 5 steps:\n{report}");
    assert!(trace[5].ends_with("L L L L L"), "{report}");
}
