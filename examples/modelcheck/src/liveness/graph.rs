//! Phase 1 of the index-graph search (`components.rs` is phase 2): a breadth-first search of
//! one property's product graph, level by level on all the property's threads, that gives each
//! product state an index (its payload in the store, set by the insert that adds it) and
//! records its kept edges in one adjacency array (CSR: a `u32` target per edge, and a byte for
//! the edge's process under weak fairness), with each state's disabled processes and monitor
//! bit. Phase 2 then needs neither the model nor the store: no successor is computed twice and
//! no state hashed twice.
//!
//! Indices are handed out in blocks of `BLOCK` per thread, so a few stay unused (no state, no
//! edge, not bad): at most `BLOCK` per thread.

use super::monitor::{Edge, Monitor, Product};
use super::store::{LivenessFull, Store};
use super::tarjan::Found;
use crate::model::Model;
use searchcache::StateHash;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

/// Indices a thread takes at a time.
const BLOCK: u32 = 16;
/// Frontier states a thread takes at a time.
const CHUNK: usize = 16;
/// The process byte of an edge of no process.
pub(crate) const NO_PROCESS: u8 = u8::MAX;

/// Bytes phase 1 and 2 hold at most per product state, beside the store: phase 1's record (the
/// index, degree, disabled mask and bit: 17) and the graph's arrays (offset, bit, mask: 13),
/// both while the graph is assembled; then phase 2's 20 (its two numbers and two stacks'
/// entries). Counted from the arrays' element types (tests check the sums); a vector's spare
/// capacity is not counted.
pub const GRAPH_BYTES_PER_STATE: usize = 17 + 13 + PHASE2_BYTES_PER_STATE;
/// Phase 2's bytes per state (`components.rs`): its two numbers and its two stacks' entries,
/// each state on each stack at most once.
pub(crate) const PHASE2_BYTES_PER_STATE: usize = 4 + 4 + 4 + 8;
/// Bytes per edge at most: its target and process byte, twice while the graph is assembled.
pub const GRAPH_BYTES_PER_EDGE: usize = 2 * (4 + 1);

/// The product graph on indices.
pub(crate) struct IndexGraph {
    /// State `i`'s edges are `targets[offsets[i]..offsets[i + 1]]`.
    pub(crate) offsets: Vec<u32>,
    /// Each kept edge's target.
    pub(crate) targets: Vec<u32>,
    /// Each kept edge's process (`NO_PROCESS` for none); empty without fairness.
    pub(crate) processes: Vec<u8>,
    /// Each state's processes that fairness asks for and that are disabled there; empty
    /// without fairness.
    pub(crate) disabled: Vec<u64>,
    /// Each state's monitor bit (`false` for an unused index).
    pub(crate) bad: Vec<bool>,
    /// Product states given an index.
    pub(crate) states: u64,
    /// The model's transitions from them (each state's once, kept edges or not).
    pub(crate) transitions: u64,
}

impl IndexGraph {
    /// Indices, used or not: the states are `0..len()`.
    pub(crate) fn len(&self) -> usize {
        self.bad.len()
    }
}

/// One thread's share of one level.
struct Part<S> {
    /// The states it added: the next level's frontier.
    next: Vec<(Product<S>, u32)>,
    /// The states it expanded, with their number of kept edges, disabled mask and bit.
    sources: Vec<u32>,
    degrees: Vec<u32>,
    disabled: Vec<u64>,
    bad: Vec<bool>,
    /// Their kept edges, source by source.
    targets: Vec<u32>,
    processes: Vec<u8>,
    transitions: u64,
    /// Its indices not yet given: `[block.0, block.1)`.
    block: (u32, u32),
}

impl<S> Part<S> {
    fn new(block: (u32, u32)) -> Self {
        Part {
            next: Vec::new(),
            sources: Vec::new(),
            degrees: Vec::new(),
            disabled: Vec::new(),
            bad: Vec::new(),
            targets: Vec::new(),
            processes: Vec::new(),
            transitions: 0,
            block,
        }
    }
}

/// One thread's buffers for one expansion, reused: the model's successors, then each explored
/// one as a product state with its hash, whether its edge is kept, and its process.
struct Scratch<M: Model> {
    successors: Vec<(M::Action, M::State)>,
    hashed: Vec<(Product<M::State>, StateHash, bool, u8)>,
}

