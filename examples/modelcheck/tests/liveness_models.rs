//! The built-in models' liveness verdicts (issue 27's table), each violation's counterexample
//! replayed by the library and printed here on failure; the same in every mode, by both searches
//! (the index graph and on the fly) and on 1 and 2 threads.

use modelcheck::models::peterson::Peterson;
use modelcheck::models::philosophers::Philosophers;
use modelcheck::models::tas::Tas;
use modelcheck::models::ticket::Ticket;
use modelcheck::models::two_phase::TwoPhase;
use modelcheck::{check_liveness, Fairness, LivenessSearch, LivenessVerdict, Mode, Model, Options};

/// For each property of `model`: `Some(cycle length)` when violated (0: a finite
/// counterexample), `None` when it holds.
fn verdicts<M: Model>(
    model: &M,
    fairness: Fairness,
    (mode, search): (Mode, LivenessSearch),
    threads: usize,
) -> Vec<Option<usize>> {
    let options = Options {
        fairness,
        mode,
        threads,
        liveness_search: search,
        memory_bytes: 64 << 20,
        ..Options::default()
    };
    let report = check_liveness(model, &options).expect("a valid run");
    report
        .properties
        .iter()
        .map(|p| match &p.verdict {
            LivenessVerdict::Holds => None,
            LivenessVerdict::Violated(lasso) => Some(lasso.cycle.len()),
            LivenessVerdict::Full(_) | LivenessVerdict::Interrupted => panic!("{}", p.name),
            LivenessVerdict::Error(e) => panic!("{}: {e}", p.name),
        })
        .collect()
}

/// The verdicts in every mode, by both searches and on 1 and 2 threads, which must agree;
/// returned once.
fn agreed<M: Model>(model: &M, fairness: Fairness) -> Vec<Option<usize>> {
    let first = verdicts(model, fairness, (Mode::Exact, LivenessSearch::OnTheFly), 1);
    for mode in Mode::ALL {
        for search in [LivenessSearch::IndexGraph, LivenessSearch::OnTheFly] {
            for threads in [1, 2] {
                let got = verdicts(model, fairness, (mode, search), threads);
                let got: Vec<bool> = got.iter().map(Option::is_some).collect();
                let want: Vec<bool> = first.iter().map(Option::is_some).collect();
                assert_eq!(
                    got,
                    want,
                    "{} {fairness} {mode} {search} {threads}",
                    model.name()
                );
            }
        }
    }
    first
}

/// The name of the model's first `eventually` or `leads_to` property.
fn first_liveness<M: Model>(model: &M) -> String {
    let properties = model.properties();
    let liveness = properties
        .iter()
        .find(|p| !matches!(p.expectation, modelcheck::Expectation::Sometimes(_)));
    liveness.expect("a liveness property").name.to_string()
}

/// The first liveness property's counterexample, printed as the model shows it: the stem's states, then
/// the cycle's steps and states.
fn first_lasso<M: Model>(model: &M, fairness: Fairness) -> (Vec<String>, Vec<(String, String)>) {
    let options = Options {
        fairness,
        mode: Mode::Exact,
        threads: 1,
        // The first liveness property (the models list their `sometimes` properties first).
        properties: Some(vec![first_liveness(model)]),
        ..Options::default()
    };
    let mut report = check_liveness(model, &options).expect("a valid run");
    let LivenessVerdict::Violated(lasso) = report.properties.remove(0).verdict else {
        panic!("{}: not violated", model.name())
    };
    let stem = lasso.stem.iter().map(|(_, s)| model.show(s)).collect();
    let cycle = lasso
        .cycle
        .iter()
        .map(|(a, s)| (a.to_string(), model.show(s)))
        .collect();
    (stem, cycle)
}

#[test]
fn the_ticket_lock_starves_no_one_with_or_without_fairness() {
    // The table expected a failure without fairness; this model has no step that lets
    // the line stall (an idle process's only step is to take a ticket, a waiting one is
    // disabled), so once a process waits, the finitely many ahead of it must pass. SPIN agrees
    // (benches/spin/ticket.pml, BENCHMARKS.md).
    for n in [2, 3] {
        let model = Ticket::new(n).unwrap();
        for fairness in Fairness::ALL {
            assert_eq!(agreed(&model, fairness), vec![None; n], "{fairness}");
        }
    }
}

