//! The fifteen solver's input handling: every malformed board, id list, file and flag is a
//! clear error naming the problem (exit code 2 from the binary), never a panic. The flags'
//! own checks are unit tests of the binary's command line (`src/bin/fifteen/cli/tests.rs`).

use fifteen::board::{Board, BoardError};
use fifteen::instance::parse_instances;
use fifteen::korf::parse_ids;
use std::process::Command as Process;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn boards_are_validated() {
    let goal15: Vec<u32> = (0..16).collect();
    assert_eq!(Board::from_tiles(&goal15), Ok(Board::goal(4)));
    assert_eq!(Board::from_tiles(&goal15[..15]), Err(BoardError::Count(15)));
    let five: Vec<u32> = (0..25).collect();
    let e = Board::from_tiles(&five).unwrap_err();
    assert_eq!(e, BoardError::Count(25));
    assert!(e.to_string().contains("5×5"), "{e}");
    assert_eq!(Board::from_tiles(&[]), Err(BoardError::Count(0)));
    let mut repeated = goal15.clone();
    repeated[3] = 2;
    assert_eq!(Board::from_tiles(&repeated), Err(BoardError::Repeated(2)));
    let mut big = goal15.clone();
    big[3] = 16;
    assert_eq!(
        Board::from_tiles(&big),
        Err(BoardError::OutOfRange {
            tile: 16,
            cells: 16
        })
    );
    let mut huge = goal15.clone();
    huge[0] = u32::MAX;
    assert!(matches!(
        Board::from_tiles(&huge),
        Err(BoardError::OutOfRange { .. })
    ));
    // Swapping two tiles flips the parity: unsolvable, on every size.
    let mut swapped = goal15.clone();
    swapped.swap(1, 2);
    assert_eq!(Board::from_tiles(&swapped), Err(BoardError::Unsolvable));
    assert_eq!(
        Board::from_tiles(&[0, 2, 1, 3, 4, 5, 6, 7, 8]),
        Err(BoardError::Unsolvable)
    );
    assert_eq!(
        Board::from_tiles(&[0, 2, 1, 3]),
        Err(BoardError::Unsolvable)
    );
    // Moving the blank a row down keeps it solvable (even side: inversions + blank row).
    assert!(Board::from_tiles(&[4, 1, 2, 3, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]).is_ok());
    assert!(Board::from_tiles(&[3, 1, 2, 0, 4, 5, 6, 7, 8]).is_ok());
    for e in [
        BoardError::Missing(3),
        BoardError::Unsolvable,
        BoardError::Count(7),
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn korf_ids_are_validated() {
    assert_eq!(parse_ids("1-3,7, 100").unwrap(), vec![1, 2, 3, 7, 100]);
    for bad in ["0", "101", "5-3", "x", "1-", "-4", "", "1,,2", "3-200"] {
        let e = parse_ids(bad).unwrap_err();
        assert!(e.contains("--korf"), "{bad}: {e}");
    }
}

#[test]
fn instance_files_are_validated_with_line_numbers() {
    let ok = parse_instances(
        "# a comment\n\n1 2 0 3 4 5 6 7 8\n0,1,2,3 4 5 6 7 8 9 10 11 12 13 14 15 # goal\n",
        "f",
    )
    .unwrap();
    assert_eq!(ok.len(), 2);
    assert_eq!(ok[0].board.side(), 3);
    assert_eq!(ok[1].label, "f:4");
    let e = parse_instances("1 2 0 3 4 5 6 7 8\n1 2 3\n", "f").unwrap_err();
    assert!(e.starts_with("f:2:") && e.contains("3 numbers"), "{e}");
    let e = parse_instances("1 2 0 3 4 5 six 7 8\n", "f").unwrap_err();
    assert!(e.contains("f:1") && e.contains("'six'"), "{e}");
    let e = parse_instances("0 2 1 3 4 5 6 7 8\n", "f").unwrap_err();
    assert!(e.contains("unsolvable"), "{e}");
    let e = parse_instances("1 1 0 3 4 5 6 7 8\n", "f").unwrap_err();
    assert!(e.contains("tile 1 appears more than once"), "{e}");
    assert!(parse_instances("# nothing\n", "f")
        .unwrap_err()
        .contains("no instances"));
}

/// The `fifteen` binary, which cargo builds for this package's integration tests.
fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_fifteen")
}

#[test]
fn the_binary_exits_with_code_2_and_a_message_on_bad_input() {
    for line in [
        "--threads 0",
        "1 2 3",
        "0 2 1 3 4 5 6 7 8",
        "--heuristic pdb 1 2 0 3 4 5 6 7 8",
        "--hash-mib 99999999999999",
        "--nope",
    ] {
        let out = Process::new(binary())
            .args(args(line))
            .output()
            .expect("run the example");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "'{line}': {stderr}");
        assert!(stderr.starts_with("error: "), "'{line}': {stderr}");
        assert!(!stderr.contains("panicked"), "'{line}': {stderr}");
    }
}

#[test]
fn the_binary_solves_and_checks_an_eight_puzzle_from_the_command_line() {
    let out = Process::new(binary())
        .args(args(
            "--solution --threads 2 --hash-mib 4 8 0 6 5 4 7 2 3 1",
        ))
        .output()
        .expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // One of the two 8-puzzle boards 31 moves from the goal 0 1 2 … 8 (a breadth-first search says so).
    assert!(
        stdout
            .lines()
            .any(|l| l.split_whitespace().take(2).eq(["argv", "31"])),
        "{stdout}"
    );
    assert!(stdout.contains("8 0 6 5 4 7 2 3 1: "), "{stdout}");
}

/// `fifteen ... | head -1`: the reader goes away after `lines` lines of output (0: at once);
/// with `stderr_too`, standard error is a closed pipe as well.
fn run_with_stdout_closed_after(
    line: &str,
    lines: usize,
    stderr_too: bool,
) -> std::process::Output {
    use std::io::BufRead;
    let mut child = Process::new(binary())
        .args(args(line))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the example");
    let stdout = child.stdout.take().expect("piped");
    let mut reader = std::io::BufReader::new(stdout);
    for _ in 0..lines {
        let mut first = String::new();
        reader.read_line(&mut first).expect("a line");
        assert!(!first.is_empty());
    }
    drop(reader);
    if stderr_too {
        drop(child.stderr.take());
    }
    child.wait_with_output().expect("the run ends")
}

#[test]
fn a_closed_stdout_ends_the_run_quietly_without_a_panic() {
    for line in [
        "--korf 9,12,19,2,5 --heuristic lc --threads 1",
        "--korf 9,12,19,2,5 --heuristic lc --threads 2",
        "--korf 9,12,19,2,5 --heuristic lc --threads 2 --parallel tree --solution",
    ] {
        for lines in [0, 1, 2] {
            for stderr_too in [false, true] {
                let out = run_with_stdout_closed_after(line, lines, stderr_too);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(
                    !stderr.contains("panicked"),
                    "'{line}', {lines} line(s): {stderr}"
                );
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "'{line}', {lines} line(s): {stderr}"
                );
            }
        }
    }
}
