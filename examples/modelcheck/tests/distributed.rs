//! The distributed checker through the library: N "processes" as N threads of this test, each a
//! timely cluster member on its own loopback port, against the single-process checker.

use modelcheck::distributed::{check, Cluster, ClusterError, DistributedReport};
use modelcheck::models::two_phase::TwoPhase;
use modelcheck::models::{buggy_lock::BuggyLock, philosophers::Philosophers, puzzle::Puzzle};
use modelcheck::{Mode, Model, Options, Verdict};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::net::TcpListener;
use std::time::Duration;

/// `n` loopback addresses on ports the OS just handed out (free a moment ago).
fn free_addresses(n: usize) -> Vec<String> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().expect("bound").to_string())
        .collect()
}

fn options(deadlock: bool) -> Options {
    Options {
        deadlock,
        progress: false,
        memory_bytes: 8 << 20,
        ..Options::default()
    }
}

/// Runs `processes` cluster members with `workers` workers each, one thread per member.
fn run_cluster<M>(
    make: impl Fn() -> M,
    options: &Options,
    processes: usize,
    workers: usize,
) -> Vec<Result<DistributedReport<M>, ClusterError>>
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let addresses = free_addresses(processes);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..processes)
            .map(|process| {
                let cluster = Cluster {
                    addresses: addresses.clone(),
                    process,
                    workers,
                    connect_timeout: Duration::from_secs(20),
                };
                let model = make();
                scope.spawn(move || check(model, options, &cluster))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    })
}

fn counts<M: Model>(report: &DistributedReport<M>) -> (u64, u64, usize) {
    let s = &report.report.stats;
    (s.states, s.transitions, s.depth)
}

/// The single-process run's counts.
fn single<M: Model>(model: &M, options: &Options) -> (u64, u64, usize) {
    let report = modelcheck::check(
        model,
        &Options {
            threads: 1,
            ..options.clone()
        },
    );
    assert!(matches!(report.verdict, Verdict::Complete));
    (
        report.stats.states,
        report.stats.transitions,
        report.stats.depth,
    )
}

/// Every member's report equals the single-process counts, and the processes' shares add up.
fn assert_counts_as_one<M>(make: impl Fn() -> M, options: &Options, expected: (u64, u64))
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let one = single(&make(), options);
    assert_eq!((one.0, one.1), expected);
    for (processes, workers) in [(2, 1), (3, 1), (2, 2)] {
        let reports = run_cluster(&make, options, processes, workers);
        assert_eq!(reports.len(), processes);
        for r in &reports {
            let r = r.as_ref().expect("a report");
            let name = make().name();
            assert!(
                matches!(r.report.verdict, Verdict::Complete),
                "{name} {processes}x{workers}"
            );
            assert_eq!(counts(r), one, "{name} {processes}x{workers}");
            assert_eq!(r.processes.len(), processes);
            assert_eq!(r.processes.iter().map(|p| p.states).sum::<u64>(), one.0);
            assert_eq!(
                r.processes.iter().map(|p| p.transitions).sum::<u64>(),
                one.1
            );
            // Every process owns some states and talked to its peers.
            for p in &r.processes {
                assert!(
                    p.states > 0 && p.bytes_sent > 0 && p.bytes_received > 0,
                    "{p:?}"
                );
            }
        }
    }
}

#[test]
fn two_phase_commit_5_counts_as_one() {
    assert_counts_as_one(
        || TwoPhase::new(5).unwrap(),
        &options(true),
        (8_832, 58_145),
    );
}

#[test]
fn philosophers_10_without_deadlock_counts_as_one() {
    assert_counts_as_one(
        || Philosophers::new(10).unwrap(),
        &options(false),
        (6_726, 43_480),
    );
}

#[test]
fn eight_puzzle_counts_as_one() {
    assert_counts_as_one(
        || Puzzle::new(3).unwrap(),
        &options(true),
        (181_440, 483_840),
    );
}

/// Every mode stores the owner's states in its own set: the same counts in each.
#[test]
fn every_mode_counts_as_one() {
    for mode in [Mode::Fp64, Mode::Fp32, Mode::Bitstate, Mode::Exact] {
        let options = Options {
            mode,
            ..options(true)
        };
        let reports = run_cluster(|| TwoPhase::new(5).unwrap(), &options, 2, 1);
        for r in reports {
            let r = r.expect("a report");
            assert_eq!(
                (r.report.stats.states, r.report.stats.transitions),
                (8_832, 58_145),
                "{mode:?}"
            );
            assert_eq!(r.report.storage.as_ref().map(|s| s.mode), Some(mode));
        }
    }
}

