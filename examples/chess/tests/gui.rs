//! What GUIs send and expect, through the binary: illegal positions refused (adjacent kings),
//! inputs python-chess accepts (fullmove 0, halfmove clock above 100, upper-case promotion),
//! every `go` ending by itself unless `infinite` or `ponder`, `bestmove … ponder …`, and `info` lines that agree with
//! themselves (seldepth ≥ depth, mate scores with their full PV, checkmated and stalemated
//! roots).

use crate::engine;

use cozy_chess::{util::parse_uci_move, Board, GameStatus};
use engine::{best_move, field, is_iteration, last_info, score, Engine};

fn board_after(fen: &str, moves: &[&str]) -> Board {
    let mut board: Board = fen.parse().unwrap();
    for m in moves {
        board.play(parse_uci_move(&board, m).unwrap());
    }
    board
}

/// The moves of the `pv` field (everything after it).
fn pv_moves(line: &str) -> Vec<&str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == "pv");
    words.collect()
}

fn error_answer(engine: &mut Engine, line: &str) -> String {
    engine.send(line);
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].starts_with("info string error: "),
        "'{line}' answered {answer:?}"
    );
    answer[0].clone()
}

#[test]
fn adjacent_kings_are_refused() {
    let mut engine = Engine::start();
    for fen in [
        "8/8/8/8/8/8/3k4/3K4 w - - 0 1",
        "8/8/8/8/8/2k5/3K4/8 b - - 0 1",
        "8/8/8/8/8/8/8/kK6 w - - 0 1",
    ] {
        let answer = error_answer(&mut engine, &format!("position fen {fen}"));
        assert!(answer.contains("next to each other"), "{answer}");
    }
    // The previous position (the start) is kept, and searched.
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    );
    let lines = engine.go("depth 3");
    assert_ne!(best_move(&lines), "d1d2");
    assert!(engine.quit());
}

#[test]
fn inputs_python_chess_accepts() {
    let mut engine = Engine::start();
    // Fullmove number 0 reads as 1; a halfmove clock of 150 as 100 (the fifty moves are up).
    engine.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 0");
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
    );
    engine.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 150 90");
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen 4k3/8/8/8/8/8/4P3/4K3 w - - 100 90"]
    );
    // With the clock up, only a pawn move (which resets it) keeps the game going.
    let lines = engine.go("depth 4");
    assert!(best_move(&lines).starts_with("e2"), "{lines:#?}");
    // Upper-case promotion letters.
    engine.send("position fen 8/1P6/8/8/8/8/8/k1K5 w - - 0 1 moves b7b8Q");
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen 1Q6/8/8/8/8/8/8/k1K5 b - - 0 1"]
    );
    engine.send("position fen 8/1P6/8/8/8/8/8/k1K5 w - - 0 1 moves b7b8N");
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen 1N6/8/8/8/8/8/8/k1K5 b - - 0 1"]
    );
    assert!(engine.quit());
}

/// Each of these `go` lines once searched until `stop`: now each is answered by itself, the
/// malformed ones with an error line first. They run in parallel engines, since a `go` without
/// any limit for the side to move thinks for 5 s.
#[test]
fn every_go_ends_by_itself() {
    let cases: [(&str, &str, bool); 8] = [
        ("startpos", "wtime abc", true),
        ("startpos", "depth", true),
        ("startpos", "perft 3", true),
        ("startpos", "btime 1000", false),
        ("startpos", "winc 1000", false),
        ("startpos", "", false),
        // The huge clock is read (not an error): it is the other side's.
        ("startpos", "wtime 1 btime 18446744073709551615", false),
        (
            "startpos moves e2e4",
            "wtime 18446744073709551615 btime 1",
            false,
        ),
    ];
    let mut engines: Vec<Engine> = cases
        .iter()
        .map(|(position, go, _)| {
            let mut engine = Engine::start();
            engine.send(&format!("position {position}"));
            engine.send(format!("go {go}").trim());
            engine
        })
        .collect();
    for (engine, (position, go, malformed)) in engines.iter_mut().zip(cases) {
        // No `stop` is sent: read_until fails the test if no bestmove comes within its timeout.
        let lines = engine.read_until(|l| l.starts_with("bestmove"));
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        assert_eq!(errors > 0, malformed, "go {go}: {lines:#?}");
        let moves: Vec<&str> = position.split_whitespace().skip(2).collect();
        let board = board_after(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &moves,
        );
        let mv = parse_uci_move(&board, best_move(&lines)).unwrap();
        assert!(board.is_legal(mv), "go {go}: {lines:#?}");
    }
}

#[test]
fn bestmove_names_the_expected_reply() {
    let mut engine = Engine::start();
    engine.send("position startpos moves d2d4");
    let lines = engine.go("depth 6");
    let last = lines.last().unwrap();
    let best = best_move(&lines);
    let reply = field(last, "ponder").unwrap_or_else(|| panic!("no ponder move: {last}"));
    let after = board_after(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["d2d4", best],
    );
    assert!(
        after.is_legal(parse_uci_move(&after, reply).unwrap()),
        "{last}"
    );
    // It is the PV's second move.
    assert_eq!(pv_moves(last_info(&lines))[..2], [best, reply]);
    assert!(engine.quit());
}

