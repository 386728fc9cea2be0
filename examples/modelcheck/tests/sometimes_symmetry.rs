//! `sometimes` properties of models defined here, as a user's crate would write them: a found
//! example is a shortest path (its length checked against a breadth-first search of this
//! file's own), replayed here step by step; a property no reachable state satisfies is vacuous
//! after a complete search and only "not found" after any other.

use modelcheck::{
    check, check_with_checkpoints, Checkpoints, Example, Invariant, Mode, Model, Options, Property,
    SometimesReport, SometimesVerdict, Verdict,
};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// (small jug, big jug) in gallons: a 3- and a 5-gallon jug, filled, emptied and poured.
type Jugs = (u8, u8);

struct DieHard {
    /// Whether "the big jug never holds 4 gallons" is an invariant (violated after 6 steps).
    invariant: bool,
}

impl Model for DieHard {
    type State = Jugs;
    type Action = &'static str;

    fn name(&self) -> String {
        "die-hard".into()
    }
    fn initial_states(&self) -> Vec<Jugs> {
        vec![(0, 0)]
    }
    fn successors(&self, &(s, b): &Jugs, out: &mut Vec<(&'static str, Jugs)>) {
        let (to_big, to_small) = (s.min(5 - b), b.min(3 - s));
        out.extend([
            ("fill small", (3, b)),
            ("fill big", (s, 5)),
            ("empty small", (0, b)),
            ("empty big", (s, 0)),
            ("small to big", (s - to_big, b + to_big)),
            ("big to small", (s + to_small, b - to_small)),
        ]);
    }
    fn invariants(&self) -> Vec<Invariant<Jugs>> {
        match self.invariant {
            true => vec![Invariant::new("NotFour", |&(_, b): &Jugs| b != 4)],
            false => Vec::new(),
        }
    }
    fn properties(&self) -> Vec<Property<Jugs>> {
        vec![
            Property::sometimes("BothEmpty", |&j: &Jugs| j == (0, 0)),
            Property::sometimes("BigHoldsFour", |&(_, b): &Jugs| b == 4),
            // Another kind of property: not this file's, and not in the sometimes report.
            Property::eventually("Anything", |_: &Jugs| true),
            Property::sometimes("BigHoldsSix", |&(_, b): &Jugs| b == 6),
        ]
    }
}

/// Each reachable state's distance from the initial states, by this file's own search.
fn distances<M: Model>(model: &M) -> HashMap<M::State, usize> {
    let mut distance: HashMap<M::State, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    for s in model.initial_states() {
        distance.insert(s.clone(), 0);
        queue.push_back(s);
    }
    let mut out = Vec::new();
    while let Some(s) = queue.pop_front() {
        out.clear();
        model.successors(&s, &mut out);
        for (_, t) in out.drain(..) {
            if !distance.contains_key(&t) {
                distance.insert(t.clone(), distance[&s] + 1);
                queue.push_back(t);
            }
        }
    }
    distance
}

/// Checks `example` here: it starts in an initial state, each step is a successor of the state
/// before, the last state satisfies `p`, and it is as short as the nearest `p`-state.
fn assert_shortest<M: Model>(model: &M, example: &Example<M>, p: impl Fn(&M::State) -> bool) {
    assert!(model.initial_states().contains(&example.initial));
    let mut current = example.initial.clone();
    let mut out = Vec::new();
    for (_, next) in &example.steps {
        out.clear();
        model.successors(&current, &mut out);
        assert!(out.iter().any(|(_, t)| t == next), "not a successor");
        current = next.clone();
    }
    assert!(
        p(&current),
        "the example ends in a state without the property"
    );
    let nearest = distances(model)
        .into_iter()
        .filter(|(s, _)| p(s))
        .map(|(_, d)| d)
        .min();
    assert_eq!(Some(example.steps.len()), nearest);
}

fn options(threads: usize, mode: Mode) -> Options {
    Options {
        threads,
        mode,
        memory_bytes: 1 << 20,
        reporter: None,
        ..Options::default()
    }
}

/// The report's `sometimes` verdicts as names and short words, examples as their lengths.
fn verdicts<M: Model>(sometimes: &[SometimesReport<M>]) -> Vec<(&str, String)> {
    let word = |v: &SometimesVerdict<M>| match v {
        SometimesVerdict::Example(e) => format!("example of {}", e.steps.len()),
        SometimesVerdict::Vacuous => "vacuous".into(),
        SometimesVerdict::NotFound => "not found".into(),
        SometimesVerdict::Error(e) => format!("error {e}"),
    };
    sometimes
        .iter()
        .map(|s| (s.name, word(&s.verdict)))
        .collect()
}

#[test]
fn a_complete_search_finds_shortest_examples_and_calls_the_impossible_vacuous() {
    let model = DieHard { invariant: false };
    for threads in [1, 2] {
        for mode in [Mode::Exact, Mode::Fp64] {
            let report = check(&model, &options(threads, mode));
            assert!(matches!(report.verdict, Verdict::Complete));
            assert_eq!(
                verdicts(&report.sometimes),
                [
                    ("BothEmpty", "example of 0".to_string()),
                    ("BigHoldsFour", "example of 6".to_string()),
                    ("BigHoldsSix", "vacuous".to_string()),
                ]
            );
            assert!(report.sometimes_failed());
            let SometimesVerdict::Example(four) = &report.sometimes[1].verdict else {
                unreachable!("checked above")
            };
            assert_shortest(&model, four, |&(_, b)| b == 4);
        }
    }
}

/// [`verdicts`], checked to hold no vacuous one.
fn no_vacuous(sometimes: &[SometimesReport<DieHard>]) -> Vec<(&str, String)> {
    let verdicts = verdicts(sometimes);
    assert!(verdicts.iter().all(|(_, v)| v != "vacuous"), "{verdicts:?}");
    verdicts
}

#[test]
fn an_incomplete_search_calls_nothing_vacuous() {
    let model = DieHard { invariant: false };
    let not_found = no_vacuous;
    // Stopped at depth 5: the 4 gallons are 6 steps away.
    let capped = check(
        &model,
        &Options {
            max_depth: Some(5),
            ..options(2, Mode::Exact)
        },
    );
    assert!(matches!(capped.verdict, Verdict::DepthLimit));
    assert_eq!(not_found(&capped.sometimes)[1].1, "not found");
    assert!(!capped.sometimes_failed());
    // Storage that may miss states: the impossible one is only not found.
    let partial = check(&model, &options(2, Mode::Fp32));
    assert!(partial.storage.as_ref().unwrap().partial());
    assert_eq!(not_found(&partial.sometimes)[2].1, "not found");
    // Stopped before it began.
    let stopped = check(
        &model,
        &Options {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..options(1, Mode::Exact)
        },
    );
    assert!(matches!(stopped.verdict, Verdict::Interrupted));
    assert_eq!(not_found(&stopped.sometimes)[2].1, "not found");
    // Stopped by a counterexample: the violating state is an example too.
    let violated = check(&DieHard { invariant: true }, &options(2, Mode::Exact));
    assert!(matches!(violated.verdict, Verdict::Counterexample(_)));
    let verdicts = not_found(&violated.sometimes);
    assert_eq!(verdicts[1].1, "example of 6");
    assert_eq!(verdicts[2].1, "not found");
}

#[test]
fn a_resumed_search_finds_later_examples_and_calls_nothing_vacuous() {
    let model = DieHard { invariant: false };
    let dir = std::env::temp_dir().join(format!("sometimes-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("jugs.mcheckpt");
    let save = Checkpoints {
        save_to: Some(path.clone()),
        every: Duration::ZERO,
        resume_from: None,
    };
    let first = Options {
        max_depth: Some(3),
        ..options(1, Mode::Exact)
    };
    check_with_checkpoints(&model, &first, &save).expect("saved");
    let resume = Checkpoints {
        save_to: None,
        every: Duration::ZERO,
        resume_from: Some(path),
    };
    let report = check_with_checkpoints(&model, &options(2, Mode::Exact), &resume).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(report.verdict, Verdict::Complete));
    assert_eq!(report.stats.resumed_from, Some(3));
    // The initial state was checked by the first run, whose finds are not saved.
    assert_eq!(
        verdicts(&report.sometimes),
        [
            ("BothEmpty", "not found".to_string()),
            ("BigHoldsFour", "example of 6".to_string()),
            ("BigHoldsSix", "not found".to_string()),
        ]
    );
    let SometimesVerdict::Example(four) = &report.sometimes[1].verdict else {
        unreachable!("checked above")
    };
    assert_shortest(&model, four, |&(_, b)| b == 4);
}

/// `n` processes, each counting 0, 1, 2 on its own; two at 2 is the violation (4 steps). The
/// processes are interchangeable: a state's class is its sorted counters.
struct Racers {
    n: usize,
    sizes: bool,
}

impl Model for Racers {
    type State = Vec<u8>;
    type Action = usize;

    fn name(&self) -> String {
        format!("racers({})", self.n)
    }
    fn initial_states(&self) -> Vec<Vec<u8>> {
        vec![vec![0; self.n]]
    }
    fn successors(&self, s: &Vec<u8>, out: &mut Vec<(usize, Vec<u8>)>) {
        for i in (0..self.n).filter(|&i| s[i] < 2) {
            let mut t = s.clone();
            t[i] += 1;
            out.push((i, t));
        }
    }
    fn invariants(&self) -> Vec<Invariant<Vec<u8>>> {
        vec![Invariant::new("OneWinner", |s: &Vec<u8>| {
            s.iter().filter(|&&c| c == 2).count() <= 1
        })]
    }
    fn properties(&self) -> Vec<Property<Vec<u8>>> {
        vec![Property::sometimes("AllAtOne", |s: &Vec<u8>| {
            s.iter().all(|&c| c == 1)
        })]
    }
    fn deadlock_is_error(&self) -> bool {
        false
    }
    fn canonical(&self, s: &Vec<u8>) -> Option<Vec<u8>> {
        let mut t = s.clone();
        t.sort_unstable();
        Some(t)
    }
    fn class_size(&self, s: &Vec<u8>) -> Option<u64> {
        let count = |c| s.iter().filter(|&&x| x == c).count() as u64;
        let factorial = |k: u64| (1..=k).product::<u64>();
        let sizes = factorial(self.n as u64) / (0..3).map(|c| factorial(count(c))).product::<u64>();
        self.sizes.then_some(sizes)
    }
}

#[test]
fn with_symmetry_a_failing_model_gives_a_concrete_replayed_trace() {
    let model = Racers { n: 4, sizes: true };
    let plain = check(&model, &options(1, Mode::Exact));
    for threads in [1, 2] {
        let reduced = check(
            &model,
            &Options {
                symmetry: true,
                ..options(threads, Mode::Exact)
            },
        );
        let (Verdict::Counterexample(a), Verdict::Counterexample(b)) =
            (&plain.verdict, &reduced.verdict)
        else {
            panic!("both runs find the violation");
        };
        assert_eq!((a.failure, a.steps.len()), (b.failure, b.steps.len()));
        assert_eq!(reduced.stats.depth, plain.stats.depth);
        // Classes of levels 0 to 3 (counters summing to 0..=3, sorted), standing for the
        // plain run's states.
        assert_eq!(reduced.stats.states, 1 + 1 + 2 + 2);
        assert_eq!(reduced.stats.represented, Some(plain.stats.states));
        assert_eq!(plain.stats.represented, None);
        // Concrete: every step a successor of the state before, and the states are not all
        // their classes' representatives (process 0 moves first: [1, 0, 0, 0], whose
        // representative is [0, 0, 0, 1]).
        let mut current = b.initial.clone();
        let mut out = Vec::new();
        let mut reordered = false;
        for (process, next) in &b.steps {
            out.clear();
            model.successors(&current, &mut out);
            assert!(out.contains(&(*process, next.clone())), "not a successor");
            reordered |= model.canonical(next).as_ref() != Some(next);
            current = next.clone();
        }
        assert!(
            current.iter().filter(|&&c| c == 2).count() == 2,
            "{current:?}"
        );
        let SometimesVerdict::Example(all_one) = &reduced.sometimes[0].verdict else {
            panic!("AllAtOne is 4 steps away, before the violation's level ends");
        };
        assert_shortest(&model, all_one, |s| s.iter().all(|&c| c == 1));
        for (_, s) in &all_one.steps {
            reordered |= model.canonical(s).as_ref() != Some(s);
        }
        assert!(reordered, "every state was its own representative");
    }
}

#[test]
fn symmetry_counts_classes_and_without_class_sizes_represents_none() {
    let model = Racers { n: 3, sizes: false };
    let options = Options {
        symmetry: true,
        ..options(2, Mode::Fp64)
    };
    let reduced = check(&model, &options);
    assert!(matches!(reduced.verdict, Verdict::Counterexample(_)));
    assert_eq!(reduced.stats.states, 6);
    assert_eq!(reduced.stats.represented, None);
}

/// A model without a symmetry is searched as without the option.
#[test]
fn symmetry_on_a_model_without_one_changes_nothing() {
    let model = DieHard { invariant: false };
    let plain = check(&model, &options(2, Mode::Exact));
    let asked = check(
        &model,
        &Options {
            symmetry: true,
            ..options(2, Mode::Exact)
        },
    );
    assert_eq!(asked.stats.states, plain.stats.states);
    assert_eq!(asked.stats.states, distances(&model).len() as u64);
    assert_eq!(asked.stats.represented, None);
}

/// The states classes stand for are not known after a bitstate run on two threads (its racing
/// duplicates are dropped after they were counted); on one thread they are.
#[test]
fn bitstate_on_two_threads_represents_none() {
    let model = Racers { n: 4, sizes: true };
    for (threads, known) in [(1, true), (2, false)] {
        let report = check(
            &model,
            &Options {
                symmetry: true,
                ..options(threads, Mode::Bitstate)
            },
        );
        assert_eq!(report.stats.states, 6);
        assert_eq!(report.stats.represented.is_some(), known);
    }
}

/// What does not record symmetry refuses it before any search: checkpoints, and a distributed
/// run (before any connection: the address here is never dialled).
#[test]
fn checkpoints_and_distributed_runs_refuse_symmetry() {
    use modelcheck::distributed::{self, Cluster, ClusterError};
    let options = Options {
        symmetry: true,
        ..options(1, Mode::Exact)
    };
    let model = Racers { n: 2, sizes: true };
    let path = std::env::temp_dir().join(format!("symmetry-refused-{}", std::process::id()));
    let save = Checkpoints {
        save_to: Some(path.clone()),
        every: Duration::ZERO,
        resume_from: None,
    };
    match check_with_checkpoints(&model, &options, &save) {
        Err(modelcheck::CheckpointError::Unsupported(why)) => {
            assert!(why.contains("symmetry"), "{why}");
        }
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("searched with symmetry and checkpoints"),
    }
    assert!(!path.exists());
    let cluster = Cluster {
        addresses: vec!["127.0.0.1:9".into(), "127.0.0.1:9".into()],
        process: 0,
        workers: 1,
        connect_timeout: Duration::from_secs(1),
        sent_filter: distributed::DEFAULT_SENT_FILTER,
        peer_timeout: distributed::DEFAULT_PEER_TIMEOUT,
    };
    match distributed::check(model, &options, &cluster) {
        Err(ClusterError::Usage(why)) => assert!(why.contains("symmetry"), "{why}"),
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("searched with symmetry across processes"),
    }
}

/// The jugs, whose `canonical` (wrongly, for a model that declares a symmetry) gives a
/// representative for some states only: each is its own class, the others are stored as
/// themselves, and the search counts every state once.
struct PatchyJugs;

impl Model for PatchyJugs {
    type State = Jugs;
    type Action = &'static str;

    fn name(&self) -> String {
        "patchy-jugs".into()
    }
    fn initial_states(&self) -> Vec<Jugs> {
        DieHard { invariant: false }.initial_states()
    }
    fn successors(&self, state: &Jugs, out: &mut Vec<(&'static str, Jugs)>) {
        DieHard { invariant: false }.successors(state, out);
    }
    fn canonical(&self, &(s, b): &Jugs) -> Option<Jugs> {
        (s == 0).then_some((s, b))
    }
}

#[test]
fn a_representative_missing_for_some_states_stores_them_as_themselves() {
    let plain = check(&DieHard { invariant: false }, &options(1, Mode::Exact));
    for threads in [1, 2] {
        let patchy = check(
            &PatchyJugs,
            &Options {
                symmetry: true,
                ..options(threads, Mode::Exact)
            },
        );
        assert!(matches!(patchy.verdict, Verdict::Complete));
        assert_eq!(patchy.stats.states, plain.stats.states);
        assert_eq!(patchy.stats.transitions, plain.stats.transitions);
    }
}
