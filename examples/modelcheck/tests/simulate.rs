//! Random simulation through the library: it finds the buggy lock's violation and the
//! philosophers' deadlock, a failing walk replays from its own seed with any thread count, a
//! correct model runs every walk, and models far too large for an exhaustive run in CI
//! (2PC-15, the 15-puzzle) are walked.

use modelcheck::models::buggy_lock::BuggyLock;
use modelcheck::models::philosophers::Philosophers;
use modelcheck::models::puzzle::Puzzle;
use modelcheck::models::two_phase::TwoPhase;
use modelcheck::{
    simulate, walk_seed, Failure, Model, SimulateOptions, SimulationReport, SimulationVerdict,
    Trace, Violation,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn options(walks: u64, depth: usize, seed: u64, threads: usize) -> SimulateOptions {
    SimulateOptions {
        walks,
        depth,
        seed,
        threads,
        ..SimulateOptions::default()
    }
}

fn violation<M: Model>(report: &SimulationReport<M>) -> &Violation<M> {
    match &report.verdict {
        SimulationVerdict::Violation(found) => found,
        _ => panic!("no violation found"),
    }
}

/// The trace as text: each action and state.
fn text<M: Model>(model: &M, trace: &Trace<M>) -> Vec<String> {
    let mut lines = vec![model.show(&trace.initial)];
    for (action, state) in &trace.steps {
        lines.push(format!("{action} {}", model.show(state)));
    }
    lines
}

/// Checks `trace` independently of the library: it starts in an initial state, every step is
/// a successor of the state before, and only the last state fails an invariant.
fn assert_real_walk<M: Model>(model: &M, trace: &Trace<M>) {
    assert!(model.initial_states().contains(&trace.initial));
    let invariants = model.invariants();
    let fails = |s: &M::State| invariants.iter().any(|inv| !(inv.holds)(s));
    let mut current = trace.initial.clone();
    for (_, next) in &trace.steps {
        assert!(!fails(&current), "an earlier state already fails");
        let mut successors = Vec::new();
        model.successors(&current, &mut successors);
        assert!(successors.iter().any(|(_, s)| s == next), "not a successor");
        current = next.clone();
    }
    if let Failure::Invariant(_) = trace.failure {
        assert!(fails(&current), "the last state does not fail");
    }
}

#[test]
fn finds_the_buggy_locks_violation_within_the_depth() {
    let model = BuggyLock::new(3).unwrap();
    let report = simulate(&model, &options(1000, 50, 1, 2));
    let found = violation(&report);
    assert_eq!(found.trace.failure, Failure::Invariant("MutualExclusion"));
    assert!(found.trace.steps.len() <= 50);
    assert_eq!(found.seed, walk_seed(1, found.walk));
    assert!(
        report.walks > found.walk,
        "every walk up to the failing one ran"
    );
    assert_real_walk(&model, &found.trace);
}

/// A seed whose first walk does not fail but a later one does (short walks fail rarely).
fn seed_failing_after_walk_0(model: &BuggyLock) -> (u64, u64) {
    (0..1000)
        .find_map(|seed| {
            let report = simulate(model, &options(1000, 4, seed, 1));
            match report.verdict {
                SimulationVerdict::Violation(found) if found.walk > 0 => Some((seed, found.walk)),
                _ => None,
            }
        })
        .expect("a seed whose walk 0 passes")
}

#[test]
fn a_failing_walk_replays_from_its_seed_with_one_or_two_threads() {
    let model = BuggyLock::new(3).unwrap();
    let (seed, walk) = seed_failing_after_walk_0(&model);
    let mut traces = Vec::new();
    for threads in [1, 2, 3] {
        let report = simulate(&model, &options(1000, 4, seed, threads));
        let found = violation(&report);
        assert_eq!(
            found.walk, walk,
            "the lowest failing walk, whatever the threads"
        );
        let replayed = simulate(&model, &options(1, 4, found.seed, threads));
        let again = violation(&replayed);
        assert_eq!((again.walk, again.seed), (0, found.seed));
        assert_eq!(text(&model, &again.trace), text(&model, &found.trace));
        traces.push(text(&model, &found.trace));
    }
    assert!(traces.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_correct_model_runs_every_walk_and_finds_nothing() {
    let model = TwoPhase::new(3).unwrap();
    for threads in [1, 2] {
        let report = simulate(&model, &options(500, 40, 9, threads));
        assert!(matches!(report.verdict, SimulationVerdict::NoViolation));
        assert_eq!(report.walks, 500);
        assert!(report.steps > 0 && report.steps <= 500 * 40);
    }
}

/// `sometimes` targets: each of 2PC-3's two is reached by the same lowest walk at the same
/// step with 1 and 2 threads, that walk replays from its seed to the same step, and walks of
/// no step reach neither (the initial state has no decision).
#[test]
fn sometimes_targets_are_reached_by_the_lowest_walk_and_replay() {
    let model = TwoPhase::new(3).unwrap();
    let one = simulate(&model, &options(500, 40, 9, 1)).sometimes;
    let two = simulate(&model, &options(500, 40, 9, 2)).sometimes;
    assert_eq!(one, two);
    let names: Vec<&str> = one.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["AllCommitted", "AllAborted"]);
    for (name, reached) in one {
        let reached = reached.unwrap_or_else(|| panic!("{name} not reached in 500 walks"));
        assert_eq!(reached.seed, walk_seed(9, reached.walk));
        assert!(reached.step > 0, "{name}: the initial state is undecided");
        let again = simulate(&model, &options(1, 40, reached.seed, 1)).sometimes;
        let (_, replayed) = again.into_iter().find(|(n, _)| *n == name).unwrap();
        let replayed = replayed.expect("the replayed walk reaches it");
        assert_eq!((replayed.walk, replayed.step), (0, reached.step), "{name}");
    }
    let none = simulate(&model, &options(50, 0, 9, 2)).sometimes;
    assert!(none.iter().all(|(_, r)| r.is_none()), "{none:?}");
}

#[test]
fn models_too_large_to_search_in_ci_are_walked() {
    // 2PC-15 and the 15-puzzle have far more states than an exhaustive run in CI could visit
    // (2PC-9 alone has 10,340,352; the 15-puzzle about 10^13).
    let two_phase = simulate(&TwoPhase::new(15).unwrap(), &options(2000, 200, 5, 2));
    assert!(matches!(two_phase.verdict, SimulationVerdict::NoViolation));
    assert_eq!(two_phase.walks, 2000);
    let puzzle = simulate(&Puzzle::new(4).unwrap(), &options(2000, 200, 5, 2));
    assert!(matches!(puzzle.verdict, SimulationVerdict::NoViolation));
    // The puzzle's every state has successors: every walk takes all its steps.
    assert_eq!((puzzle.walks, puzzle.steps), (2000, 2000 * 200));
}

#[test]
fn deadlocks_are_found_unless_they_are_no_error() {
    let model = Philosophers::new(3).unwrap();
    let report = simulate(&model, &options(1000, 100, 2, 2));
    let found = violation(&report);
    assert_eq!(found.trace.failure, Failure::Deadlock);
    let last = found
        .trace
        .steps
        .last()
        .map_or(&found.trace.initial, |(_, s)| s);
    let mut successors = Vec::new();
    model.successors(last, &mut successors);
    assert!(successors.is_empty());
    assert_real_walk(&model, &found.trace);
    let allowed = SimulateOptions {
        deadlock: false,
        ..options(1000, 100, 2, 2)
    };
    let report = simulate(&model, &allowed);
    assert!(matches!(report.verdict, SimulationVerdict::NoViolation));
    assert!(report.steps < 1000 * 100, "walks end at the deadlocks");
}

#[test]
fn depth_zero_checks_only_initial_states() {
    let report = simulate(&BuggyLock::new(3).unwrap(), &options(100, 0, 1, 2));
    assert!(matches!(report.verdict, SimulationVerdict::NoViolation));
    assert_eq!((report.walks, report.steps), (100, 0));
}

#[test]
fn a_stop_before_the_start_walks_nothing() {
    let stopped = SimulateOptions {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..options(1000, 100, 1, 2)
    };
    let report = simulate(&TwoPhase::new(3).unwrap(), &stopped);
    assert!(matches!(report.verdict, SimulationVerdict::Interrupted));
    assert_eq!((report.walks, report.steps), (0, 0));
}

/// No initial state, or one with more successors than a trace can number.
struct Odd {
    initial: bool,
}

impl Model for Odd {
    type State = u8;
    type Action = u8;

    fn name(&self) -> String {
        "odd".into()
    }
    fn initial_states(&self) -> Vec<u8> {
        if self.initial {
            vec![0]
        } else {
            vec![]
        }
    }
    fn successors(&self, &state: &u8, out: &mut Vec<(u8, u8)>) {
        out.extend(std::iter::repeat_n((0, state), 70_000));
    }
}

#[test]
fn a_model_a_walk_cannot_follow_is_an_error_not_a_panic() {
    let report = simulate(&Odd { initial: false }, &options(10, 10, 1, 2));
    let SimulationVerdict::Error(why) = report.verdict else {
        panic!("no error")
    };
    assert!(why.contains("no initial states"), "{why}");
    let report = simulate(&Odd { initial: true }, &options(10, 10, 1, 2));
    let SimulationVerdict::Error(why) = report.verdict else {
        panic!("no error")
    };
    assert!(
        why.contains("walk 0") && why.contains("70000 successors"),
        "{why}"
    );
}
