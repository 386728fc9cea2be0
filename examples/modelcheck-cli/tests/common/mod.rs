//! Helpers shared by the package's tests (each test file uses some of them).
#![allow(dead_code)]

pub mod cluster;

use modelcheck_cli as cli;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};

/// Runs the command line in this process; returns the status, the report (stdout) and stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = cli::run(args, &mut out, &mut err);
    let text = |bytes| String::from_utf8(bytes).expect("the output is UTF-8");
    (status, text(out), text(err))
}

/// The number after `key: ` in a report.
pub fn field(report: &str, key: &str) -> u64 {
    let prefix = format!("{key}: ");
    report
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no `{key}` in the report:\n{report}"))
}

/// The depth a resumed run started from.
pub fn resumed_from(report: &str) -> u64 {
    report
        .split("resumed: from a checkpoint at depth ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("not resumed:\n{report}"))
}

/// The lines of a printed trace: "k: action state".
pub fn trace_lines(report: &str) -> Vec<&str> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("trace (replayed and checked):"))
        .skip(1)
        .collect()
}

/// The `modelcheck` binary with `args`.
pub fn modelcheck(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_modelcheck"));
    command.args(args);
    command
}

/// Starts `command` with stderr piped (stdout as `stdout` says); stderr's lines arrive on the
/// receiver, which disconnects when the child closes it.
pub fn spawn(command: &mut Command, stdout: Stdio) -> (Child, Receiver<String>) {
    let mut child = command
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("modelcheck starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    (child, lines)
}
