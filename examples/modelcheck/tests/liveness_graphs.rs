//! Liveness on small explicit graphs, built through the library as a user's model would be:
//! known components, fair and unfair cycles, a violation only on a finite path, `p` inside the
//! cycle; then random graphs of up to a few thousand states against a reference (Tarjan's
//! components of the explicit product graph with weak fairness tested per component), in every
//! mode, by both searches (the index graph and on the fly), on 1 and 2 threads.

use modelcheck::{
    check_liveness, Fairness, Lasso, LivenessSearch, LivenessVerdict, Mode, Model, Options,
    Property, GRAPH_BYTES_PER_EDGE, GRAPH_BYTES_PER_STATE, GRAPH_MEMORY_FACTOR,
};
use std::fmt;
use std::sync::Arc;

/// A step to state `to`, of process `process` if any.
#[derive(Clone, Copy, Debug)]
struct Step {
    to: u32,
    process: Option<u8>,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "->{} ({:?})", self.to, self.process)
    }
}

/// What a property asks, over state sets.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Eventually,
    LeadsTo,
}

/// A property over state sets: its name, kind, `p` and `q`.
type SetProperty = (&'static str, Kind, Arc<Vec<bool>>, Arc<Vec<bool>>);

/// An explicit graph with labelled edges and its properties.
#[derive(Clone, Debug)]
struct Graph {
    initial: Vec<u32>,
    edges: Vec<Vec<(u32, Option<u8>)>>,
    processes: usize,
    properties: Vec<SetProperty>,
}

const NAMES: [&str; 4] = ["P0", "P1", "P2", "P3"];

impl Graph {
    fn new(n: usize, processes: usize) -> Self {
        Graph {
            initial: vec![0],
            edges: vec![Vec::new(); n],
            processes,
            properties: Vec::new(),
        }
    }
    fn edge(mut self, from: u32, to: u32, process: Option<u8>) -> Self {
        self.edges[from as usize].push((to, process));
        self
    }
    fn set(&self, states: &[u32]) -> Arc<Vec<bool>> {
        let mut set = vec![false; self.edges.len()];
        for &s in states {
            set[s as usize] = true;
        }
        Arc::new(set)
    }
    fn eventually(mut self, p: &[u32]) -> Self {
        let name = NAMES[self.properties.len()];
        let (p, q) = (self.set(p), self.set(&[]));
        self.properties.push((name, Kind::Eventually, p, q));
        self
    }
    fn leads_to(mut self, p: &[u32], q: &[u32]) -> Self {
        let name = NAMES[self.properties.len()];
        let (p, q) = (self.set(p), self.set(q));
        self.properties.push((name, Kind::LeadsTo, p, q));
        self
    }
}

impl Model for Graph {
    type State = u32;
    type Action = Step;

    fn name(&self) -> String {
        format!("graph({})", self.edges.len())
    }
    fn initial_states(&self) -> Vec<u32> {
        self.initial.clone()
    }
    fn successors(&self, &s: &u32, out: &mut Vec<(Step, u32)>) {
        for &(to, process) in &self.edges[s as usize] {
            out.push((Step { to, process }, to));
        }
    }
    fn deadlock_is_error(&self) -> bool {
        false
    }
    fn processes(&self) -> usize {
        self.processes
    }
    fn process_of(&self, step: &Step) -> Option<usize> {
        step.process.map(usize::from)
    }
    fn properties(&self) -> Vec<Property<u32>> {
        self.properties
            .iter()
            .map(|(name, kind, p, q)| {
                let (p, q) = (Arc::clone(p), Arc::clone(q));
                match kind {
                    Kind::Eventually => Property::eventually(name, move |&s: &u32| p[s as usize]),
                    Kind::LeadsTo => Property::leads_to(
                        name,
                        move |&s: &u32| p[s as usize],
                        move |&s: &u32| q[s as usize],
                    ),
                }
            })
            .collect()
    }
}

fn options(mode: Mode, threads: usize, fairness: Fairness) -> Options {
    Options {
        mode,
        threads,
        fairness,
        memory_bytes: 1 << 20,
        ..Options::default()
    }
}

/// The verdicts of every property, `Some(lasso)` for a violation.
fn verdicts(graph: &Graph, options: &Options) -> Vec<Option<Lasso<Graph>>> {
    let report = check_liveness(graph, options).expect("a valid run");
    assert_eq!(report.properties.len(), graph.properties.len());
    report
        .properties
        .into_iter()
        .map(|p| match p.verdict {
            LivenessVerdict::Holds => None,
            LivenessVerdict::Violated(lasso) => Some(lasso),
            LivenessVerdict::Full(_) => panic!("{}: full", p.name),
            LivenessVerdict::Interrupted => panic!("{}: interrupted", p.name),
            LivenessVerdict::Error(e) => panic!("{}: {e}", p.name),
        })
        .collect()
}

fn only(graph: &Graph, fairness: Fairness) -> Option<Lasso<Graph>> {
    let mut all = verdicts(graph, &options(Mode::Exact, 1, fairness));
    assert_eq!(all.len(), 1);
    all.pop().unwrap()
}

fn states(steps: &[(Step, u32)]) -> Vec<u32> {
    steps.iter().map(|(_, s)| *s).collect()
}

#[test]
fn a_self_loop_without_p_is_a_one_step_lasso() {
    let graph = Graph::new(2, 1).edge(0, 0, Some(0)).eventually(&[1]);
    let lasso = only(&graph, Fairness::Weak).expect("violated");
    assert!(lasso.stem.is_empty());
    assert_eq!(states(&lasso.cycle), vec![0]);
    assert_eq!(*lasso.cycle_start(), 0);
    // With p at the looping state, it holds.
    let graph = Graph::new(1, 1).edge(0, 0, Some(0)).eventually(&[0]);
    assert!(only(&graph, Fairness::Weak).is_none());
}

/// Cycle A (1 <-> 2, process 0) then a path (2 -> 3, process 1) into cycle B (3 <-> 4, both
/// processes), `p` at 4: staying in A starves process 1, always enabled at 2 but only there.
fn two_cycles() -> Graph {
    Graph::new(5, 2)
        .edge(0, 1, Some(0))
        .edge(1, 2, Some(0))
        .edge(2, 1, Some(0))
        .edge(2, 3, Some(1))
        .edge(3, 4, Some(0))
        .edge(4, 3, Some(1))
}

#[test]
fn two_cycles_joined_by_a_path_a_fair_and_an_unfair_cycle() {
    // p in cycle B only: A is a violating cycle without fairness, an unfair one with it.
    let graph = two_cycles().eventually(&[4]);
    let lasso = only(&graph, Fairness::None).expect("violated without fairness");
    assert_eq!(states(&lasso.stem), vec![1], "a shortest stem into A");
    assert_eq!(states(&lasso.cycle), vec![2, 1]);
    // Process 1 is disabled at 1 but enabled at 2 and takes no step in A: weak fairness
    // excludes A only if it is enabled at every state, so A is fair after all.
    assert!(only(&graph, Fairness::Weak).is_some());
    // Enable process 1 at state 1 too (a step to 3): now A starves it, and every fair
    // behaviour reaches B and p.
    let graph = two_cycles().edge(1, 3, Some(1)).eventually(&[4]);
    assert!(only(&graph, Fairness::None).is_some());
    assert!(only(&graph, Fairness::Weak).is_none());
    // p in A instead: B is a fair cycle without p, reached only through A's states... which
    // have p: eventually holds; leads_to(A, B) holds under weak fairness only.
    let graph = two_cycles().edge(1, 3, Some(1)).eventually(&[1]);
    assert!(only(&graph, Fairness::Weak).is_none());
    let graph = two_cycles().edge(1, 3, Some(1)).leads_to(&[1], &[3]);
    assert!(only(&graph, Fairness::Weak).is_none());
    let lasso = only(&graph, Fairness::None).expect("A forever never reaches 3");
    assert!(states(&lasso.cycle).contains(&1));
}

#[test]
fn a_fair_cycle_is_found_beside_an_unfair_one() {
    // 0 -> 1 (self-loop of process 0; process 1 enabled there, to 2) and 0 -> 2 <-> 3 (both
    // processes): the self-loop is unfair, the 2-3 cycle fair; no p anywhere.
    let graph = Graph::new(4, 2)
        .edge(0, 1, Some(0))
        .edge(1, 1, Some(0))
        .edge(1, 2, Some(1))
        .edge(0, 2, Some(1))
        .edge(2, 3, Some(0))
        .edge(3, 2, Some(1))
        .eventually(&[]);
    let lasso = only(&graph, Fairness::Weak).expect("the 2-3 cycle");
    let cycle = states(&lasso.cycle);
    assert!(cycle.contains(&2) && cycle.contains(&3) && !cycle.contains(&1));
    assert_eq!(
        lasso.stem.len(),
        1,
        "0 -> 2 is the shortest stem to that cycle"
    );
}

#[test]
fn a_violation_only_on_a_finite_path_is_a_finite_counterexample() {
    // 0 -> 1 -> 2 (no successors), and 0 -> 3 <-> 3 with p at 3: the only violation ends at 2.
    let graph = Graph::new(4, 1)
        .edge(0, 1, Some(0))
        .edge(1, 2, Some(0))
        .edge(0, 3, Some(0))
        .edge(3, 3, Some(0))
        .eventually(&[3]);
    for fairness in Fairness::ALL {
        let lasso = only(&graph, fairness).expect("the path to 2");
        assert!(lasso.is_finite());
        assert_eq!(states(&lasso.stem), vec![1, 2]);
    }
    // A p at 2 leaves no violation at all.
    let graph = Graph::new(4, 1)
        .edge(0, 1, Some(0))
        .edge(1, 2, Some(0))
        .edge(0, 3, Some(0))
        .edge(3, 3, Some(0))
        .eventually(&[2, 3]);
    assert!(only(&graph, Fairness::None).is_none());
}

#[test]
fn p_inside_the_cycle() {
    // The cycle 0 -> 1 -> 2 -> 0 with p at 1: eventually holds; a request at 0 answered at 2
    // holds; one answered at an unreachable 3 is violated by a lasso whose cycle holds p.
    let cycle = || {
        Graph::new(4, 1)
            .edge(0, 1, Some(0))
            .edge(1, 2, Some(0))
            .edge(2, 0, Some(0))
    };
    assert!(only(&cycle().eventually(&[1]), Fairness::None).is_none());
    assert!(only(&cycle().leads_to(&[0], &[2]), Fairness::None).is_none());
    let lasso = only(&cycle().leads_to(&[1], &[3]), Fairness::Weak).expect("never answered");
    let mut all = vec![*lasso.cycle_start()];
    all.extend(states(&lasso.cycle));
    assert!(all.contains(&1) && lasso.cycle.len() == 3);
    // A request never made leaves nothing to answer.
    assert!(only(&cycle().leads_to(&[3], &[3]), Fairness::None).is_none());
}

#[test]
fn unknown_property_names_and_too_many_processes_are_errors() {
    let graph = Graph::new(1, 1).edge(0, 0, Some(0)).eventually(&[0]);
    let named = Options {
        properties: Some(vec!["P9".into()]),
        ..options(Mode::Exact, 1, Fairness::Weak)
    };
    let Err(e) = check_liveness(&graph, &named) else {
        panic!("an unknown name is an error")
    };
    assert!(e.contains("P9"), "{e}");
    let wide = Graph::new(1, 65).edge(0, 0, Some(0)).eventually(&[0]);
    assert!(check_liveness(&wide, &options(Mode::Exact, 1, Fairness::Weak)).is_err());
    // A step of a process the model does not have is an error, not a wrong verdict.
    let out_of_range = Graph::new(1, 1).edge(0, 0, Some(3)).eventually(&[]);
    let report = check_liveness(&out_of_range, &options(Mode::Exact, 1, Fairness::Weak)).unwrap();
    assert!(matches!(
        report.properties[0].verdict,
        LivenessVerdict::Error(_)
    ));
}

// ---- random graphs against a reference -----------------------------------------------------

/// SplitMix64: a seeded generator, so a failing case is a seed to rerun.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A random graph of `n` states: 1 to 3 successors each (one state in 30 none), mostly to
/// nearby states (so components are many and small), up to 3 processes, an `eventually` and
/// two `leads_to` properties.
fn random_graph(rng: &mut Rng, n: usize) -> Graph {
    let processes = rng.below(4) as usize;
    let mut graph = Graph::new(n, processes);
    for s in 0..n as u32 {
        let degree = if rng.below(30) == 0 {
            0
        } else {
            1 + rng.below(3)
        };
        for _ in 0..degree {
            let local = rng.below(4) != 0;
            let to = if local {
                (s + rng.below(3) as u32) % n as u32
            } else {
                rng.below(n as u64) as u32
            };
            let process =
                (processes > 0 && rng.below(5) != 0).then(|| rng.below(processes as u64) as u8);
            graph = graph.edge(s, to, process);
        }
    }
    let pick = |rng: &mut Rng, per: u64| -> Vec<u32> {
        (0..n as u32).filter(|_| rng.below(per) == 0).collect()
    };
    let (p, q, r) = (pick(rng, 4), pick(rng, 8), pick(rng, 4));
    let (p2, q2) = (pick(rng, 10), pick(rng, 3));
    graph.initial = vec![0, rng.below(n as u64) as u32];
    graph.eventually(&p).leads_to(&q, &r).leads_to(&p2, &q2)
}

/// The reference verdict of property `i`: the explicit product graph, Kosaraju's components of
/// its bad part, weak fairness tested per component, and bad states without successors.
fn reference(graph: &Graph, i: usize, fairness: Fairness) -> bool {
    let (_, kind, p, q) = &graph.properties[i];
    let step = |bad: bool, t: u32| match kind {
        Kind::Eventually => !p[t as usize],
        Kind::LeadsTo => (bad || p[t as usize]) && !q[t as usize],
    };
    let explored = |bad: bool| bad || *kind == Kind::LeadsTo;
    let n = graph.edges.len();
    let id = |s: u32, bad: bool| s as usize * 2 + bad as usize;
    let mut reached = vec![false; 2 * n];
    let mut todo = Vec::new();
    for &s in &graph.initial {
        let bad = step(false, s);
        if explored(bad) && !reached[id(s, bad)] {
            reached[id(s, bad)] = true;
            todo.push((s, bad));
        }
    }
    while let Some((s, bad)) = todo.pop() {
        if bad && graph.edges[s as usize].is_empty() {
            return true;
        }
        for &(t, _) in &graph.edges[s as usize] {
            let to = step(bad, t);
            if explored(to) && !reached[id(t, to)] {
                reached[id(t, to)] = true;
                todo.push((t, to));
            }
        }
    }
    // The bad part: reached bad product states, edges between them.
    let bad_succ = |s: u32| -> Vec<(u32, Option<u8>)> {
        graph.edges[s as usize]
            .iter()
            .filter(|&&(t, _)| step(true, t) && reached[id(t, true)])
            .copied()
            .collect()
    };
    let nodes: Vec<u32> = (0..n as u32).filter(|&s| reached[id(s, true)]).collect();
    let component = kosaraju(n, &nodes, &bad_succ);
    let all = fairness.mask(graph.processes);
    let mut served = vec![0u64; n];
    let mut has_edge = vec![false; n];
    for &s in &nodes {
        let c = component[s as usize];
        let enabled = graph.edges[s as usize]
            .iter()
            .filter_map(|(_, pr)| *pr)
            .fold(0u64, |m, pr| m | 1 << pr);
        served[c] |= all & !enabled;
        for (t, pr) in bad_succ(s) {
            if component[t as usize] == c {
                has_edge[c] = true;
                served[c] |= pr.map_or(0, |pr| 1 << pr) & all;
            }
        }
    }
    nodes.iter().any(|&s| {
        let c = component[s as usize];
        has_edge[c] && served[c] == all
    })
}

/// Kosaraju's components of the graph on `nodes` with successors `succ`: each node's
/// component's representative.
fn kosaraju(n: usize, nodes: &[u32], succ: &dyn Fn(u32) -> Vec<(u32, Option<u8>)>) -> Vec<usize> {
    let mut order = Vec::new();
    let mut seen = vec![false; n];
    for &root in nodes {
        if seen[root as usize] {
            continue;
        }
        seen[root as usize] = true;
        let mut stack = vec![(root, succ(root), 0)];
        while let Some((s, next, k)) = stack.last_mut() {
            if *k < next.len() {
                let t = next[*k].0;
                *k += 1;
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push((t, succ(t), 0));
                }
            } else {
                order.push(*s);
                stack.pop();
            }
        }
    }
    let mut pred = vec![Vec::new(); n];
    for &s in nodes {
        for (t, _) in succ(s) {
            pred[t as usize].push(s);
        }
    }
    let mut component = vec![usize::MAX; n];
    for &root in order.iter().rev() {
        if component[root as usize] != usize::MAX {
            continue;
        }
        component[root as usize] = root as usize;
        let mut stack = vec![root];
        while let Some(s) = stack.pop() {
            for &t in &pred[s as usize] {
                if component[t as usize] == usize::MAX {
                    component[t as usize] = root as usize;
                    stack.push(t);
                }
            }
        }
    }
    component
}

