//! Writes a trace of the table operations of `bench` (the twelve bench positions, one thread)
//! for the table benchmarks: `cargo run --release -p chess --features trace --example tt_trace
//! -- OUT [DEPTH]` (default depth 11). Each record is 10 bytes: op (0 probe, 1 store, 2 new
//! generation, 3 clear), depth, key (little-endian).

use chess::tt::{TableConfig, TranspositionTable, TtLayout};
use searchcache::Slots;
use std::io::BufWriter;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = args.next().ok_or("usage: tt_trace OUT [DEPTH]")?;
    let depth = match args.next() {
        Some(d) => d.parse().map_err(|_| format!("bad depth '{d}'"))?,
        None => 11,
    };
    let tt = TranspositionTable::new(TableConfig {
        mib: 16,
        slots: Slots::Bucket,
        huge_pages: false,
        layout: TtLayout::Wide,
    })?;
    let result = chess::bench::bench(&tt, depth, 1);
    let file = std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?;
    let ops = chess::trace::drain(BufWriter::new(file)).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "{} nodes, {ops} table operations written to {out}",
        result.nodes
    );
    Ok(())
}
