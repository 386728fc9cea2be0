//! Liveness after the safety search: which of the model's `eventually` and `leads_to`
//! properties a run checks, when it cannot, the check itself, one report line per property
//! with each violation's lasso, and the exit status they come to.

use crate::args::Cli;
use crate::exit::{EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL};
use modelcheck::{
    check_liveness, liveness_memory, Expectation, Lasso, LivenessReport, LivenessVerdict, Mode,
    Model, Options, PropertyReport, Report, Verdict,
};
use std::io::{self, Write};

/// Why these flags leave liveness unchecked, if they do: it needs an index per state (not
/// bitstate), the whole state space (no `--max-depth`), one machine's run start to end, and
/// concrete states (not `--symmetry`'s classes).
pub fn not_checked_with(cli: &Cli) -> Option<&'static str> {
    let check = &cli.check;
    if check.search.no_liveness {
        Some("--no-liveness")
    } else if check.simulation.simulate.is_some() {
        Some("a random simulation checks invariants only")
    } else if cli.dist.is_distributed() {
        Some("a distributed run checks invariants only")
    } else if check.checkpoint.checkpoint.is_some() || check.checkpoint.resume.is_some() {
        Some("a checkpointed run checks invariants only")
    } else if check.search.max_depth.is_some() {
        Some("liveness needs every reachable state, not those up to --max-depth")
    } else if check.mode() == Some(Mode::Bitstate) {
        Some("bitstate mode keeps no index per state (use --mode fp64, fp32 or exact)")
    } else if check.search.symmetry {
        Some(
            "--symmetry stores one state per class, and a liveness property or weak fairness \
             tells the processes apart (run without --symmetry)",
        )
    } else {
        None
    }
}

/// The names of `model`'s liveness properties.
pub fn liveness_names<M: Model>(model: &M) -> Vec<&'static str> {
    model
        .properties()
        .iter()
        .filter(|p| !matches!(p.expectation, Expectation::Sometimes(_)))
        .map(|p| p.name)
        .collect()
}

/// A `--property` name that is none of the model's properties, as a usage message.
pub fn unknown_property<M: Model>(model: &M, options: &Options) -> Option<String> {
    let known: Vec<&str> = model.properties().iter().map(|p| p.name).collect();
    let names = options.properties.as_deref().unwrap_or_default();
    let unknown = names.iter().find(|n| !known.contains(&n.as_str()))?;
    Some(format!(
        "{} has no property `{unknown}` (its properties: {})",
        model.name(),
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    ))
}

/// After the safety report (whose status is `status`): checks the liveness properties when the
/// search completed and `skip` is `None`; says why not when `skip` says so; prints nothing
/// after a search that did not complete. Returns the run's status.
pub fn after_safety<M: Model>(
    model: &M,
    options: &Options,
    safety: &Report<M>,
    status: i32,
    skip: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<i32> {
    let names = liveness_names(model);
    // After a safety counterexample (or a search that stopped) the trace stays the report's
    // last lines, and liveness is not checked.
    if names.is_empty() || !matches!(safety.verdict, Verdict::Complete) {
        return Ok(status);
    }
    if let Some(why) = skip {
        writeln!(
            out,
            "liveness: {} properties not checked: {why}",
            names.len()
        )?;
        return Ok(status);
    }
    let sized = Options {
        memory_bytes: liveness_memory::<M::State>(options.mode, safety.stats.states),
        ..options.clone()
    };
    let report = match check_liveness(model, &sized) {
        Ok(report) => report,
        Err(e) => {
            writeln!(out, "liveness: error: {e}")?;
            return Ok(EXIT_ERROR);
        }
    };
    let status = combine(status, liveness_status(&report));
    match write_liveness(model, &report, out) {
        // A reader that stopped (`| head -1`) is no error of the check: its status stands.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(status),
    }
}

/// The run's status from the safety search's and the liveness check's.
fn combine(safety: i32, liveness: i32) -> i32 {
    match (safety, liveness) {
        (s, EXIT_OK) => s,
        (EXIT_PARTIAL, EXIT_PARTIAL) | (EXIT_OK, _) => liveness,
        (s, l) if s == EXIT_COUNTEREXAMPLE || l == EXIT_COUNTEREXAMPLE => EXIT_COUNTEREXAMPLE,
        (_, l) => l,
    }
}

/// A violation first, then an error, an interrupt, a "holds" the storage may be wrong about.
fn liveness_status<M: Model>(report: &LivenessReport<M>) -> i32 {
    let verdicts = || report.properties.iter().map(|p| &p.verdict);
    let any = |f: fn(&LivenessVerdict<M>) -> bool| verdicts().any(f);
    if any(|v| matches!(v, LivenessVerdict::Violated(_))) {
        EXIT_COUNTEREXAMPLE
    } else if any(|v| matches!(v, LivenessVerdict::Full(_) | LivenessVerdict::Error(_))) {
        EXIT_ERROR
    } else if any(|v| matches!(v, LivenessVerdict::Interrupted)) {
        EXIT_INTERRUPTED
    } else if report
        .properties
        .iter()
        .any(|p| p.storage.as_ref().is_some_and(|s| s.partial()))
    {
        EXIT_PARTIAL
    } else {
        EXIT_OK
    }
}

/// The liveness section: a heading, a line per property, then each violation's lasso.
fn write_liveness<M: Model>(
    model: &M,
    report: &LivenessReport<M>,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        out,
        "liveness: {} properties, {} fairness; Tarjan's components of each property's product \
         graph, on its index graph or on the fly",
        report.properties.len(),
        report.fairness
    )?;
    for property in &report.properties {
        writeln!(
            out,
            "property {}: {}",
            property.name,
            verdict_line(property)
        )?;
    }
    let states: u64 = report.properties.iter().map(|p| p.counts.states).sum();
    let secs = report.elapsed.as_secs_f64();
    writeln!(
        out,
        "liveness time: {secs:.3} s on {} threads, {states} product states, {:.0} product states/s",
        report.threads,
        states as f64 / secs.max(1e-9)
    )?;
    for property in &report.properties {
        if let LivenessVerdict::Violated(lasso) = &property.verdict {
            write_lasso(model, property.name, lasso, out)?;
        }
    }
    Ok(())
}