/// Each property alone (so that one property's index graph search has both threads), then all
/// at once (spread over the threads).
fn each_then_all(graph: &Graph, options: &Options) -> Vec<bool> {
    let all: Vec<bool> = verdicts(graph, options)
        .iter()
        .map(Option::is_some)
        .collect();
    if options.threads > 1 {
        for (i, (name, ..)) in graph.properties.iter().enumerate() {
            let alone = Options {
                properties: Some(vec![name.to_string()]),
                ..options.clone()
            };
            let report = check_liveness(graph, &alone).expect("a valid run");
            assert_eq!(report.properties.len(), 1);
            let verdict = &report.properties[0].verdict;
            assert!(
                matches!(
                    verdict,
                    LivenessVerdict::Holds | LivenessVerdict::Violated(_)
                ),
                "{name} alone: no verdict"
            );
            let violated = matches!(verdict, LivenessVerdict::Violated(_));
            assert_eq!(violated, all[i], "{name} alone");
        }
    }
    all
}

#[test]
fn random_graphs_agree_with_the_reference_in_every_mode_by_both_searches_on_1_and_2_threads() {
    let mut violated = 0;
    let mut held = 0;
    for seed in 0..200u64 {
        let mut rng = Rng(seed);
        let n = [5, 20, 100, 600, 3000][seed as usize % 5];
        let graph = random_graph(&mut rng, n);
        for fairness in Fairness::ALL {
            let expected: Vec<bool> = (0..graph.properties.len())
                .map(|i| reference(&graph, i, fairness))
                .collect();
            for mode in Mode::ALL {
                for search in [LivenessSearch::IndexGraph, LivenessSearch::OnTheFly] {
                    for threads in [1, 2] {
                        let options = Options {
                            liveness_search: search,
                            ..options(mode, threads, fairness)
                        };
                        let got = each_then_all(&graph, &options);
                        assert_eq!(
                            got, expected,
                            "seed {seed}, {n} states, {fairness}, {mode}, {search}, {threads} \
                             threads"
                        );
                    }
                }
            }
            violated += expected.iter().filter(|&&v| v).count();
            held += expected.iter().filter(|&&v| !v).count();
        }
    }
    // Both verdicts are exercised, not one.
    eprintln!("violated {violated}, held {held}");
    assert!(
        violated > 40 && held > 40,
        "violated {violated}, held {held}"
    );
}

