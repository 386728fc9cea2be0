//! The matrix's results: rows, the CSV, the Markdown tables, and the targets of issue 8.

use crate::run::Outcome;
use std::fmt::Write as _;

/// What a row measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `SearchCache`.
    Cache,
    /// The machine's limit (bare reads, pointer chase).
    Bare,
    /// A peer map or cache.
    Peer,
}

/// One measurement.
#[derive(Clone, Debug)]
pub struct Row {
    /// Table (or buffer) bytes.
    pub bytes: usize,
    /// Who: "searchcache", "searchcache pf", "searchcache 4K", "bare read", "dashmap", ...
    pub subject: String,
    /// Which kind of subject.
    pub family: Family,
    /// The workload's name, or for bare rows "read" / "chase".
    pub workload: String,
    /// The measurement.
    pub outcome: Outcome,
    /// Bytes per entry held (tables), if known.
    pub bytes_per_entry: Option<f64>,
    /// Bytes backed by transparent huge pages while it ran, if known.
    pub huge_bytes: Option<usize>,
}

/// Every row of a run, in order.
#[derive(Default)]
pub struct Results {
    /// The rows.
    pub rows: Vec<Row>,
}

/// Formats bytes as "1 MiB", "4 GiB", "512 KiB".
pub fn size_name(bytes: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} B")
}

impl Results {
    /// The row for these coordinates.
    pub fn find(
        &self,
        bytes: usize,
        subject: &str,
        workload: &str,
        threads: usize,
    ) -> Option<&Row> {
        self.rows.iter().find(|r| {
            r.bytes == bytes
                && r.subject == subject
                && r.workload == workload
                && r.outcome.threads == threads
        })
    }