/// A property's verdict and figures, in one line.
fn verdict_line<M: Model>(property: &PropertyReport<M>) -> String {
    let counts = &property.counts;
    let figures = format!(
        "{} product states, {} transitions, {:.3} s, {}",
        counts.states,
        counts.transitions,
        property.elapsed.as_secs_f64(),
        property.search
    );
    let storage = property.storage.as_ref();
    let omission = storage.map_or(String::new(), |s| {
        if s.exact {
            "; exact: full states compared".to_string()
        } else {
            format!(
                "; {:.1} bytes/state, {}-bit signatures, P(a state missed) <= {:.3e}",
                s.bytes_per_state, s.signature_bits, s.omission.value
            )
        }
    });
    match &property.verdict {
        LivenessVerdict::Holds if storage.is_some_and(|s| s.partial()) => format!(
            "holds in the product states searched, but the map may have missed some ({figures}\
             {omission})"
        ),
        LivenessVerdict::Holds => format!("holds ({figures}{omission})"),
        LivenessVerdict::Violated(lasso) if lasso.is_finite() => format!(
            "violated: a finite behaviour of {} steps ends in a state without successors \
             ({figures})",
            lasso.stem.len()
        ),
        LivenessVerdict::Violated(lasso) => format!(
            "violated: a lasso, {} steps to a cycle of {} ({figures})",
            lasso.stem.len(),
            lasso.cycle.len()
        ),
        LivenessVerdict::Full(full) => format!(
            "error: the liveness store is full after {} product states in {} bytes",
            full.states, full.memory_bytes
        ),
        LivenessVerdict::Interrupted => format!("interrupted ({figures})"),
        LivenessVerdict::Error(e) => format!("error: {e}"),
    }
}

/// A lasso, a line per state, the cycle's start marked.
fn write_lasso<M: Model>(
    model: &M,
    name: &str,
    lasso: &Lasso<M>,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "lasso of {name} (replayed and checked):")?;
    writeln!(
        out,
        "  0: initial            {}",
        model.show(&lasso.initial)
    )?;
    let step = |i: usize, action: &M::Action, state: &M::State| {
        format!("  {i}: {:<18} {}", action.to_string(), model.show(state))
    };
    for (i, (action, state)) in lasso.stem.iter().enumerate() {
        writeln!(out, "{}", step(i + 1, action, state))?;
    }
    let start = lasso.stem.len();
    if lasso.is_finite() {
        return writeln!(out, "  state {start} has no successors");
    }
    writeln!(out, "  cycle: from state {start}, repeated forever:")?;
    for (i, (action, state)) in lasso.cycle.iter().enumerate() {
        writeln!(out, "{}", step(start + i + 1, action, state))?;
    }
    writeln!(
        out,
        "  state {} is state {start}: the cycle is closed",
        start + lasso.cycle.len()
    )
}
