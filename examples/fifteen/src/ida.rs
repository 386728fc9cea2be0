//! IDA* (Korf 1985) with a transposition table of lower bounds (Reinefeld & Marsland 1994),
//! kept optimal.
//!
//! # What the table holds, and why every value is a true lower bound
//!
//! Naive IDA*+TT stores the value backed up at a node as a bound on its distance to the goal.
//! But IDA* never tries the move back to the parent, so that value only bounds the paths that
//! *do not start by going back*; read at the same board reached from another neighbour, it can
//! exceed the true distance and cut off the optimal path (Akagi, Kishimoto & Fukunaga, SoCS 2010).
//!
//! So an entry ([`MoveBounds`]) keeps one bound per first move of the blank: `first[d]` bounds
//! the cost of every *simple* path from the board to the goal whose first move is `d`
//! (optimal paths are simple). A search of the child `c` through move `d` explores every path from
//! `c` that does not start by coming back, a superset of the simple paths from the parent through
//! `c`; so `1 + (value backed up at c)` is a valid `first[d]`, and so is `1 + h(c)`. The move back
//! to the parent, never searched, gets `1 + h(parent)`: any path starting with it costs at least
//! that. Off-board moves get "infinity". A reader arriving by move `m` uses
//! `min over d ≠ back(m) of first[d]`, which bounds exactly the paths its own search will consider
//! — the same set whoever stored the entry and from wherever — and a search with no parent (the
//! root) uses the minimum over all four. Bounds of one board from different stores are merged
//! component-wise by `max`, which keeps each a bound. Entries are facts about boards, not about
//! a search, so they stay valid across iterations, threads and instances.
//!
//! A search that stops early (goal found, or another thread found it) stores nothing: its partial
//! minimum bounds nothing.

use crate::board::{Board, Dir, Packing, DIRS};
use crate::cycles::{MoveAutomaton, START};
use crate::heuristic::Heuristic;
use searchcache::{Pack64, SearchCache};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// "No path": the bound of a move off the board.
const INFINITE: u8 = u8::MAX;

/// Slack (bound − g − h) below which a node neither probes nor stores: the subtree of a node
/// grows with its slack, not with its depth, and below this it costs less to search than a
/// probe's cache miss. Slack is always even (every heuristic has the parity of the true
/// distance), so the choices are 0, 2, 4, …; 2 searches more nodes than 0 in less time (0.35×
/// plain IDA*'s time against 0.63×: BENCHMARKS.md, "Fifteen puzzle"). `--table-slack 0` is
/// the table at full strength (fewest nodes).
pub const DEFAULT_TABLE_SLACK: u32 = 2;

/// Per first move of the blank (up, left, right, down): a lower bound on the cost of the simple
/// paths from the board to the goal that start with that move; 0 when unknown, 255 when the move
/// leaves the board. `depth` is the remaining depth of the search that stored it (its worth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// Bound per first move.
    pub first: [u8; 4],
    /// Slack (bound − g − h) of the storing search: its subtree grows with it, so entries with
    /// more slack saved more work and are kept longer.
    pub depth: u8,
}

impl MoveBounds {
    /// The bound on the paths a search arriving by the reverse of `back` explores: the minimum
    /// over every first move except `back` (`None`: over all moves).
    #[inline]
    pub fn excluding(&self, back: Option<Dir>) -> u32 {
        let mut m = INFINITE;
        for d in DIRS {
            if Some(d) != back {
                m = m.min(self.first[d as usize]);
            }
        }
        u32::from(m)
    }
}

impl Pack64 for MoveBounds {
    const BITS: u32 = 40;

    #[inline]
    fn pack(self) -> u64 {
        u64::from(u32::from_le_bytes(self.first)) | u64::from(self.depth) << 32
    }

    #[inline]
    fn unpack(bits: u64) -> Self {
        MoveBounds {
            first: (bits as u32).to_le_bytes(),
            depth: (bits >> 32) as u8,
        }
    }

    #[inline]
    fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    /// Both are bounds on the same quantities: the larger of each is too.
    #[inline]
    fn merge(self, old: Self, _age: u8) -> Option<Self> {
        let mut first = self.first;
        for (f, o) in first.iter_mut().zip(old.first) {
            *f = (*f).max(o);
        }
        Some(MoveBounds {
            first,
            depth: self.depth.max(old.depth),
        })
    }
}

