//! Fills a table from two threads, probes it, and prints the hit rate and the time per probe.
//!
//! `cargo run --release --example quickstart [MiB]` (default 64 MiB).

use searchcache::{SearchCache, Size};
use std::io::Write;
use std::time::Instant;

fn main() {
    let mib = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        None => 64,
        Some(Ok(mib)) => mib,
        Some(Err(e)) => {
            eprintln!("usage: quickstart [MiB]: {e}");
            std::process::exit(2);
        }
    };
    let table: SearchCache<u32> = match SearchCache::new(Size::Mib(mib)) {
        Ok(table) => table,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    // Store 1.5× capacity keys, so a third of them must have been evicted, then probe them all.
    let keys = table.capacity() as u64 * 3 / 2;
    let started = Instant::now();
    std::thread::scope(|s| {
        for half in 0..2u64 {
            let table = &table;
            s.spawn(move || {
                for k in (half..keys).step_by(2) {
                    table.store(k, value_of(k));
                }
            });
        }
    });
    let fill = started.elapsed();
    let started = Instant::now();
    let (mut hits, mut wrong) = (0u64, 0u64);
    for k in 0..keys {
        match table.probe(k) {
            Some(v) if v == value_of(k) => hits += 1,
            Some(_) => wrong += 1,
            None => {}
        }
    }
    let probe = started.elapsed();
    let report = format!(
        "{mib} MiB, {} entries: stored {keys} keys in {:.2?} (2 threads)\n\
         probed {keys}: hit rate {:.1} %, {:.1} ns/probe, wrong values {wrong}\n\
         hashfull {} permille\n",
        table.capacity(),
        fill,
        100.0 * hits as f64 / keys as f64,
        probe.as_nanos() as f64 / keys as f64,
        table.hashfull()
    );
    // `println!` panics when stdout is closed (`quickstart | head -1`); a reader that has gone
    // is no error of ours, anything else is.
    match std::io::stdout().lock().write_all(report.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the report: {e}");
            std::process::exit(1);
        }
        _ => {}
    }
}

fn value_of(key: u64) -> u32 {
    (key as u32).wrapping_mul(0x9E37_79B9)
}
