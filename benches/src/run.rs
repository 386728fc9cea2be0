//! The measurement loop: `threads` threads released together by a barrier, each running the
//! mix until the main thread says stop, each timing itself.

use crate::contender::Contender;
use crate::rng::{below, key_of, WyRand};
use crate::workload::{Keys, Op, Workload};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Operations between two looks at the stop flag: ~10-100 µs of work, so the flag costs
/// nothing and a thread overruns the deadline by at most that.
const CHUNK: usize = 1024;

/// Keys per prefetch batch when batching is on. 16 misses in flight cover the ~10-20 line fill
/// buffers of current cores; see the matrix's batch-size column for 8 vs 16.
pub const DEFAULT_BATCH: usize = 16;

/// One run of a workload.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The mix.
    pub workload: Workload,
    /// Keys are `key_of(0..universe)` (for [`Keys::Universe`]).
    pub universe: u64,
    /// Threads started together.
    pub threads: usize,
    /// Prefetch every key of a batch before doing its operations (only tables that can).
    pub prefetch: bool,
    /// How long to run.
    pub duration: Duration,
    /// Seed of thread 0's generator (thread `t` uses `seed + t`).
    pub seed: u64,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Operations done, all threads.
    pub ops: u64,
    /// Of them, reads.
    pub reads: u64,
    /// Reads that found their key.
    pub hits: u64,
    /// The longest thread's wall-clock time, seconds.
    pub secs: f64,
    /// CPU time of all threads together, seconds (from `/proc/thread-self/schedstat`; equal
    /// to `threads × secs` on an idle machine, less when other jobs took the cores).
    pub cpu_secs: f64,
    /// Threads.
    pub threads: usize,
}

impl Outcome {
    /// Millions of operations per second, all threads together, counting only the time the
    /// threads were on a CPU: what the threads do when each has a core (the machine this suite
    /// was written on ran other jobs too; wall-clock rates are in [`Outcome::wall_mops`]).
    pub fn mops(&self) -> f64 {
        self.threads as f64 * 1e3 / self.ns_per_op()
    }

    /// Nanoseconds of CPU time per operation per thread (equal to 1000 / Mops at one thread).
    pub fn ns_per_op(&self) -> f64 {
        self.cpu_secs * 1e9 / self.ops as f64
    }

    /// Millions of operations per wall-clock second, all threads together.
    pub fn wall_mops(&self) -> f64 {
        self.ops as f64 / self.secs / 1e6
    }

    /// The share of the wall-clock time the threads were on a CPU (1 on an idle machine).
    pub fn cpu_share(&self) -> f64 {
        self.cpu_secs / (self.secs * self.threads as f64)
    }

    /// Reads that hit, as a fraction; `None` without reads.
    pub fn hit_rate(&self) -> Option<f64> {
        (self.reads > 0).then(|| self.hits as f64 / self.reads as f64)
    }
}

/// Counts one thread brings back.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Operations.
    pub ops: u64,
    /// Reads.
    pub reads: u64,
    /// Hits.
    pub hits: u64,
}

/// Runs `work(thread, stop)` on `threads` threads released by one barrier, for `duration`; each
/// thread must return soon after `stop` turns true. The main thread sleeps meanwhile.
pub fn timed<F>(threads: usize, duration: Duration, work: F) -> Outcome
where
    F: Fn(usize, &AtomicBool) -> Counts + Sync,
{
    let stop = AtomicBool::new(false);
    let barrier = Barrier::new(threads + 1);
    let results: Vec<(Counts, f64, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (stop, barrier, work) = (&stop, &barrier, &work);
                s.spawn(move || {
                    barrier.wait();
                    let (start, cpu_start) = (Instant::now(), thread_cpu_secs());
                    let counts = work(t, stop);
                    let cpu = thread_cpu_secs() - cpu_start;
                    let wall = start.elapsed().as_secs_f64();
                    // Without schedstat (not Linux), assume the thread had its core throughout.
                    (counts, wall, if cpu > 0.0 { cpu } else { wall })
                })
            })
            .collect();
        barrier.wait();
        std::thread::sleep(duration);
        stop.store(true, Relaxed);
        handles
            .into_iter()
            .map(|h| h.join().expect("a benchmark thread panicked"))
            .collect()
    });
    let mut outcome = Outcome {
        threads,
        ..Outcome::default()
    };
    for (c, secs, cpu) in results {
        outcome.cpu_secs += cpu;
        outcome.ops += c.ops;
        outcome.reads += c.reads;
        outcome.hits += c.hits;
        outcome.secs = outcome.secs.max(secs);
    }
    outcome
}

/// This thread's CPU time so far, seconds: the first field of `/proc/thread-self/schedstat`
/// (nanoseconds, brought up to date at every tick and context switch, so a few ms behind at
/// worst). 0 where it cannot be read.
pub fn thread_cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 * 1e-9)
}