#[test]
fn two_processes_taking_turns_make_a_fair_cycle() {
    // 0 -> 1 (process 0) and 1 -> 0 (process 1); each is also enabled at the other state,
    // towards 2 where p holds: the 0-1 cycle serves both by their own steps alone.
    let graph = Graph::new(3, 2)
        .edge(0, 1, Some(0))
        .edge(0, 2, Some(1))
        .edge(1, 0, Some(1))
        .edge(1, 2, Some(0))
        .edge(2, 2, Some(0))
        .eventually(&[2]);
    let lasso = only(&graph, Fairness::Weak).expect("the fair 0-1 cycle");
    assert_eq!(states(&lasso.cycle), vec![1, 0]);
}

#[test]
fn an_index_graph_over_its_cap_falls_back_to_the_on_the_fly_search_or_is_an_error() {
    // 30,000 states of 32 edges each, p nowhere: the index graph needs more than
    // GRAPH_MEMORY_FACTOR times the store's 1 MiB.
    let n = 30_000u32;
    let mut graph = Graph::new(n as usize, 1);
    for s in 0..n {
        for k in 1..=32 {
            graph.edges[s as usize].push(((s * 7 + k * 13) % n, Some(0)));
        }
    }
    let graph = graph.eventually(&[]);
    let bytes = n as usize * (GRAPH_BYTES_PER_STATE + 32 * GRAPH_BYTES_PER_EDGE);
    assert!(bytes > GRAPH_MEMORY_FACTOR << 20);
    let run = |search| {
        let options = Options {
            liveness_search: search,
            ..options(Mode::Fp64, 2, Fairness::Weak)
        };
        check_liveness(&graph, &options)
            .unwrap()
            .properties
            .remove(0)
    };
    let auto = run(LivenessSearch::Auto);
    assert_eq!(auto.search, LivenessSearch::OnTheFly);
    assert!(matches!(auto.verdict, LivenessVerdict::Violated(_)));
    let forced = run(LivenessSearch::IndexGraph);
    let LivenessVerdict::Error(e) = forced.verdict else {
        panic!("an index graph over its cap is an error when forced")
    };
    assert!(e.contains("index graph"), "{e}");
    // A small graph is searched on its index graph.
    let small = Graph::new(2, 1)
        .edge(0, 1, Some(0))
        .edge(1, 0, Some(0))
        .eventually(&[]);
    let auto = Options {
        liveness_search: LivenessSearch::Auto,
        ..options(Mode::Fp64, 2, Fairness::Weak)
    };
    let report = check_liveness(&small, &auto).unwrap();
    assert_eq!(report.properties[0].search, LivenessSearch::IndexGraph);
    // The default is `Auto`.
    assert_eq!(LivenessSearch::default(), LivenessSearch::Auto);
    let report = check_liveness(&small, &options(Mode::Fp64, 2, Fairness::Weak)).unwrap();
    assert_eq!(report.properties[0].search, LivenessSearch::IndexGraph);
}
