//! The distributed checker through the library: N "processes" as N threads of this test, each a
//! timely cluster member on its own loopback port, against the single-process checker.

use modelcheck::distributed::{
    check, Cluster, ClusterError, DistributedReport, Misconfiguration, DEFAULT_PEER_TIMEOUT,
    DEFAULT_SENT_FILTER, MAX_SENT_FILTER_SLOTS,
};
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
        reporter: None,
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
    run_cluster_filtered(make, options, processes, workers, DEFAULT_SENT_FILTER)
}

/// [`run_cluster`] with filters of `sent_filter` slots.
fn run_cluster_filtered<M>(
    make: impl Fn() -> M,
    options: &Options,
    processes: usize,
    workers: usize,
    sent_filter: usize,
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
                    sent_filter,
                    peer_timeout: DEFAULT_PEER_TIMEOUT,
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

/// Filters from off to one slot (every successor evicts the last, and equal neighbours are
/// dropped) to large: the counts stay the single process's in every mode, 2 processes and 2
/// workers. A filter that dropped a successor on less than its full key (or, in the exact
/// mode, its state) would drop new states here.
#[test]
fn sent_filters_of_every_size_count_as_one_in_every_mode() {
    let one = single(&TwoPhase::new(5).unwrap(), &options(true));
    assert_eq!((one.0, one.1), (8_832, 58_145));
    for mode in [Mode::Fp64, Mode::Fp32, Mode::Bitstate, Mode::Exact] {
        let options = Options {
            mode,
            ..options(true)
        };
        let mut remote = None;
        for slots in [0, 1, 2, 3, 64, 1 << 12, 1 << 20] {
            for (processes, workers) in [(2, 1), (1, 2), (2, 2)] {
                let reports = run_cluster_filtered(
                    || TwoPhase::new(5).unwrap(),
                    &options,
                    processes,
                    workers,
                    slots,
                );
                for r in reports {
                    let r = r.expect("a report");
                    let at = format!("{mode:?}, {slots} slots, {processes}x{workers}");
                    assert!(matches!(r.report.verdict, Verdict::Complete), "{at}");
                    assert_eq!(counts(&r), one, "{at}");
                    let sent: u64 = r.processes.iter().map(|p| p.successors_sent).sum();
                    let dropped: u64 = r.processes.iter().map(|p| p.successors_dropped).sum();
                    if slots == 0 {
                        assert_eq!(dropped, 0, "{at}");
                    }
                    if slots >= 64 {
                        assert!(dropped > 0, "{at}");
                    }
                    // Sent or dropped: every successor of another worker's, however the
                    // filter is sized (the 2x1 and 1x2 clusters both have 2 workers).
                    if workers * processes == 2 {
                        assert_eq!(
                            *remote.get_or_insert(sent + dropped),
                            sent + dropped,
                            "{at}"
                        );
                    }
                }
            }
        }
    }
}

/// The TLC figure of a run over `workers` owners, computed here from the state space: each
/// owner's states, and the successors (and initial states) it owns, which it looks up.
fn expected_tlc_figure<M>(model: &M, workers: usize) -> f64
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    let mut buffer = Vec::new();
    let mut owner = |state: &M::State| {
        modelcheck::distributed::portable_key(state, &mut buffer)
            .expect("serializable")
            .owner(workers)
    };
    let mut stored = vec![0u64; workers];
    let mut looked_up = vec![0u64; workers];
    let mut seen = std::collections::HashSet::new();
    let mut frontier = Vec::new();
    for state in model.initial_states() {
        looked_up[owner(&state)] += 1;
        if seen.insert(state.clone()) {
            stored[owner(&state)] += 1;
            frontier.push(state);
        }
    }
    let mut out = Vec::new();
    while let Some(state) = frontier.pop() {
        out.clear();
        model.successors(&state, &mut out);
        for (_, next) in out.drain(..) {
            looked_up[owner(&next)] += 1;
            if seen.insert(next.clone()) {
                stored[owner(&next)] += 1;
                frontier.push(next);
            }
        }
    }
    (0..workers)
        .map(|w| searchcache::omission::tlc_optimistic(stored[w], looked_up[w]))
        .sum()
}

