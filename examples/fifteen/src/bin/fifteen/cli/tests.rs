//! The command line's checks: every flag is explained in `--help`, and every malformed flag or
//! instance is an error naming the problem (the binary prints it and exits 2).

use super::{parse_args, Command};
use fifteen::config::{HeuristicKind, DEFAULT_CYCLES};

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn error_of(s: &str) -> String {
    match parse_args(&args(s)) {
        Err(e) => e,
        Ok(Command::Run(c)) => panic!("'{s}' was accepted: {c:?}"),
        Ok(Command::Help(h)) => panic!("'{s}' printed help: {h}"),
    }
}

#[test]
fn flags_are_validated() {
    let Ok(Command::Help(help)) = parse_args(&args("--help")) else {
        panic!("--help")
    };
    // Every option and the exit codes are explained.
    for needle in [
        "--korf",
        "--file",
        "TILES",
        "--heuristic",
        "pdb78",
        "pdb663",
        "--threads",
        "--parallel",
        "--hash-mib",
        "--no-table",
        "--table-slack",
        "--fresh-table",
        "--prefault",
        "--pdb-dir",
        "--no-pdb-cache",
        "--pdb-layout",
        "--solution",
        "--korf24",
        "--size",
        "--iterations",
        "--cycles",
        "pdb6666",
        "Exit codes",
        "blank top-left",
    ] {
        assert!(help.contains(needle), "--help lacks {needle}:\n{help}");
    }
    let Ok(Command::Run(c)) = parse_args(&args("")) else {
        panic!("default run")
    };
    assert_eq!(c.instances.len(), 100);
    assert!(c.table.is_none() && c.heuristic.is_none() && c.threads >= 1 && !c.prefault);
    let Ok(Command::Run(c)) = parse_args(&args("--korf 3,5 --heuristic lc --no-table --threads 1"))
    else {
        panic!("korf run")
    };
    assert_eq!(
        c.instances
            .iter()
            .map(|i| i.label.as_str())
            .collect::<Vec<_>>(),
        ["3", "5"]
    );
    assert_eq!(c.instances[0].known_nodes, Some(156_590_306));
    // The automaton: off below 5×5 unless asked, one length for every side when asked.
    assert_eq!(c.cycles, DEFAULT_CYCLES);
    assert_eq!((c.cycles[4], c.cycles[5]), (0, 14));
    let Ok(Command::Run(c)) = parse_args(&args("--korf 3 --cycles 10")) else {
        panic!("cycles")
    };
    assert_eq!(c.cycles, [10; 6]);
    // The old name of the 6-6-3 databases still works.
    let Ok(Command::Run(c)) = parse_args(&args("--korf 1 --heuristic pdb")) else {
        panic!("pdb alias")
    };
    assert_eq!(c.heuristic, Some(HeuristicKind::Pdb663));
    let Ok(Command::Run(c)) = parse_args(&args("1 2 0 3 4 5 6 7 8")) else {
        panic!("tiles")
    };
    assert_eq!(c.instances[0].board.side(), 3);
    for (line, needle) in [
        ("--bogus", "unexpected argument '--bogus'"),
        ("--threads 0", "--threads"),
        ("--threads 1025", "1..=1024"),
        ("--threads lots", "'lots'"),
        ("--threads", "a value is required for '--threads <N>'"),
        ("--hash-mib 0", "--hash-mib"),
        ("--hash-mib -3", "--hash-mib"),
        ("--hash-mib 99999999999999", "--hash-mib"),
        ("--table-slack 256", "0..=255"),
        ("--cycles 17", "0..=16"),
        ("--cycles -1", "--cycles"),
        ("--heuristic foo", "'foo'"),
        ("--korf 1-3 1 2 0 3 4 5 6 7 8", "cannot be used with"),
        ("--korf 1-3 --file x", "cannot be used with"),
        ("--no-table --hash-mib 4", "cannot be used with"),
        ("--no-table --prefault", "cannot be used with"),
        ("--no-table --table", "cannot be used with"),
        ("--pdb-dir x --no-pdb-cache", "cannot be used with"),
        (
            "--fresh-table --parallel instances --threads 2",
            "--parallel tree",
        ),
        ("--korf 0", "1..=100"),
        (
            "--file /nonexistent/instances.txt",
            "/nonexistent/instances.txt",
        ),
        ("1 2 3", "3 numbers"),
        ("1 2 0 3 4 5 6 7 -8", "'-8'"),
        ("0 2 1 3 4 5 6 7 8", "unsolvable"),
        (
            "--heuristic pdb78 1 2 0 3 4 5 6 7 8",
            "does not work on a 3×3 board",
        ),
    ] {
        let e = error_of(line);
        assert!(e.contains(needle), "'{line}': '{e}' lacks '{needle}'");
    }
}

#[test]
fn the_24_puzzle_is_picked_from_the_board_or_the_size() {
    let goal: String = (0..25).map(|t| format!("{t} ")).collect();
    let Ok(Command::Run(c)) = parse_args(&args(&goal)) else {
        panic!("25 tiles")
    };
    assert_eq!(c.instances[0].board.side(), 5);
    assert!(c.iterations, "5×5 runs report each iteration");
    let Ok(Command::Run(c)) = parse_args(&args("--korf24 2,6,8 --threads 2")) else {
        panic!("--korf24")
    };
    let labels: Vec<&str> = c.instances.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["24-2", "24-6", "24-8"]);
    assert_eq!(c.instances[0].known_len, Some(95));
    let Ok(Command::Run(c)) = parse_args(&args("--size 5")) else {
        panic!("--size 5")
    };
    assert_eq!(c.instances.len(), 10);
    for (line, needle) in [
        (format!("--size 4 {goal}"), "not --size 4"),
        (
            format!("--heuristic lc {goal}"),
            "does not work on a 5×5 board",
        ),
        (
            "--heuristic pdb6666 1 2 0 3 4 5 6 7 8".to_string(),
            "does not work on a 3×3 board",
        ),
        ("--korf24 11".to_string(), "1..=10"),
    ] {
        let e = error_of(&line);
        assert!(e.contains(needle), "'{line}': '{e}' lacks '{needle}'");
    }
}
