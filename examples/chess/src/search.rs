//! The search: iterative deepening, principal-variation search with aspiration windows,
//! quiescence search, null-move pruning, late-move reductions, and Lazy SMP (every thread
//! searches the same root and they share only the transposition table and the stop flag; the
//! main thread decides the move).

use crate::eval::{evaluate, has_non_pawn_material, insufficient_material};
use crate::ordering::{is_tactical, MovePicker, OrderingStats};
use crate::time::Deadlines;
use crate::tt::{
    cuts_off, legal_move, score_from_tt, score_to_tt, Bound, TranspositionTable, TtEntry, MATE,
    MATE_BOUND, MAX_PLY,
};
use cozy_chess::{util::display_uci_move, Board, Move, Piece, Rank};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Deepest iteration (the table stores depths up to 119).
pub const MAX_DEPTH: i32 = 100;
const INFINITY: i32 = MATE + 1;
/// Stack of helper threads: 128 plies of recursion need well under 1 MiB.
const HELPER_STACK_BYTES: usize = 16 << 20;
const MAX_PLY_USIZE: usize = MAX_PLY as usize;
/// Threads add their node counts to the shared counter (and check the clock) this often.
const NODE_BATCH: u64 = 512;
/// First aspiration half-window, centipawns; doubled after each failure.
const ASPIRATION_WINDOW: i32 = 25;
/// Reverse futility pruning: a non-PV node this many centipawns per ply above beta is cut.
const RFP_MARGIN: i32 = 90;
const RFP_MAX_DEPTH: i32 = 6;
/// Quiescence delta pruning: a capture that cannot lift the score within this of alpha is skipped.
const DELTA_MARGIN: i32 = 200;

/// What stops a search, besides `stop`.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: i32,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Clock deadlines.
    pub deadlines: Deadlines,
    /// `go infinite`: do not report `bestmove` before `stop`, even after the last iteration.
    pub infinite: bool,
}

/// State shared by the search threads and the UCI thread.
#[derive(Default)]
pub struct Shared {
    /// Set by `stop`/`quit`, by the main thread at its limits, or by a new command.
    pub stop: AtomicBool,
    /// Nodes of all threads (flushed every `NODE_BATCH`).
    pub nodes: AtomicU64,
    /// `go ponder` until `ponderhit`: the clock and node limits are suspended (the clock still
    /// runs from `go`, as Stockfish counts it) and `bestmove` waits, as for `infinite`.
    pub pondering: AtomicBool,
}

/// A search to run: the position, how it was reached, and the shared state.
pub struct Task<'a> {
    /// The root position.
    pub root: Board,
    /// Keys of the game's positions before the root, oldest first (for repetitions).
    pub history: Vec<u64>,
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// Stop flag and node counter.
    pub shared: &'a Shared,
    /// Limits.
    pub limits: Limits,
    /// The root moves to consider (`go searchmoves`); empty means every legal move.
    pub root_moves: Vec<Move>,
    /// Print `info` lines (UCI) or stay silent (bench).
    pub report: bool,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play; `None` when the root has no legal move.
    pub best: Option<Move>,
    /// Its score, centipawns or mate, from the root's side.
    pub score: i32,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes of all threads.
    pub nodes: u64,
}

