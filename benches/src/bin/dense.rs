//! Issue 29: the dense layouts (`DenseCache`, one word per entry, and `ClusterCache`, ten bytes
//! per entry) against the wide one (`SearchCache`) and a hand-written Stockfish-style table
//! (`searchcache_bench::handwritten`), side by side in one process:
//!
//! 1. entries per MiB;
//! 2. probe and store ns per operation (CPU time of the thread, so that preemption on a shared
//!    machine is not counted) at `--mib` (default 1024), 1 and 2 threads, as paired
//!    ratios: each round runs every cell once for `--secs`, in an order rotated every round,
//!    and the report gives the median over `--rounds` of each round's ratio. The cells: the
//!    three crate tables, the dense and cluster tables with `Slots::Half` (`dense half`,
//!    `cluster half`: a key probes the half of its line, as Stockfish's does its 32-byte
//!    cluster), the same two with `Keys::Random` and `Slots::Half` fixed by their type (`dense
//!    fixed`, `cluster fixed`: `Placement`) and the hand-written one on huge pages (the crate's
//!    tables prefaulted, as the hand-written ones are written whole when built), then dense, cluster and
//!    hand-written on 4 KiB pages, so that each dense layout is compared with the hand-written
//!    table on the same pages;
//! 3. with `--trace FILE` (from `cargo run --release -p chess --features trace --example
//!    tt_trace -- FILE [DEPTH [GAME]]`), the hit rate of each table replaying a chess search at
//!    1, 4, 16 MiB, and its false hits (values stored for another key). `--timings false`
//!    skips part 2.
//! 4. with `--count TABLE` (a cell's name: wide, dense, cluster, hand, hand dense, …), no
//!    timing: TABLE filled at `--mib`, then 2^20 probes and 2^20 stores of random keys in the functions `count_probes` and
//!    `count_stores`, for an instruction count that no load on the machine changes:
//!    `valgrind --tool=callgrind --toggle-collect='*count_probes*' dense --mib 16 --count cluster`
//!    (Ir ÷ 2^20 is instructions per probe, the `dyn` call included, as in part 2).
//!
//! 5. `--cells wide,dense,hand` times only the cells named (the ratios whose two cells are
//!    both there), for quicker paired runs of a few cells.
//!
//! `cargo run --release --manifest-path benches/Cargo.toml --bin dense -- --help`

use searchcache::{
    ClusterCache, DenseCache, HugePages, Keys, Options, Pack64, Placement, SearchCache, Size, Slots,
};
use searchcache_bench::handwritten::Stockfish10;
use searchcache_bench::handwritten_dense::HandDense;
use searchcache_bench::memory::huge_page_bytes;
use searchcache_bench::rng::{below, key_of, WyRand};
use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: dense [--mib MIB] [--rounds N] [--secs S] [--trace FILE] \
     [--timings true|false] [--count TABLE] [--cells NAME,NAME,...]";

/// A bench value: 24 bits of its key (to count false hits) and a depth.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Value {
    key_bits: u32,
    depth: i8,
}

impl Pack64 for Value {
    const BITS: u32 = 32;
    fn pack(self) -> u64 {
        u64::from(self.key_bits) | u64::from(self.depth as u8) << 24
    }
    fn unpack(bits: u64) -> Self {
        Value {
            key_bits: bits as u32 & 0xff_ffff,
            depth: (bits >> 24) as u8 as i8,
        }
    }
    fn depth(&self) -> i32 {
        self.depth.into()
    }
}

fn value(key: u64, depth: i8) -> Value {
    Value {
        key_bits: (key >> 40) as u32,
        depth,
    }
}

/// The three tables behind one face.
trait Table: Sync {
    fn probe(&self, key: u64) -> Option<Value>;
    fn store(&self, key: u64, v: Value);
    fn new_generation(&self);
    fn clear(&self);
}

macro_rules! table {
    ($t:ty) => {
        impl Table for $t {
            fn probe(&self, key: u64) -> Option<Value> {
                <$t>::probe(self, key)
            }
            fn store(&self, key: u64, v: Value) {
                <$t>::store(self, key, v);
            }
            fn new_generation(&self) {
                <$t>::new_generation(self);
            }
            fn clear(&self) {
                <$t>::clear(self);
            }
        }
    };
}

table!(SearchCache<Value>);
table!(DenseCache<Value>);
table!(ClusterCache<Value>);
table!(DenseCache<Value, Zobrist>);
table!(ClusterCache<Value, Zobrist>);

/// The `fixed` cells' placement: `options(true, true)`'s keys and slots, fixed by the type.
struct Zobrist;

impl Placement for Zobrist {
    const KEYS: Option<Keys> = Some(Keys::Random);
    const SLOTS: Option<Slots> = Some(Slots::Half);
}
table!(Stockfish10<Value>);
table!(HandDense<Value>);