/// What every thread of phase 1 shares.
pub(crate) struct Build<'a, M: Model> {
    pub(crate) model: &'a M,
    pub(crate) monitor: &'a Monitor<'a, M::State>,
    /// The processes fairness asks for (0 without fairness).
    pub(crate) all: u64,
    pub(crate) store: &'a Store<M::State>,
    pub(crate) stop: Option<&'a AtomicBool>,
    /// Threads of the search.
    pub(crate) threads: usize,
    /// Bytes the graph may take (`GRAPH_BYTES_PER_STATE` and `_PER_EDGE` counted).
    pub(crate) cap_bytes: usize,
}

/// Why phase 1 gave no graph.
pub(crate) enum NoGraph {
    /// The search found a verdict (a bad state without successors), filled the store, was
    /// stopped, or the model broke a rule.
    Found(Found),
    /// The graph would take more than its cap.
    TooLarge {
        /// States given an index when it stopped.
        states: u64,
        /// Kept edges recorded when it stopped.
        edges: u64,
    },
}

impl From<Found> for NoGraph {
    fn from(found: Found) -> Self {
        NoGraph::Found(found)
    }
}

impl<M: Model> Build<'_, M> {
    /// Runs phase 1: the index graph of every product state reachable from the initial ones.
    pub(crate) fn run(&self) -> Result<IndexGraph, NoGraph> {
        let counter = AtomicU32::new(0);
        let mut first = Part::new((0, 0));
        for s in self.model.initial_states() {
            let bad = self.monitor.initial(&s);
            if self.monitor.explored(bad) {
                let state = (s, bad);
                let key = StateHash::of(&state);
                self.insert(state, key, &counter, &mut first)?;
            }
        }
        let mut frontier = std::mem::take(&mut first.next);
        let mut blocks = vec![(0, 0); self.threads.max(1)];
        blocks[0] = first.block;
        let mut parts: Vec<Part<M::State>> = Vec::new();
        let (mut states, mut edges) = (0u64, 0u64);
        while !frontier.is_empty() {
            let level = self.level(&frontier, &counter, &blocks)?;
            frontier.clear();
            for (i, mut part) in level.into_iter().enumerate() {
                frontier.append(&mut part.next);
                blocks[i] = part.block;
                states += part.sources.len() as u64;
                edges += part.targets.len() as u64;
                parts.push(part);
            }
            if self.threads > 1 {
                // Each thread's states are in index order, but the threads' blocks interleave:
                // expanding the level in index order keeps the next level's indices near the
                // order one thread gives, the order phase 2's depth-first walk reads them in
                // (BENCHMARKS.md, liveness: what the layout costs phase 2).
                frontier.sort_unstable_by_key(|&(_, index)| index);
            }
            let bytes = (states as u128) * GRAPH_BYTES_PER_STATE as u128
                + (edges as u128) * GRAPH_BYTES_PER_EDGE as u128;
            if bytes > self.cap_bytes as u128 || edges >= u64::from(u32::MAX) {
                return Err(NoGraph::TooLarge { states, edges });
            }
        }
        Ok(assemble(
            parts,
            counter.load(Ordering::Relaxed),
            self.all != 0,
        ))
    }

    /// Expands one level's `frontier` on the threads, thread `i` giving indices from
    /// `blocks[i]`: their parts, in thread order.
    fn level(
        &self,
        frontier: &[(Product<M::State>, u32)],
        counter: &AtomicU32,
        blocks: &[(u32, u32)],
    ) -> Result<Vec<Part<M::State>>, Found> {
        let cursor = AtomicUsize::new(0);
        let halt = AtomicBool::new(false);
        let work = |block| self.work(frontier, &cursor, &halt, counter, block);
        let results: Vec<Result<Part<M::State>, Found>> = if blocks.len() == 1 {
            vec![work(blocks[0])]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = blocks
                    .iter()
                    .map(|&block| scope.spawn(move || work(block)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            })
        };
        results.into_iter().collect()
    }

    /// One thread's loop over the frontier's chunks.
    fn work(
        &self,
        frontier: &[(Product<M::State>, u32)],
        cursor: &AtomicUsize,
        halt: &AtomicBool,
        counter: &AtomicU32,
        block: (u32, u32),
    ) -> Result<Part<M::State>, Found> {
        let mut part = Part::new(block);
        let mut scratch = Scratch {
            successors: Vec::new(),
            hashed: Vec::new(),
        };
        while !halt.load(Ordering::Relaxed) {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                halt.store(true, Ordering::Relaxed);
                return Err(Found::Interrupted);
            }
            let start = cursor.fetch_add(CHUNK, Ordering::Relaxed);
            let Some(chunk) = frontier.get(start..frontier.len().min(start + CHUNK)) else {
                break;
            };
            for (state, index) in chunk {
                if let Err(found) = self.expand(state, *index, counter, &mut part, &mut scratch) {
                    halt.store(true, Ordering::Relaxed);
                    return Err(found);
                }
            }
        }
        Ok(part)
    }

    /// Expands `state` (of `index`): inserts its successors, records its kept edges. Every
    /// successor is hashed and its line prefetched before the first insert, so that the inserts'
    /// cache misses overlap (as in the safety search).
    fn expand(
        &self,
        state: &Product<M::State>,
        index: u32,
        counter: &AtomicU32,
        part: &mut Part<M::State>,
        scratch: &mut Scratch<M>,
    ) -> Result<(), Found> {
        scratch.successors.clear();
        self.model.successors(&state.0, &mut scratch.successors);
        if scratch.successors.is_empty() && state.1 {
            return Err(Found::Terminal);
        }
        part.transitions += scratch.successors.len() as u64;
        let mut enabled = 0u64;
        for (action, next) in scratch.successors.drain(..) {
            let process = self.process(&action)?;
            if process != NO_PROCESS {
                enabled |= 1u64 << process;
            }
            let to = self.monitor.step(state.1, &next);
            let edge = self.monitor.edge(state.1, to);
            if edge == Edge::Pruned {
                continue;
            }
            let next = (next, to);
            let key = StateHash::of(&next);
            self.store.prefetch(key);
            scratch
                .hashed
                .push((next, key, edge == Edge::Kept, process));
        }
        let before = part.targets.len();
        for (next, key, kept, process) in scratch.hashed.drain(..) {
            let target = self.insert(next, key, counter, part)?;
            if kept {
                part.targets.push(target);
                if self.all != 0 {
                    part.processes.push(process);
                }
            }
        }
        part.sources.push(index);
        part.degrees.push((part.targets.len() - before) as u32);
        if self.all != 0 {
            part.disabled.push(self.all & !enabled);
        }
        part.bad.push(state.1);
        Ok(())
    }

    /// The process number of `action`, `NO_PROCESS` for none.
    fn process(&self, action: &M::Action) -> Result<u8, Found> {
        let processes = self.model.processes();
        match self.model.process_of(action) {
            Some(p) if p < processes => Ok(p as u8),
            Some(p) => Err(Found::Error(format!(
                "the model says a step is of process {p}, but it has {processes} processes"
            ))),
            None => Ok(NO_PROCESS),
        }
    }

    /// The index of `state` (whose hash is `key`): the one it has, or the next of `part`'s
    /// block, taken by this insert (the state then joins the next frontier).
    fn insert(
        &self,
        state: Product<M::State>,
        key: StateHash,
        counter: &AtomicU32,
        part: &mut Part<M::State>,
    ) -> Result<u32, Found> {
        if part.block.0 == part.block.1 {
            let start = counter.fetch_add(BLOCK, Ordering::Relaxed);
            part.block = (start, start.saturating_add(BLOCK));
        }
        let index = part.block.0;
        if index >= self.store.pending() - 1 {
            // The payload cannot hold this index unless the state is stored already.
            return match self.store.get(&state, key) {
                Some(held) => Ok(held),
                None => Err(Found::Full(LivenessFull {
                    states: u64::from(index),
                    memory_bytes: self.store.memory_bytes(),
                })),
            };
        }
        let (new, held) = self
            .store
            .insert_new(&state, key, index)
            .map_err(Found::Full)?;
        if new {
            part.block.0 += 1;
            part.next.push((state, index));
        }
        Ok(held)
    }
}

