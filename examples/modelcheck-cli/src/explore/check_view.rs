//! A check run for the explorer, and its report as [`CheckView`]: the verdict in a line, the
//! counts, and the trace found as a path of indices that the explorer walks.

use crate::explore::view::{CheckView, TraceView};
use modelcheck::{check, Failure, Model, Options, SometimesVerdict, Verdict};

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
        Verdict::Counterexample(trace) => match trace_view(
            model,
            (&trace.initial, &trace.steps[..]),
            "counterexample",
            match trace.failure {
                Failure::Invariant(name) => name.to_string(),
                Failure::Deadlock => "deadlock".to_string(),
            },
        ) {
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
    let mut traces = traces;
    // Each `sometimes` property's example, after the counterexample (if any).
    for found in &report.sometimes {
        if let SometimesVerdict::Example(example) = &found.verdict {
            let path = (&example.initial, &example.steps[..]);
            if let Ok(view) = trace_view(model, path, "example", found.name.to_string()) {
                traces.push(view);
            }
        }
    }
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

/// A path: its initial state and its steps.
type Steps<'a, M> = (
    &'a <M as Model>::State,
    &'a [(<M as Model>::Action, <M as Model>::State)],
);

/// A path as the indices the explorer walks: each step's index is that of the first successor
/// with its label and state. `kind` and `property` say what it is: a `counterexample` to an
/// invariant or a deadlock, or a `sometimes` property's `example`.
fn trace_view<M: Model>(
    model: &M,
    (initial, steps): Steps<'_, M>,
    kind: &'static str,
    property: String,
) -> Result<TraceView, String> {
    let lost = |step: usize| format!("the trace's step {step} is not among the model's successors");
    let initial_index = model
        .initial_states()
        .iter()
        .position(|s| s == initial)
        .ok_or_else(|| lost(0))?;
    let mut path = Vec::with_capacity(steps.len() + 1);
    path.push(initial_index);
    let mut state = initial.clone();
    let mut successors = Vec::new();
    let mut actions = Vec::with_capacity(steps.len());
    for (step, (action, next)) in steps.iter().enumerate() {
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
        kind,
        property,
        path,
        actions,
    })
}