/// The transposition table of the solver.
pub type BoundTable = SearchCache<MoveBounds>;

/// A board in the search, with its heuristic.
#[derive(Clone, Copy, Debug)]
pub struct Node<S, P: Packing = u64> {
    /// The board.
    pub board: Board<P>,
    /// The heuristic's incremental state.
    pub state: S,
    /// The heuristic value.
    pub h: u32,
    /// The move that leads back to the parent (pruned), `None` at the root.
    pub back: Option<Dir>,
    /// The parent's heuristic value (its bound for the move back).
    pub parent_h: u32,
    /// The short-cycle automaton's state after the moves that led here ([`START`] without
    /// one).
    pub cycle: u32,
}

impl<S: Copy, P: Packing> Node<S, P> {
    /// The root of a search.
    pub fn root<H: Heuristic<P, State = S>>(heuristic: &H, board: Board<P>) -> Node<S, P> {
        let (state, h) = heuristic.init(&board);
        Node {
            board,
            state,
            h,
            back: None,
            parent_h: 0,
            cycle: START,
        }
    }

    /// The table key of this node: the board's, salted by the automaton state (a search in
    /// another state explores other paths, so its bounds are other facts); the board's own key
    /// in [`START`].
    #[inline]
    pub fn key(&self) -> u64 {
        salted_key(self.board.key(), self.cycle)
    }

    /// The child reached by moving the blank `d`, in automaton state `cycle`, or `None` off
    /// the board.
    #[inline]
    pub fn child<H: Heuristic<P, State = S>>(
        &self,
        heuristic: &H,
        d: Dir,
        cycle: u32,
    ) -> Option<Node<S, P>> {
        Some(self.begin_child(heuristic, d, cycle)?.finish(heuristic))
    }

    /// The first step of [`child`](Self::child): the board and the heuristic's pending update
    /// (which may have started loading the lines the child's value lives in).
    #[inline]
    pub fn begin_child<H: Heuristic<P, State = S>>(
        &self,
        heuristic: &H,
        d: Dir,
        cycle: u32,
    ) -> Option<PendingNode<H::Pending, P>> {
        let to = self.board.target(d)?;
        let mut board = self.board;
        let tile = board.slide(to);
        let pending = heuristic.begin(
            self.state,
            &self.board,
            &board,
            tile,
            to,
            self.board.blank(),
        );
        Some(PendingNode {
            board,
            pending,
            back: d.opposite(),
            parent_h: self.h,
            cycle,
        })
    }
}

/// A board's key salted by an automaton state: the key itself in [`START`], else as distinct
/// from every other pair's as random 64-bit values are.
#[inline]
fn salted_key(board_key: u64, cycle: u32) -> u64 {
    if cycle == START {
        board_key
    } else {
        board_key ^ searchcache::mix64(u64::from(cycle))
    }
}

/// A child whose heuristic value is not read yet.
#[derive(Clone, Copy, Debug)]
pub struct PendingNode<Q, P: Packing = u64> {
    /// The board.
    pub board: Board<P>,
    pending: Q,
    back: Dir,
    parent_h: u32,
    cycle: u32,
}

impl<Q: Copy, P: Packing> PendingNode<Q, P> {
    /// The table key the child will have ([`Node::key`]).
    #[inline]
    pub fn key(&self) -> u64 {
        salted_key(self.board.key(), self.cycle)
    }

    /// The child, its value read.
    #[inline]
    pub fn finish<H: Heuristic<P, Pending = Q>>(self, heuristic: &H) -> Node<H::State, P> {
        let (state, h) = heuristic.finish(self.pending);
        Node {
            board: self.board,
            state,
            h,
            back: Some(self.back),
            parent_h: self.parent_h,
            cycle: self.cycle,
        }
    }
}

/// What one thread counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Children generated (cut off or not); the caller adds 1 for the root.
    pub nodes: u64,
    /// Table probes.
    pub probes: u64,
    /// Probes that found an entry.
    pub hits: u64,
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.nodes += o.nodes;
        self.probes += o.probes;
        self.hits += o.hits;
    }
}

/// How a depth-first search below a node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The goal; the walker's path leads to it.
    Found,
    /// No goal within the bound; a lower bound on the remaining cost of the paths searched,
    /// greater than the remaining budget.
    Exceeded(u32),
    /// Another thread found the goal.
    Aborted,
}

