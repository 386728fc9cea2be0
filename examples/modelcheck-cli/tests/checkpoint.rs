//! Checkpoint and resume: a run killed with SIGKILL after its first checkpoint, resumed, gives
//! the counts and the shortest counterexample of an uninterrupted run; every storage mode
//! round-trips; a truncated, corrupted, foreign or wrong-version file is a clear error.

mod common;

use common::{field, modelcheck, resumed_from, run, spawn, trace_lines as trace};
use modelcheck_cli as cli;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// A fresh path for a checkpoint of test `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("modelcheck-checkpoints");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Starts the binary on `args` with `--checkpoint path --checkpoint-every every`, waits for
/// its first checkpoint and kills it with SIGKILL. `false` when it ended before writing one.
fn kill_after_first_checkpoint(args: &[&str], path: &Path, every: &str) -> bool {
    let mut command = modelcheck(args);
    command.args([
        "--checkpoint",
        path.to_str().unwrap(),
        "--checkpoint-every",
        every,
    ]);
    let (mut child, lines) = spawn(&mut command, Stdio::null());
    let written = loop {
        match lines.recv_timeout(Duration::from_secs(120)) {
            Ok(line) if line.starts_with("checkpoint: depth ") => break true,
            Ok(_) => {}
            Err(_) => break false, // the run ended (stderr closed) or hung
        }
    };
    let _ = child.kill(); // SIGKILL: no handler runs, nothing is flushed
    let _ = child.wait();
    written
}

/// The test: the run killed after its first checkpoint, resumed, reports what an
/// uninterrupted run reports. Returns the two reports.
fn killed_and_resumed(name: &str, args: &[&str], expected_status: i32) -> (String, String) {
    let path = scratch(name);
    let mut uninterrupted = args.to_vec();
    uninterrupted.extend(["--threads", "2", "--quiet"]);
    let (status, whole, _) = run(&uninterrupted);
    assert_eq!(status, expected_status, "{whole}");
    // One thread, so the run outlasts a checkpoint interval of a second; on a machine fast
    // enough to finish first, a quarter of a second.
    let mut child_args = args.to_vec();
    child_args.extend(["--threads", "1"]);
    let written = ["1", "0.25"]
        .iter()
        .any(|every| kill_after_first_checkpoint(&child_args, &path, every));
    assert!(written, "{name}: no checkpoint was written");
    let p = path.to_str().unwrap();
    let mut resume = args.to_vec();
    resume.extend(["--resume", p, "--threads", "2", "--quiet"]);
    let (status, resumed, err) = run(&resume);
    assert_eq!(status, expected_status, "{name}:\n{resumed}\n{err}");
    let depth = resumed_from(&resumed);
    assert!(depth > 0, "{name}: resumed from depth 0:\n{resumed}");
    for key in ["states", "transitions", "depth"] {
        assert_eq!(field(&resumed, key), field(&whole, key), "{name}: {key}");
    }
    let _ = std::fs::remove_file(&path);
    (whole, resumed)
}

#[test]
fn killed_after_a_checkpoint_2pc_8_resumes_to_the_same_counts() {
    let (_, resumed) = killed_and_resumed("2pc8", &["2pc", "8", "--memory", "16"], cli::EXIT_OK);
    assert_eq!(field(&resumed, "states"), 1_745_408);
    assert_eq!(field(&resumed, "transitions"), 18_507_777);
    assert_eq!(field(&resumed, "depth"), 25);
    assert!(resumed_from(&resumed) < 25, "{resumed}");
}

#[test]
fn killed_after_a_checkpoint_philosophers_16_resumes_to_the_same_counts() {
    // Invariants only: the philosophers' liveness violations are tests/liveness.rs's, and a
    // checkpointed run does not check liveness, so the uninterrupted run must not either.
    let args = [
        "philosophers",
        "16",
        "--no-deadlock",
        "--no-liveness",
        "--memory",
        "16",
    ];
    let (_, resumed) = killed_and_resumed("phil16", &args, cli::EXIT_OK);
    assert_eq!(field(&resumed, "states"), 1_331_714);
    assert_eq!(field(&resumed, "transitions"), 13_774_112);
    assert_eq!(field(&resumed, "depth"), 16);
}