/// The trace every member returns: replayed, of the single-process length.
fn assert_same_trace<M>(make: impl Fn() -> M, options: &Options, steps: usize)
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let one = modelcheck::check(
        &make(),
        &Options {
            threads: 1,
            ..options.clone()
        },
    );
    let Verdict::Counterexample(trace) = &one.verdict else {
        panic!("no counterexample")
    };
    assert_eq!(trace.steps.len(), steps);
    for (processes, workers) in [(2, 1), (3, 1)] {
        for r in run_cluster(&make, options, processes, workers) {
            let r = r.expect("a report");
            let Verdict::Counterexample(found) = &r.report.verdict else {
                panic!("{processes} processes: no counterexample");
            };
            assert_eq!(found.steps.len(), steps);
            assert_eq!(found.failure, trace.failure);
            // `replay` checked it already; check again from the outside.
            let mut state = found.initial.clone();
            assert!(make().initial_states().contains(&state));
            for (_, next) in &found.steps {
                let mut out = Vec::new();
                make().successors(&state, &mut out);
                assert!(out.iter().any(|(_, s)| s == next), "not a step");
                state = next.clone();
            }
        }
    }
}

#[test]
fn philosophers_5_deadlock_has_the_single_process_trace_length() {
    assert_same_trace(|| Philosophers::new(5).unwrap(), &options(true), 5);
}

#[test]
fn buggy_lock_violation_has_the_single_process_trace_length() {
    assert_same_trace(|| BuggyLock::new(3).unwrap(), &options(true), 4);
}

/// A full set on any process stops every process with the `--memory` to use.
#[test]
fn a_full_table_stops_every_process() {
    let options = Options {
        memory_bytes: 16 << 10,
        ..options(true)
    };
    for r in run_cluster(|| Puzzle::new(3).unwrap(), &options, 2, 1) {
        let r = r.expect("a report");
        let Verdict::Full(full) = &r.report.verdict else {
            panic!("not full")
        };
        // Each process had 16 KiB; twice that is the advice.
        assert_eq!(full.memory_bytes, 16 << 10);
        assert!(full.to_string().contains("--memory 32K"), "{full}");
        // Whole levels only, and the same count on every process.
        assert_eq!(full.states, r.report.stats.states);
        assert!(r.report.stats.states < 181_440);
    }
}

/// Processes that disagree on the model size refuse each other with a usage error.
#[test]
fn different_sizes_are_a_usage_error() {
    let addresses = free_addresses(2);
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|process| {
                let cluster = Cluster {
                    addresses: addresses.clone(),
                    process,
                    workers: 1,
                    connect_timeout: Duration::from_secs(20),
                };
                scope.spawn(move || {
                    check(
                        TwoPhase::new(4 + process).unwrap(),
                        &options(true),
                        &cluster,
                    )
                    .err()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    for error in results {
        let Some(ClusterError::Usage(message)) = error else {
            panic!("{error:?}")
        };
        assert!(
            message.contains("2pc(rms=4)") && message.contains("2pc(rms=5)"),
            "{message}"
        );
    }
}

/// A peer that never starts: the error names it after the timeout, instead of a wait forever.
#[test]
fn an_unreachable_peer_is_named_after_the_timeout() {
    let addresses = free_addresses(2);
    for process in 0..2 {
        let cluster = Cluster {
            addresses: addresses.clone(),
            process,
            workers: 1,
            connect_timeout: Duration::from_millis(500),
        };
        let error = check(TwoPhase::new(3).unwrap(), &options(true), &cluster).err();
        let Some(ClusterError::Peer {
            process: peer,
            address,
            ..
        }) = error
        else {
            panic!("{error:?}")
        };
        assert_eq!(peer, 1 - process);
        assert_eq!(address, addresses[1 - process]);
    }
}

#[test]
fn bad_clusters_are_usage_errors() {
    let two = free_addresses(2);
    let cases = [
        (two.clone(), 2, 1, "--process 2 is out of range"),
        (two.clone(), 0, 0, "workers must number"),
        (vec![two[0].clone(), two[0].clone()], 0, 1, "listed twice"),
        (
            vec![two[0].clone(), "nowhere".into()],
            0,
            1,
            "not host:port",
        ),
        (Vec::new(), 0, 1, "at least one process"),
    ];
    for (addresses, process, workers, message) in cases {
        let cluster = Cluster {
            addresses,
            process,
            workers,
            connect_timeout: Duration::from_secs(1),
        };
        let error = check(TwoPhase::new(3).unwrap(), &options(true), &cluster).err();
        let Some(ClusterError::Usage(text)) = &error else {
            panic!("{error:?}")
        };
        assert!(text.contains(message), "{text}");
    }
}
