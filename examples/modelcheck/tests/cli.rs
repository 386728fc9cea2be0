//! The model checker's command line: usage errors and a full table's error, never a panic.

use modelcheck::{cli, models};

fn run(args: &[&str]) -> (i32, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let status = cli::run(&args, &mut out);
    (status, String::from_utf8(out).expect("the report is UTF-8"))
}

#[test]
fn bad_flags_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "no model given"),
        (&["2pc", "--frobnicate"], "unknown flag `--frobnicate`"),
        (&["2pc", "--threads"], "--threads needs a value"),
        (
            &["2pc", "--threads", "two"],
            "--threads takes a non-negative integer",
        ),
        (&["2pc", "--threads", "0"], "--threads takes 1 to 1024"),
        (
            &["2pc", "--threads", "-3"],
            "--threads takes a non-negative integer",
        ),
        (&["2pc", "--memory", "0"], "--memory takes at least 1"),
        (
            &["2pc", "--memory", "99999999999999999999999"],
            "--memory takes a non-negative integer",
        ),
        (
            &["2pc", "--mode", "fp16"],
            "--mode takes fp64, fp32, bitstate or exact",
        ),
        (
            &["2pc", "--max-depth", "1.5"],
            "--max-depth takes a non-negative integer",
        ),
        (
            &["2pc", "--schedule", "random"],
            "--schedule takes chunks or steal",
        ),
        (&["chess"], "unknown model `chess`"),
        (&["2pc", "three"], "the model size must be a number"),
        (&["2pc", "3", "4"], "unexpected argument `4`"),
        (&["2pc", "16"], "2pc needs 1 to 15 resource managers"),
        (&["2pc", "0"], "2pc needs 1 to 15 resource managers"),
        (&["philosophers", "1"], "philosophers needs 2 to 32"),
        (&["puzzle", "5"], "puzzle needs a board side of 2 to 4"),
        (&["peterson", "9"], "peterson needs 2 to 8 processes"),
        (&["ticket", "1"], "ticket needs 2 to 8 processes"),
        (&["buggy", "100"], "buggy needs 2 to 8 processes"),
    ];
    for (args, message) in cases {
        let (status, report) = run(args);
        assert_eq!(status, cli::EXIT_USAGE, "{args:?}:\n{report}");
        assert!(
            report.contains(message),
            "{args:?}: expected `{message}` in:\n{report}"
        );
        assert!(report.contains("usage: modelcheck"), "{args:?}:\n{report}");
    }
}

#[test]
fn help_explains_every_model_and_flag() {
    let (status, text) = run(&["--help"]);
    assert_eq!(status, cli::EXIT_OK);
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
        "--max-depth",
        "--exact",
        "--help",
    ] {
        assert!(text.contains(flag), "{flag} missing:\n{text}");
    }
}

#[test]
fn a_full_table_is_a_clear_error_with_the_size_needed() {
    // 2PC with 8 RMs has 1,745,408 states; 1 MiB holds 131,072 fingerprints or 262,144
    // compacted signatures.
    for mode in ["fp64", "fp32"] {
        let (status, report) = run(&["2pc", "8", "--mode", mode, "--memory", "1", "--quiet"]);
        assert_eq!(status, cli::EXIT_ERROR, "{mode}:\n{report}");
        assert!(
            report.contains("result: error: visited-state set is full"),
            "{report}"
        );
        let needed: usize = report
            .split("Run again with --memory ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no size advice in:\n{report}"));
        assert!(needed > 1, "{report}");
    }
}

#[test]
fn the_exact_mode_stops_at_its_memory_cap_with_a_message() {
    let (status, report) = run(&["2pc", "8", "--exact", "--memory", "1", "--quiet"]);
    assert_eq!(status, cli::EXIT_ERROR, "{report}");
    assert!(
        report.contains("result: error: the exact set is full"),
        "{report}"
    );
    assert!(
        report.contains("Run again with a larger --memory"),
        "{report}"
    );
}
