//! The actor models (issue 26): Paxos and the ABD register. Their state and transition counts
//! in the exact and fp64 modes with 1 and 2 threads, against a plain breadth-first search of
//! this file's own over a `HashSet` of full states (the counts BENCHMARKS.md also gets from
//! stateright, on ports written apart in `benches/src/bin/stateright_actors/`); their safety
//! properties rejecting hand-made bad states; their `sometimes` properties reachable; Paxos's
//! states that wait forever, and ABD's only final state.

use modelcheck::models::abd::{self, Abd, AbdState, Phase, Ts};
use modelcheck::models::paxos::{Paxos, PaxosState, Proposer};
use modelcheck::{check, Expectation, Mode, Model, Options, Verdict};
use std::collections::{HashSet, VecDeque};

/// What a plain BFS finds: states, transitions, and the states without successors.
struct Census<S> {
    states: u64,
    transitions: u64,
    terminal: Vec<S>,
    all: Vec<S>,
}

fn census<M: Model>(model: &M) -> Census<M::State> {
    let mut seen: HashSet<M::State> = HashSet::new();
    let mut queue: VecDeque<M::State> = VecDeque::new();
    for s in model.initial_states() {
        if seen.insert(s.clone()) {
            queue.push_back(s);
        }
    }
    let (mut transitions, mut terminal, mut all) = (0, Vec::new(), Vec::new());
    let mut out = Vec::new();
    while let Some(s) = queue.pop_front() {
        out.clear();
        model.successors(&s, &mut out);
        transitions += out.len() as u64;
        if out.is_empty() {
            terminal.push(s.clone());
        }
        for (_, next) in out.drain(..) {
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
        all.push(s);
    }
    Census {
        states: seen.len() as u64,
        transitions,
        terminal,
        all,
    }
}

/// Checks `model` in exact and fp64 mode with 1 and 2 threads: no error, and the census's counts.
fn counts_agree<M: Model>(model: &M, states: u64, transitions: u64) {
    for mode in [Mode::Exact, Mode::Fp64] {
        for threads in [1, 2] {
            let options = Options {
                threads,
                mode,
                // Paxos 2's 390,021 states at the exact set's budget of 184 bytes each
                // (72-byte states, their 8-byte hashes, hashbrown's load) need 69 MiB.
                memory_bytes: 128 << 20,
                ..Options::default()
            };
            let report = check(model, &options);
            let what = format!("{} {mode} threads={threads}", model.name());
            assert!(matches!(report.verdict, Verdict::Complete), "{what}");
            assert_eq!(report.stats.states, states, "{what}");
            assert_eq!(report.stats.transitions, transitions, "{what}");
        }
    }
}

/// Whether a `sometimes` property of `model` named `name` holds in one of `states`.
fn sometimes_reached<M: Model>(model: &M, name: &str, states: &[M::State]) -> bool {
    let properties = model.properties();
    let property = properties.iter().find(|p| p.name == name).expect(name);
    let Expectation::Sometimes(p) = &property.expectation else {
        panic!("{name} is not a sometimes property")
    };
    states.iter().any(p)
}

/// (clients, states, transitions), as the census and stateright count them.
const PAXOS: &[(usize, u64, u64)] = &[(1, 259, 722), (2, 390_021, 2_008_484)];
const ABD: &[(usize, u64, u64)] = &[(1, 264, 743), (2, 156_709, 859_881)];

#[test]
fn paxos_counts_and_its_waiting_clients() {
    for &(clients, states, transitions) in PAXOS {
        let model = Paxos::new(clients).unwrap();
        let census = census(&model);
        assert_eq!((census.states, census.transitions), (states, transitions));
        counts_agree(&model, states, transitions);
        assert!(sometimes_reached(&model, "ClientLearns", &census.all));
        // Every final state has no message in flight; with 2 clients, a pre-empted proposal
        // leaves some client waiting forever (no retries), which is no error here.
        assert!(census.terminal.iter().all(|s| s.network.is_empty()));
        let waiting = census
            .terminal
            .iter()
            .filter(|s| s.clients.contains(&None))
            .count();
        assert_eq!(
            waiting > 0,
            clients > 1,
            "{clients} clients: {waiting} stuck"
        );
    }
}

#[test]
fn abd_counts_and_only_the_final_state_is_final() {
    for &(clients, states, transitions) in ABD {
        let model = Abd::new(clients).unwrap();
        let census = census(&model);
        assert_eq!((census.states, census.transitions), (states, transitions));
        // Deadlocks are errors for ABD: a Complete verdict says no state is stuck.
        counts_agree(&model, states, transitions);
        // The final state steps to itself, so no state lacks a successor.
        assert!(census.terminal.is_empty());
        // With one client (a writer) there is no read: the property is declared from 2 on.
        if clients > 1 {
            assert!(sometimes_reached(&model, "ReadSeesAWrite", &census.all));
        } else {
            assert!(model.properties().is_empty());
        }
    }
}

#[test]
fn agreement_rejects_two_learned_values() {
    let model = Paxos::new(2).unwrap();
    let agreement = &model.invariants()[0];
    let mut s: PaxosState = model.initial_states().remove(0);
    assert!((agreement.holds)(&s));
    s.clients[0] = Some(0);
    assert!((agreement.holds)(&s));
    s.servers[2].proposer = Proposer::Decided { value: 1 };
    assert!(!(agreement.holds)(&s), "a proposer learned 1, a client 0");
    s.servers[2].proposer = Proposer::Idle;
    // Two acceptors accepted 1 in one ballot: 1 is chosen, while a client learned 0.
    let ballot = modelcheck::models::paxos::Ballot {
        round: 1,
        server: 1,
    };
    s.servers[0].accepted = Some((ballot, 1));
    assert!((agreement.holds)(&s), "one acceptor is no majority");
    s.servers[1].accepted = Some((ballot, 1));
    assert!(!(agreement.holds)(&s), "1 chosen, 0 learned");
}

#[test]
fn linearizable_rejects_a_stale_read_and_an_old_write() {
    let model = Abd::new(2).unwrap();
    let mut s: AbdState = model.initial_states().remove(0);
    let write = Ts {
        counter: 1,
        writer: 0,
    };
    // Client 1 reads the initial value after client 0's write completed: stale.
    s.completed = write;
    s.clients[1].phase = Phase::Done;
    s.clients[1].floor = write;
    assert!(
        !abd::linearizable(&s),
        "a read older than a completed write"
    );
    s.clients[1].best = (write, abd::written_value(0));
    assert!(abd::linearizable(&s));
    s.clients[1].best = (write, 7);
    assert!(!abd::linearizable(&s), "a value that write never wrote");
    // Client 0's write must be stamped above the floor it began with.
    s.clients[1].phase = Phase::Idle;
    s.clients[0].phase = Phase::Done;
    s.clients[0].floor = write;
    s.clients[0].best = (write, abd::written_value(0));
    assert!(!abd::linearizable(&s), "a write not above its floor");
}