/// Runs `spec` on `table`.
pub fn run<C: Contender>(table: &C, spec: &Spec) -> Outcome {
    let ops = spec.workload.op_table();
    let prefetch = spec.prefetch && table.can_prefetch();
    timed(spec.threads, spec.duration, |t, stop| {
        let mut rng = WyRand::new(spec.seed.wrapping_add(t as u64));
        let mut keys = KeySource::new(spec.workload.keys, spec.universe, t);
        let mut counts = Counts::default();
        let mut batch = [(Op::Read, 0u64); DEFAULT_BATCH];
        while !stop.load(Relaxed) {
            for _ in 0..CHUNK / DEFAULT_BATCH {
                for slot in &mut batch {
                    let r = rng.next_u64();
                    // Low 16 bits pick the operation, the high bits (through `below`) the key.
                    let op = ops[(((r & 0xffff) * 100) >> 16) as usize];
                    *slot = (op, keys.next(op, r));
                }
                if prefetch {
                    for &(_, key) in &batch {
                        table.prefetch(key);
                    }
                }
                for &(op, key) in &batch {
                    match op {
                        Op::Read => {
                            counts.reads += 1;
                            counts.hits += u64::from(table.read(key));
                        }
                        Op::Insert => table.insert(key, key as u32),
                        Op::Remove => table.remove(key),
                        Op::Update => table.update(key, (key >> 32) as u32),
                    }
                }
            }
            counts.ops += CHUNK as u64;
        }
        counts
    })
}

/// The leanest loop that still does a table's work: `ops` reads of uniformly drawn keys of the
/// universe, nothing else (no operation mix, no batch, no stop flag). Returns the hits. What
/// the `lean` runner times, to show how much of a probe's cost the measurement loop hides.
#[inline(never)]
pub fn lean_reads<C: Contender>(table: &C, universe: u64, ops: u64, seed: u64) -> u64 {
    let mut rng = WyRand::new(seed);
    let mut hits = 0;
    for _ in 0..ops {
        hits += u64::from(table.read(key_of(below(rng.next_u64(), universe))));
    }
    hits
}

/// Picks each operation's key.
struct KeySource {
    keys: Keys,
    universe: u64,
    /// Rapid grow: this thread's key indices start here (disjoint per thread)...
    base: u64,
    /// ...and it has inserted this many.
    inserted: u64,
}

impl KeySource {
    fn new(keys: Keys, universe: u64, thread: usize) -> Self {
        KeySource {
            keys,
            universe,
            base: (thread as u64) << 48,
            inserted: 0,
        }
    }

    #[inline(always)]
    fn next(&mut self, op: Op, r: u64) -> u64 {
        match self.keys {
            Keys::Universe => key_of(below(r, self.universe)),
            Keys::Fresh if op == Op::Insert => {
                self.inserted += 1;
                key_of(self.base + self.inserted)
            }
            Keys::Fresh => key_of(self.base + below(r, self.inserted + 1)),
        }
    }
}

/// Inserts `key_of(0..universe)` into `table` from `threads` threads (each a contiguous share).
pub fn fill<C: Contender>(table: &C, universe: u64, threads: usize) {
    let threads = threads.max(1) as u64;
    std::thread::scope(|s| {
        for t in 0..threads {
            s.spawn(move || {
                let (lo, hi) = (universe * t / threads, universe * (t + 1) / threads);
                // In prefetched batches where the table can: filling 4 GiB is 2^28 stores.
                let mut i = lo;
                while i < hi {
                    let end = hi.min(i + DEFAULT_BATCH as u64);
                    (i..end).for_each(|i| table.prefetch(key_of(i)));
                    for i in i..end {
                        let key = key_of(i);
                        table.insert(key, key as u32);
                    }
                    i = end;
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contender::searchcache;
    use crate::workload::ALL;

    #[test]
    fn the_lean_loop_finds_what_was_filled() {
        let table = searchcache(1 << 20, true).unwrap();
        let universe = (table.capacity() / 2) as u64;
        fill(&table, universe, 2);
        let hits = lean_reads(&table, universe, 10_000, 7);
        // Half a table's worth of keys: nearly all stay.
        assert!(hits > 9_000 && hits <= 10_000, "{hits}");
        let empty = searchcache(1 << 20, true).unwrap();
        assert_eq!(lean_reads(&empty, universe, 10_000, 7), 0);
    }

    #[test]
    fn runs_count_what_they_did() {
        let table = searchcache(1 << 20, true).unwrap();
        let universe = (table.capacity() / 2) as u64;
        fill(&table, universe, 2);
        for workload in ALL {
            for prefetch in [false, true] {
                let spec = Spec {
                    workload,
                    universe,
                    threads: 2,
                    prefetch,
                    duration: Duration::from_millis(20),
                    seed: 1,
                };
                let out = run(&table, &spec);
                assert!(out.ops >= CHUNK as u64 && out.ops.is_multiple_of(CHUNK as u64));
                assert!(out.hits <= out.reads && out.reads <= out.ops);
                let expected = workload.mix[0] as f64 / 100.0;
                let reads = out.reads as f64 / out.ops as f64;
                assert!(
                    (reads - expected).abs() < 0.02,
                    "{}: {reads}",
                    workload.name
                );
                if workload.name == "probe-only" {
                    // Half a table's worth of keys: nearly all stay.
                    assert!(out.hit_rate().unwrap() > 0.9, "{out:?}");
                }
            }
        }
    }
}
