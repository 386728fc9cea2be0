//! Liveness: [`check_liveness`] checks a model's `eventually` and `leads_to` properties
//! ([`crate::Property`]) under the run's [`Fairness`], each on its own product graph (the
//! model times a one-bit monitor, `monitor.rs`), by a search of its strongly connected
//! components that keeps one index per product state in the store (`store.rs`: searchcache's
//! visited map, or full states in the exact mode). Two searches ([`LivenessSearch`]):
//! - the index graph: a parallel breadth-first search records the graph on indices
//!   (`graph.rs`), then Tarjan's components run on it (`components.rs`);
//! - on the fly: one depth-first search of the components (`tarjan.rs`), sequential.
//!
//! A violation is rebuilt (`path.rs`) and replayed (`lasso.rs`) before it is returned.
//!
//! Threads: the properties are searched in parallel, one per thread, and the threads left over
//! go to each property's index graph search.

// Each uses only those of the layers before it: monitor; store; tarjan, path; graph;
// components; lasso.
mod components;
mod graph;
mod lasso;
mod monitor;
mod path;
mod store;
mod tarjan;

pub use graph::{GRAPH_BYTES_PER_EDGE, GRAPH_BYTES_PER_STATE};
pub use lasso::Lasso;
pub use store::{liveness_memory, LivenessFull, LivenessStorage};
pub use tarjan::SearchCounts;

use crate::bfs::Options;
use crate::fairness::{Fairness, MAX_PROCESSES};
use crate::liveness_search::LivenessSearch;
use crate::model::Model;
use crate::property::Property;
use graph::{Build, NoGraph};
use lasso::{replay, Positions};
use monitor::{Monitor, Product};
use path::{fair_cycle, shortest, Goal};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use store::Store;
use tarjan::{Component, Found, Search};

/// The index graph may take this many times the store's bytes
/// ([`GRAPH_BYTES_PER_STATE`] and [`GRAPH_BYTES_PER_EDGE`] counted); a larger one is searched
/// on the fly ([`LivenessSearch::Auto`]).
pub const GRAPH_MEMORY_FACTOR: usize = 8;

/// How one liveness property came out.
pub enum LivenessVerdict<M: Model> {
    /// No violating behaviour among the product states searched (all reachable ones, unless
    /// [`LivenessStorage::partial`] says the storage may have missed some).
    Holds,
    /// A violating behaviour, replayed.
    Violated(Lasso<M>),
    /// The store filled before the search ended.
    Full(LivenessFull),
    /// Stopped by [`Options::stop`]; no verdict.
    Interrupted,
    /// The search could not go on (a process number out of range, a counterexample that failed
    /// its replay).
    Error(String),
}

/// One liveness property's check.
pub struct PropertyReport<M: Model> {
    /// The property's name.
    pub name: &'static str,
    /// Its verdict.
    pub verdict: LivenessVerdict<M>,
    /// What the search counted (up to where it stopped).
    pub counts: SearchCounts,
    /// Wall-clock time of its search and counterexample.
    pub elapsed: Duration,
    /// The store after the search; `None` when it could not be built.
    pub storage: Option<LivenessStorage>,
    /// The search that gave the verdict: [`LivenessSearch::IndexGraph`] or
    /// [`LivenessSearch::OnTheFly`] (also after an `Auto` run fell back to it).
    pub search: LivenessSearch,
}

/// Every liveness property a run checked, in the model's order.
pub struct LivenessReport<M: Model> {
    /// The fairness assumed.
    pub fairness: Fairness,
    /// One report per property.
    pub properties: Vec<PropertyReport<M>>,
    /// Threads of the check: those the properties were spread over (at most one per
    /// property), times each property's threads for its index graph search.
    pub threads: usize,
    /// Wall-clock time of the whole check.
    pub elapsed: Duration,
}