/// What prunes a search beside the heuristic and IDA*'s bound: the table of lower bounds and
/// the short-cycle automaton, either, both or neither.
#[derive(Clone, Copy, Default)]
pub struct Pruning<'a> {
    /// The shared table, `None` for plain IDA*.
    pub table: Option<&'a BoundTable>,
    /// Nodes with less slack (bound − g − h) neither probe nor store.
    pub min_slack: u32,
    /// Moves that complete a forbidden string are not searched (`cycles.rs`).
    pub cycles: Option<&'a MoveAutomaton>,
}

impl<'a> Pruning<'a> {
    /// The table alone, probed at slack `min_slack` and above.
    pub fn table(table: Option<&'a BoundTable>, min_slack: u32) -> Pruning<'a> {
        Pruning {
            table,
            min_slack,
            cycles: None,
        }
    }

    /// The automaton's state after `d` from `node` (`START` without one), or `None` if it
    /// forbids `d`.
    #[inline]
    pub fn cycle_step<S, P: Packing>(&self, node: &Node<S, P>, d: Dir) -> Option<u32> {
        match self.cycles {
            Some(automaton) => automaton.step(node.cycle, d),
            None => Some(START),
        }
    }
}

/// One iteration's depth-first search: the bound and what it shares.
pub struct Search<'a, H> {
    /// The heuristic.
    pub heuristic: &'a H,
    /// The table and the automaton.
    pub pruning: Pruning<'a>,
    /// The iteration's cost bound.
    pub bound: u32,
    /// Set by the thread that finds the goal.
    pub abort: &'a AtomicBool,
    /// Set from outside (Ctrl-C) to stop the search: it then ends as [`Outcome::Aborted`].
    pub interrupt: &'a AtomicBool,
}

/// One thread's walk: its counters and the moves from the search root to where it is.
#[derive(Debug, Default)]
pub struct Walker {
    /// What it counted.
    pub counters: Counters,
    /// The moves from the root of the whole search.
    pub path: Vec<Dir>,
}

impl<H> Search<'_, H> {
    /// Searches below `node`, reached at cost `g`, with the goal test on entering it.
    pub fn dfs<P: Packing>(
        &self,
        walker: &mut Walker,
        node: &Node<<H as Heuristic<P>>::State, P>,
        g: u32,
    ) -> Outcome
    where
        H: Heuristic<P>,
    {
        // Every heuristic here is 0 at the goal; the board compare runs only then.
        if node.h == 0 && node.board.is_goal() {
            return Outcome::Found;
        }
        if self.abort.load(Relaxed) || self.interrupt.load(Relaxed) {
            return Outcome::Aborted;
        }
        let remaining = self.bound - g;
        let (table, min_slack) = (self.pruning.table, self.pruning.min_slack);
        let mut first = [INFINITE; 4];
        let mut least = u32::from(INFINITE);
        // Every child's board and heuristic lines first, then their table buckets, so that all
        // those loads are in flight together; then the values. A child's slack is at most its
        // parent's when h drops by at most 1 a move (a hint only: probes check their own slack).
        let prefetch = table.filter(|_| remaining - node.h >= min_slack);
        let mut pending = [None; 4];
        for d in DIRS {
            if Some(d) == node.back {
                continue;
            }
            let Some(cycle) = self.pruning.cycle_step(node, d) else {
                continue;
            };
            pending[d as usize] = node.begin_child(self.heuristic, d, cycle);
            if let (Some(table), Some(p)) = (prefetch, &pending[d as usize]) {
                table.prefetch(p.key());
            }
        }
        let mut children = [None; 4];
        for d in DIRS {
            if let Some(p) = pending[d as usize] {
                children[d as usize] = Some(p.finish(self.heuristic));
            }
        }
        for d in DIRS {
            let Some(child) = children[d as usize] else {
                continue;
            };
            walker.counters.nodes += 1;
            let mut bound = child.h;
            if child.h < remaining && remaining - 1 - child.h >= min_slack {
                if let Some(table) = table {
                    walker.counters.probes += 1;
                    if let Some(entry) = table.probe(child.key()) {
                        walker.counters.hits += 1;
                        bound = bound.max(entry.excluding(child.back));
                    }
                }
            }
            if bound < remaining {
                walker.path.push(d);
                match self.dfs(walker, &child, g + 1) {
                    Outcome::Exceeded(x) => bound = bound.max(x),
                    stop => return stop,
                }
                walker.path.pop();
            }
            let through = (1 + bound).min(u32::from(INFINITE) - 1);
            first[d as usize] = through as u8;
            least = least.min(through);
        }
        let slack = remaining - node.h;
        if slack >= min_slack {
            if let Some(table) = table {
                if let Some(back) = node.back {
                    first[back as usize] = (1 + node.parent_h).min(u32::from(INFINITE) - 1) as u8;
                }
                table.store(
                    node.key(),
                    MoveBounds {
                        first,
                        depth: slack.min(255) as u8,
                    },
                );
            }
        }
        Outcome::Exceeded(least)
    }
}

