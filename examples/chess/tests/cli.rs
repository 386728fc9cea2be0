//! The command line: `chess bench` and `chess perft` (Stockfish's output form, deterministic
//! at one thread, the same count as UCI `bench`), usage errors (status 2), and a closed stdout
//! pipe (no panic, status 0) both from `bench` and from the UCI loop.

use crate::engine;

use engine::{Engine, ANSWER_TIMEOUT};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

fn chess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run chess")
}

/// The N of `Nodes searched  : N`.
fn nodes_searched(stdout: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("Nodes searched  : "))
        .unwrap_or_else(|| panic!("no node count in {text}"));
    line["Nodes searched  : ".len()..].parse().unwrap()
}

#[test]
fn bench_from_the_command_line() {
    let first = chess(&["bench", "6"]);
    assert!(first.status.success(), "{first:?}");
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(
        text.lines().any(|l| l.starts_with("Nodes/second    : ")),
        "{text}"
    );
    let nodes = nodes_searched(&first.stdout);
    assert!(nodes > 0);
    assert_eq!(nodes_searched(&chess(&["bench", "6", "1"]).stdout), nodes);
    // The UCI command counts the same nodes.
    let mut engine = Engine::start();
    engine.send("bench 6");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched  : "));
    assert_eq!(nodes_searched(lines.join("\n").as_bytes()), nodes);
    assert!(engine.quit());
    // Two threads: a count, not a fixed one.
    let two = chess(&["bench", "5", "2"]);
    assert!(two.status.success() && nodes_searched(&two.stdout) > 0);
}

#[test]
fn perft_from_the_command_line() {
    let out = chess(&["perft", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l == "Nodes searched: 8902"), "{text}");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for args in [
        &["perft", "3", "--fen", kiwipete][..],
        &["perft", "3", "--fen", kiwipete, "--cached", "4"][..],
    ] {
        let out = chess(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.lines().any(|l| l == "Nodes searched: 97862"),
            "{args:?}: {text}"
        );
    }
    // A Chess960 position needs --chess960 (then castling is king-takes-rook).
    let chess960 = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";
    let out = chess(&["perft", "1", "--fen", chess960]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = chess(&["perft", "1", "--fen", chess960, "--chess960"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.lines().any(|l| l == "f1g1: 1") && text.lines().any(|l| l == "f1b1: 1"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["bench", "0"][..],
        &["bench", "101"][..],
        &["bench", "5", "0"][..],
        &["bench", "5", "257"][..],
        &["bench", "x"][..],
        &["perft"][..],
        &["perft", "-1"][..],
        &["perft", "21"][..],
        &["perft", "3", "--fen", "8/8/8/8/8/8/3k4/3K4 w - - 0 1"][..],
        &["perft", "3", "--fen", "not a fen"][..],
        &["perft", "3", "--cached", "0"][..],
        &["frobnicate"][..],
        &["--no-such-flag"][..],
    ] {
        let out = chess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: says why");
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panicked"),
            "{args:?}"
        );
    }
    let help = chess(&["--help"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("bench") && text.contains("perft"), "{text}");
}

/// Waits (up to the answer timeout) for the child and returns its status and stderr.
fn finish(mut child: std::process::Child) -> (std::process::ExitStatus, String) {
    let deadline = Instant::now() + ANSWER_TIMEOUT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            return (status, stderr);
        }
        assert!(Instant::now() < deadline, "the engine did not end");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn a_closed_stdout_ends_the_process_quietly() {
    // `chess bench | head -1`: the reader goes away after one line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess"))
        .args(["bench", "9"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("info string bench 1/"), "{first}");
    let (status, stderr) = finish(child);
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    // A GUI that closes its end of the pipe while the engine searches.
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The engine may already be gone by the time later lines are written.
    let _ = stdin.write_all(b"uci\nisready\nposition startpos\ngo depth 30\n");
    let _ = stdin.flush();
    let (status, stderr) = finish(child);
    drop(stdin);
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
