//! The model checker's command line: usage errors (status 2, clap's format) and a full table's
//! error, never a panic.

mod common;

use common::{field, run};
use modelcheck::models;
use modelcheck_cli as cli;

#[test]
fn bad_flags_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "required arguments were not provided"),
        (
            &["2pc", "--frobnicate"],
            "unexpected argument '--frobnicate'",
        ),
        (
            &["2pc", "--threads"],
            "a value is required for '--threads <T>'",
        ),
        (
            &["2pc", "--threads", "two"],
            "--threads takes 1 to 1024, got `two`",
        ),
        (&["2pc", "--threads", "0"], "--threads takes 1 to 1024"),
        (&["2pc", "--threads", "1025"], "--threads takes 1 to 1024"),
        (
            &["2pc", "--threads", "-3"],
            "--threads takes 1 to 1024, got `-3`",
        ),
        (
            &["2pc", "--memory", "0"],
            "--memory takes a size from 1K to 128T",
        ),
        (
            &["2pc", "--memory", "99999999999999"],
            "--memory takes a size from 1K to 128T",
        ),
        (
            &["2pc", "--memory", "129T"],
            "--memory takes a size from 1K to 128T",
        ),
        (
            &["2pc", "--memory", "99999999999999999999999"],
            "--memory takes a size",
        ),
        (&["2pc", "--memory", "12Q"], "--memory takes a size"),
        (&["2pc", "--memory", "0K"], "--memory takes a size"),
        (
            &["2pc", "--mode", "fp16"],
            "invalid value 'fp16' for '--mode <M>'",
        ),
        (
            &["2pc", "--exact", "--mode", "fp32"],
            "'--exact' cannot be used with '--mode <M>'",
        ),
        (&["2pc", "--mode", "fp32", "--exact"], "cannot be used with"),
        (
            &["2pc", "--encoded-states", "--checkpoint", "/tmp/x"],
            "'--encoded-states' cannot be used with '--checkpoint <PATH>'",
        ),
        (
            &["2pc", "--encoded-states", "--processes", "2"],
            "cannot be used with",
        ),
        (
            &["2pc", "--hashes", "3"],
            "--hashes sets the bitstate mode's hash functions",
        ),
        (
            &["2pc", "--mode", "bitstate", "--hashes", "0"],
            "0 is not in 1..=32",
        ),
        (
            &["2pc", "--mode", "bitstate", "--hashes", "33"],
            "33 is not in 1..=32",
        ),
        (
            &["2pc", "--max-depth", "1.5"],
            "invalid value '1.5' for '--max-depth <D>'",
        ),
        (
            &["2pc", "--schedule", "random"],
            "invalid value 'random' for '--schedule <S>'",
        ),
        (&["chess"], "invalid value 'chess' for '<MODEL>'"),
        (
            &["2pc", "three"],
            "the model size N must be a positive whole number, got `three`",
        ),
        (
            &["2pc", "-1"],
            "the model size N must be a positive whole number, got `-1`",
        ),
        (&["2pc", "3", "4"], "unexpected argument '4'"),
        (&["2pc", "16"], "2pc needs 1 to 15 resource managers"),
        (
            &["2pc", "0"],
            "the model size N must be a positive whole number, got `0`",
        ),
        (&["philosophers", "1"], "philosophers needs 2 to 32"),
        (&["puzzle", "5"], "puzzle needs a board side of 2 to 4"),
        (&["peterson", "9"], "peterson needs 2 to 8 processes"),
        (&["ticket", "1"], "ticket needs 2 to 8 processes"),
        (&["buggy", "100"], "buggy needs 2 to 8 processes"),
    ];
    for (args, message) in cases {
        let (status, out, err) = run(args);
        assert_eq!(status, cli::EXIT_USAGE, "{args:?}:\n{err}");
        assert!(
            out.is_empty(),
            "{args:?}: a usage error printed a report:\n{out}"
        );
        assert!(
            err.contains(message),
            "{args:?}: expected `{message}` in:\n{err}"
        );
        assert!(
            err.contains("--help"),
            "{args:?}: no pointer to --help:\n{err}"
        );
    }
}

#[test]
fn memory_sizes_take_units() {
    for (text, bytes) in [
        ("1", 1 << 20),
        ("256", 256 << 20),
        ("1K", 1 << 10),
        ("64kib", 64 << 10),
        ("3M", 3 << 20),
        ("2G", 2 << 30),
        ("128T", 1 << 47),
    ] {
        assert_eq!(cli::parse_memory(text), Ok(bytes), "{text}");
    }
}

