//! The evaluation cache (`EvalHash`) measured over a real game: every position of the game in
//! the file GAME (one line of UCI moves from the start position) searched in order to DEPTH with
//! one thread, one table and one cache through the game (a new generation per search, as in a
//! game), for each configuration of `TTLayout` × `EvalHash`, the configurations alternated
//! ROUNDS times. Prints, per configuration, the nodes (exact), the median CPU time of the
//! searching thread (which other jobs on a shared machine do not inflate), nodes per CPU second,
//! and the cache's hit rate (hits ÷ evaluations the table did not hold).
//!
//! `cargo run --release -p chess --example evalcache -- GAME [DEPTH [ROUNDS [EVALHASH_MIB]]]`

use chess::eval_cache::EvalCache;
use chess::position::parse_move;
use chess::search::{search, Limits, Shared, Task};
use chess::tt::{TableConfig, TranspositionTable, TtLayout};
use cozy_chess::Board;
use searchcache::Slots;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

/// What one pass over the game counted.
#[derive(Default)]
struct Pass {
    nodes: u64,
    cpu: Duration,
    probes: u64,
    hits: u64,
}

/// Nanoseconds this thread has run on a CPU (Linux: `/proc/thread-self/schedstat`).
fn thread_cpu_time() -> Result<Duration, String> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")
        .map_err(|e| format!("/proc/thread-self/schedstat: {e}"))?;
    let ns = stat.split_whitespace().next().and_then(|n| n.parse().ok());
    ns.map(Duration::from_nanos)
        .ok_or_else(|| "unreadable schedstat".to_string())
}

/// The game's positions, each with the keys of the positions before it.
fn positions(text: &str) -> Result<Vec<(Board, Vec<u64>)>, String> {
    let mut board = Board::default();
    let mut history = Vec::new();
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        out.push((board.clone(), history.clone()));
        let mv = parse_move(&board, word, false).ok_or(format!("illegal move '{word}'"))?;
        history.push(board.hash());
        board.play_unchecked(mv);
    }
    out.push((board, history));
    Ok(out)
}

/// Searches every position in order with one table and one cache.
fn pass(
    game: &[(Board, Vec<u64>)],
    layout: TtLayout,
    mib: usize,
    depth: i32,
) -> Result<Pass, String> {
    let tt = TranspositionTable::new(TableConfig {
        mib: 16,
        slots: Slots::Bucket,
        huge_pages: true,
        layout,
    })?;
    tt.clear();
    let evals = EvalCache::new(mib)?;
    let mut total = Pass::default();
    for (root, history) in game {
        let shared = Shared::default();
        let task = Task {
            root: root.clone(),
            history: history.clone(),
            tt: &tt,
            evals: &evals,
            shared: &shared,
            limits: Limits::fixed(depth, None, Instant::now()),
            root_moves: Vec::new(),
            report: false,
            chess960: false,
            contempt: 0,
        };
        let before = thread_cpu_time()?;
        let outcome = search(&task, 1, |_| {});
        total.cpu += thread_cpu_time()?.saturating_sub(before);
        total.nodes += outcome.nodes;
        total.probes += shared.eval_probes.load(Relaxed);
        total.hits += shared.eval_hits.load(Relaxed);
    }
    Ok(total)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: evalcache GAME [DEPTH [ROUNDS [EVALHASH_MIB]]]";
    let path = args.first().ok_or(usage)?;
    let number = |i: usize, default: usize| -> Result<usize, String> {
        args.get(i).map_or(Ok(default), |a| {
            a.parse().map_err(|_| format!("{usage}: bad '{a}'"))
        })
    };
    let (depth, rounds, mib) = (number(1, 10)? as i32, number(2, 3)?.max(1), number(3, 1)?);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let game = positions(&text)?;
    let configs = [
        (TtLayout::Wide, 0),
        (TtLayout::Wide, mib),
        (TtLayout::Dense, 0),
        (TtLayout::Dense, mib),
    ];
    let mut runs: Vec<Vec<Pass>> = configs.iter().map(|_| Vec::new()).collect();
    for _ in 0..rounds {
        for (runs, &(layout, mib)) in runs.iter_mut().zip(&configs) {
            runs.push(pass(&game, layout, mib, depth)?);
        }
    }
    println!(
        "{} positions, depth {depth}, {rounds} rounds alternated, Hash 16",
        game.len()
    );
    println!("| TTLayout | EvalHash | nodes | CPU ms (median) | nodes / CPU s | evals asked of the cache | hit rate |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (runs, (layout, mib)) in runs.iter_mut().zip(configs) {
        runs.sort_by_key(|p| p.cpu);
        let median = &runs[runs.len() / 2];
        let nps = median.nodes as f64 / median.cpu.as_secs_f64().max(1e-9);
        let rate = median.hits as f64 / median.probes.max(1) as f64;
        println!(
            "| {layout:?} | {mib} | {} | {} | {nps:.0} | {} | {:.1} % |",
            median.nodes,
            median.cpu.as_millis(),
            median.probes,
            100.0 * rate
        );
    }
    Ok(())
}
