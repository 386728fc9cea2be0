//! The distributed checker as users run it: `--local N`, processes started by hand with a
//! hostfile on free loopback ports, and a process killed mid-run. Every child has a deadline
//! and is killed when its test ends.

mod common;

use common::cluster::{
    finish, modelcheck, run, signal, start_processes, Hostfile, Processes, DEADLINE,
    EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_OK, EXIT_USAGE,
};
use common::field;
use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

/// Done-when: `modelcheck 2pc 5 --local 2` reports 8,832 states and 58,145 transitions.
#[test]
fn local_2pc_5_counts_as_one() {
    for processes in ["2", "3"] {
        let (status, out, err) = run(&["2pc", "5", "--local", processes, "--quiet"]);
        assert_eq!(status, EXIT_OK, "{out}{err}");
        assert_eq!(field(&out, "states"), 8_832, "{out}");
        assert_eq!(field(&out, "transitions"), 58_145, "{out}");
        assert!(
            out.contains(&format!("cluster: {processes} processes")),
            "{out}"
        );
        assert!(out.contains("partition skew"), "{out}");
    }
}

/// A full set on the processes of `--local`: each stops, and the report gives the `--memory` to
/// run with (the library's numbers in the binary's words).
#[test]
fn a_full_table_under_local_gives_the_memory_to_use() {
    let (status, out, err) = run(&["puzzle", "3", "--local", "2", "--memory", "16K", "--quiet"]);
    assert_eq!(status, EXIT_ERROR, "{out}{err}");
    let result = out
        .lines()
        .find(|l| l.starts_with("result: error: the visited-state set is full"))
        .unwrap_or_else(|| panic!("no full table:\n{out}"));
    assert!(
        result.contains("in --memory 16K. Run again with --memory 41K or more (an estimate: "),
        "{result}"
    );
}

/// `--sent-filter` sizes each worker's filter of successors sent, and changes no count.
#[test]
fn sent_filter_sizes_count_as_one() {
    for slots in ["0", "1", "4096"] {
        let args = [
            "2pc",
            "5",
            "--local",
            "2",
            "--sent-filter",
            slots,
            "--quiet",
        ];
        let (status, out, err) = run(&args);
        assert_eq!(status, EXIT_OK, "{out}{err}");
        assert_eq!(field(&out, "states"), 8_832, "{out}");
        assert_eq!(field(&out, "transitions"), 58_145, "{out}");
        assert!(out.contains("dropped as sent before"), "{out}");
    }
}

/// Done-when: `modelcheck philosophers 5 --local 3` reports the deadlock with a checked 5-step
/// trace.
#[test]
fn local_philosophers_5_deadlock_trace() {
    let (status, out, err) = run(&["philosophers", "5", "--local", "3", "--quiet"]);
    assert_eq!(status, EXIT_COUNTEREXAMPLE, "{out}{err}");
    assert!(out.contains("result: Deadlock after 5 steps"), "{out}");
    assert!(out.contains("trace (replayed and checked):"), "{out}");
    assert!(out.contains("  5: "), "{out}");
}

/// Processes started by hand, with a hostfile: one of them 2 workers' worth of timely
/// configuration each.
#[test]
fn processes_with_a_hostfile_count_as_one() {
    let hosts = Hostfile::new("counts", 2);
    let mut processes = Processes(Vec::new());
    for process in ["0", "1"] {
        let args = [
            "puzzle",
            "3",
            "--processes",
            "2",
            "--process",
            process,
            "--hostfile",
            hosts.path(),
            "--workers",
            "2",
            "--quiet",
            "--memory",
            "16",
        ];
        processes.0.push(modelcheck(&args).spawn().expect("start"));
    }
    let deadline = Instant::now() + DEADLINE;
    for child in &mut processes.0 {
        let (status, out, err) = finish(child, deadline);
        assert_eq!(status, EXIT_OK, "{out}{err}");
        assert_eq!(field(&out, "states"), 181_440, "{out}");
        assert_eq!(field(&out, "transitions"), 483_840, "{out}");
        assert_eq!(field(&out, "depth"), 31, "{out}");
    }
}

