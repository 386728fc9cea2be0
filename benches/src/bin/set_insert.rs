//! Visited-state set insert throughput (issue 3): `FingerprintSet` and `CompactSet` against
//! `dashmap::DashSet<u64>` and `Mutex<HashSet<u64>>`, on 10^7 distinct 64-bit fingerprints, with
//! 1 and 2 threads, and the bytes per state each one holds.
//!
//! ```sh
//! cd benches && cargo run --release --bin set_insert            # 10^7 states, 3 rounds
//! cargo run --release --bin set_insert -- 1000000 5             # states, rounds
//! ```
//!
//! Every structure is pre-sized for the states (as a checker that knows its model would), the
//! std and dashmap sets use ahash (the fingerprints are already hashes: SipHash would only
//! measure SipHash), and the fingerprints are `mix64(i)`, distinct by construction. Bytes per
//! state are the bytes the structure holds from the allocator after the inserts (a counting
//! global allocator), divided by the states; our tables are mmapped from 2 MiB up, where the
//! allocator does not see them, so ours count at least their `memory_bytes()`.
//!
//! Times are medians of the rounds, each on a fresh structure: wall-clock throughput, and the
//! CPU time of the inserting threads per insert (summed over threads), which a machine shared
//! with other jobs inflates less than wall time.

use ahash::RandomState;
use dashmap::DashSet;
use searchcache::{mix64, Bitstate, CompactSet, FingerprintSet, StateHash};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashSet;
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Bytes currently allocated through the global allocator.
static LIVE: AtomicIsize = AtomicIsize::new(0);

struct Counting;

// SAFETY: forwards every call to `System` unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A structure under test: build one for `n` states, insert a key (true if new), its bytes.
trait Subject: Sync {
    const NAME: &'static str;
    fn build(n: usize) -> Self;
    fn insert(&self, key: u64) -> bool;
    /// Bytes of the structure's table, which the global allocator does not see when the table
    /// is mmapped (ours, from 2 MiB up); 0 for the others.
    fn table_bytes(&self) -> usize {
        0
    }
}

impl Subject for FingerprintSet {
    const NAME: &'static str = "FingerprintSet (u64)";
    fn build(n: usize) -> Self {
        FingerprintSet::with_expected_states(n).expect("memory")
    }
    fn insert(&self, key: u64) -> bool {
        self.insert(StateHash::from_u64(key))
            .expect("sized for n")
            .is_new()
    }
    fn table_bytes(&self) -> usize {
        self.memory_bytes()
    }
}

impl Subject for CompactSet {
    const NAME: &'static str = "CompactSet (u32)";
    fn build(n: usize) -> Self {
        CompactSet::with_expected_states(n).expect("memory")
    }
    fn insert(&self, key: u64) -> bool {
        self.insert(StateHash::from_u64(key))
            .expect("sized for n")
            .is_new()
    }
    fn table_bytes(&self) -> usize {
        self.memory_bytes()
    }
}

/// Bitstate at 2 bytes per state, k = 3 (lossy: reported for scale, not a like-for-like set).
struct Bits(Bitstate);

impl Subject for Bits {
    const NAME: &'static str = "Bitstate 16 bit/state k=3 (lossy)";
    fn build(n: usize) -> Self {
        Bits(Bitstate::new(searchcache::Size::Bytes(2 * n), 3).expect("memory"))
    }
    fn insert(&self, key: u64) -> bool {
        self.0.insert(StateHash::from_u64(key)).is_new()
    }
    fn table_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}

impl Subject for DashSet<u64, RandomState> {
    const NAME: &'static str = "dashmap::DashSet<u64> (ahash)";
    fn build(n: usize) -> Self {
        DashSet::with_capacity_and_hasher(n, RandomState::new())
    }
    fn insert(&self, key: u64) -> bool {
        DashSet::insert(self, key)
    }
}

impl Subject for Mutex<HashSet<u64, RandomState>> {
    const NAME: &'static str = "Mutex<HashSet<u64>> (ahash)";
    fn build(n: usize) -> Self {
        Mutex::new(HashSet::with_capacity_and_hasher(n, RandomState::new()))
    }
    fn insert(&self, key: u64) -> bool {
        self.lock().unwrap().insert(key)
    }
}

/// CPU seconds this thread has run (user + system), from `/proc/thread-self/stat` in clock
/// ticks of 10 ms: coarse, but a round runs for seconds, and unlike wall time it does not count
/// the time other jobs on a shared machine held the core. 0 where the file is unreadable.
fn thread_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

/// One round: a fresh structure, `n` keys split over `threads`; (wall seconds, CPU seconds of
/// the inserting threads, bytes per state).
fn round<T: Subject>(n: usize, threads: usize) -> (f64, f64, f64) {
    let before = LIVE.load(Relaxed);
    let set = T::build(n);
    let start = Instant::now();
    let (new, cpu) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let set = &set;
                s.spawn(move || {
                    let cpu = thread_cpu_seconds();
                    let range = (n * t / threads) as u64..(n * (t + 1) / threads) as u64;
                    let new = range.filter(|&i| set.insert(mix64(i))).count();
                    (new, thread_cpu_seconds() - cpu)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .fold((0, 0.0), |(n, c), (dn, dc)| (n + dn, c + dc))
    });
    let seconds = start.elapsed().as_secs_f64();
    // Bitstate may miss a few; the sets must take every key.
    assert!(
        new as f64 >= 0.99 * n as f64,
        "{}: {new} of {n} new",
        T::NAME
    );
    // A heap table is in the allocator's count already, a mapped one is not.
    let bytes = ((LIVE.load(Relaxed) - before) as f64).max(set.table_bytes() as f64);
    drop(set);
    (seconds, cpu, bytes / n as f64)
}

fn measure<T: Subject>(n: usize, rounds: usize) {
    for threads in [1, 2] {
        let (mut walls, mut cpus) = (Vec::new(), Vec::new());
        let mut bytes = 0.0;
        for _ in 0..rounds {
            let (wall, cpu, b) = round::<T>(n, threads);
            walls.push(wall);
            cpus.push(cpu);
            bytes = b;
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (wall, cpu) = (median(&mut walls), median(&mut cpus));
        searchcache_bench::outln!(
            "| {:<34} | {threads} | {:>6.2} | {:>6.1} | {:>6.1} | {:>6.2} |",
            T::NAME,
            n as f64 / wall / 1e6,
            wall * 1e9 / n as f64,
            cpu * 1e9 / n as f64,
            bytes
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let parse = |a: Option<String>, default: usize, what: &str| match a {
        None => default,
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("usage: set_insert [STATES] [ROUNDS]: {what} {s:?} is not a number");
            std::process::exit(2)
        }),
    };
    let n = parse(args.next(), 10_000_000, "STATES").max(1);
    let rounds = parse(args.next(), 3, "ROUNDS").max(1);
    searchcache_bench::outln!("{n} distinct fingerprints, median of {rounds} rounds\n");
    searchcache_bench::outln!("| structure | threads | M inserts/s (wall) | wall ns/insert | CPU ns/insert | bytes/state |");
    searchcache_bench::outln!("|---|---|---|---|---|---|");
    measure::<FingerprintSet>(n, rounds);
    measure::<CompactSet>(n, rounds);
    measure::<DashSet<u64, RandomState>>(n, rounds);
    measure::<Mutex<HashSet<u64, RandomState>>>(n, rounds);
    measure::<Bits>(n, rounds);
}
