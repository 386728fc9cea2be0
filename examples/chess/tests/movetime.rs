//! A fixed `go movetime` is a move time, not a clock: a short one still searches (it once lost
//! all of it to `Move Overhead` and played depth-1 moves). A file of its own so that no other
//! test of this package loads the cores while it runs.

use crate::engine;

use engine::{best_move, field, is_iteration, Engine};

/// `go movetime 50` from the start position completes depth 6 or more (about 2,000 nodes; it
/// used to stop at depth 1 to 5, after the 50 ms overhead left 1 ms). The depth is asserted,
/// not the time.
#[test]
fn movetime_50_reaches_depth_6() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    let lines = engine.go("movetime 50");
    let deepest = lines
        .iter()
        .filter(|line| is_iteration(line))
        .filter_map(|line| field(line, "depth")?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(deepest >= 6, "depth {deepest}: {lines:#?}");
    assert_ne!(best_move(&lines), "0000");
    assert!(engine.quit());
}