/// Killing one of three processes mid-run ends the other two with an error that names it.
#[test]
fn a_killed_process_stops_the_others_with_its_name() {
    let hosts = Hostfile::new("kill", 3);
    let mut processes = start_processes(&hosts, &["2pc", "9", "--memory", "128"]);
    // Process 0 prints a progress line once the search has run for a second: it is mid-run.
    let stderr = processes.0[0].stderr.take().expect("piped");
    let mut lines = BufReader::new(stderr).lines();
    let first = lines.next().expect("a progress line").expect("UTF-8");
    assert!(first.starts_with("depth"), "{first}");
    processes.0[2].kill().expect("kill process 2");
    let deadline = Instant::now() + Duration::from_secs(60);
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let (status, out, _) = finish(&mut processes.0[0], deadline);
    let rest = rest.join().expect("stderr").join("\n");
    println!("process 0: {rest}");
    assert_eq!(status, EXIT_ERROR, "{out}{rest}");
    assert!(
        rest.contains(&format!("error: process 2 ({})", hosts.addresses[2])),
        "{rest}"
    );
    let (status, out, err) = finish(&mut processes.0[1], deadline);
    assert_eq!(status, EXIT_ERROR, "{out}{err}");
    assert!(
        err.contains(&format!("error: process 2 ({})", hosts.addresses[2])),
        "{err}"
    );
    assert!(
        !err.contains("panicked") && !rest.contains("panicked"),
        "{err}"
    );
    println!("process 1: {err}");
}

