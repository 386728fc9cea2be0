//! The evaluation cache (`EvalHash`, the engine's second table) changes nothing but speed: every
//! eval it returns is the computed one, and a one-thread search at a fixed depth finds the same
//! move, score and node count with it as without it, over the perft suite's positions, the
//! bench positions and a real game played move after move.

use chess::bench::POSITIONS;
use chess::eval::evaluate;
use chess::eval_cache::EvalCache;
use chess::position::parse_move;
use chess::search::{legal_moves, search, Limits, Outcome, Shared, Task};
use chess::tt::{TableConfig, TranspositionTable, TtLayout};
use cozy_chess::Board;
use searchcache::Slots;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// benchmarks.py's 117-ply game (this engine against Stockfish), one line of UCI moves.
const GAME: &str = include_str!("data/game117.txt");

/// The perft suite's positions (tests/data/perft.tsv) and the bench positions.
fn positions() -> Vec<Board> {
    let tsv = include_str!("data/perft.tsv");
    let perft = tsv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("name\t"))
        .filter_map(|l| l.split('\t').nth(1));
    perft
        .chain(POSITIONS)
        .map(|fen| fen.parse().expect("test positions are valid FEN"))
        .collect()
}

/// The positions of the game, in order, with the keys of the positions before each.
fn game() -> Vec<(Board, Vec<u64>)> {
    let mut board = Board::default();
    let mut history = Vec::new();
    let mut out = vec![(board.clone(), history.clone())];
    for text in GAME.split_whitespace() {
        let mv = parse_move(&board, text, false).expect("the game's moves are legal");
        history.push(board.hash());
        board.play_unchecked(mv);
        out.push((board.clone(), history.clone()));
    }
    out
}

fn table(layout: TtLayout) -> TranspositionTable {
    TranspositionTable::new(TableConfig {
        mib: 4,
        slots: Slots::Bucket,
        huge_pages: false,
        layout,
    })
    .unwrap()
}

/// A one-thread search of `root` to `depth`: the outcome and the cache's (probes, hits).
fn run(
    tt: &TranspositionTable,
    evals: &EvalCache,
    root: &Board,
    history: &[u64],
    depth: i32,
) -> (Outcome, u64, u64) {
    let shared = Shared::default();
    let task = Task {
        root: root.clone(),
        history: history.to_vec(),
        tt,
        evals,
        shared: &shared,
        limits: Limits::fixed(depth, None, Instant::now()),
        root_moves: Vec::new(),
        report: false,
        chess960: false,
        contempt: 0,
    };
    let outcome = search(&task, 1, |_| {});
    let probes = shared.eval_probes.load(Relaxed);
    (outcome, probes, shared.eval_hits.load(Relaxed))
}

fn same(a: &Outcome, b: &Outcome) -> bool {
    (a.best, a.ponder, a.score, a.depth, a.nodes) == (b.best, b.ponder, b.score, b.depth, b.nodes)
}

/// `board` and every position up to `depth` plies after it.
fn collect(board: &Board, depth: u32, out: &mut Vec<Board>) {
    out.push(board.clone());
    if depth > 0 {
        for mv in legal_moves(board) {
            let mut child = board.clone();
            child.play_unchecked(mv);
            collect(&child, depth - 1, out);
        }
    }
}

#[test]
fn every_cached_eval_is_the_computed_one() {
    // A small cache, so that entries are evicted and overwritten along the way.
    let cache = EvalCache::new(1).unwrap();
    let mut boards = Vec::new();
    for root in positions() {
        collect(&root, 3, &mut boards);
    }
    assert!(boards.len() > 65_536, "more positions than the cache holds");
    let mut hits = 0;
    for _ in 0..2 {
        for board in &boards {
            let (eval, hit) = cache.evaluate(board);
            assert_eq!(eval, evaluate(board), "{board}");
            hits += u64::from(hit);
        }
    }
    assert!(hits > 0, "the second pass found some evals in the cache");
}

#[test]
fn a_search_finds_the_same_with_the_cache_as_without() {
    // Dense tables keep no eval, so there the cache answers most evaluations; wide ones keep
    // it, and the cache answers what the table lost.
    for layout in [TtLayout::Dense, TtLayout::Wide] {
        let (tt_off, tt_on) = (table(layout), table(layout));
        let (off, on) = (EvalCache::off(), EvalCache::new(1).unwrap());
        let (mut probes, mut hits) = (0, 0);
        for root in positions() {
            for tt in [&tt_off, &tt_on] {
                tt.clear();
            }
            on.clear();
            let (without, none, _) = run(&tt_off, &off, &root, &[], 7);
            let (with, p, h) = run(&tt_on, &on, &root, &[], 7);
            assert!(
                same(&without, &with),
                "{layout:?} {root}: {without:?} {with:?}"
            );
            assert_eq!(none, 0, "an absent cache is never probed");
            (probes, hits) = (probes + p, hits + h);
        }
        assert!(
            hits > 0 && hits < probes,
            "{layout:?}: {hits} hits of {probes}"
        );
    }
}

#[test]
fn a_game_played_move_after_move_finds_the_same_with_the_cache_as_without() {
    // One table and one cache through the whole game, as in a real game.
    let (tt_off, tt_on) = (table(TtLayout::Wide), table(TtLayout::Wide));
    let (off, on) = (EvalCache::off(), EvalCache::new(1).unwrap());
    let mut hits = 0;
    for (board, history) in game() {
        if legal_moves(&board).is_empty() {
            continue;
        }
        let (without, _, _) = run(&tt_off, &off, &board, &history, 6);
        let (with, _, h) = run(&tt_on, &on, &board, &history, 6);
        assert!(same(&without, &with), "{board}: {without:?} {with:?}");
        hits += h;
    }
    assert!(hits > 0);
}
