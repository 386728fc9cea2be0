//! `bench [depth] [threads]`: a fixed-depth search of a fixed set of positions from an empty
//! table. With one thread (the default) the total node count is deterministic for a given engine
//! version and table configuration, so it identifies the version; the nps is the speed figure.

use crate::eval_cache::EvalCache;
use crate::say;
use crate::search::{search, Limits, Shared, Task};
use crate::tt::TranspositionTable;
use cozy_chess::Board;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// Default bench depth: about a second per run on one core of a 2020s machine.
pub const DEFAULT_DEPTH: i32 = 9;

/// Openings, middlegames and endgames: the perft suite's positions plus quieter and simpler ones.
pub const POSITIONS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
    "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 b - - 0 22",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
];

/// The result of a bench run.
pub struct BenchResult {
    /// Nodes of all positions.
    pub nodes: u64,
    /// Wall time of all searches.
    pub elapsed: Duration,
    /// CPU time the calling (main search) thread spent in the searches, where the OS reports it
    /// (Linux). Unlike wall time it does not grow while other jobs hold the core, so it is the
    /// better speed figure for single-threaded runs on a shared machine.
    pub cpu: Option<Duration>,
    /// Evaluations asked of the evaluation cache (those the table did not hold), and of those
    /// the ones it held; both 0 when the cache is off.
    pub eval_probes: u64,
    /// See `eval_probes`.
    pub eval_hits: u64,
}

/// Nanoseconds this thread has run on a CPU: the first field of `/proc/thread-self/schedstat`.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        stat.split_whitespace().next()?.parse().ok()?,
    ))
}

/// Searches every bench position to `depth` with `threads` threads, clearing `tt` and `evals`
/// first for each, and prints one `info string` line per position.
pub fn bench(
    tt: &TranspositionTable,
    evals: &EvalCache,
    depth: i32,
    threads: usize,
) -> BenchResult {
    let (mut eval_probes, mut eval_hits) = (0, 0);
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    let mut cpu = Some(Duration::ZERO);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let root: Board = fen.parse().expect("bench positions are valid FEN");
        tt.clear();
        evals.clear();
        let shared = Shared::default();
        let cpu_before = thread_cpu_time();
        let start = Instant::now();
        let task = Task {
            root,
            history: Vec::new(),
            tt,
            evals,
            shared: &shared,
            limits: Limits::fixed(depth, None, start),
            root_moves: Vec::new(),
            report: false,
            chess960: false,
            contempt: 0,
        };
        let outcome = search(&task, threads, |_| {});
        let took = start.elapsed();
        cpu = match (cpu, cpu_before, thread_cpu_time()) {
            (Some(sum), Some(before), Some(after)) => Some(sum + after.saturating_sub(before)),
            _ => None,
        };
        say!(
            "info string bench {}/{} nodes {} time {} depth {} score {}",
            i + 1,
            POSITIONS.len(),
            outcome.nodes,
            took.as_millis(),
            outcome.depth,
            crate::info::uci_score(outcome.score)
        );
        nodes += outcome.nodes;
        elapsed += took;
        eval_probes += shared.eval_probes.load(Relaxed);
        eval_hits += shared.eval_hits.load(Relaxed);
    }
    BenchResult {
        nodes,
        elapsed,
        cpu,
        eval_probes,
        eval_hits,
    }
}