    /// Sizes measured, ascending.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = self.rows.iter().map(|r| r.bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        sizes
    }

    /// Thread counts measured, ascending.
    pub fn thread_counts(&self) -> Vec<usize> {
        let mut t: Vec<usize> = self.rows.iter().map(|r| r.outcome.threads).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Subjects of `family` in first-seen order.
    pub fn subjects(&self, family: Family) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in self.rows.iter().filter(|r| r.family == family) {
            if !out.contains(&r.subject) {
                out.push(r.subject.clone());
            }
        }
        out
    }

    fn workloads(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in self.rows.iter().filter(|r| r.family != Family::Bare) {
            if !out.contains(&r.workload) {
                out.push(r.workload.clone());
            }
        }
        out
    }

    /// Rows read back from [`Results::csv`]'s format (to redraw plots and tables without
    /// measuring again). Lines that do not parse are skipped.
    pub fn from_csv(text: &str) -> Results {
        let rows = text
            .lines()
            .skip(1)
            .filter_map(|line| {
                let f: Vec<&str> = line.split(',').collect();
                if f.len() != 14 {
                    return None;
                }
                let subject = f[1].to_string();
                let family = if subject.starts_with("searchcache") {
                    Family::Cache
                } else if ["chase", "raw read", "bare read"]
                    .iter()
                    .any(|b| subject.starts_with(b))
                {
                    Family::Bare
                } else {
                    Family::Peer
                };
                let ops: u64 = f[4].parse().ok()?;
                let reads = (!f[11].is_empty()).then_some(ops);
                let hit_rate: Option<f64> = f[11].parse().ok();
                Some(Row {
                    bytes: f[0].parse().ok()?,
                    subject,
                    family,
                    workload: f[2].to_string(),
                    outcome: Outcome {
                        ops,
                        reads: reads.unwrap_or(0),
                        hits: hit_rate.map_or(0, |h| (h * ops as f64).round() as u64),
                        secs: f[5].parse().ok()?,
                        cpu_secs: f[6].parse().ok()?,
                        threads: f[3].parse().ok()?,
                    },
                    bytes_per_entry: f[12].parse().ok(),
                    huge_bytes: f[13].parse().ok(),
                })
            })
            .collect();
        Results { rows }
    }

    /// The fastest measurement of each cell (size, subject, workload, threads) over several
    /// runs: on a shared machine every run is slowed by other jobs at different moments.
    pub fn best_of(runs: Vec<Results>) -> Results {
        let mut best: Vec<Row> = Vec::new();
        for row in runs.into_iter().flat_map(|r| r.rows) {
            let same = |r: &&mut Row| {
                r.bytes == row.bytes
                    && r.subject == row.subject
                    && r.workload == row.workload
                    && r.outcome.threads == row.outcome.threads
            };
            match best.iter_mut().find(same) {
                Some(kept) if kept.outcome.mops() >= row.outcome.mops() => {}
                Some(kept) => *kept = row,
                None => best.push(row),
            }
        }
        Results { rows: best }
    }

    /// Every row as CSV.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "bytes,subject,workload,threads,ops,wall_secs,cpu_secs,cpu_share,ns_per_op,mops,wall_mops,hit_rate,bytes_per_entry,huge_page_bytes\n",
        );
        for r in &self.rows {
            let o = &r.outcome;
            let _ = writeln!(
                s,
                "{},{},{},{},{},{:.4},{:.4},{:.3},{:.2},{:.2},{:.2},{},{},{}",
                r.bytes,
                r.subject,
                r.workload,
                o.threads,
                o.ops,
                o.secs,
                o.cpu_secs,
                o.cpu_share(),
                o.ns_per_op(),
                o.mops(),
                o.wall_mops(),
                o.hit_rate().map_or(String::new(), |h| format!("{h:.4}")),
                r.bytes_per_entry
                    .map_or(String::new(), |b| format!("{b:.1}")),
                r.huge_bytes.map_or(String::new(), |b| b.to_string()),
            );
        }
        s
    }

    /// The Markdown report: limits, one table per workload and thread count, memory, ratios.
    pub fn markdown(&self) -> String {
        let sizes = self.sizes();
        let header = |first: &str| {
            let mut h = format!("| {first} |");
            let mut rule = String::from("|---|");
            for &b in &sizes {
                let _ = write!(h, " {} |", size_name(b));
                rule.push_str("---:|");
            }
            format!("{h}\n{rule}\n")
        };
        let mut s = String::new();
        for &t in &self.thread_counts() {
            let _ = writeln!(
                s,
                "\n#### The machine's limit, {t} thread(s): ns per load per thread\n"
            );
            s.push_str(&header("loop"));
            for subject in self.subjects(Family::Bare) {
                let workload = if subject.starts_with("chase") {
                    "chase"
                } else {
                    "read"
                };
                if self
                    .rows
                    .iter()
                    .all(|r| r.subject != subject || r.outcome.threads != t)
                {
                    continue;
                }
                let _ = write!(s, "| {subject} |");
                for &b in &sizes {
                    match self.find(b, &subject, workload, t) {
                        Some(r) => {
                            let _ = write!(s, " {:.1} |", r.outcome.ns_per_op());
                        }
                        None => s.push_str(" – |"),
                    }
                }
                s.push('\n');
            }
        }
        for workload in self.workloads() {
            for &t in &self.thread_counts() {
                let _ = writeln!(
                    s,
                    "\n#### {workload}, {t} thread(s): ns/op per thread · Mops/s all threads · hit rate\n"
                );
                s.push_str(&header("table"));
                for subject in self
                    .subjects(Family::Cache)
                    .into_iter()
                    .chain(self.subjects(Family::Peer))
                {
                    let mut line = format!("| {subject} |");
                    let mut any = false;
                    for &b in &sizes {
                        match self.find(b, &subject, &workload, t) {
                            Some(r) => {
                                any = true;
                                let hit = r
                                    .outcome
                                    .hit_rate()
                                    .map_or(String::new(), |h| format!(" · {:.0}%", h * 100.0));
                                let _ = write!(
                                    line,
                                    " {:.1} · {:.1}{hit} |",
                                    r.outcome.ns_per_op(),
                                    r.outcome.mops()
                                );
                            }
                            None => line.push_str(" – |"),
                        }
                    }
                    if any {
                        s.push_str(&line);
                        s.push('\n');
                    }
                }
            }
        }
        s.push_str(
            "\n#### Memory per entry (bytes): per slot for searchcache and fixed-cache, per key \
             held for the others (resident-set growth while filling; below 64 MiB the \
             allocator reuses freed memory and the growth says nothing)\n\n",
        );
        s.push_str(&header("table"));
        let one_cache_row = self.subjects(Family::Cache).into_iter().take(1);
        for subject in one_cache_row.chain(self.subjects(Family::Peer)) {
            let mut line = format!("| {subject} |");
            let mut any = false;
            for &b in &sizes {
                let bpe = self
                    .rows
                    .iter()
                    .find(|r| r.bytes == b && r.subject == subject && r.bytes_per_entry.is_some())
                    .filter(|r| {
                        r.family == Family::Cache || subject == "fixed-cache" || b >= 64 << 20
                    })
                    .and_then(|r| r.bytes_per_entry);
                match bpe {
                    Some(v) => {
                        any = true;
                        let _ = write!(line, " {v:.1} |");
                    }
                    None => line.push_str(" – |"),
                }
            }
            if any {
                s.push_str(&line);
                s.push('\n');
            }
        }
        s.push_str(
            "\n#### searchcache's ops/s over each peer's, same size, workload and threads\n\n",
        );
        for &t in &self.thread_counts() {
            let _ = writeln!(
                s,
                "\n{t} thread(s), workload probe-heavy / read-heavy / exchange:\n"
            );
            s.push_str(&header("peer"));
            for peer in self.subjects(Family::Peer) {
                let _ = write!(s, "| {peer} |");
                for &b in &sizes {
                    let ratios: Vec<String> = ["probe-heavy", "read-heavy", "exchange"]
                        .iter()
                        .map(|w| {
                            match (self.find(b, "searchcache", w, t), self.find(b, &peer, w, t)) {
                                (Some(c), Some(p)) => {
                                    format!("{:.1}", c.outcome.mops() / p.outcome.mops())
                                }
                                _ => "–".into(),
                            }
                        })
                        .collect();
                    let _ = write!(s, " {} |", ratios.join(" / "));
                }
                s.push('\n');
            }
        }
        s
    }

    /// One table for `bytes`: every subject's probe-only and probe-heavy ns/op and Mops/s at
    /// each thread count, with hit rates and memory per entry.
    pub fn summary(&self, bytes: usize) -> String {
        let threads = self.thread_counts();
        let mut s = format!("\n#### Summary at {}\n\n| subject |", size_name(bytes));
        let mut rule = String::from("|---|");
        for w in ["probe-only", "probe-heavy"] {
            for t in &threads {
                let _ = write!(s, " {w} {t}t ns/op · Mops/s |");
                rule.push_str("---:|");
            }
        }
        s.push_str(" hit rate (probe-heavy) | bytes/entry | huge-page MiB |\n");
        rule.push_str("---:|---:|---:|\n");
        s.push_str(&rule);
        let subjects = self
            .subjects(Family::Bare)
            .into_iter()
            .chain(self.subjects(Family::Cache))
            .chain(self.subjects(Family::Peer));
        for subject in subjects {
            if self
                .rows
                .iter()
                .all(|r| r.bytes != bytes || r.subject != subject)
            {
                continue;
            }
            let _ = write!(s, "| {subject} |");
            for w in ["probe-only", "probe-heavy"] {
                for &t in &threads {
                    let row = self.find(bytes, &subject, w, t).or_else(|| {
                        let bare = if subject.starts_with("chase") {
                            "chase"
                        } else {
                            "read"
                        };
                        self.find(bytes, &subject, bare, t)
                            .filter(|_| w == "probe-only")
                    });
                    match row {
                        Some(r) => {
                            let _ = write!(
                                s,
                                " {:.1} · {:.1} |",
                                r.outcome.ns_per_op(),
                                r.outcome.mops()
                            );
                        }
                        None => s.push_str(" – |"),
                    }
                }
            }
            let any = self
                .rows
                .iter()
                .find(|r| r.bytes == bytes && r.subject == subject && r.workload == "probe-heavy");
            let hit = any
                .and_then(|r| r.outcome.hit_rate())
                .map_or("–".to_string(), |h| format!("{:.0}%", h * 100.0));
            let bpe = self
                .rows
                .iter()
                .find(|r| r.bytes == bytes && r.subject == subject)
                .and_then(|r| r.bytes_per_entry)
                .filter(|_| {
                    bytes >= 64 << 20
                        || !self.subjects(Family::Peer).contains(&subject)
                        || subject == "fixed-cache"
                })
                .map_or("–".to_string(), |b| format!("{b:.1}"));
            let huge = self
                .rows
                .iter()
                .find(|r| r.bytes == bytes && r.subject == subject)
                .and_then(|r| r.huge_bytes)
                .map_or("–".to_string(), |b| (b >> 20).to_string());
            let _ = writeln!(s, " {hit} | {bpe} | {huge} |");
        }
        s
    }

    /// The targets of issue 8 at `bytes`, each with the measured value and the verdict.
    pub fn targets(&self, bytes: usize, huge_from: usize) -> String {
        let mut s = format!("\n#### Targets at {}\n\n", size_name(bytes));
        s.push_str("| target | measured | verdict |\n|---|---:|---|\n");
        // `ok` is the target; `None` for a row that is there to explain another (no verdict).
        let mut line = |name: String, value: Option<f64>, ok: Option<&dyn Fn(f64) -> bool>| {
            let (v, verdict) = match (value, ok) {
                (Some(v), Some(ok)) => (format!("{v:.2}"), if ok(v) { "met" } else { "missed" }),
                (Some(v), None) => (format!("{v:.2}"), "–"),
                (None, _) => ("–".into(), "not measured"),
            };
            let _ = writeln!(s, "| {name} | {v} | {verdict} |");
        };
        let ns = |subject: &str, workload: &str, t: usize| {
            self.find(bytes, subject, workload, t)
                .map(|r| r.outcome.ns_per_op())
        };
        let mops = |subject: &str, workload: &str, t: usize| {
            self.find(bytes, subject, workload, t)
                .map(|r| r.outcome.mops())
        };
        let ratio = |a: Option<f64>, b: Option<f64>| Some(a? / b?);
        for t in self.thread_counts() {
            line(
                format!("probe-only ÷ bare read, {t} thread(s) (≤ 1.15)"),
                ratio(
                    ns("searchcache", "probe-only", t),
                    ns("bare read", "read", t),
                ),
                Some(&|v| v <= 1.15),
            );
            line(
                format!("prefetched probe-only ÷ prefetched bare read, {t} thread(s) (≤ 1.3)"),
                ratio(
                    ns("searchcache pf", "probe-only", t),
                    ns("bare read pf", "read", t),
                ),
                Some(&|v| v <= 1.3),
            );
            for w in ["probe-heavy", "read-heavy", "store-heavy", "exchange"] {
                line(
                    format!("{w} ops/s ÷ dashmap's, {t} thread(s) (≥ 3)"),
                    ratio(mops("searchcache", w, t), mops("dashmap", w, t)),
                    Some(&|v| v >= 3.0),
                );
            }
        }
        for w in ["probe-only", "probe-heavy"] {
            line(
                format!("{w}: 2 threads' ops/s ÷ 1 thread's (≥ 1.8)"),
                ratio(mops("searchcache", w, 2), mops("searchcache", w, 1)),
                Some(&|v| v >= 1.8),
            );
            line(
                format!("{w}: bare read 2 threads' ÷ 1 thread's (the machine's own scaling)"),
                ratio(mops("bare read", "read", 2), mops("bare read", "read", 1)),
                None,
            );
        }
        for b in self.sizes().into_iter().filter(|&b| b >= huge_from) {
            let find = |subject: &str| {
                self.find(b, subject, "probe-only", 1)
                    .map(|r| r.outcome.ns_per_op())
            };
            let bare = |subject: &str| {
                self.find(b, subject, "read", 1)
                    .map(|r| r.outcome.ns_per_op())
            };
            let _ = &mut line;
            line(
                format!(
                    "{}: probe-only 4 KiB pages ÷ huge pages, 1 thread (> 1)",
                    size_name(b)
                ),
                ratio(find("searchcache 4K"), find("searchcache")),
                Some(&|v| v > 1.02),
            );
            line(
                format!(
                    "{}: bare read 4 KiB pages ÷ huge pages, 1 thread",
                    size_name(b)
                ),
                ratio(bare("bare read 4K"), bare("bare read")),
                None,
            );
            let chase = |subject: &str| {
                self.find(b, subject, "chase", 1)
                    .map(|r| r.outcome.ns_per_op())
            };
            line(
                format!(
                    "{}: pointer chase 4 KiB pages ÷ huge pages (one miss's latency)",
                    size_name(b)
                ),
                ratio(chase("chase 4K"), chase("chase")),
                None,
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(subject: &str, family: Family, workload: &str, threads: usize, ns: f64) -> Row {
        let ops = 1_000_000;
        Row {
            bytes: 1 << 30,
            subject: subject.into(),
            family,
            workload: workload.into(),
            outcome: Outcome {
                ops,
                reads: ops,
                hits: ops / 2,
                secs: 1.0,
                cpu_secs: ns * 1e-9 * ops as f64,
                threads,
            },
            bytes_per_entry: Some(16.0),
            huge_bytes: None,
        }
    }

    #[test]
    fn targets_compare_the_right_cells() {
        let results = Results {
            rows: vec![
                row("bare read", Family::Bare, "read", 1, 100.0),
                row("searchcache", Family::Cache, "probe-only", 1, 110.0),
                row("searchcache", Family::Cache, "probe-heavy", 1, 100.0),
                row("dashmap", Family::Peer, "probe-heavy", 1, 250.0),
            ],
        };
        let targets = results.targets(1 << 30, 256 << 20);
        assert!(
            targets.contains("| probe-only ÷ bare read, 1 thread(s) (≤ 1.15) | 1.10 | met |"),
            "{targets}"
        );
        assert!(
            targets
                .contains("| probe-heavy ops/s ÷ dashmap's, 1 thread(s) (≥ 3) | 2.50 | missed |"),
            "{targets}"
        );
        assert!(targets
            .contains("| store-heavy ops/s ÷ dashmap's, 1 thread(s) (≥ 3) | – | not measured |"));
        let md = results.markdown();
        assert!(md.contains("| searchcache | 110.0 · 9.1 · 50% |"), "{md}");
        assert!(results.csv().lines().count() == 5);
        let back = Results::from_csv(&results.csv());
        assert_eq!(back.rows.len(), 4);
        assert_eq!(back.targets(1 << 30, 256 << 20), targets);
        let mut slower = Results::from_csv(&results.csv());
        slower.rows[1].outcome.cpu_secs *= 2.0;
        let best = Results::best_of(vec![slower, back]);
        assert_eq!(best.rows.len(), 4);
        assert_eq!(best.targets(1 << 30, 256 << 20), targets);
        assert!(results.summary(1 << 30).contains("| dashmap |"));
        assert_eq!(size_name(1 << 30), "1 GiB");
        assert_eq!(size_name(1536 << 10), "1536 KiB");
    }
}