#[test]
fn help_explains_every_model_and_flag() {
    let (status, text, err) = run(&["--help"]);
    assert_eq!(status, cli::EXIT_OK, "{err}");
    for (name, _, _) in models::CATALOGUE {
        assert!(
            text.contains(&format!("  {name} [")),
            "{name} missing:\n{text}"
        );
    }
    for flag in [
        "--threads",
        "--memory",
        "--mode",
        "--hashes",
        "--max-depth",
        "--no-deadlock",
        "--schedule",
        "--exact",
        "--quiet",
        "--help",
        "fp64",
        "fp32",
        "bitstate",
        "exact",
        "Exit status",
    ] {
        assert!(text.contains(flag), "{flag} missing:\n{text}");
    }
    // Bitstate's cost is k hash functions (bits set per state), not "3 bits/state".
    assert!(text.contains("one per hash function (k = 3"), "{text}");
    assert!(!text.contains("bits/state"), "{text}");
}

#[test]
fn a_full_table_is_a_clear_error_with_one_deterministic_count_and_the_size_needed() {
    // 2PC with 8 RMs has 1,745,408 states; 1 MiB holds 131,072 fingerprints or 262,144
    // compacted signatures.
    for mode in ["fp64", "fp32"] {
        let mut counts = Vec::new();
        for threads in ["1", "2", "2"] {
            let args = [
                "2pc",
                "8",
                "--mode",
                mode,
                "--memory",
                "1",
                "--threads",
                threads,
            ];
            let (status, report, _) = run(&[&args[..], &["--quiet"]].concat());
            assert_eq!(status, cli::EXIT_ERROR, "{mode}:\n{report}");
            assert!(
                report.contains("result: error: the visited-state set is full"),
                "{report}"
            );
            let needed = report
                .split("Run again with --memory ")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or_else(|| panic!("no size advice in:\n{report}"));
            // At least twice the table, at most 16 times it, an estimate that says so.
            let needed = cli::parse_memory(needed).expect("a size");
            assert!((2 << 20..=16 << 20).contains(&needed), "{report}");
            assert!(report.contains("(an estimate: levels "), "{report}");
            // The "states:" line is the number in the message: the whole levels.
            let states = field(&report, "states");
            let depth = field(&report, "depth");
            let message = format!("levels 0 to {depth} hold {states} states");
            assert!(report.contains(&message), "`{message}` not in:\n{report}");
            assert!(report.contains("cut short: level "), "{report}");
            counts.push((states, field(&report, "transitions"), depth, needed));
        }
        // The same in every run, whatever the threads did in the level that did not fit.
        assert!(
            counts.windows(2).all(|w| w[0] == w[1]),
            "{mode}: {counts:?}"
        );
    }
}

#[test]
fn the_exact_mode_stops_at_its_memory_cap_with_a_message() {
    let (status, report, _) = run(&["2pc", "8", "--exact", "--memory", "1", "--quiet"]);
    assert_eq!(status, cli::EXIT_ERROR, "{report}");
    assert!(
        report.contains("result: error: the exact set is full"),
        "{report}"
    );
    assert!(
        report.contains("Run again with --memory 7M or more (an estimate: levels 4 and 5"),
        "{report}"
    );
    assert!(
        report.contains("this table), or with --mode fp64 (8 bytes per state)"),
        "{report}"
    );
}

/// A full table's advice is an estimate from the last levels, not a doubling: from 1 KiB,
/// 2PC-8 (1,745,408 states) fits after at most 5 runs in each mode, where doubling took 14.
#[test]
fn following_the_full_table_advice_reaches_a_complete_run_in_few_steps() {
    for mode in ["fp64", "fp32", "exact"] {
        let mut memory = "1K".to_string();
        let mut runs = Vec::new();
        loop {
            let args = ["2pc", "8", "--mode", mode, "--memory", &memory, "--quiet"];
            let (status, report, _) = run(&args);
            runs.push(memory.clone());
            if status != cli::EXIT_ERROR {
                assert!(
                    status == cli::EXIT_OK || status == cli::EXIT_PARTIAL,
                    "{report}"
                );
                assert_eq!(field(&report, "states"), 1_745_408, "{report}");
                break;
            }
            assert!(
                runs.len() <= 5,
                "{mode}: still full after {runs:?}:\n{report}"
            );
            memory = report
                .split("Run again with --memory ")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or_else(|| panic!("no size advice in:\n{report}"))
                .to_string();
        }
    }
}
