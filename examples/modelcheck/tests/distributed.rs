//! The distributed checker through the library: N "processes" as N threads of this test, each a
//! timely cluster member on its own loopback port, against the single-process checker.

use modelcheck::distributed::{check, Cluster, ClusterError, DistributedReport};
use modelcheck::models::{buggy_lock::BuggyLock, philosophers::Philosophers, puzzle::Puzzle};
use modelcheck::models::two_phase::TwoPhase;
use modelcheck::{Model, Options, Verdict};
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

#[test]
fn two_and_three_processes_count_as_one() {
    for (processes, workers) in [(1, 2), (2, 1), (3, 1), (2, 2)] {
        let reports = run_cluster(|| TwoPhase::new(5).unwrap(), &options(true), processes, workers);
        for r in &reports {
            let r = r.as_ref().expect("a report");
            assert!(matches!(r.report.verdict, Verdict::Complete));
            assert_eq!(counts(r), (8_832, 58_145, counts(r).2), "{processes}x{workers}");
            let owned: u64 = r.processes.iter().map(|p| p.states).sum();
            assert_eq!(owned, 8_832);
        }
    }
}