/// Runs `threads` search threads on `task`; once the main thread has stopped (and, for
/// `infinite`, once `stop` has come) hands its result to `decided` at once, then stops and joins
/// the helpers and returns the result. `decided` runs before the join so that `bestmove` does
/// not wait for descheduled helpers to notice the stop flag (on a loaded machine that took tens
/// of milliseconds and lost games on time at 1+0.01).
pub fn search(task: &Task, threads: usize, decided: impl FnOnce(&Outcome)) -> Outcome {
    task.tt.new_generation();
    std::thread::scope(|scope| {
        for id in 1..threads.max(1) {
            let helper = std::thread::Builder::new().stack_size(HELPER_STACK_BYTES);
            // A helper that cannot start only costs speed; the main thread searches regardless.
            let _ = helper.spawn_scoped(scope, move || Worker::new(task, id).iterate());
        }
        let outcome = Worker::new(task, 0).iterate();
        while (task.limits.infinite || task.shared.pondering.load(Relaxed))
            && !task.shared.stop.load(Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        task.shared.stop.store(true, Relaxed);
        decided(&outcome);
        outcome
    })
}

/// One search thread.
struct Worker<'a> {
    id: usize,
    task: &'a Task<'a>,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    stopped: bool,
    /// Keys of all positions before the current one: game history then search path.
    path: Vec<u64>,
    ordering: OrderingStats,
    /// Move lists, one per ply, reused so a node allocates nothing.
    move_lists: Vec<Vec<(Move, i32)>>,
    /// Quiet moves tried so far, one list per ply (history maluses on a cutoff).
    quiet_lists: Vec<Vec<Move>>,
    /// Triangular principal-variation table.
    pv: Vec<Vec<Move>>,
    /// `reductions[depth][move_number]` for late-move reductions.
    reductions: Vec<[i32; 64]>,
    /// Set when the root raised alpha in the current iteration (its PV move is then usable if
    /// the iteration is cut short).
    root_improved: bool,
}

impl<'a> Worker<'a> {
    fn new(task: &'a Task<'a>, id: usize) -> Self {
        let reductions = (0..64)
            .map(|d: i32| {
                let mut row = [0; 64];
                for (i, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        // 0.75 + ln d · ln i / 2.25: about one ply at (d 6, i 6), three at (20, 40).
                        *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as i32;
                    }
                }
                row
            })
            .collect();
        let mut path = Vec::with_capacity(task.history.len() + MAX_PLY_USIZE);
        path.extend_from_slice(&task.history);
        Worker {
            id,
            task,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            path,
            ordering: OrderingStats::new(MAX_PLY_USIZE),
            move_lists: (0..=MAX_PLY_USIZE)
                .map(|_| Vec::with_capacity(64))
                .collect(),
            quiet_lists: (0..=MAX_PLY_USIZE)
                .map(|_| Vec::with_capacity(64))
                .collect(),
            pv: vec![Vec::new(); MAX_PLY_USIZE + 1],
            reductions,
            root_improved: false,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening with aspiration windows.
    fn iterate(&mut self) -> Outcome {
        let root = self.task.root.clone();
        let mut best = self
            .task
            .root_moves
            .first()
            .copied()
            .or_else(|| first_legal_move(&root));
        let mut best_score = 0;
        let mut completed = 0;
        if best.is_none() {
            best_score = if root.checkers().is_empty() { 0 } else { -MATE };
        }
        let max_depth = self.task.limits.depth.clamp(1, MAX_DEPTH);
        let mut depth = 1;
        while best.is_some() && depth <= max_depth {
            // Lazy SMP: odd helpers run one ply ahead, so threads spread over two depths.
            let target = if self.id % 2 == 1 {
                (depth + 1).min(max_depth)
            } else {
                depth
            };
            self.root_improved = false;
            let score = self.aspiration(&root, target, best_score);
            if self.stopped {
                if self.root_improved {
                    best = self.pv[0].first().copied().or(best);
                }
                break;
            }
            best = self.pv[0].first().copied().or(best);
            best_score = score;
            completed = target;
            if self.is_main() {
                self.report(&root, target, score);
                if self.task.limits.deadlines.soft_expired()
                    && !self.task.shared.pondering.load(Relaxed)
                {
                    break;
                }
            }
            depth += 1;
        }
        self.flush_nodes();
        if self.is_main() && self.task.report && completed == 0 {
            // Stopped before depth 1 completed: still say something about the move.
            self.report(&root, 0, best_score);
        }
        Outcome {
            best,
            score: best_score,
            depth: completed,
            nodes: self.task.shared.nodes.load(Relaxed),
        }
    }

    fn aspiration(&mut self, root: &Board, depth: i32, previous: i32) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// Counts a node; every `NODE_BATCH` nodes publishes the count and checks the limits.
    #[inline]
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.unflushed += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.unflushed >= NODE_BATCH {
            self.flush_nodes();
            if self.is_main() && !self.task.shared.pondering.load(Relaxed) {
                let limits = &self.task.limits;
                let total = self.task.shared.nodes.load(Relaxed);
                if limits.deadlines.hard_expired() || limits.nodes.is_some_and(|n| total >= n) {
                    self.task.shared.stop.store(true, Relaxed);
                }
            }
        }
        if self.task.shared.stop.load(Relaxed) {
            self.stopped = true;
        }
    }

