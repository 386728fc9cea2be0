//! The `modelcheck` binary as a child process: SIGINT and SIGTERM print the partial report and
//! exit with their own status; a closed stdout is no panic.

mod common;

use common::{field, modelcheck};
use modelcheck_cli::{EXIT_COUNTEREXAMPLE, EXIT_INTERRUPTED, EXIT_OK};
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// How long any child may take before the test fails (they take seconds).
const TIMEOUT: Duration = Duration::from_secs(120);

/// Starts `command` with piped stdout and stderr; stderr's lines arrive on the receiver.
fn spawn(mut command: Command) -> (Child, Receiver<String>) {
    common::spawn(&mut command, Stdio::piped())
}

/// Waits for a stderr line containing `needle`; panics after [`TIMEOUT`].
fn wait_for_line(lines: &Receiver<String>, needle: &str) -> String {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(needle) => return line,
            Ok(_) => {}
            Err(e) => panic!("no stderr line with `{needle}`: {e}"),
        }
    }
}

/// Waits for the child to exit (killing it after [`TIMEOUT`]); returns its status and stdout.
fn finish(mut child: Child) -> (i32, String) {
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("modelcheck did not exit within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        stdout.read_to_string(&mut out).expect("stdout is UTF-8");
    }
    (status.code().expect("exited, not killed by a signal"), out)
}

fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{name} failed");
}

/// The 15-puzzle has 10^13 states: in bitstate mode (which never fills) the search runs until
/// it is stopped.
const ENDLESS: &[&str] = &[
    "puzzle",
    "4",
    "--mode",
    "bitstate",
    "--memory",
    "64",
    "--threads",
    "2",
];

#[test]
fn sigint_and_sigterm_stop_the_search_with_a_partial_report() {
    for name in ["INT", "TERM"] {
        let (child, lines) = spawn(modelcheck(ENDLESS));
        // Progress lines come once the run is past a second, well after the handlers are set.
        wait_for_line(&lines, "new,");
        signal(&child, name);
        let (status, report) = finish(child);
        assert_eq!(status, EXIT_INTERRUPTED, "SIG{name}:\n{report}");
        assert!(
            report.contains("result: interrupted: no error in the states visited; levels 0 to "),
            "SIG{name}:\n{report}"
        );
        // States, transitions, the depth completed, time and memory are all there.
        let (states, depth) = (field(&report, "states"), field(&report, "depth"));
        assert!(states > 1000 && depth >= 10, "SIG{name}:\n{report}");
        assert!(
            field(&report, "transitions") > states,
            "SIG{name}:\n{report}"
        );
        assert!(report.contains(&format!("levels 0 to {depth} were searched whole")));
        for line in ["time: ", "peak memory: ", "visited table: "] {
            assert!(report.contains(line), "SIG{name}: no `{line}`:\n{report}");
        }
    }
}

#[test]
fn a_second_signal_exits_at_once_without_the_report() {
    // 512 MiB of bitstate array take a while to count after the stop: the second signal
    // arrives before the report is printed.
    let mut args = ENDLESS.to_vec();
    args[5] = "512";
    let (child, lines) = spawn(modelcheck(&args));
    wait_for_line(&lines, "new,");
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(20));
    signal(&child, "INT");
    let (status, report) = finish(child);
    assert_eq!(status, EXIT_INTERRUPTED, "{report}");
    assert!(!report.contains("result:"), "{report}");
}

#[test]
fn a_closed_stdout_is_no_panic() {
    let cases: &[(&[&str], i32)] = &[
        (&["2pc", "5", "--quiet"], EXIT_OK),
        (&["buggy", "3", "--quiet"], EXIT_COUNTEREXAMPLE),
        (&["--help"], EXIT_OK),
    ];
    for (args, expected) in cases {
        let mut command = modelcheck(args);
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("modelcheck starts");
        // Close the pipe's read end before anything is written.
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .expect("stderr is piped")
            .read_to_string(&mut err)
            .expect("stderr is UTF-8");
        let status = child.wait().expect("wait").code();
        assert_eq!(status, Some(*expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn piped_into_head_it_ends_cleanly() {
    // The reproduction: `modelcheck 2pc 8 | head -1`, with the status of modelcheck.
    let line = format!(
        "set -o pipefail; '{}' 2pc 8 --threads 2 --memory 64 --quiet | head -1",
        env!("CARGO_BIN_EXE_modelcheck")
    );
    let output = Command::new("bash")
        .args(["-c", &line])
        .output()
        .expect("bash runs");
    let (out, err) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(out, "model: 2pc(rms=8)\n");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(output.status.code(), Some(EXIT_OK), "{err}");
}