#[test]
fn killed_before_a_deadlock_the_resumed_run_finds_the_same_shortest_trace() {
    // Philosophers-16 deadlock when all hold their left fork: 16 steps, in the last level.
    let args = ["philosophers", "16", "--memory", "16"];
    let (whole, resumed) = killed_and_resumed("phil16dl", &args, cli::EXIT_COUNTEREXAMPLE);
    for report in [&whole, &resumed] {
        assert!(
            report.contains("result: Deadlock after 16 steps"),
            "{report}"
        );
        assert_eq!(trace(report).len(), 17, "{report}");
    }
    // Both end in the one deadlock (the steps' order may differ: any shortest trace will do).
    let all_left = vec!["L"; 16].join(" ");
    assert!(trace(&whole)[16].ends_with(&all_left), "{whole}");
    assert!(trace(&resumed)[16].ends_with(&all_left), "{resumed}");
}

#[test]
fn a_violation_after_the_checkpoint_is_found_again_with_its_trace_length() {
    // The broken lock fails after 4 steps: a checkpoint at every level leaves depth 3 saved.
    let path = scratch("buggy");
    let p = path.to_str().unwrap();
    let (status, whole, _) = run(&[
        "buggy",
        "3",
        "--quiet",
        "--checkpoint",
        p,
        "--checkpoint-every",
        "0",
    ]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{whole}");
    assert!(
        whole.contains("checkpoint: 3 written, the last at depth 3"),
        "{whole}"
    );
    let (status, resumed, err) = run(&["buggy", "3", "--quiet", "--resume", p]);
    assert_eq!(status, cli::EXIT_COUNTEREXAMPLE, "{err}");
    assert_eq!(resumed_from(&resumed), 3);
    assert!(
        resumed.contains("Invariant(\"MutualExclusion\") after 4 steps"),
        "{resumed}"
    );
    assert_eq!(trace(&resumed).len(), 5);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn every_mode_round_trips() {
    for mode in ["fp64", "fp32", "bitstate", "exact"] {
        let path = scratch(&format!("mode-{mode}"));
        let p = path.to_str().unwrap();
        let base = [
            "2pc",
            "5",
            "--mode",
            mode,
            "--memory",
            "4",
            "--threads",
            "2",
            "--quiet",
        ];
        let (status, whole, _) =
            run(&[&base[..], &["--checkpoint", p, "--checkpoint-every", "0"]].concat());
        // The last checkpoint is at the deepest level, 16, before its (empty) expansion.
        assert!(whole.contains("the last at depth 16"), "{mode}:\n{whole}");
        let (resumed_status, resumed, err) = run(&[&base[..], &["--resume", p]].concat());
        assert_eq!(resumed_status, status, "{mode}: {err}");
        assert_eq!(resumed_from(&resumed), 16, "{mode}");
        for key in ["states", "transitions", "depth"] {
            assert_eq!(field(&resumed, key), field(&whole, key), "{mode}: {key}");
        }
        // --mode and --memory default to the checkpoint's.
        let (defaulted, _, err) = run(&["2pc", "5", "--quiet", "--resume", p]);
        assert_eq!(defaulted, status, "{mode}: {err}");
        let _ = std::fs::remove_file(&path);
    }
}

/// `--fixed-table`: the whole `--memory` from the start, saved under the two-hash name and
/// resumed fixed without the flag (the header says so); a growing set's checkpoint resumed with
/// `--fixed-table` is refused in words.
#[test]
fn a_fixed_table_round_trips_and_is_not_confused_with_a_growing_one() {
    let (fixed, growing) = (scratch("fixed-table"), scratch("growing-table"));
    let (f, g) = (fixed.to_str().unwrap(), growing.to_str().unwrap());
    let base = ["2pc", "5", "--memory", "4", "--threads", "2", "--quiet"];
    let every = ["--checkpoint-every", "0"];
    let (status, whole, _) =
        run(&[&base[..], &["--fixed-table", "--checkpoint", f], &every[..]].concat());
    assert!(whole.contains("visited table: 4194304 bytes"), "{whole}");
    let (grown_status, grown, _) = run(&[&base[..], &["--checkpoint", g], &every[..]].concat());
    assert_eq!(grown_status, status);
    assert!(grown.contains("visited table: 1048576 bytes"), "{grown}");
    let (resumed_status, resumed, err) = run(&["2pc", "5", "--quiet", "--resume", f]);
    assert_eq!(resumed_status, status, "{err}");
    assert!(
        resumed.contains("visited table: 4194304 bytes"),
        "{resumed}"
    );
    assert_eq!(field(&resumed, "states"), field(&whole, "states"));
    let (refused, _, err) = run(&["2pc", "5", "--quiet", "--fixed-table", "--resume", g]);
    assert_eq!(refused, cli::EXIT_USAGE, "{err}");
    assert!(err.contains("its fp64 set grows"), "{err}");
    let _ = (std::fs::remove_file(&fixed), std::fs::remove_file(&growing));
}

/// A checkpoint of 2PC-5 at depth 16, as bytes, and its path.
fn a_checkpoint(name: &str) -> (PathBuf, Vec<u8>) {
    let path = scratch(name);
    let p = path.to_str().unwrap();
    let (status, report, _) = run(&[
        "2pc",
        "5",
        "--memory",
        "1",
        "--quiet",
        "--checkpoint",
        p,
        "--checkpoint-every",
        "0",
    ]);
    assert_eq!(status, cli::EXIT_OK, "{report}");
    let bytes = std::fs::read(&path).expect("the checkpoint");
    (path, bytes)
}

/// Resumes 2PC-5 from `bytes` written at `path`; returns the status, stdout and stderr.
fn resume(path: &Path, bytes: &[u8]) -> (i32, String, String) {
    std::fs::write(path, bytes).expect("write the file");
    run(&["2pc", "5", "--quiet", "--resume", path.to_str().unwrap()])
}

/// [`resume`] from a bad file: no search may run. Returns the status and stderr.
fn resume_from(path: &Path, bytes: &[u8]) -> (i32, String) {
    let (status, out, err) = resume(path, bytes);
    assert!(out.is_empty(), "a bad checkpoint ran a search:\n{out}");
    (status, err)
}

#[test]
fn truncated_corrupted_foreign_and_wrong_version_files_are_clear_errors() {
    let (path, good) = a_checkpoint("bad");
    let (status, report, _) = resume(&path, &good);
    assert_eq!(status, cli::EXIT_OK);
    assert_eq!(field(&report, "states"), 8_832);
    let len = good.len();
    // Truncated: in the header, the progress, the visited set, the trailer.
    for cut in [0, 5, 20, 200, len / 2, len - 5, len - 1] {
        let (status, err) = resume_from(&path, &good[..cut]);
        assert_eq!(status, cli::EXIT_ERROR, "cut at {cut}: {err}");
        assert!(err.contains("cannot resume from"), "cut at {cut}: {err}");
        assert!(
            err.contains("truncated") || err.contains("too short") || err.contains("ends before"),
            "cut at {cut}: {err}"
        );
    }
    // Corrupted: one bit flipped anywhere after the version.
    for at in [14, 30, 100, 400, len / 3, len / 2, len - 20, len - 2] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let (status, err) = resume_from(&path, &bad);
        assert!(
            status == cli::EXIT_ERROR || status == cli::EXIT_USAGE,
            "flipped byte {at}: status {status}: {err}"
        );
        assert!(
            err.contains("cannot resume from"),
            "flipped byte {at}: {err}"
        );
    }
    // Another format version, and a file that is no checkpoint.
    let mut newer = good.clone();
    newer[8..12].copy_from_slice(&4u32.to_le_bytes());
    let (status, err) = resume_from(&path, &newer);
    assert_eq!(status, cli::EXIT_ERROR);
    assert!(
        err.contains("checkpoint format version 4; this checker reads version 3"),
        "{err}"
    );
    let (status, err) = resume_from(&path, b"modelcheck? no, a text file\n");
    assert_eq!(status, cli::EXIT_ERROR);
    assert!(err.contains("not a modelcheck checkpoint"), "{err}");
    let _ = std::fs::remove_file(&path);
    let (status, _, err) = run(&["2pc", "5", "--resume", path.to_str().unwrap()]);
    assert_eq!(status, cli::EXIT_ERROR);
    assert!(err.contains("cannot resume from"), "{err}");
}

#[test]
fn a_checkpoint_of_another_model_size_mode_or_options_is_a_usage_error() {
    let (path, good) = a_checkpoint("other");
    std::fs::write(&path, &good).unwrap();
    let p = path.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["2pc", "6"],
            "it is of 2pc(rms=5); this run checks 2pc(rms=6)",
        ),
        (
            &["philosophers", "5"],
            "it is of 2pc(rms=5); this run checks philosophers(n=5)",
        ),
        (
            &["2pc", "5", "--mode", "fp32"],
            "made in --mode fp64; this run asks for --mode fp32",
        ),
        (&["2pc", "5", "--exact"], "this run asks for --mode exact"),
        (
            &["2pc", "5", "--memory", "2"],
            "made with --memory 1M; this run asks for --memory 2M",
        ),
        (&["2pc", "5", "--no-deadlock"], "made without --no-deadlock"),
    ];
    for (args, message) in cases {
        let (status, out, err) = run(&[args, &["--quiet", "--resume", p][..]].concat());
        assert_eq!(status, cli::EXIT_USAGE, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}:\n{out}");
        assert!(
            err.contains(message),
            "{args:?}: expected `{message}` in {err}"
        );
    }
    let _ = std::fs::remove_file(&path);
    // A --checkpoint that cannot be written fails before the search.
    let (status, out, err) = run(&["2pc", "5", "--checkpoint", "/nonexistent-dir/x"]);
    assert_eq!(status, cli::EXIT_USAGE, "{err}");
    assert!(out.is_empty() && err.contains("cannot write checkpoints to /nonexistent-dir/x"));
    // --checkpoint-every means nothing without --checkpoint.
    let (status, _, err) = run(&["2pc", "5", "--checkpoint-every", "5"]);
    assert_eq!(status, cli::EXIT_USAGE, "{err}");
}

