//! The report of a distributed run: the single-process report of the totals, then one line per
//! process and the figures of the partition.

use super::DistributedReport;
use crate::bfs::Options;
use crate::model::Model;
use crate::report::print_report;
use std::io::{self, Write};

/// Prints `report` (a run of `model` with `options`) to `out`; returns the exit status, as
/// [`print_report`] does.
pub fn print<M: Model>(
    model: &M,
    options: &Options,
    report: &DistributedReport<M>,
    out: &mut dyn Write,
) -> i32 {
    let workers = report.workers * report.processes.len();
    let options = Options {
        threads: workers,
        ..options.clone()
    };
    let status = print_report(model, &options, &report.report, out);
    match write_processes(report, out).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: cannot write the report: {e}");
            crate::cli::EXIT_ERROR
        }
    }
}

/// The partition skew: the most states one process owns over the mean (1.0 is even).
pub fn skew(processes: &[super::ProcessStats]) -> f64 {
    let max = processes.iter().map(|p| p.states).max().unwrap_or(0) as f64;
    let mean =
        processes.iter().map(|p| p.states).sum::<u64>() as f64 / processes.len().max(1) as f64;
    if mean > 0.0 {
        max / mean
    } else {
        1.0
    }
}

fn write_processes<M: Model>(report: &DistributedReport<M>, out: &mut dyn Write) -> io::Result<()> {
    let processes = &report.processes;
    writeln!(
        out,
        "cluster: {} processes x {} timely workers; a state's owner is searchcache's StateHash::owner of its \
         portable hash",
        processes.len(),
        report.workers
    )?;
    writeln!(
        out,
        "  process       states  transitions   bytes sent  bytes received  largest frontier  \
         visited storage  peak resident"
    )?;
    for (i, p) in processes.iter().enumerate() {
        writeln!(
            out,
            "  {i:>7} {:>12} {:>12} {:>12} {:>15} {:>17} {:>16} {:>14}",
            p.states,
            p.transitions,
            p.bytes_sent,
            p.bytes_received,
            p.largest_frontier,
            p.storage_bytes,
            p.peak_resident_bytes.map_or("-".into(), |b| b.to_string())
        )?;
    }
    let sum = |f: fn(&super::ProcessStats) -> u64| processes.iter().map(f).sum::<u64>();
    writeln!(
        out,
        "  {:>7} {:>12} {:>12} {:>12} {:>15} {:>17} {:>16} {:>14}",
        "total",
        sum(|p| p.states),
        sum(|p| p.transitions),
        sum(|p| p.bytes_sent),
        sum(|p| p.bytes_received),
        processes
            .iter()
            .map(|p| p.largest_frontier)
            .max()
            .unwrap_or(0),
        sum(|p| p.storage_bytes),
        sum(|p| p.peak_resident_bytes.unwrap_or(0))
    )?;
    let states = sum(|p| p.states).max(1) as f64;
    writeln!(
        out,
        "bytes sent per state: {:.1}; per transition: {:.1}",
        sum(|p| p.bytes_sent) as f64 / states,
        sum(|p| p.bytes_sent) as f64 / sum(|p| p.transitions).max(1) as f64
    )?;
    let sent = sum(|p| p.successors_sent);
    let dropped = sum(|p| p.successors_dropped);
    writeln!(
        out,
        "successors for other workers: {} sent, {dropped} dropped as sent before ({:.1} %)",
        sent,
        100.0 * dropped as f64 / (sent + dropped).max(1) as f64
    )?;
    writeln!(
        out,
        "partition skew (max/mean states per process): {:.4}",
        skew(processes)
    )?;
    Ok(())
}