/// Zobrist-like keys, as engines hand them: `Keys::Random` for the crate's tables; a key's
/// whole line, or with `half` the half of it the key chooses (`Slots::Half`).
fn options(huge: bool, half: bool) -> Options {
    let pages = if huge {
        HugePages::Advise
    } else {
        HugePages::Never
    };
    let slots = if half { Slots::Half } else { Slots::Bucket };
    Options::default()
        .keys(Keys::Random)
        .huge_pages(pages)
        .slots(slots)
}

/// The cells of the timing runs, by name: which table, on which pages.
const CELLS: [&str; 12] = [
    "wide",
    "dense",
    "cluster",
    "dense half",
    "cluster half",
    "dense fixed",
    "cluster fixed",
    "hand",
    "hand dense",
    "dense 4K",
    "cluster 4K",
    "hand 4K",
];

/// The table `name` at `mib` (a name of [`CELLS`], or `wide 4K`), or why its memory cannot
/// be had.
fn table(name: &str, mib: usize) -> Result<Box<dyn Table>, String> {
    let size = Size::Mib(mib);
    let huge = !name.ends_with(" 4K");
    let base = name.trim_end_matches(" 4K");
    let half = base.ends_with(" half") || base.ends_with(" fixed");
    let bytes = mib
        .checked_mul(1 << 20)
        .ok_or_else(|| format!("{mib} MiB overflows"))?;
    let crate_error = |e: searchcache::Error| e.to_string();
    let options = options(huge, half);
    // The crate's tables are prefaulted, as an engine does when it sets `Hash` (a table's
    // first touch then runs in address order), since the hand-written tables are written
    // whole when built: faulted in the random order of the fill, a table ran random probes
    // 1.15-1.2x slower on this VM (BENCHMARKS.md, "Options fixed by the type").
    Ok(match base.trim_end_matches(" half") {
        "dense fixed" => {
            let t =
                DenseCache::<Value, Zobrist>::with_placement(size, options).map_err(crate_error)?;
            t.prefault();
            Box::new(t)
        }
        "cluster fixed" => {
            let t = ClusterCache::<Value, Zobrist>::with_placement(size, options)
                .map_err(crate_error)?;
            t.prefault();
            Box::new(t)
        }
        "wide" => {
            let t = SearchCache::with_options(size, options).map_err(crate_error)?;
            t.prefault();
            Box::new(t)
        }
        "dense" => {
            let t = DenseCache::with_options(size, options).map_err(crate_error)?;
            t.prefault();
            Box::new(t)
        }
        "cluster" => {
            let t = ClusterCache::with_options(size, options).map_err(crate_error)?;
            t.prefault();
            Box::new(t)
        }
        "hand" => Box::new(Stockfish10::new(bytes, huge)?),
        "hand dense" => Box::new(HandDense::new(bytes, huge)?),
        _ => return Err(format!("not a cell: {name}")),
    })
}

/// Named tables, as timed side by side.
type Cells = Vec<(&'static str, Box<dyn Table>)>;

/// The cells named in `only` (all of them without it), in [`CELLS`]' order.
fn tables(mib: usize, only: Option<&[String]>) -> Result<Cells, String> {
    if let Some(unknown) = only.and_then(|o| o.iter().find(|n| !CELLS.contains(&n.as_str()))) {
        return Err(format!(
            "no cell '{unknown}'; the cells: {}",
            CELLS.join(", ")
        ));
    }
    let wanted = |name: &str| only.is_none_or(|o| o.iter().any(|n| n == name));
    CELLS
        .into_iter()
        .filter(|name| wanted(name))
        .map(|name| Ok((name, table(name, mib)?)))
        .collect()
}

/// The ratios reported, by the names of [`tables`]: each dense layout against the wide table
/// and against the hand-written one on the same pages.
const RATIOS: [(&str, &str); 11] = [
    ("dense", "wide"),
    ("cluster", "wide"),
    ("dense", "hand"),
    ("dense half", "hand"),
    ("cluster half", "hand"),
    ("dense fixed", "hand"),
    ("cluster fixed", "hand"),
    ("dense", "hand dense"),
    ("cluster", "hand"),
    ("dense 4K", "hand 4K"),
    ("cluster 4K", "hand 4K"),
];

/// Nanoseconds this thread has run on a CPU (Linux's `/proc/thread-self/schedstat`), so that
/// time spent preempted by other jobs on a shared machine is not counted; wall time elsewhere.
fn cpu_ns(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos() as f64)
}

/// What a cell times.
#[derive(Clone, Copy)]
enum Op {
    /// Independent probes of random keys: as many misses in flight as the core allows.
    Probe,
    /// Stores of random keys.
    Store,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Probe => "probe",
            Op::Store => "store",
        }
    }
}

