//! The report printed after a run (a distributed run's adds a line per process), and the exit
//! status it comes to.

use crate::args::memory_flag;
use crate::exit::{EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL};
use crate::sometimes::{with_sometimes, write_path, write_sometimes, write_unchecked};
use modelcheck::distributed::{DistributedReport, ProcessStats};
use modelcheck::{
    peak_resident_bytes, Mode, Model, Options, Report, Saved, Stats, Storage, TableFull, Trace,
    Verdict, MAX_GROWTH,
};
use std::io::{self, Write};

/// Prints the report of a run of `model` with `options` to `out`; returns the exit status.
///
/// A closed `out` (a reader that stopped, as `| head -1`) is not an error of the search: the
/// status is still the verdict's. Any other write error is printed to stderr and the status is
/// [`EXIT_ERROR`].
pub fn print_report<M: Model>(
    model: &M,
    options: &Options,
    report: &Report<M>,
    out: &mut dyn Write,
) -> i32 {
    let written = write_report(model, options, report, out).and_then(|()| out.flush());
    finish(status(report), written)
}

/// Prints the report of a distributed run: [`print_report`]'s, with the whole run's workers
/// as its threads, then a line per process and the partition's figures. The status is as
/// [`print_report`] says.
pub fn print_distributed<M: Model>(
    model: &M,
    options: &Options,
    report: &DistributedReport<M>,
    out: &mut dyn Write,
) -> i32 {
    let options = Options {
        threads: report.workers * report.processes.len(),
        ..options.clone()
    };
    let written = write_report(model, &options, &report.report, out)
        .and_then(|()| write_unchecked(model, out))
        .and_then(|()| write_processes(report, out))
        .and_then(|()| out.flush());
    finish(status(&report.report), written)
}

/// The status once the report is written: `status`, unless writing failed for another reason
/// than a closed pipe (a reader that stopped is no error of the search), then [`EXIT_ERROR`]
/// with the error on stderr.
pub fn finish(status: i32, written: io::Result<()>) -> i32 {
    match written {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: cannot write the report: {e}");
            EXIT_ERROR
        }
    }
}

/// A full table in the command line's words: what filled, and the `--memory` to run with.
pub fn table_full_advice(full: &TableFull) -> String {
    let mut text = format!(
        "{} is full: no room for a new state of level {}; levels 0 to {} hold {} states. It \
         holds about {} states at {} bytes each in --memory {}. Run again with --memory {} or \
         more",
        full.what(),
        full.level,
        full.level.saturating_sub(1),
        full.states,
        full.capacity,
        full.bytes_per_state,
        memory_flag(full.memory_bytes),
        memory_flag(full.bytes_needed()),
    );
    text.push_str(&estimate_note(full));
    if full.mode == Mode::Exact {
        text.push_str(", or with --mode fp64 (8 bytes per state)");
    } else if full.filled_early() {
        text.push_str(&format!(
            " (the load was only {:.3} when it filled: check that the states' hashes differ)",
            full.load
        ));
    }
    text
}

/// How [`TableFull::bytes_needed`] came about, in a parenthesis: an estimate from the last
/// levels' widths, the least it asks for, or the most.
fn estimate_note(full: &TableFull) -> String {
    let [.., before, last] = full.last_widths;
    match full.states_estimate() {
        _ if full.filled_in_first_levels() => format!(
            " (the table filled by level {}: {} times its size)",
            full.level, MAX_GROWTH
        ),
        Some(states) => format!(
            " (an estimate: levels {} and {} held {before} and {last} states; a breadth-first \
             search's levels grow, then shrink, and projecting theirs puts the whole search at \
             about {states} states; the advice is at least twice and at most {} times this \
             table)",
            full.level - 2,
            full.level - 1,
            MAX_GROWTH
        ),
        None => " (twice this table: the last levels' sizes are not known)".to_string(),
    }
}

/// The exit status of a run: its verdict's, then its `sometimes` properties': after a search
/// that found no error, a vacuous one is [`EXIT_COUNTEREXAMPLE`] and an example that could not
/// be replayed [`EXIT_ERROR`]; one only not found changes nothing.
pub fn status<M: Model>(report: &Report<M>) -> i32 {
    let Some(storage) = &report.storage else {
        return EXIT_ERROR;
    };
    let status = match &report.verdict {
        Verdict::Complete | Verdict::DepthLimit if storage.partial() => EXIT_PARTIAL,
        Verdict::Complete | Verdict::DepthLimit => EXIT_OK,
        Verdict::Counterexample(_) => EXIT_COUNTEREXAMPLE,
        Verdict::Interrupted => EXIT_INTERRUPTED,
        Verdict::Full(_) | Verdict::Error(_) => EXIT_ERROR,
    };
    with_sometimes(status, &report.sometimes)
}