/// A solved instance.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// The blank's moves from the start to the goal (optimal).
    pub moves: Vec<Dir>,
    /// Nodes (1 for the root + children generated), probes and hits over all iterations.
    pub counters: Counters,
}

/// The first bound: the heuristic, raised by the table's entry for the root if there is one.
pub fn initial_bound<S: Copy, P: Packing>(node: &Node<S, P>, table: Option<&BoundTable>) -> u32 {
    let stored = table
        .and_then(|t| t.probe(node.key()))
        .map_or(0, |e| e.excluding(None));
    node.h.max(stored)
}

/// One finished IDA* iteration, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's cost bound (no solution costs this or less, unless it was found).
    pub bound: u32,
    /// Nodes generated in this iteration.
    pub nodes: u64,
    /// Nodes over all iterations so far.
    pub total_nodes: u64,
    /// Time since the solve started.
    pub elapsed: std::time::Duration,
}

/// What a caller watches and controls of one solve.
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Set from outside (Ctrl-C): the solve stops within a node and returns [`Interrupted`].
    pub interrupt: &'a AtomicBool,
    /// Called after every iteration that ends without the goal.
    pub on_iteration: &'a (dyn Fn(&Iteration) + Sync),
}

static NEVER: AtomicBool = AtomicBool::new(false);

fn ignore(_: &Iteration) {}

impl Control<'static> {
    /// No interruption, no reports.
    pub fn quiet() -> Control<'static> {
        Control {
            interrupt: &NEVER,
            on_iteration: &ignore,
        }
    }
}

/// A solve stopped from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// Every solution costs at least this: every smaller bound's iteration finished without
    /// one.
    pub proven_bound: u32,
    /// Nodes searched, over all iterations.
    pub nodes: u64,
}

/// Solves `board` on the calling thread: plain IDA* without a table counts exactly as
/// `korf100.tsv`'s header says.
pub fn solve_sequential<P: Packing, H: Heuristic<P>>(
    heuristic: &H,
    pruning: Pruning<'_>,
    board: Board<P>,
) -> Solution {
    match solve_sequential_with(heuristic, pruning, board, Control::quiet()) {
        Ok(solution) => solution,
        Err(_) => unreachable!("a quiet control is never interrupted"),
    }
}

/// [`solve_sequential`], reporting each iteration to `control` and stopping when it says.
pub fn solve_sequential_with<P: Packing, H: Heuristic<P>>(
    heuristic: &H,
    pruning: Pruning<'_>,
    board: Board<P>,
    control: Control<'_>,
) -> Result<Solution, Interrupted> {
    let started = std::time::Instant::now();
    let root = Node::root(heuristic, board);
    let abort = AtomicBool::new(false);
    let mut walker = Walker::default();
    walker.counters.nodes = 1;
    let mut bound = initial_bound(&root, pruning.table);
    loop {
        let search = Search {
            heuristic,
            pruning,
            bound,
            abort: &abort,
            interrupt: control.interrupt,
        };
        let before = walker.counters.nodes;
        match search.dfs(&mut walker, &root, 0) {
            Outcome::Found => {
                return Ok(Solution {
                    moves: walker.path,
                    counters: walker.counters,
                });
            }
            Outcome::Exceeded(next) => {
                (control.on_iteration)(&Iteration {
                    bound,
                    nodes: walker.counters.nodes - before,
                    total_nodes: walker.counters.nodes,
                    elapsed: started.elapsed(),
                });
                bound = next;
            }
            Outcome::Aborted => {
                return Err(Interrupted {
                    proven_bound: bound,
                    nodes: walker.counters.nodes,
                })
            }
        }
    }
}
