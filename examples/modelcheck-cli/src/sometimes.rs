//! The `sometimes` part of a report: a line per property the run checked, each example printed
//! like a counterexample's trace (and labelled as an example), and what the verdicts do to the
//! exit status.

use crate::exit::{EXIT_COUNTEREXAMPLE, EXIT_ERROR, EXIT_OK, EXIT_PARTIAL};
use modelcheck::{Expectation, Model, SometimesReport, SometimesVerdict};
use std::io::{self, Write};

/// A replayed path under `heading`, a line per state: its number, the step's action and the
/// state as the model shows it.
pub fn write_path<M: Model>(
    model: &M,
    heading: &str,
    initial: &M::State,
    steps: &[(M::Action, M::State)],
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "{heading}")?;
    writeln!(out, "  0: initial            {}", model.show(initial))?;
    for (i, (action, state)) in steps.iter().enumerate() {
        writeln!(
            out,
            "  {}: {:<18} {}",
            i + 1,
            action.to_string(),
            model.show(state)
        )?;
    }
    Ok(())
}

/// A line per property the run checked (`sometimes NAME: ...`), then each example found.
pub fn write_sometimes<M: Model>(
    model: &M,
    sometimes: &[SometimesReport<M>],
    out: &mut dyn Write,
) -> io::Result<()> {
    for s in sometimes {
        let verdict = match &s.verdict {
            SometimesVerdict::Example(e) => {
                format!("example found, {} steps (printed below)", e.steps.len())
            }
            SometimesVerdict::Vacuous => "VACUOUS: no reachable state satisfies it (every \
                                          reachable state was visited)"
                .to_string(),
            SometimesVerdict::NotFound => "not found in the states visited (the search did not \
                                           visit every reachable state: nothing is claimed \
                                           about the others)"
                .to_string(),
            SometimesVerdict::Error(e) => format!("error: {e}"),
        };
        writeln!(out, "sometimes {}: {verdict}", s.name)?;
    }
    for s in sometimes {
        if let SometimesVerdict::Example(e) = &s.verdict {
            let heading = format!("example of sometimes {} (replayed and checked):", s.name);
            write_path(model, &heading, &e.initial, &e.steps, out)?;
        }
    }
    Ok(())
}

/// A distributed run's line about the model's `sometimes` properties, which it does not check;
/// nothing when the model has none.
pub fn write_unchecked<M: Model>(model: &M, out: &mut dyn Write) -> io::Result<()> {
    let names: Vec<&str> = model
        .properties()
        .into_iter()
        .filter(|p| matches!(p.expectation, Expectation::Sometimes(_)))
        .map(|p| p.name)
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "sometimes: not checked by a distributed run ({}); run on one machine to check them",
        names.join(", ")
    )
}

/// The exit status once the `sometimes` verdicts are counted: a search that found no error
/// (`status` [`EXIT_OK`] or [`EXIT_PARTIAL`]) comes to [`EXIT_ERROR`] when an example could not
/// be replayed, and to [`EXIT_COUNTEREXAMPLE`] when a property is vacuous. A property only not
/// found changes nothing: the status already says that the search was incomplete.
pub fn with_sometimes<M: Model>(status: i32, sometimes: &[SometimesReport<M>]) -> i32 {
    let any = |f: fn(&SometimesVerdict<M>) -> bool| sometimes.iter().any(|s| f(&s.verdict));
    if status != EXIT_OK && status != EXIT_PARTIAL {
        status
    } else if any(|v| matches!(v, SometimesVerdict::Error(_))) {
        EXIT_ERROR
    } else if any(|v| matches!(v, SometimesVerdict::Vacuous)) {
        EXIT_COUNTEREXAMPLE
    } else {
        status
    }
}
