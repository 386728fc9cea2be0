//! The clock is never overrun, whatever `movestogo` and `Threads` say. A file of its own so
//! that no other test of this package loads the cores while it runs (cargo runs test binaries
//! one after another).

use crate::engine;

use engine::{field, last_info, Engine};
use std::time::{Duration, Instant};

/// The clock is never overrun: `movestogo 1` uses at most a quarter of it, and 256 threads on
/// this machine's cores still answer within a 1 s clock.
#[test]
fn the_clock_holds() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5");
    for go in [
        "wtime 2000 btime 2000 movestogo 1",
        "wtime 2000 btime 2000 movestogo 0",
    ] {
        let started = Instant::now();
        let lines = engine.go(go);
        let took = started.elapsed();
        assert!(took < Duration::from_millis(2000), "go {go} took {took:?}");
        let reported: u64 = field(last_info(&lines), "time").unwrap().parse().unwrap();
        assert!(reported <= 2000 / 4 + 100, "go {go}: {lines:#?}");
    }
    engine.send("setoption name Threads value 256");
    assert!(engine.sync().is_empty());
    for _ in 0..3 {
        let started = Instant::now();
        let lines = engine.go("wtime 1000 btime 1000");
        let took = started.elapsed();
        assert!(
            took < Duration::from_millis(1000),
            "256 threads took {took:?}"
        );
        assert!(lines.last().unwrap().starts_with("bestmove "));
    }
    assert!(engine.quit());
}
