//! Checkpoint paths that are no regular file are usage errors before anything is searched or
//! opened: `--checkpoint` naming a directory, `--resume` naming a FIFO (whose `open` would wait
//! for a writer forever) or a directory.

mod common;

use common::{modelcheck, run};
use modelcheck_cli::EXIT_USAGE;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh scratch path for test `name` (nothing there yet).
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("modelcheck-checkpoint-paths");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    let _ = std::fs::remove_file(&path);
    path
}

/// `--checkpoint DIR` is refused with a usage error naming it, before the search: no report,
/// no level searched, and the directory is left as it was.
#[test]
fn a_checkpoint_path_that_is_a_directory_is_a_usage_error() {
    let dir = scratch("dir");
    std::fs::create_dir(&dir).expect("the directory");
    let (status, out, err) = run(&["2pc", "3", "--checkpoint", dir.to_str().unwrap()]);
    assert_eq!(status, EXIT_USAGE, "{err}");
    assert!(out.is_empty(), "the search started:\n{out}");
    assert!(err.contains("is a directory"), "{err}");
    assert!(err.contains(dir.to_str().unwrap()), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir(&dir).unwrap();
}

/// Runs the binary with `args` as a child, killed after 30 s; returns its status (`None` when
/// it had to be killed) and stderr.
fn run_child_with_timeout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = modelcheck(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("modelcheck starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
    }
    (status, err)
}

/// `--resume FIFO` exits at once with a usage error naming it, instead of blocking in `open`
/// (the child is killed after 30 s if it blocks, and the test then fails).
#[test]
fn resuming_a_fifo_is_a_usage_error_at_once() {
    let fifo = scratch("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo failed");
    let (status, err) = run_child_with_timeout(&["2pc", "3", "--resume", fifo.to_str().unwrap()]);
    let _ = std::fs::remove_file(&fifo);
    assert_eq!(status, Some(EXIT_USAGE), "blocked or wrong status: {err}");
    assert!(err.contains("is a FIFO"), "{err}");
    assert!(err.contains(fifo.to_str().unwrap()), "{err}");
}

/// `--resume DIR` (a single process's checkpoint is a file) is a usage error naming it.
#[test]
fn resuming_a_directory_is_a_usage_error() {
    let dir = scratch("resume-dir");
    std::fs::create_dir(&dir).expect("the directory");
    let (status, _, err) = run(&["2pc", "3", "--resume", dir.to_str().unwrap()]);
    std::fs::remove_dir(&dir).unwrap();
    assert_eq!(status, EXIT_USAGE, "{err}");
    assert!(err.contains("is a directory"), "{err}");
}
