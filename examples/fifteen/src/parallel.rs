//! Several threads solving one instance together: each iteration expands the top of the tree
//! breadth-first until there are enough subtrees to keep every thread busy, then rayon's pool
//! searches them, all sharing the table. The first thread to reach the goal raises a flag the
//! others see at their next node.
//!
//! Optimal whatever the interleaving: every bound in the table is a true lower bound (see
//! `ida.rs`), so the iteration with bound = the optimal cost C* is reached, and any goal found
//! within a bound that is at most C* costs exactly C*.

use crate::board::{Board, Dir, Packing, DIRS};
use crate::heuristic::Heuristic;
use crate::ida::{
    initial_bound, BoundTable, Control, Counters, Interrupted, Iteration, Node, Outcome, Search,
    Solution, Walker,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

/// Subtrees per thread: enough that uneven subtrees even out (16 per thread measured within 5%
/// of 64 on Korf's 1-10; the split costs nothing beside the search).
const TASKS_PER_THREAD: usize = 64;

/// A subtree to search: its root, cost so far and the moves that lead to it.
struct Task<S, P: Packing> {
    node: Node<S, P>,
    g: u32,
    path: Vec<Dir>,
}

/// Solves `board` with every thread of `pool` cooperating (plain IDA* order within subtrees;
/// node counts include work other threads did after the goal was found).
pub fn solve_parallel<P: Packing, H: Heuristic<P>>(
    pool: &rayon::ThreadPool,
    heuristic: &H,
    table: Option<&BoundTable>,
    min_slack: u32,
    board: Board<P>,
) -> Solution {
    match solve_parallel_with(pool, heuristic, table, min_slack, board, Control::quiet()) {
        Ok(solution) => solution,
        Err(_) => unreachable!("a quiet control is never interrupted"),
    }
}

/// The top of the tree, expanded breadth-first until there are `target` subtrees (IDA*'s
/// pruning: no move back, f ≤ bound), or the goal's path if it is among them.
struct Top<S, P: Packing> {
    layer: Vec<Task<S, P>>,
    /// The least f above the bound among the pruned children.
    next: u32,
    goal: Option<Vec<Dir>>,
}

fn expand_top<P: Packing, H: Heuristic<P>>(
    heuristic: &H,
    root: Node<H::State, P>,
    bound: u32,
    target: usize,
    counters: &mut Counters,
) -> Top<H::State, P> {
    let mut next = u32::MAX;
    let mut layer = vec![Task {
        node: root,
        g: 0,
        path: Vec::new(),
    }];
    while layer.len() < target {
        if let Some(t) = layer.iter().find(|t| t.node.board.is_goal()) {
            let goal = Some(t.path.clone());
            return Top { layer, next, goal };
        }
        let mut deeper = Vec::with_capacity(layer.len() * 3);
        for t in &layer {
            for d in DIRS {
                if Some(d) == t.node.back {
                    continue;
                }
                let Some(child) = t.node.child(heuristic, d) else {
                    continue;
                };
                counters.nodes += 1;
                let f = t.g + 1 + child.h;
                if f > bound {
                    next = next.min(f);
                    continue;
                }
                let mut path = t.path.clone();
                path.push(d);
                deeper.push(Task {
                    node: child,
                    g: t.g + 1,
                    path,
                });
            }
        }
        if deeper.is_empty() {
            break;
        }
        layer = deeper;
    }
    Top {
        layer,
        next,
        goal: None,
    }
}

/// [`solve_parallel`], reporting each iteration to `control` and stopping when it says. Every
/// thread searches with the same bound each iteration; the first goal found ends it.
pub fn solve_parallel_with<P: Packing, H: Heuristic<P>>(
    pool: &rayon::ThreadPool,
    heuristic: &H,
    table: Option<&BoundTable>,
    min_slack: u32,
    board: Board<P>,
    control: Control<'_>,
) -> Result<Solution, Interrupted> {
    let started = std::time::Instant::now();
    let root = Node::root(heuristic, board);
    let mut counters = Counters {
        nodes: 1,
        ..Counters::default()
    };
    let mut bound = initial_bound(&root, table);
    let target = TASKS_PER_THREAD * pool.current_num_threads();
    loop {
        let before = counters.nodes;
        let top = expand_top(heuristic, root, bound, target, &mut counters);
        if let Some(moves) = top.goal {
            return Ok(Solution { moves, counters });
        }
        let abort = AtomicBool::new(false);
        let found: Mutex<Option<Vec<Dir>>> = Mutex::new(None);
        let search = Search {
            heuristic,
            table,
            bound,
            abort: &abort,
            interrupt: control.interrupt,
            min_slack,
        };
        let (least, work) = pool.install(|| {
            top.layer
                .par_iter()
                .map(|task| {
                    let mut walker = Walker {
                        counters: Counters::default(),
                        path: task.path.clone(),
                    };
                    let least = match search.dfs(&mut walker, &task.node, task.g) {
                        Outcome::Found => {
                            abort.store(true, Relaxed);
                            let mut slot = found.lock().unwrap_or_else(|e| e.into_inner());
                            slot.get_or_insert(walker.path);
                            u32::MAX
                        }
                        Outcome::Exceeded(x) => task.g + x,
                        Outcome::Aborted => u32::MAX,
                    };
                    (least, walker.counters)
                })
                .reduce(
                    || (u32::MAX, Counters::default()),
                    |(a, mut ca), (b, cb)| {
                        ca += cb;
                        (a.min(b), ca)
                    },
                )
        });
        counters += work;
        if let Some(moves) = found.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Ok(Solution { moves, counters });
        }
        if control.interrupt.load(Relaxed) {
            return Err(Interrupted {
                proven_bound: bound,
                nodes: counters.nodes,
            });
        }
        (control.on_iteration)(&Iteration {
            bound,
            nodes: counters.nodes - before,
            total_nodes: counters.nodes,
            elapsed: started.elapsed(),
        });
        bound = top.next.min(least);
    }
}