/// Checks the `eventually` and `leads_to` properties of `model` that `options.properties`
/// selects (all when `None`), under `options.fairness`, storing product states as
/// `options.mode` says (fp64, fp32 and bitstate all use searchcache's visited map: an index
/// does not fit in a bit) in `options.memory_bytes` shared among the properties searched at
/// once, by `options.liveness_search`. Up to `options.threads` properties are searched at a
/// time, each index graph search on `threads / properties` threads (at least one; the index
/// graph within [`GRAPH_MEMORY_FACTOR`] times its share of `memory_bytes`);
/// `options.max_depth`, `deadlock`, `schedule` and `hashes` do not apply. A returned [`Lasso`]
/// has been replayed.
///
/// Errors: a name in `options.properties` that is none of the model's properties, or a model
/// with more than [`MAX_PROCESSES`] processes.
///
/// ```
/// use modelcheck::{check_liveness, Fairness, LivenessVerdict, Model, Options, Property};
///
/// /// A server that either serves its one client (process 0) or idles (process 1): a request
/// /// is answered only if the server does not idle forever.
/// struct Server;
///
/// impl Model for Server {
///     type State = (bool, bool); // (request pending, answered)
///     type Action = &'static str;
///
///     fn name(&self) -> String {
///         "server".into()
///     }
///     fn initial_states(&self) -> Vec<(bool, bool)> {
///         vec![(false, false)]
///     }
///     fn successors(&self, &(req, _): &(bool, bool), out: &mut Vec<(&'static str, (bool, bool))>) {
///         match req {
///             false => out.push(("request", (true, false))),
///             true => out.push(("serve", (false, true))),
///         }
///         out.push(("idle", (req, false)));
///     }
///     fn properties(&self) -> Vec<Property<(bool, bool)>> {
///         vec![
///             Property::eventually("SomeAnswer", |s: &(bool, bool)| s.1),
///             Property::leads_to("Answered", |s: &(bool, bool)| s.0, |s: &(bool, bool)| s.1),
///         ]
///     }
///     fn processes(&self) -> usize {
///         2
///     }
///     fn process_of(&self, action: &&'static str) -> Option<usize> {
///         Some(if *action == "idle" { 1 } else { 0 })
///     }
/// }
///
/// for (fairness, holds) in [(Fairness::Weak, true), (Fairness::None, false)] {
///     let options = Options { fairness, ..Options::default() };
///     let report = check_liveness(&Server, &options).unwrap();
///     for property in &report.properties {
///         match &property.verdict {
///             LivenessVerdict::Holds => assert!(holds),
///             // Without fairness the server idles forever: a replayed lasso.
///             LivenessVerdict::Violated(lasso) => {
///                 assert!(!holds);
///                 assert!(lasso.cycle.iter().all(|(action, _)| *action == "idle"));
///             }
///             _ => panic!("no verdict"),
///         }
///     }
/// }
/// ```
pub fn check_liveness<M: Model>(model: &M, options: &Options) -> Result<LivenessReport<M>, String> {
    if model.processes() > MAX_PROCESSES {
        return Err(format!(
            "the model has {} processes; fairness handles at most {MAX_PROCESSES}",
            model.processes()
        ));
    }
    let properties = model.properties();
    if let Some(names) = &options.properties {
        if let Some(unknown) = names
            .iter()
            .find(|n| !properties.iter().any(|p| p.name == **n))
        {
            return Err(format!("the model has no property `{unknown}`"));
        }
    }
    let selected: Vec<&Property<M::State>> = properties
        .iter()
        .filter(|p| Monitor::of(&p.expectation).is_some())
        .filter(|p| {
            options
                .properties
                .as_ref()
                .is_none_or(|names| names.iter().any(|n| n == p.name))
        })
        .collect();
    let started = Instant::now();
    let workers = options.threads.clamp(1, selected.len().max(1));
    let memory = options.memory_bytes / workers;
    let threads = (options.threads / workers).max(1);
    let cursor = AtomicUsize::new(0);
    let reports: Mutex<Vec<Option<PropertyReport<M>>>> =
        Mutex::new(selected.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = cursor.fetch_add(1, Ordering::Relaxed);
                let Some(property) = selected.get(i) else {
                    break;
                };
                let report = check_property(model, property, options, memory, threads);
                reports.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(report);
            });
        }
    });
    let properties = reports
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    Ok(LivenessReport {
        fairness: options.fairness,
        properties,
        threads: workers * threads,
        elapsed: started.elapsed(),
    })
}

/// Checks one liveness property in a store of `memory` bytes, an index graph search on
/// `threads` threads.
fn check_property<M: Model>(
    model: &M,
    property: &Property<M::State>,
    options: &Options,
    memory: usize,
    threads: usize,
) -> PropertyReport<M> {
    let started = Instant::now();
    let monitor = Monitor::of(&property.expectation).expect("a liveness property");
    let mut report = PropertyReport {
        name: property.name,
        verdict: LivenessVerdict::Holds,
        counts: SearchCounts::default(),
        elapsed: Duration::ZERO,
        storage: None,
        search: LivenessSearch::OnTheFly,
    };
    let searched = match options.liveness_search {
        LivenessSearch::OnTheFly => on_the_fly(model, &monitor, options, memory),
        chosen => match index_graph(model, &monitor, options, memory, threads) {
            Ok(Err(_)) if chosen == LivenessSearch::Auto => {
                on_the_fly(model, &monitor, options, memory)
            }
            Ok(Err((states, edges))) => Err(format!(
                "the index graph takes more than {GRAPH_MEMORY_FACTOR} times the store's {memory} \
                 bytes ({states} states and {edges} edges so far)"
            )),
            Ok(Ok(searched)) => Ok(searched),
            Err(e) => Err(e),
        },
    };
    let searched = match searched {
        Ok(searched) => searched,
        Err(e) => {
            report.verdict = LivenessVerdict::Error(e);
            return report;
        }
    };
    report.counts = searched.counts;
    report.search = searched.search;
    report.verdict = match searched.found {
        Ok(()) => LivenessVerdict::Holds,
        Err(Found::Terminal) => {
            counterexample(model, &monitor, options.fairness, &searched.store, None)
        }
        Err(Found::Component(c)) => {
            counterexample(model, &monitor, options.fairness, &searched.store, Some(&c))
        }
        Err(Found::Full(full)) => LivenessVerdict::Full(full),
        Err(Found::Interrupted) => LivenessVerdict::Interrupted,
        Err(Found::Error(e)) => LivenessVerdict::Error(e),
    };
    report.storage = Some(searched.store.storage());
    report.elapsed = started.elapsed();
    report
}