/// 1,024 operations of `op` on random keys of `universe`.
#[inline(always)]
fn batch(table: &dyn Table, universe: u64, op: Op, rng: &mut WyRand) {
    for _ in 0..1024 {
        let key = key_of(below(rng.next_u64(), universe));
        match op {
            Op::Probe => {
                black_box(table.probe(key));
            }
            Op::Store => table.store(key, value(key, (key & 7) as i8)),
        }
    }
}

/// CPU ns per operation per thread of `threads` threads running `op` on `table` for `secs` of
/// wall time each.
fn cell(table: &dyn Table, universe: u64, threads: usize, op: Op, secs: Duration) -> f64 {
    let start = Barrier::new(threads);
    let per_thread: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let start = &start;
                s.spawn(move || {
                    let mut rng = WyRand::new(t as u64 * 7919 + 1);
                    start.wait();
                    let begin = Instant::now();
                    let cpu = cpu_ns(begin);
                    let mut ops = 0u64;
                    while begin.elapsed() < secs {
                        batch(table, universe, op, &mut rng);
                        ops += 1024;
                    }
                    (cpu_ns(begin) - cpu) / ops as f64
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    per_thread.iter().sum::<f64>() / threads as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Part 2: the paired timing runs.
fn timings(
    mib: usize,
    rounds: usize,
    secs: Duration,
    only: Option<&[String]>,
) -> Result<(), String> {
    let cells = tables(mib, only)?;
    // The universe: what the dense table holds at load factor 1.
    let universe = (mib as u64) << 17;
    for (name, t) in &cells {
        let begin = Instant::now();
        for i in 0..universe {
            let key = key_of(i);
            t.store(key, value(key, (key & 7) as i8));
        }
        let huge = huge_page_bytes().unwrap_or(0) >> 20;
        eprintln!(
            "filled {name} in {:.1?}; the process's huge pages now {huge} MiB",
            begin.elapsed()
        );
    }
    let names: Vec<&str> = cells.iter().map(|(name, _)| *name).collect();
    let index = |name| names.iter().position(|&n| n == name).unwrap();
    let ratios_here: Vec<(&str, &str)> = RATIOS
        .into_iter()
        .filter(|(a, b)| names.contains(a) && names.contains(b))
        .collect();
    let ratio_cells: Vec<(usize, usize)> = ratios_here
        .iter()
        .map(|&(a, b)| (index(a), index(b)))
        .collect();
    let pairs: Vec<String> = ratios_here
        .iter()
        .map(|(a, b)| format!("{a} ÷ {b}"))
        .collect();
    println!(
        "\n| {mib} MiB | threads | {} ns | {} |",
        names.join(" ns | "),
        pairs.join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(names.len() + pairs.len()));
    for op in [Op::Probe, Op::Store] {
        for threads in [1, 2] {
            let mut ns: Vec<Vec<f64>> = vec![Vec::new(); cells.len()];
            let mut ratios = vec![Vec::new(); ratio_cells.len()];
            for round in 0..rounds {
                let mut this = vec![0.0; cells.len()];
                for k in 0..cells.len() {
                    let i = (k + round) % cells.len();
                    this[i] = cell(cells[i].1.as_ref(), universe, threads, op, secs);
                    ns[i].push(this[i]);
                }
                for (r, &(a, b)) in ratios.iter_mut().zip(&ratio_cells) {
                    r.push(this[a] / this[b]);
                }
            }
            let m: Vec<String> = ns
                .into_iter()
                .map(|v| format!("{:.1}", median(v)))
                .collect();
            let r: Vec<String> = ratios
                .into_iter()
                .map(|v| format!("{:.3}", median(v)))
                .collect();
            println!(
                "| {} | {threads} | {} | {} |",
                op.name(),
                m.join(" | "),
                r.join(" | ")
            );
        }
    }
    Ok(())
}

/// Part 3: hit rates replaying a trace of (op, depth, key) records.
fn hit_rates(path: &str) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let ops: Vec<(u8, i8, u64)> = bytes
        .chunks_exact(10)
        .map(|r| {
            (
                r[0],
                r[1] as i8,
                u64::from_le_bytes(r[2..10].try_into().unwrap()),
            )
        })
        .collect();
    let probes = ops.iter().filter(|o| o.0 == 0).count();
    println!(
        "\nTrace {path}: {} operations, {probes} probes\n",
        ops.len()
    );
    let names = [
        "wide 4K",
        "dense 4K",
        "dense half 4K",
        "cluster 4K",
        "cluster half 4K",
        "hand 4K",
    ];
    let short = names.map(|n| n.trim_end_matches(" 4K"));
    println!(
        "| Hash | {} hit % | false hits ({}) |",
        short.join(" hit % | "),
        short.join(" / ")
    );
    println!("|---|{}---|", "---|".repeat(names.len()));
    for mib in [1, 4, 16] {
        let cells = names
            .map(|name| table(name, mib))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let results: Vec<(f64, u64)> = cells.iter().map(|t| replay(t.as_ref(), &ops)).collect();
        let rates: Vec<String> = results
            .iter()
            .map(|r| format!("{:.2}", 100.0 * r.0))
            .collect();
        let wrong: Vec<String> = results.iter().map(|r| r.1.to_string()).collect();
        println!(
            "| {mib} MiB | {} | {} |",
            rates.join(" | "),
            wrong.join(" / ")
        );
    }
    Ok(())
}

/// Hit rate and false hits (a value stored for another key) of `t` replaying `ops`.
fn replay(t: &dyn Table, ops: &[(u8, i8, u64)]) -> (f64, u64) {
    let (mut probes, mut hits, mut wrong) = (0u64, 0u64, 0u64);
    for &(op, depth, key) in ops {
        match op {
            0 => {
                probes += 1;
                if let Some(v) = t.probe(key) {
                    hits += 1;
                    wrong += u64::from(v.key_bits != value(key, 0).key_bits);
                }
            }
            1 => t.store(key, value(key, depth)),
            2 => t.new_generation(),
            _ => t.clear(),
        }
    }
    (hits as f64 / probes.max(1) as f64, wrong)
}

/// Operations of part 4.
const COUNTED: u64 = 1 << 20;

/// Probes `COUNTED` random keys of `universe` (about half of them stored); the hits.
#[inline(never)]
fn count_probes(t: &dyn Table, universe: u64) -> u64 {
    let mut rng = WyRand::new(17);
    (0..COUNTED)
        .filter(|_| t.probe(key_of(below(rng.next_u64(), universe))).is_some())
        .count() as u64
}

/// Stores `COUNTED` random keys of `universe`.
#[inline(never)]
fn count_stores(t: &dyn Table, universe: u64) {
    let mut rng = WyRand::new(19);
    for _ in 0..COUNTED {
        let key = key_of(below(rng.next_u64(), universe));
        t.store(key, value(key, (key & 7) as i8));
    }
}

/// Part 4: one table filled with the universe's first keys, then the counted operations.
fn count(mib: usize, name: &str) -> Result<(), String> {
    let (_, t) = tables(mib, Some(&[name.to_string()]))?
        .pop()
        .expect("tables gives the one cell named");
    let universe = (mib as u64) << 17;
    for i in 0..universe / 2 {
        let key = key_of(i);
        t.store(key, value(key, (key & 7) as i8));
    }
    let hits = count_probes(t.as_ref(), universe);
    count_stores(t.as_ref(), universe);
    println!("{name}: {hits} hits of {COUNTED} probes, then {COUNTED} stores");
    Ok(())
}

fn main() -> Result<(), String> {
    let (mut mib, mut rounds, mut secs, mut trace) = (1024usize, 15usize, 0.05f64, None);
    let (mut timed, mut counted, mut only) = (true, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(USAGE)?;
        let bad = || format!("bad value '{value}' for {flag}\n{USAGE}");
        match flag.as_str() {
            "--mib" => mib = value.parse().ok().filter(|&m| m > 0).ok_or_else(bad)?,
            "--rounds" => rounds = value.parse().ok().filter(|&r| r > 0).ok_or_else(bad)?,
            "--secs" => {
                secs = value
                    .parse()
                    .ok()
                    .filter(|&s: &f64| s > 0.0)
                    .ok_or_else(bad)?
            }
            "--trace" => trace = Some(value),
            "--timings" => timed = value.parse().map_err(|_| bad())?,
            "--count" => counted = Some(value),
            "--cells" => only = Some(value.split(',').map(String::from).collect::<Vec<_>>()),
            _ => return Err(USAGE.into()),
        }
    }
    if let Some(name) = counted {
        return count(mib, &name);
    }
    let wide = SearchCache::<Value>::new(Size::Mib(1)).unwrap().capacity();
    let dense = DenseCache::<Value>::new(Size::Mib(1)).unwrap().capacity();
    let cluster = ClusterCache::<Value>::new(Size::Mib(1)).unwrap().capacity();
    let hand = Stockfish10::<Value>::new(1 << 20, false)?.capacity();
    println!("Entries per MiB: wide {wide}, dense {dense}, cluster {cluster}, hand-written {hand}; dense ÷ wide {:.2}, cluster ÷ wide {:.2}, hand ÷ wide {:.2}", dense as f64 / wide as f64, cluster as f64 / wide as f64, hand as f64 / wide as f64);
    if let Some(path) = trace {
        hit_rates(&path)?;
    }
    if timed {
        timings(mib, rounds, Duration::from_secs_f64(secs), only.as_deref())?;
    }
    Ok(())
}
