//! A check run for the explorer, and its report as [`CheckView`]: the verdict in a line, the
//! counts, and the trace found as a path of indices that the explorer walks.

use crate::explore::view::{CheckView, TraceView};
use modelcheck::{check, Failure, Model, Options, Trace, Verdict};

/// Checks `model` with `options` and reports it. A trace whose steps cannot be found again
/// among the model's successors (a model whose `successors` is not a pure function) is an
/// `error` result, not a wrong path.
pub fn check_view<M: Model>(model: &M, options: &Options) -> CheckView {
    let report = check(model, options);
    let partial = report.storage.as_ref().is_some_and(|s| s.partial());
    let (result, message, traces) = match &report.verdict {
        Verdict::Complete if partial => (
            "partial",
            "no error in the states visited; the storage may have missed some".to_string(),
            vec![],
        ),
        Verdict::Complete => (
            "complete",
            "no error: every reachable state visited".to_string(),
            vec![],
        ),
        Verdict::DepthLimit => (
            "depth limit",
            "no error up to the depth limit".into(),
            vec![],
        ),
        Verdict::Counterexample(trace) => match trace_view(model, trace) {
            Ok(view) => (
                "counterexample",
                match trace.failure {
                    Failure::Invariant(name) => {
                        format!(
                            "invariant {name} violated after {} steps",
                            trace.steps.len()
                        )
                    }
                    Failure::Deadlock => format!("deadlock after {} steps", trace.steps.len()),
                },
                vec![view],
            ),
            Err(e) => ("error", e, vec![]),
        },
        Verdict::Full(full) => ("full", full.to_string(), vec![]),
        Verdict::Interrupted => (
            "interrupted",
            "interrupted: the server is stopping".into(),
            vec![],
        ),
        Verdict::Error(e) => ("error", e.clone(), vec![]),
    };
    CheckView {
        result,
        message,
        states: report.stats.states,
        transitions: report.stats.transitions,
        depth: report.stats.depth,
        seconds: report.stats.elapsed.as_secs_f64(),
        traces,
    }
}

/// `trace` as the path of indices the explorer walks: each step's index is that of the first
/// successor with its label and state.
fn trace_view<M: Model>(model: &M, trace: &Trace<M>) -> Result<TraceView, String> {
    let lost = |step: usize| format!("the trace's step {step} is not among the model's successors");
    let initial = model
        .initial_states()
        .iter()
        .position(|s| *s == trace.initial)
        .ok_or_else(|| lost(0))?;
    let mut path = Vec::with_capacity(trace.steps.len() + 1);
    path.push(initial);
    let mut state = trace.initial.clone();
    let mut successors = Vec::new();
    let mut actions = Vec::with_capacity(trace.steps.len());
    for (step, (action, next)) in trace.steps.iter().enumerate() {
        successors.clear();
        model.successors(&state, &mut successors);
        let label = action.to_string();
        let index = successors
            .iter()
            .position(|(a, s)| s == next && a.to_string() == label)
            .ok_or_else(|| lost(step + 1))?;
        path.push(index);
        actions.push(label);
        state = next.clone();
    }
    Ok(TraceView {
        kind: "counterexample",
        property: match trace.failure {
            Failure::Invariant(name) => name.to_string(),
            Failure::Deadlock => "deadlock".to_string(),
        },
        path,
        actions,
    })
}