#[test]
fn bad_distribution_flags_are_usage_errors() {
    let hosts = Hostfile::new("usage", 2);
    let inside_a_file = format!("{}/checkpoints", hosts.path());
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "2pc",
                "--processes",
                "2",
                "--process",
                "2",
                "--hostfile",
                hosts.path(),
            ],
            "--process 2 is out of range",
        ),
        (
            &[
                "2pc",
                "--processes",
                "3",
                "--process",
                "0",
                "--hostfile",
                hosts.path(),
            ],
            "lists 2 addresses; --processes is 3",
        ),
        (
            &[
                "2pc",
                "--processes",
                "2",
                "--process",
                "0",
                "--hostfile",
                "/nonexistent/hosts",
            ],
            "cannot read the hostfile",
        ),
        (&["2pc", "--processes", "2", "--process", "0"], "--hostfile"),
        (
            &["2pc", "--local", "2", "--threads", "2"],
            "cannot be used with",
        ),
        (&["2pc", "--local", "0"], "takes 1 to 1024 processes"),
        (&["2pc", "--workers", "0"], "takes 1 to 1024 workers"),
        (
            &["2pc", "--local", "2", "--sent-filter", "lots"],
            "takes 0 to 268435456 slots",
        ),
        (
            // A directory inside a file cannot be made.
            &["2pc", "--local", "2", "--checkpoint", &inside_a_file],
            "cannot write checkpoints to",
        ),
        (
            &["2pc", "--peer-timeout", "5"],
            "apply to distributed runs only",
        ),
        (
            &["2pc", "--local", "2", "--peer-timeout", "0"],
            "--peer-timeout",
        ),
        (
            &["2pc", "--sent-filter", "16"],
            "apply to distributed runs only",
        ),
        (
            &["2pc", "--connect-timeout", "5"],
            "apply to distributed runs only",
        ),
    ];
    for (args, message) in cases {
        let (status, out, err) = run(args);
        assert_eq!(status, EXIT_USAGE, "{args:?}:\n{out}{err}");
        assert!(
            err.contains(message),
            "{args:?}: expected `{message}` in:\n{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Processes started with a different N, or a different model size, refuse each other.
#[test]
fn processes_that_disagree_are_usage_errors() {
    let hosts = Hostfile::new("disagree", 2);
    for (first, second, message) in [
        (
            ["2pc", "4"],
            ["2pc", "5"],
            "every process needs the same model",
        ),
        (
            ["2pc", "4"],
            ["philosophers", "4"],
            "every process needs the same model",
        ),
    ] {
        let mut processes = Processes(Vec::new());
        for (process, model) in [("0", first), ("1", second)] {
            let args = [
                model[0],
                model[1],
                "--processes",
                "2",
                "--process",
                process,
                "--hostfile",
                hosts.path(),
                "--quiet",
                "--memory",
                "8",
            ];
            processes.0.push(modelcheck(&args).spawn().expect("start"));
        }
        let deadline = Instant::now() + DEADLINE;
        for child in &mut processes.0 {
            let (status, out, err) = finish(child, deadline);
            assert_eq!(status, EXIT_USAGE, "{out}{err}");
            assert!(err.contains(message), "{err}");
        }
    }
    // Another N: the three-process hostfile's first two addresses are the two-process one's.
    let three = Hostfile::new("disagree3", 3);
    std::fs::write(
        &hosts.path,
        format!("{}\n{}\n", three.addresses[0], three.addresses[1]),
    )
    .unwrap();
    let mut processes = Processes(Vec::new());
    for (n, file, process) in [("3", three.path(), "0"), ("2", hosts.path(), "1")] {
        let args = [
            "2pc",
            "4",
            "--processes",
            n,
            "--process",
            process,
            "--hostfile",
            file,
            "--quiet",
            "--memory",
            "8",
            "--connect-timeout",
            "10",
        ];
        processes.0.push(modelcheck(&args).spawn().expect("start"));
    }
    let deadline = Instant::now() + DEADLINE;
    for child in &mut processes.0 {
        let (status, out, err) = finish(child, deadline);
        assert_eq!(status, EXIT_USAGE, "{out}{err}");
        assert!(err.contains("was started with --processes"), "{err}");
    }
}

/// A peer that never starts is named after --connect-timeout, instead of a wait forever.
#[test]
fn an_unreachable_peer_is_an_error_naming_it() {
    let hosts = Hostfile::new("unreachable", 2);
    let args = [
        "2pc",
        "3",
        "--processes",
        "2",
        "--process",
        "1",
        "--hostfile",
        hosts.path(),
        "--connect-timeout",
        "1",
    ];
    let (status, out, err) = run(&args);
    assert_eq!(status, EXIT_ERROR, "{out}{err}");
    assert!(
        err.contains(&format!(
            "error: process 0 ({}) could not be reached within 1 s",
            hosts.addresses[0]
        )),
        "{err}"
    );
}

#[test]
fn help_documents_the_distribution_flags() {
    let (status, out, _) = run(&["--help"]);
    assert_eq!(status, EXIT_OK);
    for flag in [
        "--processes",
        "--process",
        "--hostfile",
        "--workers",
        "--local",
        "--connect-timeout",
        "--sent-filter",
        "--peer-timeout",
        "process-I-of-N.mcheckpt",
        "timely's -n",
    ] {
        assert!(out.contains(flag), "{flag} in:\n{out}");
    }
}

/// SIGINT to every process mid-run: each stops at a level boundary with the interrupted report
/// of the whole run (exit 5), and they agree on it.
#[test]
fn an_interrupt_reports_every_process() {
    let hosts = Hostfile::new("interrupt", 2);
    let mut processes = start_processes(&hosts, &["2pc", "9", "--memory", "128"]);
    let stderr = processes.0[0].stderr.take().expect("piped");
    let mut lines = BufReader::new(stderr).lines();
    let first = lines.next().expect("a progress line").expect("UTF-8");
    assert!(first.starts_with("depth"), "{first}");
    let drain = std::thread::spawn(move || lines.map_while(Result::ok).count());
    for child in &processes.0 {
        signal(child, "INT");
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut reports = Vec::new();
    for child in &mut processes.0 {
        let (status, out, err) = finish(child, deadline);
        assert_eq!(status, 5, "{out}{err}");
        assert!(out.contains("interrupted"), "{out}");
        reports.push((field(&out, "states"), field(&out, "depth")));
    }
    drain.join().unwrap();
    assert_eq!(reports[0], reports[1]);
    assert!(reports[0].0 < 10_340_352);
}

/// SIGTERM to a `--local` launcher reaches its processes, and so does a terminal's Ctrl-C
/// (SIGINT to the launcher's whole process group), which reaches them once: one interrupted
/// report, exit 5.
#[test]
fn local_passes_an_interrupt_on() {
    for to_the_group in [false, true] {
        let mut command = modelcheck(&["2pc", "9", "--local", "2", "--memory", "128"]);
        // A terminal's foreground group of its own, as a shell gives the launcher.
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut processes = Processes(vec![command.spawn().expect("start")]);
        let stderr = processes.0[0].stderr.take().expect("piped");
        let mut lines = BufReader::new(stderr).lines();
        let first = lines.next().expect("a progress line").expect("UTF-8");
        assert!(first.contains("depth"), "{first}");
        let drain = std::thread::spawn(move || lines.map_while(Result::ok).count());
        if to_the_group {
            let group = format!("-{}", processes.0[0].id());
            let status = std::process::Command::new("kill")
                .args(["-INT", "--", &group])
                .status()
                .expect("kill");
            assert!(status.success());
        } else {
            signal(&processes.0[0], "TERM");
        }
        let (status, out, err) = finish(
            &mut processes.0[0],
            Instant::now() + Duration::from_secs(60),
        );
        drain.join().unwrap();
        assert_eq!(status, 5, "group {to_the_group}: {out}{err}");
        assert!(
            out.contains("interrupted") && out.contains("cluster: 2 processes"),
            "group {to_the_group}: {out}"
        );
    }
}
