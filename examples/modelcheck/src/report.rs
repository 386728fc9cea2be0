//! The report printed after a run, and the exit statuses.

use crate::bfs::{Options, Schedule, Verdict};
use crate::model::Model;
use crate::Report;
use std::io::{self, Write};

/// Exit status: the search finished (or hit `--max-depth`) without finding an error.
pub const EXIT_OK: i32 = 0;
/// Exit status: a counterexample was found and printed.
pub const EXIT_COUNTEREXAMPLE: i32 = 1;
/// Exit status: bad command line.
pub const EXIT_USAGE: i32 = 2;
/// Exit status: the search could not finish (full table, trace error).
pub const EXIT_ERROR: i32 = 3;

/// The exit statuses, for `--help`.
pub const EXIT_STATUS_HELP: &str = "\nExit status: 0 no error found, 1 counterexample printed, \
                                    2 usage error, 3 could not finish\n";

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
    let status = status(report);
    match write_report(model, options, report, out).and_then(|()| out.flush()) {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: cannot write the report: {e}");
            EXIT_ERROR
        }
    }
}

/// The exit status of a run.
pub fn status<M: Model>(report: &Report<M>) -> i32 {
    if report.storage.is_none() {
        return EXIT_ERROR;
    }
    match &report.verdict {
        Verdict::Complete | Verdict::DepthLimit => EXIT_OK,
        Verdict::Counterexample(_) => EXIT_COUNTEREXAMPLE,
        Verdict::Full(_) | Verdict::Error(_) => EXIT_ERROR,
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
    } = report;
    let Some(storage) = storage else {
        if let Verdict::Error(e) = &verdict {
            writeln!(out, "error: {e}")?;
        }
        return Ok(());
    };
    let secs = stats.elapsed.as_secs_f64();
    let states = stats.states.max(1) as f64;
    let schedule = match options.schedule {
        Schedule::Chunks => "chunks",
        Schedule::Steal => "steal",
    };
    writeln!(out, "model: {}", model.name())?;
    writeln!(
        out,
        "mode: {}, {} threads, schedule {schedule}",
        storage.mode.name(),
        options.threads
    )?;
    let result = match &verdict {
        Verdict::Complete => "no error: every reachable state visited".to_string(),
        Verdict::DepthLimit => format!(
            "no error up to --max-depth {}",
            options.max_depth.unwrap_or(0)
        ),
        Verdict::Counterexample(trace) => {
            format!("{:?} after {} steps", trace.failure, trace.steps.len())
        }
        Verdict::Full(full) => format!("error: {full}"),
        Verdict::Error(e) => format!("error: {e}"),
    };
    writeln!(out, "result: {result}")?;
    writeln!(out, "states: {}", stats.states)?;
    writeln!(out, "transitions: {}", stats.transitions)?;
    writeln!(out, "depth: {}", stats.depth)?;
    writeln!(out, "time: {secs:.3} s")?;
    writeln!(out, "states/s: {:.0}", stats.states as f64 / secs.max(1e-9))?;
    writeln!(
        out,
        "visited storage: {} bytes, {:.2} bytes/state ({} bytes/slot)",
        storage.bytes,
        storage.bytes as f64 / states,
        storage.slot_bits as f64 / 8.0
    )?;
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
    if let Some(load) = storage.load_factor {
        writeln!(out, "load factor: {load:.3}")?;
    }
    let omission = storage.omission;
    writeln!(
        out,
        "omission bound: {:.3e} ({})",
        omission.value, omission.name
    )?;
    if let Some(tlc) = storage.tlc_optimistic {
        writeln!(out, "TLC-style optimistic estimate: {tlc:.3e}")?;
    }
    if let Verdict::Counterexample(trace) = &verdict {
        writeln!(out, "trace (replayed and checked):")?;
        writeln!(
            out,
            "  0: initial            {}",
            model.show(&trace.initial)
        )?;
        for (i, (action, state)) in trace.steps.iter().enumerate() {
            writeln!(
                out,
                "  {}: {:<18} {}",
                i + 1,
                action.to_string(),
                model.show(state)
            )?;
        }
    }
    Ok(())
}