/// Ctrl-C with `--checkpoint` saves the level being expanded before the run stops, whatever
/// `--checkpoint-every` says (600 s here), and the saved run resumes to the whole run's counts.
#[test]
fn a_stop_request_saves_a_checkpoint_before_the_run_stops() {
    let path = scratch("stop-saves");
    // A fixed table: the growing one's birthday bound (2.9e-6 at 10 M states) would make the
    // resumed run partial (exit 4).
    let args = ["2pc", "9", "--threads", "1", "--fixed-table"];
    let mut command = modelcheck(&args);
    command.args(["--checkpoint", path.to_str().unwrap()]);
    let (child, lines) = spawn(&mut command, Stdio::piped());
    // Progress lines start after a second of search: the first one is the cue.
    let progressing = loop {
        match lines.recv_timeout(Duration::from_secs(120)) {
            Ok(line) if line.starts_with("depth ") => break true,
            Ok(_) => {}
            Err(_) => break false,
        }
    };
    assert!(progressing, "no progress line before the run ended");
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let output = child.wait_with_output().expect("the run ends");
    let report = String::from_utf8_lossy(&output.stdout);
    let notices: Vec<String> = lines.try_iter().collect();
    assert_eq!(
        output.status.code(),
        Some(cli::EXIT_INTERRUPTED),
        "{report}"
    );
    assert!(
        notices.iter().any(|l| l.starts_with("checkpoint: depth ")),
        "no checkpoint written: {notices:?}\n{report}"
    );
    let saved_depth = field(&report, "depth");
    let mut resume = args.to_vec();
    let p = path.to_str().unwrap();
    resume.extend(["--resume", p, "--quiet"]);
    let (status, resumed, err) = run(&resume);
    assert_eq!(status, cli::EXIT_OK, "{resumed}\n{err}");
    assert_eq!(resumed_from(&resumed), saved_depth, "{resumed}");
    assert_eq!(field(&resumed, "states"), 10_340_352, "{resumed}");
    assert_eq!(field(&resumed, "transitions"), 123_558_401, "{resumed}");
    let _ = std::fs::remove_file(&path);
}
