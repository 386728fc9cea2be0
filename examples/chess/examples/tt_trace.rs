//! Writes a trace of the table operations of a search for the table benchmarks
//! (benches/src/bin/dense.rs): each record is 10 bytes, op (0 probe, 1 store, 2 new generation,
//! 3 clear), depth, key (little-endian). One thread.
//!
//! * `cargo run --release -p chess --features trace --example tt_trace -- OUT [DEPTH]`: the
//!   twelve bench positions, each from an empty table (default depth 11);
//! * `... -- OUT DEPTH GAME`: every position of the game in the file GAME (one line of UCI moves
//!   from the start position) searched in order with one table, a new generation per `go`, as
//!   in a game (benchmarks.py's 117-position game: see BENCHMARKS.md, "Dense layout").

use chess::tt::{TableConfig, TranspositionTable, TtLayout};
use chess::uci::Engine;
use searchcache::Slots;
use std::io::BufWriter;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = args.next().ok_or("usage: tt_trace OUT [DEPTH [GAME]]")?;
    let depth: i32 = match args.next() {
        Some(d) => d.parse().map_err(|_| format!("bad depth '{d}'"))?,
        None => 11,
    };
    chess::trace::start();
    match args.next() {
        Some(game) => search_game(&game, depth)?,
        None => bench(depth)?,
    }
    let file = std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?;
    let ops = chess::trace::drain(BufWriter::new(file)).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("{ops} table operations written to {out}");
    Ok(())
}

/// The bench positions, each from an empty table.
fn bench(depth: i32) -> Result<(), String> {
    let tt = TranspositionTable::new(TableConfig {
        mib: 16,
        slots: Slots::Bucket,
        huge_pages: false,
        layout: TtLayout::Wide,
    })?;
    let evals = chess::eval_cache::EvalCache::off();
    let result = chess::bench::bench(&tt, &evals, depth, 1);
    eprintln!("{} nodes", result.nodes);
    Ok(())
}

/// Every position of the game in `path`, in order, with one table (the engine's default).
fn search_game(path: &str, depth: i32) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let moves: Vec<&str> = text.split_whitespace().collect();
    let mut engine = Engine::new()?;
    engine.handle("ucinewgame");
    for ply in 0..moves.len() {
        engine.handle(&format!(
            "position startpos moves {}",
            moves[..ply].join(" ")
        ));
        engine.handle(&format!("go depth {depth}"));
        engine.end_of_input();
    }
    Ok(())
}
