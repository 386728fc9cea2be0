//! Allocations per state of the model checker (issue 26's "before" and "after" figure): a
//! counting global allocator around one `modelcheck::check` run of a built-in model.
//!
//! ```sh
//! cd benches && cargo run --release --bin alloc_per_state -- paxos 2 fp64 2
//! ```
//!
//! `alloc_per_state <model> <N> [mode] [threads]` (mode default fp64, threads default 2). Counts
//! every `alloc`, `alloc_zeroed` and `realloc` during the run (a `realloc` is one allocation of
//! its new size), divided by the distinct states and by the transitions. Tables of 2 MiB and
//! more are mmapped by the crate, not allocated, so the visited set is not in these figures
//! except in exact mode (a hash set of full states); the frontier, the successor lists, the
//! states' own heap parts and the trace log are.

use modelcheck::{check, models, Mode, Model, Options, Verdict};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Allocation calls, and the bytes they asked for.
static CALLS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

struct Counting;

fn count(bytes: usize) {
    CALLS.fetch_add(1, Relaxed);
    BYTES.fetch_add(bytes as u64, Relaxed);
}

// SAFETY: forwards every call to `System` unchanged; only counts calls and sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

struct Run {
    mode: Mode,
    threads: usize,
}

impl models::WithModel for Run {
    type Output = Result<(), String>;
    fn visit<M: Model>(self, model: M) -> Result<(), String> {
        let options = Options {
            threads: self.threads,
            mode: self.mode,
            memory_bytes: 256 << 20,
            ..Options::default()
        };
        let (calls, bytes) = (CALLS.load(Relaxed), BYTES.load(Relaxed));
        let report = check(&model, &options);
        let calls = CALLS.load(Relaxed) - calls;
        let bytes = BYTES.load(Relaxed) - bytes;
        if !matches!(report.verdict, Verdict::Complete) {
            return Err(format!("{}: the search did not complete", model.name()));
        }
        let (states, transitions) = (report.stats.states, report.stats.transitions);
        searchcache_bench::outln!(
            "{} {} threads={}: states {states}, transitions {transitions}, allocations {calls} ({:.2}/state, {:.3}/transition), bytes {bytes} ({:.1} B/state, {:.1} B/transition)",
            model.name(),
            self.mode,
            self.threads,
            calls as f64 / states as f64,
            calls as f64 / transitions as f64,
            bytes as f64 / states as f64,
            bytes as f64 / transitions as f64,
        );
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: alloc_per_state <model> <N> [fp64|fp32|bitstate|exact] [threads]";
    let mode = args.get(2).map_or(Ok(Mode::Fp64), |m| m.parse::<Mode>());
    let threads = args
        .get(3)
        .map_or(Some(2), |t| t.parse().ok().filter(|&t| t > 0));
    let (Some(name), Some(n), Ok(mode), Some(threads)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse().ok()),
        mode,
        threads,
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    match models::with_model(name, n, Run { mode, threads }) {
        Ok(Ok(())) => {}
        Ok(Err(e)) | Err(e) => {
            eprintln!("{e}\n{usage}");
            std::process::exit(2);
        }
    }
}