/// A finished search of one property: how it ended, its counts, its store.
struct Searched<S> {
    found: Result<(), Found>,
    counts: SearchCounts,
    store: Store<S>,
    search: LivenessSearch,
}

/// An index graph search, or the graph's size (states, edges) when it stopped over its cap.
type GraphSearched<S> = Result<Searched<S>, (u64, u64)>;

/// The on-the-fly search (`tarjan.rs`).
fn on_the_fly<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    options: &Options,
    memory: usize,
) -> Result<Searched<M::State>, String> {
    let store = Store::new(options.mode, memory)?;
    let stop = options.stop.as_deref();
    let mut search = Search::new(model, monitor, options.fairness, store, stop);
    let found = search.run();
    let counts = SearchCounts {
        states: search.states(),
        ..search.counts.clone()
    };
    Ok(Searched {
        found,
        counts,
        store: search.store,
        search: LivenessSearch::OnTheFly,
    })
}

/// The index graph search (`graph.rs`, then `components.rs`): `Ok(Err((states, edges)))`, the
/// graph's size so far, when it does not fit.
fn index_graph<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    options: &Options,
    memory: usize,
    threads: usize,
) -> Result<GraphSearched<M::State>, String> {
    let store = Store::new(options.mode, memory)?;
    let all = options.fairness.mask(model.processes());
    let stop = options.stop.as_deref();
    let build = Build {
        model,
        monitor,
        all,
        store: &store,
        stop,
        threads,
        cap_bytes: memory.saturating_mul(GRAPH_MEMORY_FACTOR),
    };
    let mut counts = SearchCounts::default();
    let found = match build.run() {
        Ok(graph) => {
            counts.states = graph.states;
            counts.transitions = graph.transitions;
            components::search(&graph, all, stop, &mut counts)
        }
        Err(NoGraph::Found(found)) => {
            counts.states = store.storage().stored;
            Err(found)
        }
        Err(NoGraph::TooLarge { states, edges }) => return Ok(Err((states, edges))),
    };
    Ok(Ok(Searched {
        found,
        counts,
        store,
        search: LivenessSearch::IndexGraph,
    }))
}

/// Builds and replays the counterexample: a finite one to a bad state without successors
/// (`component` `None`), or a lasso into `component`.
fn counterexample<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    fairness: Fairness,
    store: &Store<M::State>,
    component: Option<&Component>,
) -> LivenessVerdict<M> {
    let mut positions = Vec::new();
    let mut starts: Vec<Product<M::State>> = Vec::new();
    for (i, s) in model.initial_states().into_iter().enumerate() {
        let bad = monitor.initial(&s);
        if monitor.explored(bad) {
            positions.push(i);
            starts.push((s, bad));
        }
    }
    let member = |s: &Product<M::State>| {
        component.is_some_and(|c| store.index_of(s).is_some_and(|i| c.contains(i)))
    };
    let goal = Goal::<M> {
        within: &|_| true,
        state: &|s, successors| match component {
            Some(_) => member(s),
            None => s.1 && successors.is_empty(),
        },
        edge: &|_, _| false,
    };
    let Some(stem) = shortest(model, monitor, starts, &goal) else {
        return LivenessVerdict::Error("no path to the violation found by the search".into());
    };
    let cycle = match component {
        None => Vec::new(),
        Some(_) => {
            let all = fairness.mask(model.processes());
            match fair_cycle(model, monitor, all, &stem.end, &member) {
                Some(cycle) => cycle,
                None => {
                    return LivenessVerdict::Error(
                        "no fair cycle in the component the search found".into(),
                    )
                }
            }
        }
    };
    let positions = Positions {
        initial: positions[stem.start],
        stem: stem.ordinals,
        cycle,
    };
    match replay(model, monitor, fairness, &positions) {
        Ok(lasso) => LivenessVerdict::Violated(lasso),
        Err(e) => LivenessVerdict::Error(e),
    }
}