#[test]
fn test_and_set_starves_a_process_even_under_weak_fairness() {
    for n in [2, 3] {
        let model = Tas::new(n).unwrap();
        for fairness in Fairness::ALL {
            assert!(
                agreed(&model, fairness).iter().all(Option::is_some),
                "{fairness}"
            );
        }
    }
    // The lasso: p0 spins in every state of the cycle and moves in it (each failed
    // test-and-set is a step, so weak fairness is met) while p1 wins every race.
    let (_, cycle) = first_lasso(&Tas::new(2).unwrap(), Fairness::Weak);
    assert!(
        cycle.iter().all(|(_, s)| s.contains("p0:spinning")),
        "{cycle:?}"
    );
    assert!(
        cycle.iter().any(|(a, _)| a == "p0: test-and-set fails"),
        "{cycle:?}"
    );
    assert!(
        cycle
            .iter()
            .any(|(a, _)| a.starts_with("p1: test-and-set wins")),
        "{cycle:?}"
    );
}

#[test]
fn peterson_is_starvation_free_under_weak_fairness_only() {
    for n in [2, 3] {
        let model = Peterson::new(n).unwrap();
        assert_eq!(agreed(&model, Fairness::Weak), vec![None; n]);
        assert!(agreed(&model, Fairness::None).iter().all(Option::is_some));
    }
    // Without fairness: p0 waits forever while the other process is never scheduled.
    let (_, cycle) = first_lasso(&Peterson::new(2).unwrap(), Fairness::None);
    assert!(cycle
        .iter()
        .all(|(_, s)| !s.contains("p0:idle") && !s.contains("p0:CRITICAL")));
}

#[test]
fn philosophers_fail_through_the_deadlock() {
    let model = Philosophers::new(5).unwrap();
    for fairness in Fairness::ALL {
        assert!(agreed(&model, fairness).iter().all(Option::is_some));
    }
    // A shortest finite counterexample: everyone takes the left fork, nobody can move.
    let (stem, cycle) = first_lasso(&model, Fairness::Weak);
    assert!(cycle.is_empty());
    assert_eq!(stem.last().map(String::as_str), Some("L L L L L"));
    assert_eq!(stem.len(), 5);
}

#[test]
fn ordered_philosophers_starve_under_weak_fairness_without_a_deadlock() {
    // The last philosopher takes its right fork first: no deadlock, so every counterexample is
    // a cycle, and a fair one: the hungry philosopher is enabled only when its neighbour has
    // just put the shared fork down, and the neighbour takes it again first.
    let model = Philosophers::ordered(4).unwrap();
    for fairness in Fairness::ALL {
        let verdicts = agreed(&model, fairness);
        assert!(verdicts.iter().all(|v| v.is_some_and(|cycle| cycle > 0)));
    }
    let (_, cycle) = first_lasso(&model, Fairness::Weak);
    assert!(!cycle.is_empty());
    // Philosopher 0 never eats on the cycle (the show prints phases, p0's first).
    assert!(cycle.iter().all(|(_, s)| !s.starts_with('E')));
}

#[test]
fn two_phase_commit_decides_under_weak_fairness_only() {
    // The TM's decision is a fairness class of its own: always enabled while the TM is in
    // init (it may abort), so a fair TM decides, and each RM, fairly scheduled, receives the
    // decision. Without fairness the TM can stall, re-receiving a Prepared message forever.
    let model = TwoPhase::new(3).unwrap();
    assert_eq!(agreed(&model, Fairness::Weak), vec![None]);
    assert!(agreed(&model, Fairness::None)[0].is_some());
    let (_, cycle) = first_lasso(&model, Fairness::None);
    assert!(cycle
        .iter()
        .all(|(_, s)| !s.contains("committed, committed, committed")));
}
