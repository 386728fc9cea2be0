//! The `info` lines GUIs show: MultiPV (one line per PV and depth, distinct first moves, best
//! first), `currmove`/`currmovenumber` during a long iteration, and `lowerbound`/`upperbound`
//! on a failed aspiration window.

use crate::engine;

use cozy_chess::{util::parse_uci_move, Board};
use engine::{best_move, field, is_iteration, score, Engine};

/// Orders scores: mates for the side to move first (nearest first), then centipawns, then being
/// mated (farthest first).
fn rank(kind: &str, value: i32) -> i64 {
    match kind {
        "mate" if value > 0 => 1_000_000 - i64::from(value),
        "mate" => -1_000_000 - i64::from(value),
        _ => i64::from(value),
    }
}

fn first_pv_move(line: &str) -> &str {
    field(line, "pv").unwrap_or_else(|| panic!("no pv in {line}"))
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut engine = Engine::start();
    engine.send("uci");
    let hello = engine.read_until(|l| l == "uciok");
    assert!(hello
        .iter()
        .any(|l| l == "option name MultiPV type spin default 1 min 1 max 500"));
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let board: Board = fen.parse().unwrap();
    engine.send("setoption name MultiPV value 3");
    engine.send(&format!("position fen {fen}"));
    let lines = engine.go("depth 7");
    let iterations: Vec<&String> = lines.iter().filter(|l| is_iteration(l)).collect();
    for depth in 1..=7 {
        let at_depth: Vec<&&String> = iterations
            .iter()
            .filter(|l| field(l, "depth") == Some(&depth.to_string()))
            .collect();
        assert_eq!(at_depth.len(), 3, "depth {depth}: {lines:#?}");
        let mut firsts = Vec::new();
        let mut previous = i64::MAX;
        for (i, line) in at_depth.iter().enumerate() {
            assert_eq!(
                field(line, "multipv"),
                Some(&*(i + 1).to_string()),
                "{line}"
            );
            let (kind, value) = score(line).unwrap();
            assert!(
                rank(kind, value) <= previous,
                "not best first: {at_depth:#?}"
            );
            previous = rank(kind, value);
            let mv = first_pv_move(line);
            assert!(
                board.is_legal(parse_uci_move(&board, mv).unwrap()),
                "{line}"
            );
            assert!(!firsts.contains(&mv), "{mv} twice at depth {depth}");
            firsts.push(mv);
        }
        if depth == 7 {
            assert_eq!(
                best_move(&lines),
                firsts[0],
                "bestmove is the first line's move"
            );
        }
    }
    // More lines than legal moves: one line per legal move (here one: the king takes the queen).
    engine.send("setoption name MultiPV value 500");
    engine.send("position fen 7k/8/8/8/8/8/6q1/7K w - - 0 1");
    let lines = engine.go("depth 3");
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| is_iteration(l) && field(l, "depth") == Some("3"))
        .collect();
    assert_eq!(last_depth.len(), 1, "{lines:#?}");
    // Back to one line: only `multipv 1` is printed.
    engine.send("setoption name MultiPV value 1");
    engine.send(&format!("position fen {fen}"));
    let lines = engine.go("depth 5");
    assert!(lines
        .iter()
        .filter(|l| is_iteration(l))
        .all(|l| field(l, "multipv") == Some("1")));
    assert!(engine.quit());
}

#[test]
fn currmove_lines_during_a_long_iteration() {
    let mut engine = Engine::start();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board: Board = fen.parse().unwrap();
    engine.send(&format!("position fen {fen}"));
    engine.send("go infinite");
    // They start after a second of search.
    let lines = engine.read_until(|l| l.contains(" currmove "));
    engine.send("stop");
    let rest = engine.read_until(|l| l.starts_with("bestmove"));
    for line in lines
        .iter()
        .chain(&rest)
        .filter(|l| l.contains(" currmove "))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 7, "{line}");
        assert_eq!(
            (words[0], words[1], words[3], words[5]),
            ("info", "depth", "currmove", "currmovenumber")
        );
        assert!(words[2].parse::<u32>().unwrap() >= 1, "{line}");
        let mv = parse_uci_move(&board, words[4]).unwrap();
        assert!(board.is_legal(mv), "{line}");
        let number: usize = words[6].parse().unwrap();
        assert!((1..=48).contains(&number), "Kiwipete has 48 moves: {line}");
    }
    assert!(engine.quit());
}

/// A failed aspiration window prints the bound it found. Over these positions (mates the
/// search finds deep, where the score jumps) at least one window fails; every bound line has
/// the iteration's fields, the bound word after the score, and a legal PV.
#[test]
fn aspiration_failures_print_bounds() {
    let mut engine = Engine::start();
    let positions = [
        ("4Q3/8/8/5K2/8/8/8/7k w - - 0 1", 14),
        ("k7/8/8/8/4K3/5Q2/8/8 w - - 0 1", 14),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 10),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            9,
        ),
    ];
    let mut bounds = 0;
    for (fen, depth) in positions {
        let board: Board = fen.parse().unwrap();
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go(&format!("depth {depth}"));
        for line in lines
            .iter()
            .filter(|l| l.contains(" lowerbound") || l.contains(" upperbound"))
        {
            bounds += 1;
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "score").unwrap();
            assert!(
                matches!(words[at + 3], "lowerbound" | "upperbound"),
                "{line}"
            );
            for key in ["depth", "seldepth", "multipv", "nodes", "time"] {
                assert!(
                    field(line, key).is_some_and(|v| v.parse::<u64>().is_ok()),
                    "{line}"
                );
            }
            let mv = parse_uci_move(&board, first_pv_move(line)).unwrap();
            assert!(board.is_legal(mv), "{line}");
        }
        // The iteration that failed is reported again with its exact score.
        assert!(lines.iter().any(|l| is_iteration(l)), "{lines:#?}");
    }
    assert!(bounds > 0, "no aspiration window failed");
    assert!(engine.quit());
}