/// Mate positions: every iteration's seldepth is at least its depth, and a `mate N` score
/// comes with a PV of exactly the mate's length that ends in checkmate.
#[test]
fn mate_lines_agree_with_their_scores() {
    let mut engine = Engine::start();
    let cases = [
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "mate 3"),
        ("4Q3/8/8/5K2/8/8/8/7k w - - 0 1", "depth 14"),
        (
            "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
            "depth 8",
        ),
        // Being mated: the PV is the defence and the mate.
        ("8/8/8/8/8/2k5/8/K1q5 w - - 0 1", "depth 6"),
    ];
    for (fen, go) in cases {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go(go);
        let mut mates = 0;
        for line in lines.iter().filter(|l| is_iteration(l)) {
            let depth: usize = field(line, "depth").unwrap().parse().unwrap();
            let seldepth: usize = field(line, "seldepth").unwrap().parse().unwrap();
            assert!(seldepth >= depth, "{line}");
            let Some(("mate", n)) = score(line) else {
                continue;
            };
            mates += 1;
            let pv = pv_moves(line);
            let plies = if n > 0 { 2 * n - 1 } else { -2 * n } as usize;
            assert_eq!(pv.len(), plies, "{line}");
            let board = board_after(fen, &pv);
            assert_eq!(
                board.status(),
                GameStatus::Won,
                "{line} does not end in mate"
            );
        }
        assert!(mates > 0, "{fen}: no mate found: {lines:#?}");
        if go == "mate 3" {
            // `go mate 3` stops at the first mate in 3 or fewer.
            assert_eq!(score(last_info(&lines)), Some(("mate", 3)), "{lines:#?}");
        }
    }
    assert!(engine.quit());
}

#[test]
fn checkmated_and_stalemated_roots() {
    let mut engine = Engine::start();
    engine.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        engine.go("depth 3"),
        vec!["info depth 0 score mate 0", "bestmove 0000"]
    );
    engine.send("position fen 7k/8/6QK/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        engine.go("depth 3"),
        vec!["info depth 0 score cp 0", "bestmove 0000"]
    );
    assert!(engine.quit());
}

/// Standard chess (no `UCI_Chess960`) refuses castling rights whose king is off e1/e8 or whose
/// rook is off its corner: with the king on d1, `go` once answered `d1g1`, a Chess960 castle
/// that python-chess and the engine itself then refused.
#[test]
fn standard_chess_refuses_chess960_castling_rights() {
    let mut engine = Engine::start();
    for (fen, says) in [
        ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "king on d1"),
        ("r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "king on d1"),
        ("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "rook on the g file"),
        ("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", "rook on the b file"),
        ("1r2k3/8/8/8/8/8/8/4K3 b b - 0 1", "Black's long castling"),
        ("r4k2/8/8/8/8/8/8/4K3 b q - 0 1", "king on f8"),
    ] {
        let answer = error_answer(&mut engine, &format!("position fen {fen}"));
        assert!(
            answer.contains(says) && answer.contains("UCI_Chess960"),
            "{fen}: {answer}"
        );
    }
    // The previous position (the start) is kept, and searched.
    engine.send("d");
    assert_eq!(
        engine.sync(),
        vec!["info string fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    );
    let lines = engine.go("depth 3");
    assert!(!best_move(&lines).starts_with("d1"), "{lines:#?}");
    // Standard rights are still taken, in either notation.
    for fen in [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send("d");
        assert_eq!(
            engine.sync(),
            vec!["info string fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]
        );
    }
    assert!(engine.quit());
}

/// No two moves of a position are ever written alike: `perft 1` of a king on d1 with both
/// rooks once listed `d1c1` twice (the king's step and the long castle). Under `UCI_Chess960`
/// castling is king-takes-rook, and it stays so for that position with the option off again.
#[test]
fn castling_is_never_printed_ambiguously() {
    let mut engine = Engine::start();
    let fen = "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1";
    let divide = |engine: &mut Engine| {
        engine.send("perft 1");
        let lines = engine.read_until(|l| l.starts_with("info string perft "));
        let mut moves: Vec<String> = lines
            .iter()
            .filter_map(|l| Some(l.split_once(": ")?.0.to_string()))
            .filter(|m| m.len() >= 4 && !m.contains(' '))
            .collect();
        assert_eq!(moves.len(), 26, "{lines:#?}");
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), 26, "a move written twice in {lines:#?}");
        moves
    };
    error_answer(&mut engine, &format!("position fen {fen}"));
    engine.send("setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {fen}"));
    assert!(engine.sync().is_empty());
    for chess960 in [true, false] {
        engine.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        let moves = divide(&mut engine);
        for mv in ["d1a1", "d1h1", "d1c1", "d1e1"] {
            assert!(moves.iter().any(|m| m == mv), "{mv} missing: {moves:?}");
        }
    }
    assert!(engine.quit());
}

/// A FEN whose placement has 7 or 9 ranks, or a rank of 7 or 9 squares, says so (it once
/// blamed the castling rights).
#[test]
fn a_misshapen_board_is_named_as_such() {
    let mut engine = Engine::start();
    for (fen, says) in [
        ("r3k2r/8/8/8/8/8/R3K2R w KQkq - 0 1", "has 7 ranks"),
        ("r3k2r/8/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "has 9 ranks"),
        ("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1", "has 9 ranks"),
        (
            "r3k2r/8/8/8/8/8/8/R3K1R w KQkq - 0 1",
            "rank 1 of the piece placement",
        ),
        (
            "r3k2r/9/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "rank 7 of the piece placement",
        ),
    ] {
        let answer = error_answer(&mut engine, &format!("position fen {fen}"));
        assert!(
            answer.contains(says) && !answer.contains("castling"),
            "{fen}: {answer}"
        );
    }
    assert!(engine.quit());
}
