//! Plain probes in the leanest loop (`run::lean_reads`: draw a key, read it, nothing else),
//! paired like the `targets` runner: the bare read, `SearchCache` with its mixer
//! (`Keys::Any`) and without (`Keys::Random`), each slice of `--ops` reads run back to back,
//! order rotating, median ratio over `--rounds`. Built by `benches/ab.sh`, it also runs
//! another revision of the crate (the baseline) and gives the paired ratios to it. The matrix's loop (operation mix, batches,
//! stop flag) costs instructions of its own; here almost every instruction is the table's, so
//! what a probe adds to a read shows undiluted.

use searchcache::Keys;
use searchcache_bench::bare::Buffer;
use searchcache_bench::contender::searchcache_with;
use searchcache_bench::host::{load_average, machine};
use searchcache_bench::report::size_name;
use searchcache_bench::run::{fill, lean_reads};
use searchcache_bench::spread::spread;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: lean [--mib MIB (default 1024)] [--rounds N (default 21)] [--ops N (default 2000000)]";

/// A subject's name and its loop (seed in, hits out).
type Subject<'a> = (&'static str, Box<dyn Fn(u64) -> u64 + 'a>);

fn parse_args() -> Result<(usize, usize, u64), String> {
    let (mut mib, mut rounds, mut ops) = (1024usize, 21usize, 2_000_000u64);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let n: u64 = value
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{flag} needs a positive whole number, not '{value}'"))?;
        match flag.as_str() {
            "--mib" => mib = n.min(1 << 20) as usize,
            "--rounds" => rounds = n.min(10_000) as usize,
            "--ops" => ops = n.min(1 << 32),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok((mib, rounds, ops))
}

fn main() -> ExitCode {
    let (mib, rounds, ops) = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("lean: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(if e.is_empty() { 0 } else { 2 });
        }
    };
    let bytes = mib << 20;
    let universe = (bytes / 16) as u64;
    let built = (|| -> Result<_, String> {
        let buffer = Buffer::new(bytes, true).map_err(|e| format!("buffer: {e}"))?;
        let table = |keys| -> Result<_, String> {
            let t = searchcache_with(bytes, true, keys).map_err(|e| e.to_string())?;
            fill(&t, universe, 2);
            Ok(t)
        };
        Ok((buffer, table(Keys::Any)?, table(Keys::Random)?))
    })();
    let (buffer, mixed, random) = match built {
        Ok(b) => b,
        Err(e) => {
            eprintln!("lean: {e}");
            return ExitCode::FAILURE;
        }
    };
    #[cfg(searchcache_ab)]
    let baselines = {
        use searchcache_bench::contender::baseline::searchcache_with;
        let table = |random| {
            let t = searchcache_with(bytes, true, random).expect("baseline table");
            fill(&t, universe, 2);
            t
        };
        [table(false), table(true)]
    };
    #[cfg_attr(not(searchcache_ab), allow(unused_mut))]
    let mut subjects: Vec<Subject> = vec![
        (
            "bare read",
            Box::new(|seed| lean_reads(&buffer, universe, ops, seed)),
        ),
        (
            "probe (Keys::Any)",
            Box::new(|seed| lean_reads(&mixed, universe, ops, seed)),
        ),
        (
            "probe (Keys::Random)",
            Box::new(|seed| lean_reads(&random, universe, ops, seed)),
        ),
    ];
    // (numerator, denominator) indexes into `subjects`.
    #[cfg_attr(not(searchcache_ab), allow(unused_mut))]
    let mut ratios: Vec<(usize, usize)> = vec![(1, 0), (2, 0), (1, 2)];
    #[cfg(searchcache_ab)]
    {
        let [any, random] = &baselines;
        subjects.push((
            "baseline probe (Keys::Any)",
            Box::new(|seed| lean_reads(any, universe, ops, seed)),
        ));
        subjects.push((
            "baseline probe (Keys::Random)",
            Box::new(|seed| lean_reads(random, universe, ops, seed)),
        ));
        ratios.extend([(1, 3), (2, 4)]);
    }
    let time = |read: &dyn Fn(u64) -> u64, seed: u64| {
        let start = Instant::now();
        std::hint::black_box(read(seed));
        start.elapsed().as_secs_f64() * 1e9 / ops as f64
    };
    let n = subjects.len();
    let mut ns = vec![Vec::new(); n];
    let mut quotients = vec![Vec::new(); ratios.len()];
    for round in 0..rounds {
        let mut this = vec![0.0; n];
        for k in 0..n {
            // Rotate the order every round, so no subject always runs first.
            let s = (k + round) % n;
            this[s] = time(&subjects[s].1, round as u64);
        }
        for s in 0..n {
            ns[s].push(this[s]);
        }
        for (q, &(num, den)) in quotients.iter_mut().zip(&ratios) {
            q.push(this[num] / this[den]);
        }
    }
    searchcache_bench::outln!("{}", machine());
    searchcache_bench::outln!(
        "lean loop at {}, {rounds} rounds of {ops} reads each, one thread, huge pages; medians",
        size_name(bytes)
    );
    let mib = |b: Option<usize>| b.map_or("?".into(), |b| (b >> 20).to_string());
    let tables = [mixed.huge_page_bytes(), random.huge_page_bytes()];
    #[cfg(searchcache_ab)]
    let tables: Vec<_> = (tables.into_iter())
        .chain(baselines.iter().map(|t| t.huge_page_bytes()))
        .collect();
    let huge: Vec<String> = tables.iter().map(|&b| mib(b)).collect();
    searchcache_bench::outln!(
        "huge pages (MiB of {}): tables {} (in the order below); load average at end {}\n",
        bytes >> 20,
        huge.join(" / "),
        load_average()
    );
    searchcache_bench::outln!("| subject | ns per read |\n|---|---:|");
    for ((name, _), v) in subjects.iter().zip(ns) {
        searchcache_bench::outln!("| {name} | {:.1} |", spread(v).0);
    }
    searchcache_bench::outln!("\n| ratio | median | min – max |\n|---|---:|---:|");
    for (&(num, den), q) in ratios.iter().zip(quotients) {
        let (median, lo, hi) = spread(q);
        searchcache_bench::outln!(
            "| {} ÷ {} | {median:.3} | {lo:.2} – {hi:.2} |",
            subjects[num].0,
            subjects[den].0
        );
    }
    ExitCode::SUCCESS
}