/// The result line: what the run shows, and no more.
fn result_line<M: Model>(verdict: &Verdict<M>, stats: &Stats, storage: &Storage) -> String {
    let partial = format!(
        "partial search: no error in the states visited, but the {} storage may have missed \
         reachable states (see omission and coverage)",
        storage.mode.name()
    );
    match verdict {
        Verdict::Complete if storage.partial() => partial,
        Verdict::Complete if storage.mode == Mode::Exact => {
            "no error: every reachable state visited".into()
        }
        Verdict::Complete => format!(
            "no error: every reachable state visited, unless a fingerprint collision (probability \
             at most {:.1e}) hid one",
            storage.omission.value
        ),
        Verdict::DepthLimit if storage.partial() => {
            format!("no error up to --max-depth; {partial}")
        }
        Verdict::DepthLimit => format!("no error up to --max-depth {}", stats.depth),
        Verdict::Counterexample(trace) => {
            format!("{:?} after {} steps", trace.failure, trace.steps.len())
        }
        Verdict::Interrupted => format!(
            "interrupted: no error in the states visited; levels 0 to {} were searched whole{}",
            stats.depth,
            match stats.cut_short {
                Some(cut) => format!(", level {} in part", cut.level),
                None => String::new(),
            }
        ),
        Verdict::Full(full) => format!("error: {}", table_full_advice(full)),
        Verdict::Error(e) => format!("error: {e}"),
    }
}

fn write_report<M: Model>(
    model: &M,
    options: &Options,
    report: &Report<M>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let Report {
        stats,
        verdict,
        storage,
        checkpoints,
        sometimes,
    } = report;
    let Some(storage) = storage else {
        if let Verdict::Error(e) = &verdict {
            writeln!(out, "error: {e}")?;
        }
        return Ok(());
    };
    let secs = stats.elapsed.as_secs_f64();
    let states = stats.states.max(1) as f64;
    let schedule = options.schedule.name();
    writeln!(out, "model: {}", model.name())?;
    writeln!(
        out,
        "mode: {}, {} threads, schedule {schedule}",
        storage.mode.name(),
        options.threads
    )?;
    writeln!(out, "result: {}", result_line(verdict, stats, storage))?;
    writeln!(out, "states: {}", states_text(options, stats))?;
    writeln!(out, "transitions: {}", stats.transitions)?;
    writeln!(out, "depth: {}", stats.depth)?;
    if let Some(cut) = stats.cut_short {
        writeln!(
            out,
            "cut short: level {} was being generated: {} of its states stored and {} \
             transitions so far (not in the counts above)",
            cut.level, cut.states, cut.transitions
        )?;
    }
    writeln!(out, "time: {secs:.3} s")?;
    if let Some(depth) = stats.resumed_from {
        writeln!(
            out,
            "resumed: from a checkpoint at depth {depth}; {:.3} s in all runs",
            (stats.elapsed_before + stats.elapsed).as_secs_f64()
        )?;
    }
    // Over every run of the search, resumed ones included.
    let all_secs = (stats.elapsed_before + stats.elapsed).as_secs_f64();
    writeln!(
        out,
        "states/s: {:.0}",
        stats.states as f64 / all_secs.max(1e-9)
    )?;
    if let Some(peak) = peak_resident_bytes() {
        writeln!(
            out,
            "peak memory: {:.1} MiB resident (the whole process)",
            peak as f64 / (1 << 20) as f64
        )?;
    }
    if let Some(saved) = checkpoints {
        write_checkpoints(saved, out)?;
    }
    write_storage(storage, out)?;
    writeln!(
        out,
        "trace log: {} bytes, {:.2} bytes/state",
        stats.trace_bytes,
        stats.trace_bytes as f64 / states
    )?;
    writeln!(
        out,
        "frontier peak: {} bytes (full states of two levels)",
        stats.frontier_peak_bytes
    )?;
    if storage.may_report_new_twice {
        writeln!(out, "racing duplicates dropped: {}", stats.duplicates)?;
    }
    let searched_to_the_end = matches!(verdict, Verdict::Complete | Verdict::DepthLimit);
    write_coverage(storage, searched_to_the_end, out)?;
    write_sometimes(model, sometimes, out)?;
    if let Verdict::Counterexample(trace) = &verdict {
        write_trace(model, trace, out)?;
    }
    Ok(())
}

/// The `states` count: of states, or with symmetry of classes, and the states they stand for
/// when the model says.
fn states_text(options: &Options, stats: &Stats) -> String {
    match (options.symmetry, stats.represented) {
        (false, _) => stats.states.to_string(),
        (true, Some(n)) => format!(
            "{} symmetry classes stored, standing for {n} states",
            stats.states
        ),
        (true, None) => format!("{} symmetry classes stored", stats.states),
    }
}

