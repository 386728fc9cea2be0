//! The targets of issue 8, measured as paired ratios.
//!
//! On a shared virtual machine the same loop's speed at 1 GiB moves by ±30 % from one minute to
//! the next (the host's memory traffic; see BENCHMARKS.md), so a ratio of two cells measured
//! minutes apart, as the matrix takes them, carries that noise. Here every ratio is taken from
//! its two cells run back to back, 0.05 s each, the order swapped every round, for 31 rounds;
//! the report gives the median ratio over the rounds and its spread. A drift slower than one
//! pair cancels out of each ratio.
//!
//! Everything is built once at the start: a buffer for the bare loops, three filled
//! `SearchCache`s (huge pages, 4 KiB pages, huge pages with `Keys::Random`), and a dashmap
//! pre-sized and filled with the same universe (about 7.5 GiB at the default 1 GiB).

use searchcache::Keys;
use searchcache_bench::bare::{Buffer, MixedRead};
use searchcache_bench::contender::{searchcache_with, Bench, Peer};
use searchcache_bench::host::{load_average, machine, shell};
use searchcache_bench::memory;
use searchcache_bench::report::size_name;
use searchcache_bench::run::{fill, run, Outcome, Spec};
use searchcache_bench::spread::spread;
use searchcache_bench::workload::Workload;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage: targets [options]
  --mib MIB       table size (default 1024)
  --rounds N      rounds of every pair (default 31)
  --secs S        seconds per cell per round (default 0.05)
  --out DIR       where targets-TAG.md goes (default benches/results)
  --tag NAME      (default the UTC time, HHMM)
  --pairs all|ab  the targets (default), or only this crate against the baseline revision
                  (needs the build of benches/ab.sh; then nothing but the tables is built)";

/// The mixes compared with dashmap (rapid-grow needs a fresh map per run; the matrix has it).
const MIXES: [&str; 5] = [
    "probe-only",
    "probe-heavy",
    "read-heavy",
    "store-heavy",
    "exchange",
];

struct Config {
    /// Only the A/B pairs (`--pairs ab`).
    ab: bool,
    mib: usize,
    rounds: usize,
    duration: Duration,
    out: PathBuf,
    tag: String,
}

