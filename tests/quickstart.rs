//! The quickstart example as a user runs it: a report on stdout, and no panic when the reader of
//! its stdout has gone (`quickstart | head -1`).

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `target/<profile>/examples/quickstart`, which `cargo test` builds with the examples.
fn quickstart() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    let bin = profile
        .join("examples")
        .join(format!("quickstart{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--example", "quickstart"]);
        if profile.ends_with("release") {
            build.arg("--release");
        }
        assert!(build.status().expect("cargo build").success());
    }
    bin
}

#[test]
fn prints_a_report_with_no_wrong_values() {
    let out = Command::new(quickstart()).arg("1").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("wrong values 0"), "{text}");
    assert!(text.contains("hashfull"), "{text}");
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    // The read end is closed before the child starts, so its first write fails with EPIPE.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(quickstart())
        .arg("1")
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}
