//! A record of every table operation (cargo feature `trace`): what the table benchmarks replay
//! into other tables (benches/src/bin/dense.rs) to compare their hit rates on a real search.
//! Recording takes a lock per operation: for making traces, never for playing. It records only
//! after [`start`], so a build with every feature on (the README's test command) plays as
//! before, at the cost of one relaxed load per operation.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

/// A table operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A probe of a key.
    Probe = 0,
    /// A store of a key at a depth.
    Store = 1,
    /// A new search.
    NewGeneration = 2,
    /// The table was emptied.
    Clear = 3,
}

/// Every operation so far: (op, depth, key).
static TRACE: Mutex<Vec<(Op, i8, u64)>> = Mutex::new(Vec::new());

/// Whether [`record`] records.
static RECORDING: AtomicBool = AtomicBool::new(false);

/// Starts recording.
pub fn start() {
    RECORDING.store(true, Relaxed);
}

/// Appends one operation, once [`start`] was called.
#[inline]
pub fn record(op: Op, key: u64, depth: i8) {
    if !RECORDING.load(Relaxed) {
        return;
    }
    TRACE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((op, depth, key));
}

/// Writes the operations so far to `w`, 10 bytes each (op, depth, key little-endian), and
/// forgets them; returns how many there were.
pub fn drain(mut w: impl Write) -> std::io::Result<usize> {
    let ops = std::mem::take(&mut *TRACE.lock().unwrap_or_else(|e| e.into_inner()));
    for &(op, depth, key) in &ops {
        w.write_all(&[op as u8, depth as u8])?;
        w.write_all(&key.to_le_bytes())?;
    }
    Ok(ops.len())
}