    fn flush_nodes(&mut self) {
        self.task.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
    }

    /// Fifty-move rule, insufficient material, or a repetition of a position of the game or of
    /// the search path (one earlier occurrence suffices inside the search).
    fn is_draw(&self, board: &Board) -> bool {
        let clock = board.halfmove_clock() as usize;
        if clock >= 100 || insufficient_material(board) {
            return true;
        }
        let key = board.hash();
        let reach = clock.min(self.path.len());
        self.path[self.path.len() - reach..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    fn negamax(
        &mut self,
        board: &Board,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(board, alpha, beta, ply);
        }
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        if !root {
            if self.is_draw(board) {
                return 0;
            }
            if ply >= MAX_PLY_USIZE - 1 {
                return evaluate(board);
            }
            // Mate distance pruning: no line from here beats a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = board.hash();
        let entry = self.task.tt.probe(key);
        let mut tt_move = None;
        if let Some(entry) = &entry {
            tt_move = legal_move(entry, board);
            let score = score_from_tt(entry.score, ply);
            if !pv_node && cuts_off(entry, score, depth, alpha, beta) {
                return score;
            }
        }
        let in_check = !board.checkers().is_empty();
        let static_eval = entry.map_or_else(|| evaluate(board), |e| i32::from(e.eval));

        if !pv_node && !in_check {
            if depth <= RFP_MAX_DEPTH
                && static_eval - RFP_MARGIN * depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            if allow_null && depth >= 3 && static_eval >= beta && has_non_pawn_material(board) {
                if let Some(mut child) = board.null_move() {
                    // The null move breaks repetition chains: nothing before it may repeat.
                    child.set_halfmove_clock(0);
                    self.task.tt.prefetch(child.hash());
                    let r = 3 + depth / 4;
                    self.path.push(key);
                    let score =
                        -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.path.pop();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        let only = if root { &self.task.root_moves[..] } else { &[] };
        board.generate_moves(|piece_moves| {
            for mv in piece_moves {
                if only.is_empty() || only.contains(&mv) {
                    moves.push((mv, self.ordering.score(board, mv, tt_move, ply)));
                }
            }
            false
        });
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried = std::mem::take(&mut self.quiet_lists[ply]);
        quiets_tried.clear();
        let original_alpha = alpha;
        for (index, mv) in MovePicker::new(&mut moves).enumerate() {
            let tactical = is_tactical(board, mv);
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.task.tt.prefetch(child.hash());
            let gives_check = !child.checkers().is_empty();
            let new_depth = depth - 1 + i32::from(gives_check);

            self.path.push(key);
            let score = if index == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let reduction =
                    if depth >= 3 && index >= 3 && !tactical && !in_check && !gives_check {
                        (self.reductions[depth.min(63) as usize][index.min(63)]
                            - i32::from(pv_node))
                        .clamp(0, new_depth - 1)
                    } else {
                        0
                    };
                let mut score = -self.negamax(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                score
            };
            self.path.pop();
            if self.stopped {
                self.move_lists[ply] = moves;
                self.quiet_lists[ply] = quiets_tried;
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if root {
                        self.root_improved = true;
                    }
                    if score >= beta {
                        if !tactical {
                            self.ordering.reward(board, mv, ply, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !tactical {
                quiets_tried.push(mv);
            }
        }
        self.move_lists[ply] = moves;
        self.quiet_lists[ply] = quiets_tried;

        let bound = Bound::of_result(best_score, original_alpha, alpha, beta);
        self.task.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: score_to_tt(best_score, ply),
                eval: static_eval.clamp(-MATE_BOUND, MATE_BOUND) as i16,
                depth: depth.min(MAX_DEPTH) as i8,
                bound,
            },
        );
        best_score
    }

    /// Captures and promotions until the position is quiet; all evasions when in check.
    /// Results are stored at depth 0.
    fn quiescence(&mut self, board: &Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY_USIZE - 1 {
            return evaluate(board);
        }
        if insufficient_material(board) {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = board.hash();
        let entry = self.task.tt.probe(key);
        let mut tt_move = None;
        if let Some(entry) = &entry {
            let score = score_from_tt(entry.score, ply);
            if !pv_node && cuts_off(entry, score, 0, alpha, beta) {
                return score;
            }
            tt_move = legal_move(entry, board);
        }
        let in_check = !board.checkers().is_empty();
        let static_eval = entry.map_or_else(|| evaluate(board), |e| i32::from(e.eval));
        let original_alpha = alpha;
        let mut best_score = if in_check {
            -MATE + ply as i32
        } else {
            static_eval
        };
        if best_score >= beta {
            return best_score;
        }
        alpha = alpha.max(best_score);

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        let enemies = board.colors(!board.side_to_move());
        // Out of check only captures and promotions: mask the targets before expanding moves
        // (pawns may also go to the promotion ranks and, capturing en passant, to empty squares).
        let promotion_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
        board.generate_moves(|mut piece_moves| {
            if !in_check {
                let pawn = piece_moves.piece == Piece::Pawn;
                let diagonal = !piece_moves.from.file().bitboard();
                piece_moves.to &= if pawn {
                    enemies | promotion_ranks | diagonal
                } else {
                    enemies
                };
            }
            for mv in piece_moves {
                if in_check || matches!(mv.promotion, None | Some(Piece::Queen)) {
                    moves.push((mv, self.ordering.score(board, mv, tt_move, ply)));
                }
            }
            false
        });
        let mut best_move = None;
        for mv in MovePicker::new(&mut moves) {
            if !in_check && mv.promotion.is_none() {
                let gain = board.piece_on(mv.to).map_or(100, crate::eval::piece_value);
                if static_eval + gain + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.task.tt.prefetch(child.hash());
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                self.move_lists[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        let bound = Bound::of_result(best_score, original_alpha, alpha, beta);
        self.task.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: score_to_tt(best_score, ply),
                eval: static_eval.clamp(-MATE_BOUND, MATE_BOUND) as i16,
                depth: 0,
                bound,
            },
        );
        best_score
    }

    /// One UCI `info` line for a completed iteration.
    fn report(&self, root: &Board, depth: i32, score: i32) {
        if !self.task.report {
            return;
        }
        let nodes = self.task.shared.nodes.load(Relaxed) + self.unflushed;
        let elapsed = self.task.limits.deadlines.elapsed();
        let ms = elapsed.as_millis().max(1) as u64;
        let nps = nodes * 1000 / ms;
        println!(
            "info depth {depth} seldepth {} multipv 1 score {} nodes {nodes} nps {nps} hashfull {} time {} pv {}",
            self.seldepth,
            uci_score(score),
            self.task.tt.hashfull(),
            elapsed.as_millis(),
            pv_string(root, &self.pv[0]),
        );
    }
}

/// Any legal move, so a search stopped at once still answers with one.
fn first_legal_move(board: &Board) -> Option<Move> {
    let mut first = None;
    board.generate_moves(|moves| {
        first = moves.into_iter().next();
        first.is_some()
    });
    first
}

/// `cp N` or `mate N` (moves, negative when being mated).
pub fn uci_score(score: i32) -> String {
    if score > MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        // Mated at the root itself prints "mate 0", as Stockfish does.
        format!("mate {}", -((MATE + score) / 2))
    } else {
        format!("cp {score}")
    }
}

/// The moves of a PV in UCI notation, stopping at the first move that is not legal (never
/// expected; a safeguard for the display only).
pub fn pv_string(root: &Board, pv: &[Move]) -> String {
    let mut board = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !board.is_legal(mv) {
            break;
        }
        out.push(display_uci_move(&board, mv).to_string());
        board.play_unchecked(mv);
    }
    out.join(" ")
}
