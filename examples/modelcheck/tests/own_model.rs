//! A model defined outside the modelcheck package, checked through its library as a user's
//! crate would: the water jugs of *Die Hard 3* (a 3- and a 5-gallon jug, fill, empty, pour),
//! whose invariant "the big jug never holds 4 gallons" fails after exactly 6 steps.

use modelcheck::{check, Failure, Invariant, Mode, Model, Options, Verdict};
use std::collections::{HashSet, VecDeque};
use std::fmt;

const SMALL: u8 = 3;
const BIG: u8 = 5;

/// (small jug, big jug), in gallons.
type Jugs = (u8, u8);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    FillSmall,
    FillBig,
    EmptySmall,
    EmptyBig,
    SmallToBig,
    BigToSmall,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

struct DieHard {
    /// Whether the puzzle's goal (4 gallons) counts as a violation.
    goal_is_violation: bool,
}

impl Model for DieHard {
    type State = Jugs;
    type Action = Step;

    fn name(&self) -> String {
        "die-hard".into()
    }

    fn initial_states(&self) -> Vec<Jugs> {
        vec![(0, 0)]
    }

    fn successors(&self, &(s, b): &Jugs, out: &mut Vec<(Step, Jugs)>) {
        let to_big = s.min(BIG - b);
        let to_small = b.min(SMALL - s);
        out.extend([
            (Step::FillSmall, (SMALL, b)),
            (Step::FillBig, (s, BIG)),
            (Step::EmptySmall, (0, b)),
            (Step::EmptyBig, (s, 0)),
            (Step::SmallToBig, (s - to_big, b + to_big)),
            (Step::BigToSmall, (s + to_small, b - to_small)),
        ]);
    }

    fn invariants(&self) -> Vec<Invariant<Jugs>> {
        if self.goal_is_violation {
            vec![Invariant::new("NotFourGallons", |&(_, b): &Jugs| b != 4)]
        } else {
            Vec::new()
        }
    }
}

/// States, transitions and the depth of the first 4-gallon state, by a plain BFS of our own.
fn oracle(model: &DieHard) -> (u64, u64, usize) {
    let mut seen = HashSet::from([(0u8, 0u8)]);
    let mut queue = VecDeque::from([((0u8, 0u8), 0usize)]);
    let (mut transitions, mut goal_depth) = (0, usize::MAX);
    let mut out = Vec::new();
    while let Some((state, depth)) = queue.pop_front() {
        if state.1 == 4 {
            goal_depth = goal_depth.min(depth);
        }
        out.clear();
        model.successors(&state, &mut out);
        transitions += out.len() as u64;
        for &(_, next) in &out {
            if seen.insert(next) {
                queue.push_back((next, depth + 1));
            }
        }
    }
    (seen.len() as u64, transitions, goal_depth)
}

#[test]
fn counts_match_an_independent_bfs_in_every_mode() {
    let model = DieHard {
        goal_is_violation: false,
    };
    let (states, transitions, _) = oracle(&model);
    assert_eq!(states, 16, "the oracle itself");
    for mode in [Mode::Exact, Mode::Fp64, Mode::Fp32, Mode::Bitstate] {
        for threads in [1, 2] {
            let options = Options {
                threads,
                mode,
                memory_bytes: 1 << 20,
                ..Options::default()
            };
            let report = check(&model, &options);
            assert!(matches!(report.verdict, Verdict::Complete), "{mode:?}");
            assert_eq!(report.stats.states, states, "{mode:?}, {threads} threads");
            assert_eq!(report.stats.transitions, transitions, "{mode:?}");
            assert!(report.storage.is_some());
        }
    }
}

#[test]
fn the_four_gallon_state_is_found_with_a_shortest_replayable_trace() {
    let model = DieHard {
        goal_is_violation: true,
    };
    let (_, _, shortest) = oracle(&model);
    assert_eq!(shortest, 6, "the oracle itself");
    let report = check(
        &model,
        &Options {
            threads: 2,
            ..Options::default()
        },
    );
    let Verdict::Counterexample(trace) = report.verdict else {
        panic!("the 4-gallon state was not found");
    };
    assert_eq!(trace.failure, Failure::Invariant("NotFourGallons"));
    assert_eq!(trace.steps.len(), shortest);
    // Replay it ourselves: every step is one of the model's, and only the last holds 4.
    let mut state = trace.initial;
    assert_eq!(state, (0, 0));
    for &(step, next) in &trace.steps {
        assert_ne!(state.1, 4);
        let mut out = Vec::new();
        model.successors(&state, &mut out);
        assert!(out.contains(&(step, next)), "{step} from {state:?}");
        state = next;
    }
    assert_eq!(state.1, 4);
}
