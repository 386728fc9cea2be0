//! The `fifteen` binary: with no arguments it solves Korf's 100 random 15-puzzle instances
//! optimally and prints a table. `cargo run --release -p fifteen -- --help` for the options,
//! which [`cli`] parses (the only place clap is used).
//!
//! Nothing here panics on a closed standard output or error: every line goes through
//! [`Out::line`], which notices a write that fails (`fifteen | head -1`) and ends the run
//! quietly instead.

mod cli;

use cli::Command;
use fifteen::config::{Config, Parallel};
use fifteen::ida::{Control, Iteration};
use fifteen::report;
use fifteen::solver::Solver;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The exit status after Ctrl-C (as the model checker's).
const EXIT_INTERRUPTED: u8 = 5;

/// A flag SIGINT and SIGTERM set; a second signal, with the flag already set, exits at once.
fn stop_on_signals() -> io::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // The shutdown hook first: it acts only when an earlier signal set the flag.
        signal_hook::flag::register_conditional_shutdown(
            signal,
            i32::from(EXIT_INTERRUPTED),
            Arc::clone(&stop),
        )?;
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    Ok(stop)
}

/// The line printed after an IDA* iteration: its bound and nodes, the rate, the time so far,
/// and the next iteration's nodes estimated from the growth of the last two (`previous`).
fn iteration_line(it: &Iteration, previous: Option<u64>) -> String {
    let seconds = it.elapsed.as_secs_f64();
    let rate = it.total_nodes as f64 / seconds.max(1e-9);
    let estimate = match previous {
        Some(p) if p > 0 => {
            let growth = it.nodes as f64 / p as f64;
            format!(
                ", next ≈ {:.3e} nodes (growth {growth:.2})",
                it.nodes as f64 * growth
            )
        }
        _ => String::new(),
    };
    format!(
        "  bound {}: {} nodes ({} in all), {:.2e} nodes/s, {seconds:.1} s{estimate}",
        it.bound, it.nodes, it.total_nodes, rate
    )
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match cli::parse_args(&args) {
        Ok(Command::Help(text)) => {
            let _ = write!(io::stdout(), "{text}");
            ExitCode::SUCCESS
        }
        Ok(Command::Run(config)) => run(config),
        Err(e) => usage_error(&e),
    }
}

/// A line for the user on stderr; a closed stderr loses it, nothing else.
fn note(message: &str) {
    let _ = writeln!(io::stderr(), "{message}");
}

fn usage_error(message: &str) -> ExitCode {
    if message.starts_with("error:") {
        note(message.trim_end());
    } else {
        note(&format!("error: {message}\n(see --help)"));
    }
    ExitCode::from(2)
}

/// Standard output that notices when its reader has gone.
struct Out {
    closed: bool,
}

impl Out {
    /// Writes `text` and a newline; `false` (now and from then on) once a write failed.
    fn line(&mut self, text: &str) -> bool {
        if !self.closed {
            let mut out = io::stdout().lock();
            self.closed = writeln!(out, "{text}").and_then(|()| out.flush()).is_err();
        }
        !self.closed
    }
}

/// Prints each IDA* iteration on stderr when `on`, with the growth from the one before.
struct IterationLog {
    on: bool,
    /// The previous iteration's nodes, in this instance.
    previous: Mutex<Option<u64>>,
}

impl IterationLog {
    fn report(&self, it: &Iteration) {
        if self.on {
            let mut last = self.previous.lock().unwrap_or_else(|e| e.into_inner());
            note(&iteration_line(it, *last));
            *last = Some(it.nodes);
        }
    }

