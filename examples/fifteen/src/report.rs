//! The results table: one row per instance, then the totals.

use std::time::Duration;

/// One solved instance.
#[derive(Clone, Debug)]
pub struct Row {
    /// Instance label (Korf id, file:line, argv).
    pub label: String,
    /// Optimal length found.
    pub len: usize,
    /// Known optimal length, if any.
    pub known_len: Option<u32>,
    /// Nodes generated.
    pub nodes: u64,
    /// Korf 1985's count for this heuristic, when it applies (plain IDA*, one thread).
    pub known_nodes: Option<u64>,
    /// Wall time.
    pub time: Duration,
    /// Table probes and hits.
    pub probes: u64,
    /// Probes that found an entry.
    pub hits: u64,
}

fn hit_rate(probes: u64, hits: u64) -> String {
    if probes == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * hits as f64 / probes as f64)
    }
}

/// The column titles.
pub fn header(reference: bool, width: usize) -> String {
    let extra = if reference { "  korf-nodes  same" } else { "" };
    format!(
        "{:>width$} {:>4} {:>15} {:>9} {:>8} {:>7}{extra}",
        "id", "len", "nodes", "time-s", "Mnode/s", "tt-hit"
    )
}

impl Row {
    /// The row as printed.
    pub fn line(&self, width: usize) -> String {
        let secs = self.time.as_secs_f64();
        let rate = self.nodes as f64 / secs.max(1e-9) / 1e6;
        let len_mark = match self.known_len {
            Some(k) if k as usize != self.len => format!(" (MISMATCH: expected {k})"),
            _ => String::new(),
        };
        let reference = match self.known_nodes {
            Some(k) => format!(" {k:>11}  {}", if k == self.nodes { "yes" } else { "no" }),
            None => String::new(),
        };
        format!(
            "{:>width$} {:>4} {:>15} {:>9.3} {:>8.1} {:>7}{reference}{len_mark}",
            self.label,
            self.len,
            self.nodes,
            secs,
            rate,
            hit_rate(self.probes, self.hits)
        )
    }
}

/// The totals line over `rows` (their `time-s` is the sum of the instances' own times), then
/// the wall time of solving them all (with several instances at once, less than that sum) and
/// of the whole run (loading the databases included).
pub fn totals(rows: &[Row], solving: Duration, wall: Duration, width: usize) -> String {
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let probes: u64 = rows.iter().map(|r| r.probes).sum();
    let hits: u64 = rows.iter().map(|r| r.hits).sum();
    let len: usize = rows.iter().map(|r| r.len).sum();
    let secs: f64 = rows.iter().map(|r| r.time.as_secs_f64()).sum();
    let matched = rows
        .iter()
        .filter(|r| r.known_nodes == Some(r.nodes))
        .count();
    let with_reference = rows.iter().filter(|r| r.known_nodes.is_some()).count();
    let mut s = format!(
        "{:>width$} {:>4} {:>15} {:>9.3} {:>8.1} {:>7}",
        "total",
        len,
        nodes,
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6,
        hit_rate(probes, hits)
    );
    if with_reference > 0 {
        s += &format!("  Korf's node count reproduced for {matched}/{with_reference}");
    }
    s += &format!(
        "\n{} instances solved in {:.3} s wall, {:.2} s with setup",
        rows.len(),
        solving.as_secs_f64(),
        wall.as_secs_f64()
    );
    s
}
