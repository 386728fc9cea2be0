//! A `--simulate` run: the walks the flags ask for, their report (with the command that
//! replays the failing walk), and its exit status.

use crate::args::Cli;
use crate::exit::{EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_PARTIAL};
use crate::report::{finish, write_trace};
use modelcheck::models::WithModel;
use modelcheck::{
    simulate, Model, Options, SimulateOptions, SimulationReport, SimulationVerdict,
    DEFAULT_SIMULATION_DEPTH,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

/// A simulation the command line asks for, and where its report goes.
pub(crate) struct Simulation<'a> {
    options: SimulateOptions,
    /// The command line that replays one walk, up to its `--seed`.
    replay: String,
    out: &'a mut dyn Write,
}

impl<'a> Simulation<'a> {
    /// The simulation of `walks` walks that `cli` asks for, with the threads, deadlock rule and
    /// stop of `options`; without `--seed`, the seed is taken from the clock.
    pub(crate) fn new(cli: &Cli, options: &Options, walks: u64, out: &'a mut dyn Write) -> Self {
        let flags = &cli.check.simulation;
        let depth = flags.depth.unwrap_or(DEFAULT_SIMULATION_DEPTH);
        let seed = flags.seed.unwrap_or_else(clock_seed);
        let no_deadlock = if options.deadlock {
            ""
        } else {
            " --no-deadlock"
        };
        Simulation {
            options: SimulateOptions {
                walks,
                depth,
                seed,
                threads: options.threads,
                deadlock: options.deadlock,
                stop: options.stop.clone(),
            },
            replay: format!(
                "modelcheck {} {} --simulate 1 --depth {depth}{no_deadlock}",
                cli.check.model,
                cli.check.size()
            ),
            out,
        }
    }
}

/// A seed from the clock's nanoseconds: a different one for each run.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |t| t.as_nanos() as u64)
}

impl WithModel for Simulation<'_> {
    type Output = i32;

    fn visit<M: Model>(self, model: M) -> i32
    where
        M::State: Serialize + DeserializeOwned,
    {
        let report = simulate(&model, &self.options);
        let status = match &report.verdict {
            SimulationVerdict::NoViolation => EXIT_PARTIAL,
            SimulationVerdict::Violation(_) => EXIT_COUNTEREXAMPLE,
            SimulationVerdict::Interrupted => EXIT_INTERRUPTED,
            SimulationVerdict::Error(_) => EXIT_ERROR,
        };
        let out = self.out;
        let written = write_simulation(&model, &self.options, &self.replay, &report, out)
            .and_then(|()| out.flush());
        finish(status, written)
    }
}

/// The result line: what the walks show, and no more.
fn result_line<M: Model>(options: &SimulateOptions, report: &SimulationReport<M>) -> String {
    match &report.verdict {
        SimulationVerdict::NoViolation => format!(
            "partial search: no error in {} random walks of at most {} steps; states no walk \
             visited were not checked",
            report.walks, options.depth
        ),
        SimulationVerdict::Violation(found) => format!(
            "{:?} after {} steps, in walk {} (seed {})",
            found.trace.failure,
            found.trace.steps.len(),
            found.walk,
            found.seed
        ),
        SimulationVerdict::Interrupted => format!(
            "interrupted: no error in the {} walks run to their end",
            report.walks
        ),
        SimulationVerdict::Error(e) => format!("error: {e}"),
    }
}

fn write_simulation<M: Model>(
    model: &M,
    options: &SimulateOptions,
    replay: &str,
    report: &SimulationReport<M>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    writeln!(out, "model: {}", model.name())?;
    writeln!(
        out,
        "simulation: {} walks of at most {} steps, seed {}, {} threads",
        options.walks, options.depth, options.seed, options.threads
    )?;
    writeln!(out, "result: {}", result_line(options, report))?;
    writeln!(out, "walks: {}", report.walks)?;
    writeln!(out, "steps: {}", report.steps)?;
    writeln!(out, "time: {:.3} s", report.elapsed.as_secs_f64())?;
    writeln!(out, "walks/s: {:.0}", report.walks as f64 / secs)?;
    writeln!(out, "steps/s: {:.0}", report.steps as f64 / secs)?;
    for (name, reached) in &report.sometimes {
        match reached {
            Some(r) => writeln!(
                out,
                "sometimes {name}: reached in walk {} (seed {}) at step {}",
                r.walk, r.seed, r.step
            )?,
            None => writeln!(
                out,
                "sometimes {name}: no walk reached it (nothing is claimed about the states no \
                 walk visited)"
            )?,
        }
    }
    if let SimulationVerdict::Violation(found) = &report.verdict {
        writeln!(out, "replay: {replay} --seed {}", found.seed)?;
        write_trace(model, &found.trace, out)?;
    }
    Ok(())
}
