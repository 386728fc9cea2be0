//! Phase 2 of the index-graph search (`graph.rs` is phase 1): Tarjan's strongly connected
//! components of the index graph, iterative, with weak fairness tested per component as the
//! on-the-fly search tests it (`tarjan.rs` says why the test is exact): a component of bad
//! states holds a fair cycle iff it has an edge and every process fairness asks for is disabled
//! at one of its states or takes one of its edges. Two numbers per state (the depth-first
//! number, and the lowlink, which becomes the component's number once it is finished); no model
//! call and no hashing.

use super::graph::{IndexGraph, NO_PROCESS};
use super::tarjan::{Component, Found, SearchCounts};
use std::sync::atomic::{AtomicBool, Ordering};

/// The number of a state not reached yet.
const UNSEEN: u32 = u32::MAX;
/// The number of a state whose component is finished (its lowlink is then the component's).
const DONE: u32 = u32::MAX - 1;
/// How often (in edges followed) the stop flag is read.
const STOP_POLL: u32 = 4096;

/// Searches every component of `graph`: `Ok` when none is a fair component of bad states
/// under the processes `all` (0: no fairness). `counts` gets the components and the deepest
/// path.
pub(crate) fn search(
    graph: &IndexGraph,
    all: u64,
    stop: Option<&AtomicBool>,
    counts: &mut SearchCounts,
) -> Result<(), Found> {
    let n = graph.len();
    let mut tarjan = Tarjan {
        graph,
        all,
        nodes: vec![
            Node {
                number: UNSEEN,
                low: 0
            };
            n
        ],
        stack: Vec::new(),
        calls: Vec::new(),
        counter: 0,
        components: 0,
    };
    let mut polls = 0u32;
    for root in 0..n as u32 {
        if tarjan.nodes[root as usize].number != UNSEEN {
            continue;
        }
        tarjan.open(root);
        while let Some(&(v, at)) = tarjan.calls.last() {
            polls = polls.wrapping_add(1);
            if polls.is_multiple_of(STOP_POLL) && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(Found::Interrupted);
            }
            counts.deepest = counts.deepest.max(tarjan.calls.len());
            if at < graph.offsets[v as usize + 1] {
                tarjan.calls.last_mut().expect("a call").1 += 1;
                tarjan.follow(v, graph.targets[at as usize]);
            } else {
                tarjan.calls.pop();
                if let Err(found) = tarjan.close(v) {
                    counts.components = u64::from(tarjan.components);
                    return Err(found);
                }
            }
        }
    }
    counts.components = u64::from(tarjan.components);
    Ok(())
}

/// A state's two numbers in Tarjan's search.
#[derive(Clone, Copy)]
struct Node {
    /// Its depth-first number (`UNSEEN`, `DONE`).
    number: u32,
    /// Its lowlink; once finished, its component's number.
    low: u32,
}

/// Tarjan's search state.
struct Tarjan<'g> {
    graph: &'g IndexGraph,
    all: u64,
    /// Each state's two numbers, side by side: one cache miss reads both.
    nodes: Vec<Node>,
    /// States whose component is not finished, in the order reached.
    stack: Vec<u32>,
    /// The depth-first path: each state and its next edge.
    calls: Vec<(u32, u32)>,
    counter: u32,
    components: u32,
}

impl Tarjan<'_> {
    /// Numbers `v` and enters it.
    fn open(&mut self, v: u32) {
        self.nodes[v as usize] = Node {
            number: self.counter,
            low: self.counter,
        };
        self.counter += 1;
        self.stack.push(v);
        self.calls.push((v, self.graph.offsets[v as usize]));
    }

    /// The edge `v -> w`.
    fn follow(&mut self, v: u32, w: u32) {
        match self.nodes[w as usize].number {
            UNSEEN => self.open(w),
            DONE => {}
            number => {
                let low = &mut self.nodes[v as usize].low;
                *low = (*low).min(number);
            }
        }
    }

    /// Leaves `v`, all its edges followed: a root finishes its component, tested for a fair
    /// cycle of bad states; another state hands its lowlink to its parent.
    fn close(&mut self, v: u32) -> Result<(), Found> {
        let Node { number, low } = self.nodes[v as usize];
        if low != number {
            let (parent, _) = *self.calls.last().expect("a non-root state has a parent");
            let parent_low = &mut self.nodes[parent as usize].low;
            *parent_low = (*parent_low).min(low);
            return Ok(());
        }
        let start = self
            .stack
            .iter()
            .rposition(|&u| u == v)
            .expect("v on the stack");
        let id = self.components;
        self.components += 1;
        for &u in &self.stack[start..] {
            self.nodes[u as usize] = Node {
                number: DONE,
                low: id,
            };
        }
        let members = &self.stack[start..];
        if self.graph.bad[v as usize] && self.fair(members, id) {
            let mut members = members.to_vec();
            members.sort_unstable();
            return Err(Found::Component(Component::listed(members)));
        }
        self.stack.truncate(start);
        Ok(())
    }

    /// Whether the finished component `id` (its `members`) has an edge and serves every
    /// process fairness asks for. A single state's only inner edge is a loop: its targets'
    /// numbers are not read (most components of most models are single states).
    fn fair(&self, members: &[u32], id: u32) -> bool {
        let single = members.len() == 1;
        let graph = self.graph;
        let fair = self.all != 0;
        let (mut inside, mut mask) = (false, 0u64);
        for &u in members {
            let u = u as usize;
            if fair {
                mask |= graph.disabled[u];
            }
            for e in graph.offsets[u] as usize..graph.offsets[u + 1] as usize {
                let w = graph.targets[e] as usize;
                let within = if single {
                    w == u
                } else {
                    let node = self.nodes[w];
                    node.number == DONE && node.low == id
                };
                if within {
                    inside = true;
                    if fair && graph.processes[e] != NO_PROCESS {
                        mask |= 1u64 << graph.processes[e];
                    }
                }
            }
        }
        inside && mask & self.all == self.all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::liveness::graph::PHASE2_BYTES_PER_STATE;

    fn size_of_element<T>(_: &[T]) -> usize {
        std::mem::size_of::<T>()
    }

    #[test]
    fn phase_2_bytes_per_state_are_those_of_its_arrays_elements() {
        let graph = IndexGraph {
            offsets: vec![0],
            targets: Vec::new(),
            processes: Vec::new(),
            disabled: Vec::new(),
            bad: Vec::new(),
            states: 0,
            transitions: 0,
        };
        let tarjan = Tarjan {
            graph: &graph,
            all: 0,
            nodes: Vec::new(),
            stack: Vec::new(),
            calls: Vec::new(),
            counter: 0,
            components: 0,
        };
        let bytes = size_of_element(&tarjan.nodes)
            + size_of_element(&tarjan.stack)
            + size_of_element(&tarjan.calls);
        assert_eq!(bytes, PHASE2_BYTES_PER_STATE);
    }
}
