//! `UCI_Chess960` through the binary: positions in Shredder-FEN and in X-FEN (python-chess's
//! form), perft against reference counts, castling written and read as the king taking its own
//! rook, and a game of moves played from a Chess960 start.

use crate::engine;

use cozy_chess::{Board, Move};
use engine::{best_move, field, last_info, Engine};

const DATA: &str = include_str!("data/perft960.tsv");

fn chess960_engine() -> Engine {
    let mut engine = Engine::start();
    engine.send("uci");
    let hello = engine.read_until(|l| l == "uciok");
    assert!(
        hello
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{hello:#?}"
    );
    engine.send("setoption name UCI_Chess960 value true");
    assert!(engine.sync().is_empty());
    engine
}

#[test]
fn perft_in_both_fen_forms() {
    let mut engine = chess960_engine();
    let rows = DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("shredder\t") && !l.is_empty());
    let mut checked = 0;
    for row in rows {
        let cols: Vec<&str> = row.split('\t').collect();
        let counts: Vec<&str> = cols[2].split_whitespace().collect();
        for fen in [cols[0], cols[1]] {
            engine.send(&format!("position fen {fen}"));
            // The position is read as the same one whichever form it came in.
            engine.send("d");
            assert_eq!(engine.sync(), vec![format!("info string fen {}", cols[0])]);
            for (depth, expected) in counts.iter().enumerate() {
                engine.send(&format!("perft {}", depth + 1));
                let lines = engine.read_until(|l| l.starts_with("info string perft "));
                assert_eq!(
                    lines[lines.len() - 2],
                    format!("Nodes searched: {expected}"),
                    "{fen} depth {}",
                    depth + 1
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 40);
    assert!(engine.quit());
}

#[test]
fn castling_is_king_takes_rook() {
    let mut engine = chess960_engine();
    // King on f1 between rooks on b1 and h1 (Black the same): both castlings are legal.
    let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1";
    let board: Board = fen.parse().unwrap();
    engine.send(&format!("position fen {fen}"));
    engine.send("perft 1");
    let divide = engine.read_until(|l| l.starts_with("info string perft "));
    for castle in ["f1g1", "f1b1"] {
        let mv: Move = castle.parse().unwrap();
        assert!(board.is_legal(mv), "{castle} is castling in cozy-chess too");
        assert!(
            divide.iter().any(|l| l.starts_with(&format!("{castle}: "))),
            "{castle} missing from {divide:#?}"
        );
    }
    // Searching only the short castling answers it in the same notation, ponder move included.
    let lines = engine.go("depth 4 searchmoves f1g1");
    assert_eq!(best_move(&lines), "f1g1");
    let last = lines.last().unwrap();
    let reply = field(last, "ponder").expect("a ponder move");
    let mut after = board.clone();
    after.play("f1g1".parse().unwrap());
    assert!(after.is_legal(reply.parse().unwrap()), "{last}");
    // The castling move is read back the same way: king on g1, rook on f1.
    engine.send(&format!("position fen {fen} moves f1g1"));
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen 1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b gb - 1 1".to_string()]
    );
    // In a standard position the option changes only the notation of castling.
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let lines = engine.go("depth 2 searchmoves e1h1");
    assert_eq!(best_move(&lines), "e1h1");
    engine.send("setoption name UCI_Chess960 value false");
    engine.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let lines = engine.go("depth 2 searchmoves e1g1");
    assert_eq!(best_move(&lines), "e1g1");
    assert!(engine.quit());
}

#[test]
fn a_game_from_a_chess960_start() {
    let mut engine = chess960_engine();
    let start = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let mut board: Board = start.parse().unwrap();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
        let lines = engine.go("depth 5");
        let text = best_move(&lines);
        let mv: Move = text.parse().unwrap_or_else(|_| panic!("bestmove {text}"));
        assert!(board.is_legal(mv), "illegal {text} in {board}");
        assert!(field(last_info(&lines), "pv").is_some());
        board.play(mv);
        moves.push(text.to_string());
        if board.status() != cozy_chess::GameStatus::Ongoing {
            break;
        }
    }
    assert!(engine.quit());
}