fn parse_args() -> Result<Config, String> {
    let mut c = Config {
        ab: false,
        mib: 1024,
        rounds: 31,
        duration: Duration::from_millis(50),
        out: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results"),
        tag: shell("date -u +%H%M"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let positive = |what: &str| {
            value
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{what} needs a positive whole number, not '{value}'"))
        };
        match flag.as_str() {
            "--mib" => c.mib = positive("--mib")?.min(1 << 20),
            "--rounds" => c.rounds = positive("--rounds")?.min(1000),
            "--secs" => {
                let secs: f64 = value
                    .parse()
                    .map_err(|_| format!("--secs: cannot read '{value}'"))?;
                if !(0.001..=60.0).contains(&secs) {
                    return Err("--secs must be between 0.001 and 60".into());
                }
                c.duration = Duration::from_secs_f64(secs);
            }
            "--out" => c.out = PathBuf::from(value),
            "--tag" => c.tag = value,
            "--pairs" => match value.as_str() {
                "all" => c.ab = false,
                "ab" if cfg!(searchcache_ab) => c.ab = true,
                "ab" => return Err("--pairs ab needs the build of benches/ab.sh".into()),
                _ => return Err(format!("--pairs takes all or ab, not '{value}'")),
            },
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(c)
}

/// Which of the three `SearchCache`s a cell runs on (their index in `Subjects::tables`).
#[derive(Clone, Copy, Debug)]
enum Table {
    /// Huge pages, mixed keys: the default build.
    Huge = 0,
    /// 4 KiB pages (`HugePages::Never`).
    Small = 1,
    /// Huge pages, `Keys::Random`.
    RandomKeys = 2,
}

/// One side of a ratio: a loop and what it runs.
#[derive(Clone, Copy, Debug)]
enum Cell {
    /// The bare read through the tables' loop (`prefetch`: batched).
    Bare {
        huge: bool,
        threads: usize,
        prefetch: bool,
    },
    /// The bare read of the mixed key's line (huge pages).
    Mixed { threads: usize },
    /// Dependent loads, one thread.
    Chase { huge: bool },
    /// `SearchCache` on a mix.
    Cache {
        table: Table,
        mix: &'static str,
        threads: usize,
        prefetch: bool,
    },
    /// dashmap on a mix.
    DashMap { mix: &'static str, threads: usize },
    /// The baseline revision's `SearchCache` on a mix (`benches/ab.sh`): huge pages, with
    /// `Keys::Random` when `random`.
    #[cfg_attr(not(searchcache_ab), allow(dead_code))]
    Baseline {
        random: bool,
        mix: &'static str,
        threads: usize,
        prefetch: bool,
    },
}

/// The bare read on huge pages.
fn bare(threads: usize, prefetch: bool) -> Cell {
    Cell::Bare {
        huge: true,
        threads,
        prefetch,
    }
}

/// `SearchCache` (`table`) on `mix`.
fn cache(table: Table, mix: &'static str, threads: usize, prefetch: bool) -> Cell {
    Cell::Cache {
        table,
        mix,
        threads,
        prefetch,
    }
}

/// What is compared, and what the target says of `numerator ÷ denominator`.
struct Pair {
    what: String,
    numerator: Cell,
    denominator: Cell,
    /// Compare ns/op (time) or Mops/s (rate).
    by_rate: bool,
    /// The bound and its direction: `Some((1.15, false))` is "≤ 1.15", `true` is "≥".
    target: Option<(f64, bool)>,
}

/// "≤ bound".
const fn at_most(bound: f64) -> Option<(f64, bool)> {
    Some((bound, false))
}

/// "≥ bound".
const fn at_least(bound: f64) -> Option<(f64, bool)> {
    Some((bound, true))
}

/// A ratio of ns/op (`what` gets ", ns/op").
fn time(what: String, numerator: Cell, denominator: Cell, target: Option<(f64, bool)>) -> Pair {
    Pair {
        what: what + ", ns/op",
        numerator,
        denominator,
        by_rate: false,
        target,
    }
}

/// A ratio of ops/s (`what` gets ", ops/s").
fn rate(what: String, numerator: Cell, denominator: Cell, target: Option<(f64, bool)>) -> Pair {
    Pair {
        what: what + ", ops/s",
        numerator,
        denominator,
        by_rate: true,
        target,
    }
}

/// This crate against the baseline revision, table for table: probes (plain and batched) with
/// either kind of keys, and the write-heavy mixes. "≤ 1.03" is issue 13's bound on what the
/// torn-read tag may cost a probe.
fn ab_pairs() -> Vec<Pair> {
    use Table::{Huge, RandomKeys};
    let mut pairs = Vec::new();
    for t in [1, 2] {
        for (table, random, keys) in [
            (Huge, false, "Keys::Any"),
            (RandomKeys, true, "Keys::Random"),
        ] {
            for (mix, prefetch, target) in [
                ("probe-only", false, at_most(1.03)),
                ("probe-only", true, None),
                ("probe-heavy", false, None),
                ("store-heavy", false, None),
            ] {
                let batched = if prefetch { " (batched prefetch)" } else { "" };
                pairs.push(time(
                    format!("{mix}{batched}, {keys}: this ÷ baseline, {t} thread(s)"),
                    cache(table, mix, t, prefetch),
                    Cell::Baseline {
                        random,
                        mix,
                        threads: t,
                        prefetch,
                    },
                    target,
                ));
            }
        }
    }
    pairs
}

fn pairs() -> Vec<Pair> {
    use Table::{Huge, RandomKeys, Small};
    let mut pairs = Vec::new();
    for t in [1, 2] {
        let threads = format!("{t} thread(s)");
        pairs.push(time(
            format!("probe ÷ bare read, {threads}"),
            cache(Huge, "probe-only", t, false),
            bare(t, false),
            at_most(1.15),
        ));
        pairs.push(time(
            format!("prefetched probe ÷ prefetched bare read, {threads}"),
            cache(Huge, "probe-only", t, true),
            bare(t, true),
            at_most(1.3),
        ));
        // Where a plain probe's time goes: mixing the key, then the bucket's work.
        pairs.push(time(
            format!("bare read of the mixed key ÷ bare read, {threads}"),
            Cell::Mixed { threads: t },
            bare(t, false),
            None,
        ));
        pairs.push(time(
            format!("probe ÷ bare read of the mixed key, {threads}"),
            cache(Huge, "probe-only", t, false),
            Cell::Mixed { threads: t },
            None,
        ));
    }
    for t in [1, 2] {
        for mix in MIXES {
            for prefetch in [false, true] {
                let batched = if prefetch { " (batched prefetch)" } else { "" };
                pairs.push(rate(
                    format!("{mix}{batched}: searchcache ÷ dashmap, {t} thread(s)"),
                    cache(Huge, mix, t, prefetch),
                    Cell::DashMap { mix, threads: t },
                    if prefetch { None } else { at_least(3.0) },
                ));
            }
        }
    }
    // Keys the caller vouches are random (Zobrist keys, state hashes) skip the mixer.
    for t in [1, 2] {
        pairs.push(time(
            format!("probe of random keys (Keys::Random) ÷ bare read, {t} thread(s)"),
            cache(RandomKeys, "probe-only", t, false),
            bare(t, false),
            at_most(1.15),
        ));
        for mix in MIXES {
            pairs.push(rate(
                format!("{mix}, Keys::Random: searchcache ÷ dashmap, {t} thread(s)"),
                cache(RandomKeys, mix, t, false),
                Cell::DashMap { mix, threads: t },
                at_least(3.0),
            ));
        }
    }
    for (prefetch, target) in [(false, at_least(1.8)), (true, None)] {
        let batched = if prefetch { " (batched prefetch)" } else { "" };
        pairs.push(rate(
            format!("probe-only{batched}: 2 threads ÷ 1 thread"),
            cache(Huge, "probe-only", 2, prefetch),
            cache(Huge, "probe-only", 1, prefetch),
            target,
        ));
    }
    pairs.push(rate(
        "bare read: 2 threads ÷ 1 thread (the machine's own scaling)".into(),
        bare(2, false),
        bare(1, false),
        None,
    ));
    pairs.push(time(
        "probe: 4 KiB pages ÷ huge pages, 1 thread".into(),
        cache(Small, "probe-only", 1, false),
        cache(Huge, "probe-only", 1, false),
        at_least(1.0),
    ));
    let small_bare = Cell::Bare {
        huge: false,
        threads: 1,
        prefetch: false,
    };
    pairs.push(time(
        "bare read: 4 KiB pages ÷ huge pages, 1 thread".into(),
        small_bare,
        bare(1, false),
        None,
    ));
    pairs.push(Pair {
        what: "pointer chase: 4 KiB pages ÷ huge pages, ns/load".into(),
        numerator: Cell::Chase { huge: false },
        denominator: Cell::Chase { huge: true },
        by_rate: false,
        target: None,
    });
    pairs
}

/// Everything the cells run on.
struct Subjects {
    buffers: [Buffer; 2],
    /// Huge pages, 4 KiB pages, huge pages with `Keys::Random`.
    tables: [searchcache::SearchCache<u32>; 3],
    dashmap: Box<dyn Bench>,
    /// The baseline's tables with `Keys::Any` and `Keys::Random` (`benches/ab.sh`).
    #[cfg(searchcache_ab)]
    baselines: [searchcache_baseline::SearchCache<u32>; 2],
    universe: u64,
    duration: Duration,
}

impl Subjects {
    fn spec(&self, mix: &str, threads: usize, prefetch: bool) -> Spec {
        Spec {
            workload: Workload::named(mix).expect("a built-in workload"),
            universe: self.universe,
            threads,
            prefetch,
            duration: self.duration,
            seed: 0x5eed,
        }
    }

    fn measure(&self, cell: Cell) -> Outcome {
        let pages = |huge: bool| usize::from(!huge);
        match cell {
            Cell::Bare {
                huge,
                threads,
                prefetch,
            } => run(
                &self.buffers[pages(huge)],
                &self.spec("probe-only", threads, prefetch),
            ),
            Cell::Mixed { threads } => run(
                &MixedRead(&self.buffers[0]),
                &self.spec("probe-only", threads, false),
            ),
            Cell::Chase { huge } => self.buffers[pages(huge)].chase(self.duration),
            Cell::Cache {
                table,
                mix,
                threads,
                prefetch,
            } => run(
                &self.tables[table as usize],
                &self.spec(mix, threads, prefetch),
            ),
            Cell::DashMap { mix, threads } => self.dashmap.run(&self.spec(mix, threads, false)),
            #[cfg(searchcache_ab)]
            Cell::Baseline {
                random,
                mix,
                threads,
                prefetch,
            } => run(
                &self.baselines[usize::from(random)],
                &self.spec(mix, threads, prefetch),
            ),
            #[cfg(not(searchcache_ab))]
            Cell::Baseline { .. } => unreachable!("--pairs ab is refused without benches/ab.sh"),
        }
    }
}

fn build(c: &Config) -> Result<Subjects, String> {
    let bytes = c.mib << 20;
    let universe = (bytes / 16) as u64;
    let started = Instant::now();
    // What the A/B pairs do not run is built at one huge page, not filled.
    let unused = if c.ab { 2 << 20 } else { bytes };
    let buffer = |huge, bytes| Buffer::new(bytes, huge).map_err(|e| format!("buffer: {e}"));
    let table = |huge, keys| -> Result<_, String> {
        let t = searchcache_with(bytes, huge, keys).map_err(|e| e.to_string())?;
        fill(&t, universe, 2);
        Ok(t)
    };
    let buffers = [buffer(true, unused)?, buffer(false, unused)?];
    let small = match c.ab {
        true => searchcache_with(unused, false, Keys::Any).map_err(|e| e.to_string())?,
        false => table(false, Keys::Any)?,
    };
    let tables = [table(true, Keys::Any)?, small, table(true, Keys::Random)?];
    let dashmap = Peer::DashMap.build(unused, unused / 16, true);
    if !c.ab {
        dashmap.fill(universe, 2);
    }
    #[cfg(searchcache_ab)]
    let baselines = {
        use searchcache_bench::contender::baseline::searchcache_with;
        let table = |random| -> Result<_, String> {
            let t = searchcache_with(bytes, true, random).map_err(|e| e.to_string())?;
            fill(&t, universe, 2);
            Ok(t)
        };
        [table(false)?, table(true)?]
    };
    eprintln!(
        "built and filled everything at {} in {:.1} s",
        size_name(bytes),
        started.elapsed().as_secs_f64()
    );
    Ok(Subjects {
        buffers,
        tables,
        dashmap,
        #[cfg(searchcache_ab)]
        baselines,
        universe,
        duration: c.duration,
    })
}

fn main() -> ExitCode {
    let c = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("targets: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(if e.is_empty() { 0 } else { 2 });
        }
    };
    let header = format!(
        "{}\ncommand: targets {}\n",
        machine(),
        std::env::args().skip(1).collect::<Vec<_>>().join(" "),
    );
    eprint!("{header}");
    let subjects = match build(&c) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("targets: {e}");
            return ExitCode::FAILURE;
        }
    };
    let pairs = if c.ab { ab_pairs() } else { pairs() };
    let started = Instant::now();
    // ratios[p][round], and each side's ns/op per round.
    let mut ratios = vec![Vec::new(); pairs.len()];
    let mut sides = vec![(Vec::new(), Vec::new()); pairs.len()];
    for round in 0..c.rounds {
        for (p, pair) in pairs.iter().enumerate() {
            let (num, den) = if round % 2 == 0 {
                let n = subjects.measure(pair.numerator);
                (n, subjects.measure(pair.denominator))
            } else {
                let d = subjects.measure(pair.denominator);
                (subjects.measure(pair.numerator), d)
            };
            let ratio = if pair.by_rate {
                num.mops() / den.mops()
            } else {
                num.ns_per_op() / den.ns_per_op()
            };
            ratios[p].push(ratio);
            sides[p].0.push(num.ns_per_op());
            sides[p].1.push(den.ns_per_op());
        }
        eprintln!("round {} of {} done", round + 1, c.rounds);
    }
    let mut report = header;
    let mib = |bytes: Option<usize>| bytes.map_or("?".into(), |b| (b >> 20).to_string());
    let _ = writeln!(
        report,
        "huge pages: tables {} / {} / {} MiB of {} (huge, 4 KiB, huge with Keys::Random); \
         whole process {} MiB",
        mib(subjects.tables[0].huge_page_bytes()),
        mib(subjects.tables[1].huge_page_bytes()),
        mib(subjects.tables[2].huge_page_bytes()),
        c.mib,
        mib(memory::huge_page_bytes()),
    );
    let _ = writeln!(
        report,
        "{} rounds, {:.0} s, load average at end {}\n",
        c.rounds,
        started.elapsed().as_secs_f64(),
        load_average()
    );
    let _ = writeln!(
        report,
        "#### Paired ratios at {} (median over rounds; each side's median ns/op per thread)\n",
        size_name(c.mib << 20)
    );
    report.push_str(
        "| ratio | median | min – max | numerator ns/op | denominator ns/op | target | verdict |\n",
    );
    report.push_str("|---|---:|---:|---:|---:|---|---|\n");
    for (p, pair) in pairs.iter().enumerate() {
        let (median, lo, hi) = spread(ratios[p].clone());
        let (num, _, _) = spread(sides[p].0.clone());
        let (den, _, _) = spread(sides[p].1.clone());
        let (target, verdict) = match pair.target {
            Some((bound, at_least)) => {
                let met = if at_least {
                    median >= bound
                } else {
                    median <= bound
                };
                (
                    format!("{} {bound}", if at_least { "≥" } else { "≤" }),
                    if met { "met" } else { "missed" },
                )
            }
            None => ("–".into(), ""),
        };
        let _ = writeln!(
            report,
            "| {} | {median:.2} | {lo:.2} – {hi:.2} | {num:.1} | {den:.1} | {target} | {verdict} |",
            pair.what
        );
    }
    searchcache_bench::outln!("{report}");
    let path = c.out.join(format!("targets-{}.md", c.tag));
    if let Err(e) = std::fs::create_dir_all(&c.out).and_then(|()| std::fs::write(&path, &report)) {
        eprintln!("targets: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    eprintln!("wrote {}", path.display());
    ExitCode::SUCCESS
}