/// A replayed trace, a line per state: its number, the step's action and the state as the
/// model shows it.
pub fn write_trace<M: Model>(model: &M, trace: &Trace<M>, out: &mut dyn Write) -> io::Result<()> {
    let heading = "trace (replayed and checked):";
    write_path(model, heading, &trace.initial, &trace.steps, out)
}

/// How many checkpoints were written, the last one's depth, and how to resume it.
fn write_checkpoints(saved: &Saved, out: &mut dyn Write) -> io::Result<()> {
    let path = saved
        .path
        .as_deref()
        .map_or_else(String::new, |p| p.display().to_string());
    match saved.depth {
        Some(depth) => writeln!(
            out,
            "checkpoint: {} written, the last at depth {depth}: resume with --resume {path}",
            saved.written
        )?,
        // A failed write leaves what `path` held before (it is renamed into place only whole).
        None if saved.last_error.is_some() => writeln!(
            out,
            "checkpoint: none written (see the error below); what {path} held before is left as \
             it was"
        )?,
        None => writeln!(
            out,
            "checkpoint: none written (no level boundary came --checkpoint-every after the last)"
        )?,
    }
    match &saved.last_error {
        Some(e) => writeln!(out, "checkpoint error: {e}"),
        None => Ok(()),
    }
}

/// The table's bytes, the bytes per stored state and the load, each on its own line.
fn write_storage(storage: &Storage, out: &mut dyn Write) -> io::Result<()> {
    let bytes = storage.table_bytes;
    let mib = bytes as f64 / (1 << 20) as f64;
    match storage.mode {
        Mode::Fp64 | Mode::Fp32 => {
            writeln!(
                out,
                "visited table: {bytes} bytes ({mib:.1} MiB), {} slots",
                storage.slots
            )?;
            writeln!(
                out,
                "per stored state: {} bytes (one slot)",
                storage.bytes_per_state
            )?;
            writeln!(
                out,
                "load: {:.4} ({} states stored in {} slots); hash factor {:.2} slots per stored \
                 state",
                storage.fill,
                storage.stored,
                storage.slots,
                storage.hash_factor()
            )
        }
        Mode::Bitstate => {
            let k = storage.hashes.unwrap_or(0);
            writeln!(
                out,
                "visited table: {bytes} bytes ({mib:.1} MiB), {} bits",
                storage.slots
            )?;
            writeln!(
                out,
                "per stored state: at most {k} bits set (k = {k} hash functions)"
            )?;
            writeln!(
                out,
                "load: fill {:.4} (bits set / bits); hash factor {:.2} bits per stored state ({} \
                 states stored)",
                storage.fill,
                storage.hash_factor(),
                storage.stored
            )
        }
        Mode::Exact => {
            writeln!(
                out,
                "visited table: {bytes} bytes ({mib:.1} MiB), {} buckets of full states",
                storage.slots
            )?;
            writeln!(
                out,
                "per stored state: {:.1} bytes (the hash sets' bytes over their states)",
                storage.bytes_per_state
            )?;
            writeln!(
                out,
                "load: {:.4} ({} states in {} buckets)",
                storage.fill, storage.stored, storage.slots
            )
        }
    }
}

/// The omission bound, and the coverage estimate where one holds: only after a search that ran
/// to its end (or to `--max-depth`), since a stopped one covers a part by construction.
fn write_coverage(storage: &Storage, to_the_end: bool, out: &mut dyn Write) -> io::Result<()> {
    let bound = storage.omission.value;
    writeln!(
        out,
        "omission: P(some reachable state missed) <= {bound:.3e} ({})",
        storage.omission.name
    )?;
    if !to_the_end {
        return Ok(());
    }
    let certain = match storage.mode {
        Mode::Exact => "complete: full states are compared".to_string(),
        _ if bound < 1.0 => {
            format!("every reachable state, except with probability at most {bound:.3e}")
        }
        _ => "no bound below 1 on missing a state".to_string(),
    };
    match (storage.coverage_at_most(), storage.reached_missed) {
        (Some(at_most), Some(missed)) => writeln!(
            out,
            "coverage: {certain}; at most about {:.4} % of the reachable states: an expected \
             {:.3e} of the states reached were taken for seen, and the states behind them are \
             not counted, so the true coverage may be far lower",
            100.0 * at_most,
            missed
        ),
        _ => writeln!(out, "coverage: {certain}"),
    }?;
    if let Some(tlc) = storage.tlc_optimistic {
        writeln!(
            out,
            "TLC-style optimistic estimate: {tlc:.3e} (not a bound)"
        )?;
    }
    Ok(())
}

/// The partition skew: the most states one process owns over the mean (1.0 is even).
pub fn skew(processes: &[ProcessStats]) -> f64 {
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
    let sum = |f: fn(&ProcessStats) -> u64| processes.iter().map(f).sum::<u64>();
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
