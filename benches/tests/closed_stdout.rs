//! A benchmark binary whose stdout is closed ends quietly with status 0 (`outln!`), as `matrix |
//! head -3` needs; with `println!` it panicked with "failed printing to stdout".

use std::process::{Command, Stdio};

#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stats_cost"))
        .arg("1000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start stats_cost");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("stats_cost ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