/// Every successor counts as looked up by its owner, also those not sent (a filter's drops,
/// steps back to the state itself), as in one process: the TLC figure is that of the state
/// space, whatever the filter.
#[test]
fn the_tlc_figure_counts_every_successor_once() {
    let expected = expected_tlc_figure(&TwoPhase::new(5).unwrap(), 2);
    assert!(expected > 0.0);
    for slots in [0, 1, DEFAULT_SENT_FILTER] {
        for (processes, workers) in [(2, 1), (1, 2)] {
            let reports = run_cluster_filtered(
                || TwoPhase::new(5).unwrap(),
                &options(true),
                processes,
                workers,
                slots,
            );
            let r = reports.into_iter().next().unwrap().expect("a report");
            let figure = r.report.storage.and_then(|s| s.tlc_optimistic);
            assert_eq!(
                figure,
                Some(expected),
                "{slots} slots, {processes}x{workers}"
            );
        }
    }
}

/// A tiny filter and a large one find the single process's traces.
#[test]
fn sent_filters_keep_the_traces() {
    for slots in [1, 3, 1 << 16] {
        for_each_trace_case(|| Philosophers::new(5).unwrap(), 5, slots);
        for_each_trace_case(|| BuggyLock::new(3).unwrap(), 4, slots);
    }
}

fn for_each_trace_case<M>(make: impl Fn() -> M, steps: usize, slots: usize)
where
    M: Model,
    M::State: Serialize + DeserializeOwned,
{
    for r in run_cluster_filtered(&make, &options(true), 2, 1, slots) {
        let r = r.expect("a report");
        let Verdict::Counterexample(found) = &r.report.verdict else {
            panic!("{slots} slots: no counterexample");
        };
        assert_eq!(found.steps.len(), steps, "{slots} slots");
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

/// A full set on any process stops every process with the bytes to use.
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
        // Each process had 16 KiB; the estimate from levels 11 to 13 (the binary says
        // `--memory 41K`: modelcheck-cli's tests/distributed_cli.rs).
        assert_eq!(full.memory_bytes, 16 << 10);
        assert_eq!(full.last_widths, [396, 748, 1024]);
        assert_eq!(full.bytes_needed(), 41 << 10);
        assert!(
            full.to_string().contains("41984 bytes are needed"),
            "{full}"
        );
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
                    sent_filter: DEFAULT_SENT_FILTER,
                    peer_timeout: DEFAULT_PEER_TIMEOUT,
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
            sent_filter: DEFAULT_SENT_FILTER,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
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

/// Bad clusters are usage errors, in words that name no flag of the binary; those about a
/// number the caller set come as numbers ([`Misconfiguration`]).
#[test]
fn bad_clusters_are_usage_errors() {
    let two = free_addresses(2);
    let cases = [
        (two.clone(), 2, 1, "out of range"),
        (two.clone(), 0, 0, "workers must number"),
        (vec![two[0].clone(), two[0].clone()], 0, 1, "listed twice"),
        (
            vec![two[0].clone(), "nowhere".into()],
            0,
            1,
            "not host:port",
        ),
        (Vec::new(), 0, 1, "at least one process"),
        (two.clone(), 0, 1, "sent filter"),
    ];
    for (addresses, process, workers, message) in cases {
        let sent_filter = if message == "sent filter" {
            modelcheck::distributed::MAX_SENT_FILTER_SLOTS + 1
        } else {
            DEFAULT_SENT_FILTER
        };
        let cluster = Cluster {
            addresses,
            process,
            workers,
            connect_timeout: Duration::from_secs(1),
            sent_filter,
            peer_timeout: DEFAULT_PEER_TIMEOUT,
        };
        let error = check(TwoPhase::new(3).unwrap(), &options(true), &cluster).err();
        let text = match &error {
            Some(ClusterError::Usage(text)) => text.clone(),
            Some(ClusterError::Misconfigured(why)) => {
                let expected = match message {
                    "out of range" => Misconfiguration::ProcessOutOfRange {
                        process: 2,
                        processes: 2,
                    },
                    _ => Misconfiguration::SentFilterTooLarge {
                        slots: MAX_SENT_FILTER_SLOTS + 1,
                        max: MAX_SENT_FILTER_SLOTS,
                    },
                };
                assert_eq!(*why, expected);
                why.to_string()
            }
            _ => panic!("{error:?}"),
        };
        assert!(text.contains(message), "{text}");
        assert!(!text.contains("--"), "names a flag: {text}");
    }
}
