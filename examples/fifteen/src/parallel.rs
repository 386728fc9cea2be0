//! Several threads solving one instance together: each iteration expands the top of the tree
//! breadth-first until there are enough subtrees to keep every thread busy, then every thread
//! of rayon's pool takes the next subtree in the sequential search's order until none is left,
//! all sharing the table. The first thread to reach the goal raises a flag the
//! others see at their next node.
//!
//! Optimal whatever the interleaving: every bound in the table is a true lower bound (see
//! `ida.rs`), so the iteration with bound = the optimal cost C* is reached, and any goal found
//! within a bound that is at most C* costs exactly C*.

use crate::board::{Board, Dir, Packing, DIRS};
use crate::heuristic::Heuristic;
use crate::ida::{
    initial_bound, Control, Counters, Interrupted, Iteration, Node, Outcome, Pruning, Search,
    Solution, Walker,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Subtrees per thread: enough that the subtree taken last is small, so no thread waits long
/// for the others at the end of an iteration. On Korf and Taylor's #2 (2 threads,
/// `--cycles 14`) 64 a thread searched 940 M nodes in 47 s, 1024 a thread 897 M in 41 s (one
/// thread: 887 M); the breadth-first top costs a few thousand nodes an iteration.
const TASKS_PER_THREAD: usize = 1024;

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
    pruning: Pruning<'_>,
    board: Board<P>,
) -> Solution {
    match solve_parallel_with(pool, heuristic, pruning, board, Control::quiet()) {
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
    pruning: &Pruning<'_>,
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
                let Some(cycle) = pruning.cycle_step(&t.node, d) else {
                    continue;
                };
                let Some(child) = t.node.child(heuristic, d, cycle) else {
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
    pruning: Pruning<'_>,
    board: Board<P>,
    control: Control<'_>,
) -> Result<Solution, Interrupted> {
    let started = std::time::Instant::now();
    let root = Node::root(heuristic, board);
    let mut counters = Counters {
        nodes: 1,
        ..Counters::default()
    };
    let mut bound = initial_bound(&root, pruning.table);
    let target = TASKS_PER_THREAD * pool.current_num_threads();
    loop {
        let before = counters.nodes;
        let top = expand_top(heuristic, &pruning, root, bound, target, &mut counters);
        if let Some(moves) = top.goal {
            return Ok(Solution { moves, counters });
        }
        let abort = AtomicBool::new(false);
        let found: Mutex<Option<Vec<Dir>>> = Mutex::new(None);
        let search = Search {
            heuristic,
            pruning,
            bound,
            abort: &abort,
            interrupt: control.interrupt,
        };
        // Tasks are taken in the order the sequential search would visit them, so that the
        // last iteration reaches the goal about where one thread would, sooner by the threads.
        let taken = AtomicUsize::new(0);
        let per_thread = pool.broadcast(|_| {
            let mut least = u32::MAX;
            let mut counters = Counters::default();
            while let Some(task) = top.layer.get(taken.fetch_add(1, Relaxed)) {
                let mut walker = Walker {
                    counters: Counters::default(),
                    path: task.path.clone(),
                };
                let outcome = search.dfs(&mut walker, &task.node, task.g);
                counters += walker.counters;
                match outcome {
                    Outcome::Found => {
                        abort.store(true, Relaxed);
                        let mut slot = found.lock().unwrap_or_else(|e| e.into_inner());
                        slot.get_or_insert(walker.path);
                        break;
                    }
                    Outcome::Exceeded(x) => least = least.min(task.g + x),
                    Outcome::Aborted => break,
                }
            }
            (least, counters)
        });
        let mut least = u32::MAX;
        let mut work = Counters::default();
        for (l, c) in per_thread {
            least = least.min(l);
            work += c;
        }
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
