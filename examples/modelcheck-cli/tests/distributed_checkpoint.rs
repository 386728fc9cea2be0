//! Checkpoints of distributed runs: every process saves its part at one level (at --max-depth,
//! at an interrupt that reached one process only, before a SIGKILL), and `--local N --resume`
//! ends with the counts of an uninterrupted run; a corrupted, swapped or wrong-N part is a
//! clear error, and a missing or corrupted one exits 3; a part that cannot be written leaves
//! the previous checkpoint whole; a write longer than --peer-timeout is not a hang. And a
//! process stopped with SIGSTOP (of two or of three) ends the others with an error naming it.

mod common;

use common::cluster::{
    finish, modelcheck, process_args, run, signal, start_processes, Hostfile, Processes, DEADLINE,
    EXIT_ERROR, EXIT_OK, EXIT_USAGE,
};
use common::{field, resumed_from};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

const EXIT_INTERRUPTED: i32 = 5;

/// A fresh directory for the checkpoint of test `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("modelcheck-dist-checkpoints")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The file names in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the checkpoint directory")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// States, transitions and depth.
type Counts = (u64, u64, u64);

fn assert_counts(report: &str, (states, transitions, depth): Counts) {
    assert_eq!(field(report, "states"), states, "{report}");
    assert_eq!(field(report, "transitions"), transitions, "{report}");
    assert_eq!(field(report, "depth"), depth, "{report}");
}

