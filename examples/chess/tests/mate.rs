//! Mate-in-N positions (N = 1..4, both colours, and being mated): the engine must report the
//! exact mate distance at several depths in a row. The table is kept between the depths, so the
//! deeper searches read mate scores stored by the shallower ones (ply ↔ node conversion).

use crate::engine;

use cozy_chess::{util::parse_uci_move, Board};
use engine::{best_move, last_info, score, Engine};

/// (FEN, mate distance in moves for the side to move; negative: it is mated). Distances checked
/// with Stockfish 15.1 at depth 34.
const MATES: [(&str, i32); 14] = [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    ("3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        1,
    ),
    ("8/8/8/8/8/2k5/8/K1q5 w - - 0 1", -1),
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
    ),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    (
        "5rk1/1p1q2bp/p2pN1p1/2pP2Bn/2P3P1/1P6/P4QKP/5R2 w - - 1 1",
        2,
    ),
    (
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        3,
    ),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
    ("k7/8/8/8/4K3/5Q2/8/8 w - - 0 1", 4),
    ("2Q5/8/7k/8/8/6K1/8/8 w - - 0 1", 4),
    ("8/1k6/8/2K5/8/8/8/6Q1 w - - 0 1", 3),
    ("4Q3/8/8/5K2/8/8/8/7k w - - 0 1", 4),
];

/// Checks every position at three consecutive depths, starting `margin` plies beyond the mate's
/// length: pruning (null move, late-move reductions and pruning, internal iterative reduction)
/// hides quiet mating moves at the bare minimum depth, as in every pruning engine; ten plies
/// more is enough for one thread (KQ v K's mate in 4, seven plies, is first a mate score at
/// depth 13 and exact from depth 17: history pruning and reductions put off the quiet queen and
/// king moves that do not check).
/// One thread must report the exact distance. With Lazy SMP the result depends on timing: a
/// helper may store a longer (real) mate that the main thread then reports, so with threads
/// the score must be a mate for the right side and never shorter than the true one (a shorter
/// mate would be a wrong ply conversion of a shared entry).
fn check_mates(threads: usize, margin: i32) {
    check_mates_in(threads, margin, "Wide");
}

/// [`check_mates`] with the table in `layout` (`TTLayout`).
fn check_mates_in(threads: usize, margin: i32, layout: &str) {
    let mut engine = Engine::start();
    engine.send(&format!("setoption name Threads value {threads}"));
    engine.send(&format!("setoption name TTLayout value {layout}"));
    for (fen, mate) in MATES {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        let plies = 2 * mate.abs() - i32::from(mate > 0);
        for depth in plies + margin..plies + margin + 3 {
            let lines = engine.go(&format!("depth {depth}"));
            let info = last_info(&lines);
            let context = format!("{fen} at depth {depth} ({threads} threads, {layout}): {info}");
            match score(info) {
                Some(("mate", found)) if threads == 1 => assert_eq!(found, mate, "{context}"),
                Some(("mate", found)) => assert!(
                    found.signum() == mate.signum() && found.abs() >= mate.abs(),
                    "{context}"
                ),
                other => panic!("{context}: not a mate score: {other:?}"),
            }
            let board: Board = fen.parse().unwrap();
            let mv = parse_uci_move(&board, best_move(&lines)).expect("bestmove parses");
            assert!(board.is_legal(mv), "{fen}: illegal bestmove in {lines:?}");
        }
    }
    assert!(engine.quit());
}

#[test]
fn mate_distances_are_exact_at_every_depth() {
    check_mates(1, 10);
}

#[test]
fn mate_distances_are_exact_with_two_threads() {
    check_mates(2, 8);
}

/// Mate scores are stored node-relative in the dense layout too: exact distances, one thread.
#[test]
fn mate_distances_are_exact_in_the_dense_layout() {
    check_mates_in(1, 10, "Dense");
}

/// And in the cluster layout.
#[test]
fn mate_distances_are_exact_in_the_cluster_layout() {
    check_mates_in(1, 10, "Cluster");
}
