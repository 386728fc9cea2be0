//! The benchmark matrix of issue 8, in one process: table sizes × threads × huge pages ×
//! prefetch batching × workloads, for `SearchCache`, the machine's limit and the peers.
//! Prints a Markdown report and writes it, a CSV and SVG plots to `benches/results/`.

use searchcache_bench::bare::Buffer;
use searchcache_bench::contender::{searchcache, Peer, FIXED_CACHE_ENTRY_BYTES, PEERS};
use searchcache_bench::host::{load_average, machine};
use searchcache_bench::memory;
use searchcache_bench::plot;
use searchcache_bench::report::{size_name, Family, Results, Row};
use searchcache_bench::run::{fill, run, Outcome, Spec};
use searchcache_bench::workload::{Keys, Workload, ALL};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage: matrix [options]
  --sizes MIB,..       table sizes in MiB (default 1,16,256,1024,4096)
  --threads N,..       thread counts (default 1,2)
  --secs S             seconds per run (default 0.15)
  --workloads W,..     probe-only,probe-heavy,read-heavy,store-heavy,exchange,rapid-grow (default all)
  --peers P,..|all|none   peers to run (default all)
  --peer-max-mib MIB   largest size all peers run at (default 256: filling 64 M keys into
                       each map takes minutes and 2-4x the table's memory)
  --big-peers P,..     peers that also run up to --big-peer-max-mib (default dashmap,fixed-cache)
  --big-peer-max-mib M (default 1024)
  --pages huge,4k      page sizes for searchcache and the bare loops (default both)
  --prefetch off,on    prefetch batching for searchcache (default both)
  --target-mib MIB     size the targets are checked at (default 1024, else the largest run)
  --out DIR            where the report, CSV and plots go (default benches/results)
  --tag NAME           prefix of the output files (default matrix)
  --reps N             runs per cell, the fastest reported (default 3)
  --replot CSV         measure nothing: redraw the plots of a CSV this program wrote (into --out)
  --merge CSV,CSV,..   measure nothing: the report of the fastest run of each cell over
                       several runs' CSVs, as TAG-best.md";

struct Config {
    sizes_mib: Vec<usize>,
    threads: Vec<usize>,
    duration: Duration,
    workloads: Vec<Workload>,
    peers: Vec<Peer>,
    peer_max_mib: usize,
    big_peers: Vec<Peer>,
    big_peer_max_mib: usize,
    huge: Vec<bool>,
    prefetch: Vec<bool>,
    target_mib: usize,
    out: PathBuf,
    tag: String,
    reps: usize,
    replot: Option<PathBuf>,
    merge: Vec<PathBuf>,
}

fn list<T>(value: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| parse(s.trim()).ok_or_else(|| format!("cannot read '{s}'")))
        .collect()
}

