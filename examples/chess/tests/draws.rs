//! Draw detection: a repetition of a position of the game history (reached through `position …
//! moves`), the fifty-move rule, and insufficient material, seen from the search.

use crate::engine;

use engine::{best_move, last_info, score, Engine};

#[test]
fn the_lost_side_repeats_a_position_of_the_game() {
    let mut engine = Engine::start();
    // White Ka1 Qa2 v Black Kh8: lost for Black, but Qb2, Kg8, Qa2 gave Black the move that
    // recreates the first position: Kh8 is a draw by repetition, every other move loses.
    engine.send("position fen 7k/8/8/8/8/8/Q7/K7 w - - 0 1 moves a2b2 h8g8 b2a2");
    let lines = engine.go("depth 6");
    assert_eq!(best_move(&lines), "g8h8", "{lines:#?}");
    assert_eq!(score(last_info(&lines)), Some(("cp", 0)));
    // Without that history the same position is simply lost.
    engine.send("position fen 6k1/8/8/8/8/8/Q7/K7 b - - 3 2");
    let lines = engine.go("depth 6");
    let (kind, value) = score(last_info(&lines)).unwrap();
    assert!(kind == "mate" || value < -500, "{lines:#?}");
    assert!(engine.quit());
}

#[test]
fn fifty_move_rule_and_insufficient_material() {
    let mut engine = Engine::start();
    // A mate in 4 with a fresh clock…
    engine.send("position fen 4Q3/8/8/5K2/8/8/8/7k w - - 0 1");
    assert_eq!(score(last_info(&engine.go("depth 14"))), Some(("mate", 4)));
    // …is a draw when every move reaches the hundredth half-move without a capture.
    engine.send("ucinewgame");
    engine.send("position fen 4Q3/8/8/5K2/8/8/8/7k w - - 99 80");
    assert_eq!(score(last_info(&engine.go("depth 14"))), Some(("cp", 0)));
    // A mate on the hundredth half-move is still a mate.
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80");
    assert_eq!(score(last_info(&engine.go("depth 4"))), Some(("mate", 1)));
    // K+N v K+B after the capture: no mate is possible, whatever the material count says.
    engine.send("position fen 8/8/4k3/8/3b4/8/2N5/4K3 w - - 0 1");
    assert_eq!(score(last_info(&engine.go("depth 8"))), Some(("cp", 0)));
    assert!(engine.quit());
}

#[test]
fn contempt_scores_a_draw_against_the_engines_side() {
    // (position, depth, the move that must be played): the repetition above, where Black's only
    // move that does not lose is the draw; a position where every move reaches the hundredth
    // half-move without mating; K+N v K, insufficient material whatever is played.
    let draws = [
        (
            "7k/8/8/8/8/8/Q7/K7 w - - 0 1 moves a2b2 h8g8 b2a2",
            "depth 6",
            Some("g8h8"),
        ),
        ("4Q3/8/8/5K2/8/8/8/7k w - - 99 80", "depth 8", None),
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", "depth 6", None),
    ];
    let mut engine = Engine::start();
    for (contempt, expected) in [(30, -30), (-30, 30), (0, 0)] {
        engine.send("ucinewgame");
        engine.send(&format!("setoption name Contempt value {contempt}"));
        for (position, limit, forced) in draws {
            engine.send(&format!("position fen {position}"));
            let lines = engine.go(limit);
            if let Some(mv) = forced {
                assert_eq!(best_move(&lines), mv, "{lines:#?}");
            }
            let found = score(last_info(&lines));
            assert_eq!(found, Some(("cp", expected)), "{position}: {lines:#?}");
        }
    }
    // Beyond a pawn either way is refused, and the value stays.
    for refused in ["101", "-101"] {
        engine.send(&format!("setoption name Contempt value {refused}"));
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("error: Contempt must be a number from -100 to 100")),
            "{lines:#?}"
        );
    }
    engine.send("position fen 8/8/8/4k3/8/8/8/4KN2 w - - 0 1");
    assert_eq!(score(last_info(&engine.go("depth 6"))), Some(("cp", 0)));
    assert!(engine.quit());
}