    /// A new instance: no previous iteration.
    fn reset(&self) {
        *self.previous.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// After Ctrl-C: the bound proven (no solution is shorter) and the nodes, on both streams.
fn report_interrupted(
    out: &mut Out,
    label: &str,
    stopped: fifteen::ida::Interrupted,
    solving: std::time::Duration,
) -> ExitCode {
    let line = format!(
        "interrupted: instance {label}: no solution shorter than {} moves (bound proven), \
         {} nodes searched, {:.1} s",
        stopped.proven_bound,
        stopped.nodes,
        solving.as_secs_f64()
    );
    out.line(&line);
    note(&line);
    ExitCode::from(EXIT_INTERRUPTED)
}

fn run(config: Config) -> ExitCode {
    let started = Instant::now();
    let stop = stop_on_signals().unwrap_or_else(|e| {
        note(&format!(
            "warning: no Ctrl-C handler ({e}): Ctrl-C ends the run without a report"
        ));
        Arc::new(AtomicBool::new(false))
    });
    let iterations = IterationLog {
        on: config.iterations,
        previous: Mutex::new(None),
    };
    let on_iteration = |it: &Iteration| iterations.report(it);
    let control = Control {
        interrupt: &stop,
        on_iteration: &on_iteration,
    };
    let log = |m: String| note(&m);
    let solver = match Solver::new(&config, &log) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    let mut out = Out { closed: false };
    let heading = format!(
        "heuristic {}, threads {} ({}), table {}, {} instance(s)",
        solver.heuristic_name(config.pdb_layout),
        config.threads,
        match config.parallel {
            Parallel::Instances if config.threads > 1 => "instances in parallel",
            _ if config.threads > 1 => "together on each instance",
            _ => "sequential",
        },
        match (&solver.table, config.table) {
            (None, _) => "off".to_string(),
            (Some(_), Some(true)) => format!("{} MiB", config.hash_mib),
            (Some(_), _) => format!("{} MiB (not with pdb78)", config.hash_mib),
        },
        config.instances.len()
    );
    let reference = config.table == Some(false)
        && config.threads == 1
        && config.instances.iter().any(|i| i.known_nodes.is_some());
    let width = config
        .instances
        .iter()
        .map(|i| i.label.len())
        .max()
        .unwrap_or(0)
        .max(6);
    if !out.line(&heading) || !out.line(&report::header(reference, width)) {
        return ExitCode::SUCCESS;
    }
    let bar = if config.instances.len() > 1 {
        let bar = ProgressBar::with_draw_target(
            Some(config.instances.len() as u64),
            ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} instances, {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut rows = Vec::new();
    let mut failed = false;
    let mut interrupted = None;
    let solving = Instant::now();
    let solved = solver.solve_all(
        &config.instances,
        config.threads,
        config.parallel,
        config.fresh_table,
        control,
        |i, solved| {
            let instance = &config.instances[i];
            iterations.reset();
            let solution = match solved.solution {
                Ok(solution) => solution,
                Err(stopped) => {
                    interrupted = Some((instance.label.clone(), stopped));
                    return false;
                }
            };
            let row = report::Row {
                label: instance.label.clone(),
                len: solution.moves.len(),
                known_len: instance.known_len,
                nodes: solution.counters.nodes,
                known_nodes: instance.known_nodes.filter(|_| reference),
                time: solved.time,
                probes: solution.counters.probes,
                hits: solution.counters.hits,
            };
            let replayed = instance.board.solves(&solution.moves);
            let wrong_len = instance.known_len.is_some_and(|k| k as usize != row.len);
            failed |= !replayed || wrong_len;
            let open = bar.suspend(|| {
                out.line(&row.line(width))
                    && (replayed
                        || out
                            .line("   FAILED: the solution does not reach the goal when replayed"))
                    && (!config.solution || {
                        let moves: String = solution.moves.iter().map(|d| d.letter()).collect();
                        out.line(&format!("   {}: {moves}", instance.board))
                    })
            });
            bar.inc(1);
            rows.push(row);
            open
        },
    );
    let solving = solving.elapsed();
    bar.finish_and_clear();
    if let Err(e) = solved {
        return usage_error(&e);
    }
    if let Some((label, stopped)) = interrupted {
        return report_interrupted(&mut out, &label, stopped, solving);
    }
    if out.closed {
        return if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        };
    }
    out.line(&report::totals(&rows, solving, started.elapsed(), width));
    if failed {
        out.line(
            "FAILED: a solution did not replay to the goal or was not the known optimal length",
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
