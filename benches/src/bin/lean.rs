//! Plain probes in the leanest loop (`run::lean_reads`: draw a key, read it, nothing else),
//! paired like the `targets` runner: the bare read, `SearchCache` with its mixer
//! (`Keys::Any`) and without (`Keys::Random`), each slice of `--ops` reads run back to back,
//! order alternating, median ratio over `--rounds`. The matrix's loop (operation mix, batches,
//! stop flag) costs instructions of its own; here almost every instruction is the table's, so
//! what a probe adds to a read shows undiluted.

use searchcache::Keys;
use searchcache_bench::bare::Buffer;
use searchcache_bench::contender::searchcache_with;
use searchcache_bench::report::size_name;
use searchcache_bench::run::{fill, lean_reads};
use searchcache_bench::spread::spread;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage: lean [--mib MIB (default 1024)] [--rounds N (default 21)] [--ops N (default 2000000)]";

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
    let time = |read: &dyn Fn(u64) -> u64, seed: u64| {
        let start = Instant::now();
        std::hint::black_box(read(seed));
        start.elapsed().as_secs_f64() * 1e9 / ops as f64
    };
    let subjects: [&dyn Fn(u64) -> u64; 3] = [
        &|seed| lean_reads(&buffer, universe, ops, seed),
        &|seed| lean_reads(&mixed, universe, ops, seed),
        &|seed| lean_reads(&random, universe, ops, seed),
    ];
    let mut ns = [Vec::new(), Vec::new(), Vec::new()];
    let mut ratios = [Vec::new(), Vec::new(), Vec::new()];
    for round in 0..rounds {
        let mut this = [0.0; 3];
        for k in 0..3 {
            // Rotate the order every round, so no subject always runs first.
            let s = (k + round) % 3;
            this[s] = time(subjects[s], round as u64);
        }
        for s in 0..3 {
            ns[s].push(this[s]);
        }
        ratios[0].push(this[1] / this[0]);
        ratios[1].push(this[2] / this[0]);
        ratios[2].push(this[1] / this[2]);
    }
    println!(
        "lean loop at {}, {rounds} rounds of {ops} reads each, one thread, huge pages; medians",
        size_name(bytes)
    );
    println!("| subject | ns per read |\n|---|---:|");
    for (name, v) in ["bare read", "probe (Keys::Any)", "probe (Keys::Random)"]
        .iter()
        .zip(&ns)
    {
        println!("| {name} | {:.1} |", spread(v.clone()).0);
    }
    println!("\n| ratio | median |\n|---|---:|");
    for (name, v) in [
        "probe (Keys::Any) ÷ bare read",
        "probe (Keys::Random) ÷ bare read",
        "probe (Keys::Any) ÷ probe (Keys::Random)",
    ]
    .iter()
    .zip(&ratios)
    {
        println!("| {name} | {:.2} |", spread(v.clone()).0);
    }
    ExitCode::SUCCESS
}