fn parse_args() -> Result<Config, String> {
    let mut c = Config {
        sizes_mib: vec![1, 16, 256, 1024, 4096],
        threads: vec![1, 2],
        duration: Duration::from_millis(150),
        workloads: ALL.to_vec(),
        peers: PEERS.to_vec(),
        peer_max_mib: 256,
        big_peers: vec![Peer::DashMap, Peer::FixedCache],
        big_peer_max_mib: 1024,
        huge: vec![true, false],
        prefetch: vec![false, true],
        target_mib: 1024,
        out: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results"),
        tag: "matrix".into(),
        reps: 3,
        replot: None,
        merge: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        if flag == "--merge" {
            let files = args
                .next()
                .ok_or("--merge needs CSV files, comma-separated")?;
            c.merge = files.split(',').map(PathBuf::from).collect();
            continue;
        }
        if flag == "--replot" {
            c.replot = Some(PathBuf::from(
                args.next().ok_or("--replot needs a CSV file")?,
            ));
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let positive = |s: &str| s.parse::<usize>().ok().filter(|&n| n > 0);
        match flag.as_str() {
            "--sizes" => c.sizes_mib = list(&value, positive)?,
            "--threads" => c.threads = list(&value, |s| positive(s).filter(|&n| n <= 256))?,
            "--secs" => {
                let secs: f64 = value
                    .parse()
                    .map_err(|_| format!("--secs: cannot read '{value}'"))?;
                if !(0.001..=60.0).contains(&secs) {
                    return Err("--secs must be between 0.001 and 60".into());
                }
                c.duration = Duration::from_secs_f64(secs);
            }
            "--workloads" => {
                c.workloads = if value == "all" {
                    ALL.to_vec()
                } else {
                    list(&value, Workload::named)?
                }
            }
            "--peers" => {
                c.peers = match value.as_str() {
                    "all" => PEERS.to_vec(),
                    "none" => Vec::new(),
                    _ => list(&value, Peer::named)?,
                }
            }
            "--peer-max-mib" => {
                c.peer_max_mib = positive(&value).ok_or("--peer-max-mib: a positive number")?
            }
            "--pages" => {
                c.huge = list(&value, |s| match s {
                    "huge" => Some(true),
                    "4k" | "4K" => Some(false),
                    _ => None,
                })?
            }
            "--prefetch" => {
                c.prefetch = list(&value, |s| match s {
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => None,
                })?
            }
            "--target-mib" => {
                c.target_mib = positive(&value).ok_or("--target-mib: a positive number")?
            }
            "--out" => c.out = PathBuf::from(value),
            "--big-peers" => {
                c.big_peers = match value.as_str() {
                    "none" => Vec::new(),
                    _ => list(&value, Peer::named)?,
                }
            }
            "--big-peer-max-mib" => {
                c.big_peer_max_mib =
                    positive(&value).ok_or("--big-peer-max-mib: a positive number")?
            }
            "--tag" => c.tag = value,
            "--reps" => c.reps = positive(&value).ok_or("--reps: a positive number")?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if c.sizes_mib.is_empty() || c.threads.is_empty() || c.huge.is_empty() || c.prefetch.is_empty()
    {
        return Err("sizes, threads, pages and prefetch need at least one value".into());
    }
    if c.sizes_mib.iter().any(|&m| m > 1 << 20) {
        return Err("sizes above 1 TiB are not supported".into());
    }
    Ok(c)
}

fn pages_name(huge: bool) -> &'static str {
    if huge {
        ""
    } else {
        " 4K"
    }
}

fn progress(row: &Row) {
    let o = &row.outcome;
    let hit = o
        .hit_rate()
        .map_or(String::new(), |h| format!("  hit {:5.1}%", h * 100.0));
    eprintln!(
        "{:>8} {:<22} {:<12} {}t {:8.2} ns/op {:8.1} Mops/s (wall {:6.1}, on CPU {:3.0}%){hit}",
        size_name(row.bytes),
        row.subject,
        row.workload,
        o.threads,
        o.ns_per_op(),
        o.mops(),
        o.wall_mops(),
        o.cpu_share() * 100.0
    );
}

struct Matrix {
    c: Config,
    results: Results,
}

impl Matrix {
    fn push(&mut self, row: Row) {
        progress(&row);
        self.results.rows.push(row);
    }

    fn spec(&self, workload: Workload, universe: u64, threads: usize, prefetch: bool) -> Spec {
        Spec {
            workload,
            universe,
            threads,
            prefetch,
            duration: self.c.duration,
            seed: 0x5eed,
        }
    }

    /// The fastest of `reps` runs: on a shared machine the other jobs only ever slow a run
    /// down, so the best run is the one they disturbed least.
    fn best(&self, mut measure: impl FnMut() -> Outcome) -> Outcome {
        (0..self.c.reps)
            .map(|_| measure())
            .max_by(|a, b| a.mops().total_cmp(&b.mops()))
            .expect("at least one repetition")
    }

    fn fill_threads(&self) -> usize {
        self.c.threads.iter().copied().max().unwrap_or(1)
    }

    fn bare(&mut self, bytes: usize) -> Result<(), String> {
        for &huge in &self.c.huge.clone() {
            let buffer =
                Buffer::new(bytes, huge).map_err(|e| format!("buffer of {bytes} bytes: {e}"))?;
            let huge_bytes = memory::huge_page_bytes();
            let pages = pages_name(huge);
            let chase = self.best(|| buffer.chase(self.c.duration));
            self.push(bare_row(
                bytes,
                format!("chase{pages}"),
                "chase",
                chase,
                huge_bytes,
            ));
            let universe = (bytes / 16) as u64;
            for &t in &self.c.threads.clone() {
                let raw = self.best(|| buffer.raw_reads(t, self.c.duration));
                self.push(bare_row(
                    bytes,
                    format!("raw read{pages}"),
                    "read",
                    raw,
                    huge_bytes,
                ));
                for &pf in &self.c.prefetch.clone() {
                    let probe_only = Workload::named("probe-only").expect("a built-in workload");
                    let spec = self.spec(probe_only, universe, t, pf);
                    let out = self.best(|| run(&buffer, &spec));
                    let subject = format!("bare read{pages}{}", if pf { " pf" } else { "" });
                    self.push(bare_row(bytes, subject, "read", out, huge_bytes));
                }
            }
        }
        Ok(())
    }

    fn cache(&mut self, bytes: usize) -> Result<(), String> {
        for &huge in &self.c.huge.clone() {
            let table = searchcache(bytes, huge).map_err(|e| e.to_string())?;
            let universe = table.capacity() as u64;
            fill(&table, universe, self.fill_threads());
            let huge_bytes = table.huge_page_bytes();
            let per_entry = table.memory_bytes() as f64 / table.capacity() as f64;
            for &workload in &self.c.workloads.clone() {
                for &t in &self.c.threads.clone() {
                    for &pf in &self.c.prefetch.clone() {
                        let spec = self.spec(workload, universe, t, pf);
                        let out = self.best(|| {
                            if workload.keys == Keys::Fresh {
                                table.clear();
                            }
                            run(&table, &spec)
                        });
                        let subject = format!(
                            "searchcache{}{}",
                            pages_name(huge),
                            if pf { " pf" } else { "" }
                        );
                        self.push(Row {
                            bytes,
                            subject,
                            family: Family::Cache,
                            workload: workload.name.into(),
                            outcome: out,
                            bytes_per_entry: Some(per_entry),
                            huge_bytes,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    fn peers(&mut self, bytes: usize) {
        let universe = bytes / 16;
        let mib = bytes >> 20;
        let peers: Vec<Peer> = self
            .c
            .peers
            .iter()
            .copied()
            .filter(|p| {
                mib <= self.c.peer_max_mib
                    || (mib <= self.c.big_peer_max_mib && self.c.big_peers.contains(p))
            })
            .collect();
        for peer in peers {
            let before = memory::resident_bytes();
            let steady: Vec<Workload> = self
                .c
                .workloads
                .iter()
                .copied()
                .filter(|w| w.keys == Keys::Universe)
                .collect();
            if !steady.is_empty() {
                let started = Instant::now();
                let bench = peer.build(bytes, universe, true);
                // One thread fills the mutexed map: a second would only wait for the lock.
                let fill_threads = if peer == Peer::MutexHashMap {
                    1
                } else {
                    self.fill_threads()
                };
                bench.fill(universe as u64, fill_threads);
                let entries = bench.entries();
                let per_entry = match (before, memory::resident_bytes()) {
                    _ if peer == Peer::FixedCache => Some(FIXED_CACHE_ENTRY_BYTES as f64),
                    (Some(b), Some(a)) if entries > 0 => {
                        Some(a.saturating_sub(b) as f64 / entries as f64)
                    }
                    _ => None,
                };
                eprintln!(
                    "{:>8} {:<22} filled {entries} entries in {:.1} s",
                    size_name(bytes),
                    peer.name(),
                    started.elapsed().as_secs_f64()
                );
                for workload in steady {
                    for &t in &self.c.threads.clone() {
                        let spec = self.spec(workload, universe as u64, t, false);
                        let out = self.best(|| bench.run(&spec));
                        self.push(peer_row(bytes, peer, workload, out, per_entry));
                    }
                }
            }
            for workload in self
                .c
                .workloads
                .clone()
                .into_iter()
                .filter(|w| w.keys == Keys::Fresh)
            {
                for &t in &self.c.threads.clone() {
                    let spec = self.spec(workload, universe as u64, t, false);
                    let out = self.best(|| peer.build(bytes, universe, false).run(&spec));
                    self.push(peer_row(bytes, peer, workload, out, None));
                }
            }
        }
    }
}

fn bare_row(
    bytes: usize,
    subject: String,
    workload: &str,
    outcome: Outcome,
    huge: Option<usize>,
) -> Row {
    Row {
        bytes,
        subject,
        family: Family::Bare,
        workload: workload.into(),
        outcome,
        bytes_per_entry: None,
        huge_bytes: huge,
    }
}

fn peer_row(
    bytes: usize,
    peer: Peer,
    workload: Workload,
    outcome: Outcome,
    per_entry: Option<f64>,
) -> Row {
    Row {
        bytes,
        subject: peer.name().into(),
        family: Family::Peer,
        workload: workload.name.into(),
        outcome,
        bytes_per_entry: per_entry,
        huge_bytes: None,
    }
}

fn main() -> ExitCode {
    let c = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("matrix: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    let header = format!(
        "{}\ncommand: matrix {}\nstats feature: {}\n",
        machine(),
        std::env::args().skip(1).collect::<Vec<_>>().join(" "),
        if searchcache::SearchCache::<u32>::new(searchcache::Size::Mib(1))
            .map(|t| t.stats().is_some())
            .unwrap_or(false)
        {
            "on"
        } else {
            "off"
        },
    );
    if !c.merge.is_empty() {
        let mut runs = Vec::new();
        for csv in &c.merge {
            match std::fs::read_to_string(csv) {
                Ok(text) => runs.push(Results::from_csv(&text)),
                Err(e) => {
                    eprintln!("matrix: cannot read {}: {e}", csv.display());
                    return ExitCode::FAILURE;
                }
            }
        }
        let results = Results::best_of(runs);
        let target = c.target_mib << 20;
        let names: Vec<String> = c.merge.iter().map(|p| p.display().to_string()).collect();
        let report = format!(
            "Fastest run of each cell over: {}\n{}{}{}",
            names.join(", "),
            results.summary(target),
            results.targets(target, 256 << 20),
            results.markdown()
        );
        searchcache_bench::outln!("{report}");
        let path = c.out.join(format!("{}-best.md", c.tag));
        if let Err(e) = std::fs::create_dir_all(&c.out).and_then(|()| std::fs::write(&path, report))
        {
            eprintln!("matrix: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    if let Some(csv) = &c.replot {
        let results = match std::fs::read_to_string(csv) {
            Ok(text) => Results::from_csv(&text),
            Err(e) => {
                eprintln!("matrix: cannot read {}: {e}", csv.display());
                return ExitCode::FAILURE;
            }
        };
        return write_plots(&results, &c);
    }
    eprint!("{header}");
    let started = Instant::now();
    let mut m = Matrix {
        c,
        results: Results::default(),
    };
    for mib in m.c.sizes_mib.clone() {
        let bytes = mib << 20;
        if let Err(e) = m.bare(bytes) {
            eprintln!(
                "matrix: skipping the bare loops at {}: {e}",
                size_name(bytes)
            );
        }
        if let Err(e) = m.cache(bytes) {
            eprintln!("matrix: skipping searchcache at {}: {e}", size_name(bytes));
        }
        m.peers(bytes);
    }
    let sizes = m.results.sizes();
    let target = if sizes.contains(&(m.c.target_mib << 20)) {
        m.c.target_mib << 20
    } else {
        sizes.last().copied().unwrap_or(0)
    };
    let report = format!(
        "{header}total {:.0} s, load average at end {}\n{}{}{}",
        started.elapsed().as_secs_f64(),
        load_average(),
        m.results.summary(target),
        m.results.targets(target, 256 << 20),
        m.results.markdown(),
    );
    searchcache_bench::outln!("{report}");
    if let Err(e) = std::fs::create_dir_all(&m.c.out) {
        eprintln!("matrix: cannot create {}: {e}", m.c.out.display());
        return ExitCode::FAILURE;
    }
    let tag = &m.c.tag;
    let write = |name: String, text: &str| {
        let path = m.c.out.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("matrix: cannot write {}: {e}", path.display());
        }
    };
    write(format!("{tag}.md"), &report);
    write(format!("{tag}.csv"), &m.results.csv());
    write_plots(&m.results, &m.c)
}

fn write_plots(results: &Results, c: &Config) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(&c.out) {
        eprintln!("matrix: cannot create {}: {e}", c.out.display());
        return ExitCode::FAILURE;
    }
    for t in results.thread_counts() {
        for workload in ["probe-only", "probe-heavy"] {
            let path = c.out.join(format!("{}-{workload}-{t}t.svg", c.tag));
            match plot::ns_per_op(results, workload, t, &path) {
                Ok(()) => eprintln!("wrote {}", path.display()),
                Err(e) => eprintln!("matrix: plot {}: {e}", path.display()),
            }
        }
    }
    ExitCode::SUCCESS
}