/// The graph of the parts' records, over indices `0..ends`.
fn assemble<S>(parts: Vec<Part<S>>, ends: u32, fair: bool) -> IndexGraph {
    let n = ends as usize;
    let mut offsets = vec![0u32; n + 1];
    let mut bad = vec![false; n];
    let mut disabled = if fair { vec![0; n] } else { Vec::new() };
    let (mut states, mut transitions) = (0u64, 0u64);
    for part in &parts {
        for (k, &source) in part.sources.iter().enumerate() {
            let i = source as usize;
            offsets[i + 1] = part.degrees[k];
            bad[i] = part.bad[k];
            if fair {
                disabled[i] = part.disabled[k];
            }
        }
        states += part.sources.len() as u64;
        transitions += part.transitions;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let edges = offsets[n] as usize;
    let mut targets = vec![0u32; edges];
    let mut processes = if fair {
        vec![NO_PROCESS; edges]
    } else {
        Vec::new()
    };
    for part in parts {
        let mut at = 0;
        for (k, &source) in part.sources.iter().enumerate() {
            let (degree, to) = (part.degrees[k] as usize, offsets[source as usize] as usize);
            targets[to..to + degree].copy_from_slice(&part.targets[at..at + degree]);
            if fair {
                processes[to..to + degree].copy_from_slice(&part.processes[at..at + degree]);
            }
            at += degree;
        }
    }
    IndexGraph {
        offsets,
        targets,
        processes,
        disabled,
        bad,
        states,
        transitions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::property::Predicate;
    use crate::visited::Mode;

    /// States `0..n`; each steps to `s + 1` and `2s` (mod `n`): every state is reachable, and
    /// the levels are wide enough for both threads to take indices.
    struct Doubling(u32);

    impl Model for Doubling {
        type State = u32;
        type Action = u8;
        fn name(&self) -> String {
            format!("doubling({})", self.0)
        }
        fn initial_states(&self) -> Vec<u32> {
            vec![0]
        }
        fn successors(&self, &s: &u32, out: &mut Vec<(u8, u32)>) {
            out.push((0, (s + 1) % self.0));
            out.push((1, (2 * s) % self.0));
        }
    }

    fn size_of_element<T>(_: &[T]) -> usize {
        std::mem::size_of::<T>()
    }

    #[test]
    fn the_byte_counts_are_those_of_the_arrays_elements() {
        let part = Part::<()>::new((0, 0));
        let record = size_of_element(&part.sources)
            + size_of_element(&part.degrees)
            + size_of_element(&part.disabled)
            + size_of_element(&part.bad);
        assert_eq!(record, 17, "phase 1's record");
        let graph = assemble::<()>(Vec::new(), 0, true);
        let arrays = size_of_element(&graph.offsets)
            + size_of_element(&graph.disabled)
            + size_of_element(&graph.bad);
        assert_eq!(arrays, 13, "the graph's per-state arrays");
        let per_edge = size_of_element(&part.targets) + size_of_element(&part.processes);
        assert_eq!(2 * per_edge, GRAPH_BYTES_PER_EDGE);
        assert_eq!(
            record + arrays + PHASE2_BYTES_PER_STATE,
            GRAPH_BYTES_PER_STATE
        );
    }

    #[test]
    fn unused_indices_are_at_most_a_block_per_thread() {
        let bad: Predicate<u32> = Box::new(|_| true);
        let never: Predicate<u32> = Box::new(|_| false);
        let monitor = Monitor::LeadsTo(&bad, &never);
        for (states, threads) in [(10_000u32, 1usize), (10_000, 2), (50_001, 2), (777, 3)] {
            let store = Store::new(Mode::Fp64, 1 << 22).unwrap();
            let build = Build {
                model: &Doubling(states),
                monitor: &monitor,
                all: 0,
                store: &store,
                stop: None,
                threads,
                cap_bytes: usize::MAX,
            };
            let Ok(graph) = build.run() else {
                panic!("the graph of doubling({states}) fits")
            };
            assert_eq!(graph.states, u64::from(states));
            let unused = graph.len() as u64 - graph.states;
            assert!(
                unused <= u64::from(BLOCK) * threads as u64,
                "{unused} unused indices on {threads} threads"
            );
        }
    }
}