/// A run stopped at a level (its --max-depth) and resumed to the end counts as an uninterrupted
/// one, with 2 and 3 processes; every process wrote its own part.
#[test]
fn resumed_at_a_level_counts_as_one() {
    let cases: [(&[&str], u64, Counts); 2] = [
        (&["2pc", "5"], 7, (8_832, 58_145, 16)),
        (&["puzzle", "3"], 12, (181_440, 483_840, 31)),
    ];
    for (model, stop_at, counts) in cases {
        for processes in ["2", "3"] {
            let dir = scratch(&format!("{}-{processes}", model[0]));
            let d = dir.to_str().unwrap();
            let max_depth = stop_at.to_string();
            let mut first = model.to_vec();
            first.extend(["--local", processes, "--quiet", "--memory", "4"]);
            first.extend(["--max-depth", &max_depth, "--checkpoint", d]);
            first.extend(["--checkpoint-every", "0"]);
            let (status, out, err) = run(&first);
            assert_eq!(status, EXIT_OK, "{out}{err}");
            assert_eq!(field(&out, "depth"), stop_at, "{out}");
            assert!(
                out.contains(&format!("the last at depth {stop_at}")),
                "{out}"
            );
            let n: usize = processes.parse().unwrap();
            let expected: Vec<String> = (0..n)
                .map(|i| format!("process-{i}-of-{n}.mcheckpt"))
                .collect();
            assert_eq!(files(&dir), expected);
            let mut resume = model.to_vec();
            resume.extend(["--local", processes, "--quiet", "--resume", d]);
            let (status, out, err) = run(&resume);
            assert_eq!(status, EXIT_OK, "{out}{err}");
            assert_eq!(resumed_from(&out), stop_at, "{out}");
            assert_counts(&out, counts);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Every mode, and several workers per process (a file per worker), resume to the same
/// counts; a counterexample past the checkpoint is rebuilt across the resumed link logs with
/// the uninterrupted run's length, and replayed.
#[test]
fn every_mode_workers_and_counterexamples_resume() {
    let runs: [(&[&str], &str, u64, Vec<&str>); 7] = [
        (
            &["--mode", "exact"],
            "2",
            7,
            vec!["process-0-of-2.mcheckpt", "process-1-of-2.mcheckpt"],
        ),
        (
            &["--mode", "fp32"],
            "2",
            7,
            vec!["process-0-of-2.mcheckpt", "process-1-of-2.mcheckpt"],
        ),
        (
            &["--mode", "bitstate"],
            "2",
            7,
            vec!["process-0-of-2.mcheckpt", "process-1-of-2.mcheckpt"],
        ),
        (
            &["--workers", "2"],
            "2",
            7,
            vec![
                "process-0-of-2-worker-0-of-2.mcheckpt",
                "process-0-of-2-worker-1-of-2.mcheckpt",
                "process-1-of-2-worker-0-of-2.mcheckpt",
                "process-1-of-2-worker-1-of-2.mcheckpt",
            ],
        ),
        (&["philosophers", "5"], "3", 3, vec![]),
        (&["buggy", "3"], "2", 2, vec![]),
        (&["--workers", "1"], "1", 9, vec!["process-0-of-1.mcheckpt"]),
    ];
    for (i, (extra, processes, stop_at, expected_files)) in runs.into_iter().enumerate() {
        let dir = scratch(&format!("modes-{i}"));
        let d = dir.to_str().unwrap();
        let (model, flags): (Vec<&str>, Vec<&str>) = if extra[0].starts_with("--") {
            (vec!["2pc", "5"], extra.to_vec())
        } else {
            (extra.to_vec(), Vec::new())
        };
        let max_depth = stop_at.to_string();
        let mut first = model.clone();
        first.extend(&flags);
        first.extend(["--local", processes, "--quiet", "--memory", "4"]);
        first.extend(["--max-depth", &max_depth, "--checkpoint", d]);
        let (_, out, err) = run(&first);
        assert!(
            out.contains(&format!("the last at depth {stop_at}")),
            "{first:?}: {out}{err}"
        );
        if !expected_files.is_empty() {
            assert_eq!(files(&dir), expected_files);
        }
        let mut resume = model.clone();
        resume.extend(&flags);
        resume.extend(["--local", processes, "--quiet", "--resume", d]);
        let (status, out, err) = run(&resume);
        assert_eq!(resumed_from(&out), stop_at, "{out}{err}");
        match model[0] {
            "philosophers" => {
                assert_eq!(status, 1, "{out}{err}");
                assert!(out.contains("result: Deadlock after 5 steps"), "{out}");
                assert!(out.contains("trace (replayed and checked):"), "{out}");
                assert!(out.contains("  5: "), "{out}");
            }
            "buggy" => {
                assert_eq!(status, 1, "{out}{err}");
                assert!(
                    out.contains("Invariant(\"MutualExclusion\") after 4 steps"),
                    "{out}"
                );
                assert!(out.contains("  4: "), "{out}");
            }
            _ => {
                assert!(status == EXIT_OK || status == 4, "{out}{err}");
                assert_counts(&out, (8_832, 58_145, 16));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A part that is corrupted, swapped with another, of another N, or of another size: an
/// error that says which, never a panic or a hang.
#[test]
fn bad_parts_are_clear_errors() {
    let dir = scratch("bad");
    let d = dir.to_str().unwrap();
    let args = [
        "2pc",
        "5",
        "--local",
        "2",
        "--quiet",
        "--memory",
        "1",
        "--max-depth",
        "6",
        "--checkpoint",
        d,
    ];
    let (status, out, err) = run(&args);
    assert_eq!(status, EXIT_OK, "{out}{err}");
    let resume = |n: &str, size: &str| {
        run(&[
            "2pc",
            size,
            "--local",
            n,
            "--quiet",
            "--connect-timeout",
            "2",
            "--resume",
            d,
        ])
    };
    // Another N: the parts it finds are named.
    let (status, _, err) = resume("3", "5");
    assert_eq!(status, EXIT_USAGE, "{err}");
    assert!(
        err.contains("process-0-of-3.mcheckpt") && err.contains("process-0-of-2.mcheckpt"),
        "{err}"
    );
    // Another size.
    let (status, _, err) = resume("2", "6");
    assert_eq!(status, EXIT_USAGE, "{err}");
    assert!(err.contains("it is of 2pc(rms=5)"), "{err}");
    // Two parts swapped: each header names its own process.
    let part = |i: usize| dir.join(format!("process-{i}-of-2.mcheckpt"));
    let (zero, one) = (
        std::fs::read(part(0)).unwrap(),
        std::fs::read(part(1)).unwrap(),
    );
    std::fs::write(part(0), &one).unwrap();
    std::fs::write(part(1), &zero).unwrap();
    let (status, _, err) = resume("2", "5");
    assert_eq!(status, EXIT_USAGE, "{err}");
    assert!(
        err.contains("it is the part of process 1 of 2, not of process 0 of 2"),
        "{err}"
    );
    // A byte flipped in the middle of process 1's part (its visited storage), and a part cut
    // short: a checkpoint that cannot be read.
    std::fs::write(part(0), &zero).unwrap();
    for bad in [
        {
            let mut bad = one.clone();
            let middle = bad.len() / 2;
            bad[middle] ^= 0x40;
            bad
        },
        one[..one.len() - 9].to_vec(),
    ] {
        std::fs::write(part(1), &bad).unwrap();
        let (status, _, err) = resume("2", "5");
        assert_eq!(status, EXIT_ERROR, "{err}");
        assert!(
            err.contains("cannot resume from") && err.contains("process-1-of-2.mcheckpt"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // Parts of two levels (a crash between two renames): the launcher's check refuses them,
    // and so do processes started by hand, in their handshake.
    let other = scratch("bad-other");
    let o = other.to_str().unwrap();
    let mut shallower = args.to_vec();
    shallower[8] = "5";
    shallower[10] = o;
    let (status, out, err) = run(&shallower);
    assert_eq!(status, EXIT_OK, "{out}{err}");
    std::fs::copy(other.join("process-1-of-2.mcheckpt"), part(1)).unwrap();
    let (status, _, err) = resume("2", "5");
    assert_eq!(status, EXIT_USAGE, "{err}");
    assert!(err.contains("are parts of different checkpoints"), "{err}");
    let hosts = Hostfile::new("ckpt-levels", 2);
    let by_hand = [
        "2pc",
        "5",
        "--quiet",
        "--connect-timeout",
        "20",
        "--resume",
        d,
    ];
    let mut processes = start_processes(&hosts, &by_hand);
    let deadline = Instant::now() + DEADLINE;
    for child in &mut processes.0 {
        let (status, out, err) = finish(child, deadline);
        assert_eq!(status, EXIT_USAGE, "{out}{err}");
        assert!(
            err.contains("resumed-depth=6") && err.contains("resumed-depth=5"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&other);
    // A missing part.
    std::fs::remove_file(part(1)).unwrap();
    let (status, _, err) = resume("2", "5");
    assert_eq!(status, EXIT_ERROR, "{err}");
    assert!(err.contains("has no process-1-of-2.mcheckpt"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines of `child`'s stderr, as they come.
fn stderr_lines(child: &mut std::process::Child) -> Receiver<String> {
    let stderr = child.stderr.take().expect("piped");
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// The processes of `hosts` (two or more) on 2PC-9, with `extra` flags.
fn two_pc_9(hosts: &Hostfile, extra: &[&str]) -> Processes {
    let mut args = vec!["2pc", "9", "--memory", "128"];
    args.extend(extra);
    start_processes(hosts, &args)
}

/// 2PC-9's counts, as one process finds them.
const TWO_PC_9: Counts = (10_340_352, 123_558_401, 28);

/// SIGINT to one process of two: both stop at the same level and save it; then both are
/// killed with SIGKILL after a later checkpoint; `--local 2 --resume` ends with the counts of
/// an uninterrupted run.
#[test]
fn interrupted_then_killed_then_resumed_counts_as_one() {
    let dir = scratch("interrupt");
    let d = dir.to_str().unwrap();
    let hosts = Hostfile::new("ckpt-interrupt", 2);
    let mut processes = two_pc_9(&hosts, &["--checkpoint", d]);
    let lines = stderr_lines(&mut processes.0[0]);
    // Process 0 prints a progress line once the search has run for a second: it is mid-run.
    let first = lines.recv_timeout(DEADLINE).expect("a progress line");
    assert!(first.starts_with("depth"), "{first}");
    signal(&processes.0[1], "INT");
    let deadline = Instant::now() + DEADLINE;
    let mut depths = Vec::new();
    for child in &mut processes.0 {
        let (status, out, err) = finish(child, deadline);
        assert_eq!(status, EXIT_INTERRUPTED, "{out}{err}");
        assert!(out.contains("interrupted"), "{out}");
        let depth = field(&out, "depth");
        assert!(
            out.contains(&format!("checkpoint: 1 written, the last at depth {depth}")),
            "{out}"
        );
        depths.push((depth, field(&out, "states")));
    }
    assert_eq!(depths[0], depths[1]);
    assert!(depths[0].1 < TWO_PC_9.0);
    assert_eq!(
        files(&dir),
        ["process-0-of-2.mcheckpt", "process-1-of-2.mcheckpt"]
    );
    drop(processes);

    // Resumed by hand, saving every level; both killed with SIGKILL once each has saved one.
    let hosts = Hostfile::new("ckpt-kill", 2);
    let extra = ["--resume", d, "--checkpoint", d, "--checkpoint-every", "0"];
    let mut processes = two_pc_9(&hosts, &extra);
    let streams: Vec<Receiver<String>> = processes.0.iter_mut().map(stderr_lines).collect();
    let end = Instant::now() + DEADLINE;
    let mut saved = [false, false];
    while saved.contains(&false) && Instant::now() < end {
        for (i, lines) in streams.iter().enumerate() {
            while let Ok(line) = lines.try_recv() {
                saved[i] |= line.starts_with("checkpoint: depth ");
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(saved, [true, true], "no checkpoint in time");
    for child in &mut processes.0 {
        let _ = child.kill(); // SIGKILL: no handler runs, nothing more is written
        let _ = child.wait();
    }
    drop(processes);
    let (status, out, err) = run(&["2pc", "9", "--local", "2", "--quiet", "--resume", d]);
    assert_eq!(status, EXIT_OK, "{out}{err}");
    assert!(resumed_from(&out) >= depths[0].0, "{out}");
    assert_counts(&out, TWO_PC_9);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A process stopped with SIGSTOP (alive, its sockets open, silent): the other ends with an
/// error that names it within its --peer-timeout, instead of waiting forever.
#[test]
fn a_stopped_process_is_named_after_the_peer_timeout() {
    let hosts = Hostfile::new("sigstop", 2);
    let mut processes = two_pc_9(&hosts, &["--peer-timeout", "3"]);
    let lines = stderr_lines(&mut processes.0[0]);
    let first = lines.recv_timeout(DEADLINE).expect("a progress line");
    assert!(first.starts_with("depth"), "{first}");
    signal(&processes.0[1], "STOP");
    let (status, out, _) = finish(&mut processes.0[0], Instant::now() + DEADLINE);
    let rest: Vec<String> = lines.iter().collect();
    let rest = rest.join("\n");
    signal(&processes.0[1], "CONT");
    assert_eq!(status, EXIT_ERROR, "{out}{rest}");
    assert!(
        rest.contains(&format!(
            "error: process 1 ({}) sent nothing for",
            hosts.addresses[1]
        )) && rest.contains("stopped or hung"),
        "{rest}"
    );
    assert!(!rest.contains("panicked"), "{rest}");
}

/// Under `--local`, a stopped process never ends by itself: once process 0 has ended with the
/// error naming it, the launcher kills it after its grace and names it, and ends.
#[test]
fn local_kills_a_stopped_process_after_the_others_failed() {
    let mut launcher = Processes(vec![modelcheck(&[
        "2pc",
        "9",
        "--local",
        "2",
        "--memory",
        "128",
        "--peer-timeout",
        "3",
    ])
    .spawn()
    .expect("start")]);
    let lines = stderr_lines(&mut launcher.0[0]);
    let first = lines.recv_timeout(DEADLINE).expect("a progress line");
    assert!(first.contains("depth"), "{first}");
    // The launcher's children, in the order it started them (process 0, then 1).
    let pid = launcher.0[0].id();
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .expect("the launcher's children");
    let children: Vec<&str> = children.split_whitespace().collect();
    assert_eq!(children.len(), 2, "{children:?}");
    let stop = |name: &str| {
        let status = std::process::Command::new("kill")
            .args([format!("-{name}"), children[1].to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
    };
    stop("STOP");
    let (status, out, _) = finish(&mut launcher.0[0], Instant::now() + DEADLINE);
    let rest: Vec<String> = lines.iter().collect();
    let rest = rest.join("\n");
    // Already killed by the launcher: this only matters if the test failed.
    let _ = std::process::Command::new("kill")
        .args(["-KILL", children[1]])
        .stderr(std::process::Stdio::null())
        .status();
    assert_eq!(status, EXIT_ERROR, "{out}{rest}");
    assert!(
        rest.contains("[process 0] error: process 1 (") && rest.contains("sent nothing for"),
        "{rest}"
    );
    assert!(
        rest.contains("--local: process 1 was still running"),
        "{rest}"
    );
}

/// Among three processes, one stopped with SIGSTOP: both others end by themselves within their
/// --peer-timeout, each with the error that names it, and only the stopped one is left (woken
/// and killed here).
#[test]
fn a_stopped_process_among_three_is_named_by_both_others() {
    let hosts = Hostfile::new("sigstop3", 3);
    let mut processes = two_pc_9(&hosts, &["--peer-timeout", "3"]);
    let lines = stderr_lines(&mut processes.0[0]);
    let first = lines.recv_timeout(DEADLINE).expect("a progress line");
    assert!(first.starts_with("depth"), "{first}");
    signal(&processes.0[1], "STOP");
    let deadline = Instant::now() + DEADLINE;
    let (status, out, _) = finish(&mut processes.0[0], deadline);
    let rest: Vec<String> = lines.iter().collect();
    let ended = [
        (status, out, rest.join("\n")),
        finish(&mut processes.0[2], deadline),
    ];
    let stopped_still_there = processes.0[1].try_wait().expect("wait").is_none();
    signal(&processes.0[1], "CONT");
    let _ = processes.0[1].kill();
    let _ = processes.0[1].wait();
    assert!(stopped_still_there, "the stopped process ended by itself");
    let named = format!("error: process 1 ({}) sent nothing for", hosts.addresses[1]);
    for (status, out, err) in ended {
        assert_eq!(status, EXIT_ERROR, "{out}{err}");
        assert!(
            err.contains(&named) && err.contains("stopped or hung"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A part that cannot be written (process 1 alone runs under `ulimit -f`, so its write fails
/// with "File too large"): every process removes its part of that level, the previous
/// checkpoint's parts are left byte for byte and resume to the uninterrupted counts, each
/// process warns on stderr and its report ends with the error, and the exit status is the
/// search's (0 at --max-depth).
#[test]
fn a_part_that_cannot_be_written_leaves_the_previous_checkpoint() {
    let dir = scratch("unwritable");
    let d = dir.to_str().unwrap();
    let first = [
        "2pc",
        "5",
        "--local",
        "2",
        "--quiet",
        "--memory",
        "1",
        "--max-depth",
        "6",
        "--checkpoint",
        d,
    ];
    let (status, out, err) = run(&first);
    assert_eq!(status, EXIT_OK, "{out}{err}");
    let names = ["process-0-of-2.mcheckpt", "process-1-of-2.mcheckpt"];
    assert_eq!(files(&dir), names);
    let before: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();

    // Resumed by hand and saved again at depth 8. The file size limit lets the start's check
    // (an empty `.tmp`) pass and fails the part's write; SIGXFSZ is ignored so that the write
    // returns the error instead of ending the process.
    let hosts = Hostfile::new("unwritable", 2);
    let args = [
        "2pc",
        "5",
        "--quiet",
        "--connect-timeout",
        "20",
        "--resume",
        d,
        "--checkpoint",
        d,
        "--max-depth",
        "8",
    ];
    let limited = |process: usize| {
        let mut command = std::process::Command::new("sh");
        command
            .args(["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\""])
            .arg(env!("CARGO_BIN_EXE_modelcheck"))
            .args(process_args(&hosts, process, &args))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        command
    };
    let mut processes = Processes(vec![
        modelcheck(
            &process_args(&hosts, 0, &args)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
        .spawn()
        .expect("start"),
        limited(1).spawn().expect("start"),
    ]);
    let deadline = Instant::now() + DEADLINE;
    let ended: Vec<_> = processes
        .0
        .iter_mut()
        .map(|c| finish(c, deadline))
        .collect();
    // No part of depth 8, written or temporary, and the depth-6 parts as they were.
    assert_eq!(files(&dir), names);
    for (name, bytes) in names.iter().zip(&before) {
        assert!(
            std::fs::read(dir.join(name)).unwrap() == *bytes,
            "{name} changed"
        );
    }
    let why = [
        "another worker's part could not be written",
        "process-1-of-2.mcheckpt.tmp: reading or writing a saved table failed: File too large",
    ];
    for ((status, out, err), why) in ended.iter().zip(why) {
        assert_eq!(*status, EXIT_OK, "{out}{err}");
        assert_eq!(field(out, "depth"), 8, "{out}");
        assert!(
            err.contains("warning: checkpoint of depth 8 not written: ") && err.contains(why),
            "{err}"
        );
        assert!(
            out.contains(&format!(
                "checkpoint: none written (see the error below); what {d} held before is left \
                 as it was"
            )) && out.contains("checkpoint error: ")
                && out.contains(why),
            "{out}"
        );
    }
    let (status, out, err) = run(&["2pc", "5", "--local", "2", "--quiet", "--resume", d]);
    assert_eq!(status, EXIT_OK, "{out}{err}");
    assert_eq!(resumed_from(&out), 6, "{out}");
    assert_counts(&out, (8_832, 58_145, 16));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The write times, in seconds, of every process's part of `level` in a `--local` run's stderr.
fn write_times(stderr: &str, level: u64) -> Vec<f64> {
    stderr
        .lines()
        .filter(|l| l.contains(&format!("] checkpoint: depth {level} (")))
        .filter_map(|l| l.rsplit(" in ").next()?.strip_suffix(" s")?.parse().ok())
        .collect()
}

/// A checkpoint write that takes longer than --peer-timeout on every process (a large table
/// each, written and fsynced at once) is not taken for a hung peer: while a process waits for
/// the others' parts it allows four times its own write time more. Without that grace the
/// process that finished first would name the other "stopped or hung".
///
/// The write time is the disk's: the run is repeated with a larger table until every write
/// outlasts the timeout, so that the grace is needed (on this project's machine 256 MiB takes
/// about 2.7 s).
#[test]
fn a_checkpoint_write_longer_than_the_peer_timeout_is_not_a_hang() {
    for memory in ["256", "1024"] {
        let dir = scratch(&format!("slow-write-{memory}"));
        let d = dir.to_str().unwrap();
        let args = [
            "2pc",
            "5",
            "--local",
            "2",
            "--quiet",
            "--memory",
            memory,
            "--peer-timeout",
            "1",
            "--max-depth",
            "3",
            "--checkpoint",
            d,
        ];
        let (status, out, err) = run(&args);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(status, EXIT_OK, "{out}{err}");
        assert!(
            out.contains("checkpoint: 1 written, the last at depth 3"),
            "{out}"
        );
        let took = write_times(&err, 3);
        assert_eq!(took.len(), 2, "{err}");
        if took.iter().all(|&t| t > 1.0) {
            return;
        }
    }
    panic!("every checkpoint write took under the 1 s timeout even with 1 GiB: the grace was not needed");
}

/// A missing or corrupted part is an error (exit 3, as an unreadable single-process
/// checkpoint), not a usage error, also for processes started by hand: the process whose part
/// it is names the file, and the other, which then cannot reach it, ends by itself naming it.
#[test]
fn a_bad_part_by_hand_exits_3() {
    let dir = scratch("bad-by-hand");
    let d = dir.to_str().unwrap();
    let args = [
        "2pc",
        "5",
        "--local",
        "2",
        "--quiet",
        "--memory",
        "1",
        "--max-depth",
        "4",
        "--checkpoint",
        d,
    ];
    let (status, out, err) = run(&args);
    assert_eq!(status, EXIT_OK, "{out}{err}");
    let part = dir.join("process-1-of-2.mcheckpt");
    let good = std::fs::read(&part).unwrap();
    // A byte of the header (after the 8-byte magic and the 4-byte version).
    let mut flipped = good.clone();
    flipped[20] ^= 0x01;
    for (case, bytes) in [("a corrupted header", Some(flipped)), ("missing", None)] {
        match bytes {
            Some(bytes) => std::fs::write(&part, bytes).unwrap(),
            None => std::fs::remove_file(&part).unwrap(),
        }
        let hosts = Hostfile::new("bad-by-hand", 2);
        let by_hand = [
            "2pc",
            "5",
            "--quiet",
            "--connect-timeout",
            "2",
            "--resume",
            d,
        ];
        let mut processes = start_processes(&hosts, &by_hand);
        let deadline = Instant::now() + DEADLINE;
        let (status, out, err) = finish(&mut processes.0[1], deadline);
        assert_eq!(status, EXIT_ERROR, "{case}: {out}{err}");
        assert!(
            err.starts_with("error: cannot resume") && err.contains("process-1-of-2.mcheckpt"),
            "{case}: {err}"
        );
        let (status, out, err) = finish(&mut processes.0[0], deadline);
        assert_eq!(status, EXIT_ERROR, "{case}: {out}{err}");
        assert!(
            err.contains(&format!("process 1 ({})", hosts.addresses[1])),
            "{case}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
