//! One search thread's tree search: principal-variation search with the table's move, score and
//! eval at every node, reverse futility pruning, null move, internal iterative
//! reduction, futility, late-move, history and static-exchange pruning, late-move reductions
//! adjusted by history, check extensions; and quiescence search over the captures that do not
//! lose material.

use crate::correction::Correction;
use crate::draws::insufficient_material;
use crate::eval::evaluate;
use crate::info::uci_move;
use crate::ordering::{
    is_history_score, is_losing_capture, is_tactical, Continuation, MovePicker, OrderingStats,
    PlayedMove, Tried,
};
use crate::say;
use crate::search::task::{Task, MAX_DEPTH};
use crate::see::{piece_value, see_at_least};
use crate::tt::{
    cuts_off, legal_move, score_from_tt, score_to_tt, Bound, TtEntry, MATE, MATE_BOUND, MAX_PLY,
};
use cozy_chess::{Board, Move, Piece, Rank};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// Larger than any score.
pub(crate) const INFINITY: i32 = MATE + 1;
pub(crate) const MAX_PLY_USIZE: usize = MAX_PLY as usize;
/// Threads add their node counts to the shared counter (and check the clock) this often.
const NODE_BATCH: u64 = 512;
/// Reverse futility pruning: a non-PV node this many centipawns per ply above beta is cut.
const RFP_MARGIN: i32 = 80;
const RFP_MAX_DEPTH: i32 = 8;
/// Futility pruning: quiet moves are skipped when the eval plus this margin (base + per ply)
/// cannot reach alpha.
const FUTILITY_BASE: i32 = 100;
const FUTILITY_PER_DEPTH: i32 = 90;
const FUTILITY_MAX_DEPTH: i32 = 6;
/// Late-move pruning at this depth or less (`Node::lmp_limit`).
const LMP_MAX_DEPTH: i32 = 8;
/// Static-exchange pruning below this depth: quiets losing more than `QUIET_SEE · depth²`,
/// captures losing more than `CAPTURE_SEE · depth`.
const SEE_MAX_DEPTH: i32 = 8;
const QUIET_SEE: i32 = 25;
const CAPTURE_SEE: i32 = 90;
/// A late move's reduction shrinks (grows) one ply per this much history above (below) zero.
/// Over the bench's searches the quiet moves reaching the reduction had history from -1,550
/// (5th percentile) to +1,150 (95th), median 0: so only the tails move.
const HISTORY_REDUCTION_UNIT: i32 = 1024;
/// History pruning: at this depth or less, a quiet move whose history is below
/// `-HISTORY_PRUNE_PER_DEPTH · depth` is skipped (at depth 1, between 5 % and 25 % of the
/// quiet moves of the bench's distribution above).
const HISTORY_PRUNE_MAX_DEPTH: i32 = 3;
const HISTORY_PRUNE_PER_DEPTH: i32 = 1024;
/// Internal iterative reduction: a node this deep without a table move is searched one ply less.
const IIR_MIN_DEPTH: i32 = 4;
/// Quiescence delta pruning: a capture that cannot lift the score within this of alpha is skipped.
const DELTA_MARGIN: i32 = 200;
/// `info currmove` lines start after this long, as Stockfish's do (a GUI shows them when a
/// depth takes a while; earlier they would only flood the pipe).
pub(crate) const CURRMOVE_AFTER: Duration = Duration::from_millis(1000);
/// No static evaluation (the side to move is in check).
const NO_EVAL: i32 = i32::MIN;

/// What a node of the main search knows before its moves, shared by its pruning, its move loop
/// and its table store.
struct Node {
    ply: usize,
    /// The depth, less a ply for internal iterative reduction.
    depth: i32,
    pv_node: bool,
    in_check: bool,
    /// The static eval is above the one two plies before (the same side's).
    improving: bool,
    /// The evaluation as the table keeps it, uncorrected.
    raw_eval: i32,
    /// The evaluation corrected by this thread's pawn-structure history.
    static_eval: i32,
    /// The corrected evaluation, or the table's score where its bound says it is better.
    eval: i32,
    key: u64,
}

impl Node {
    fn is_root(&self) -> bool {
        self.ply == 0
    }

    /// Late-move pruning: quiet moves after the first `(3 + depth²) / (2 − improving)` are
    /// skipped.
    fn lmp_limit(&self) -> usize {
        ((3 + self.depth * self.depth) / (2 - i32::from(self.improving))) as usize
    }
}

/// A move of the move loop and what its ordering and playing it said.
struct MoveFacts {
    mv: Move,
    /// Its ordering score (a history score for quiet moves, a band for the others).
    order: i32,
    /// A capture or promotion.
    tactical: bool,
    gives_check: bool,
}

/// What the move loop does with a move before searching it.
enum Pruning {
    Search,
    Skip,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

/// The corrected static eval, or the table's score where its bound says it is the better
/// estimate (not in check, not a mate score).
fn refined_eval(entry: Option<&TtEntry>, static_eval: i32, in_check: bool) -> i32 {
    match entry {
        Some(e) if !in_check && i32::from(e.score).abs() < MATE_BOUND => {
            let score = i32::from(e.score);
            let better = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score > static_eval,
                Bound::Upper => score < static_eval,
            };
            if better {
                score
            } else {
                static_eval
            }
        }
        _ => static_eval,
    }
}

/// One search thread.
pub(crate) struct Worker<'a> {
    pub(crate) id: usize,
    pub(crate) task: &'a Task<'a>,
    pub(crate) nodes: u64,
    unflushed: u64,
    /// Evaluation-cache probes and hits not yet added to `Shared`'s counters.
    eval_probes: u64,
    eval_hits: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    /// Keys of all positions before the current one: game history then search path.
    path: Vec<u64>,
    ordering: OrderingStats,
    correction: Correction,
    /// Move lists, one per ply, reused so a node allocates nothing.
    move_lists: Vec<Vec<(Move, i32)>>,
    /// Quiet moves tried so far, one list per ply (history maluses on a cutoff).
    quiet_lists: Vec<Vec<Move>>,
    /// Captures tried so far, one list per ply (capture-history maluses on a cutoff).
    capture_lists: Vec<Vec<Move>>,
    /// Triangular principal-variation table.
    pub(crate) pv: Vec<Vec<Move>>,
    /// Static evaluation per ply of the current path (`NO_EVAL` in check), for "improving".
    evals: Vec<i32>,
    /// The move played at each ply of the current path (`None` for a null move), for
    /// continuation history.
    played: Vec<Option<PlayedMove>>,
    /// `reductions[depth][move_number]` for late-move reductions.
    reductions: Vec<[i32; 64]>,
    /// Root moves this iteration may play: `go searchmoves`, less the moves earlier MultiPV
    /// lines of this depth took.
    pub(crate) root_moves: Vec<Move>,
    /// Whether `root_moves` is narrower than every legal move (then the root is not stored:
    /// its result is not the position's).
    pub(crate) root_restricted: bool,
    /// The iteration in progress (its depth, for `currmove` lines and the depth-1 guarantee).
    pub(crate) iteration: i32,
    /// Set when the root raised alpha in the current iteration (its PV move is then usable if
    /// the iteration is cut short).
    pub(crate) root_improved: bool,
    /// Nodes this thread spent below each root move in the current iteration (time management).
    pub(crate) root_effort: Vec<(Move, u64)>,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(task: &'a Task<'a>, id: usize, root_moves: Vec<Move>) -> Self {
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
            eval_probes: 0,
            eval_hits: 0,
            seldepth: 0,
            stopped: false,
            path,
            ordering: OrderingStats::new(MAX_PLY_USIZE),
            correction: Correction::default(),
            move_lists: (0..=MAX_PLY_USIZE)
                .map(|_| Vec::with_capacity(64))
                .collect(),
            quiet_lists: (0..=MAX_PLY_USIZE)
                .map(|_| Vec::with_capacity(64))
                .collect(),
            capture_lists: (0..=MAX_PLY_USIZE)
                .map(|_| Vec::with_capacity(32))
                .collect(),
            pv: vec![Vec::new(); MAX_PLY_USIZE + 1],
            evals: vec![NO_EVAL; MAX_PLY_USIZE + 1],
            played: vec![None; MAX_PLY_USIZE + 1],
            reductions,
            root_moves,
            root_restricted: false,
            iteration: 0,
            root_improved: false,
            root_effort: Vec::new(),
        }
    }

    /// The share of the iteration's root nodes spent below `mv` (NaN before any).
    pub(crate) fn root_share(&self, mv: Move) -> f64 {
        let total: u64 = self.root_effort.iter().map(|&(_, n)| n).sum();
        let own: u64 = self
            .root_effort
            .iter()
            .filter(|&&(m, _)| m == mv)
            .map(|&(_, n)| n)
            .sum();
        own as f64 / total as f64
    }

    pub(crate) fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node; every `NODE_BATCH` nodes publishes the count and checks the limits. The
    /// main thread finishes depth 1 whatever happens, so every search has a move and a PV.
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
        if self.task.shared.stop.load(Relaxed) && !(self.is_main() && self.iteration <= 1) {
            self.stopped = true;
        }
    }

    pub(crate) fn flush_nodes(&mut self) {
        self.task.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
        if self.eval_probes > 0 {
            let shared = self.task.shared;
            shared.eval_probes.fetch_add(self.eval_probes, Relaxed);
            shared.eval_hits.fetch_add(self.eval_hits, Relaxed);
            (self.eval_probes, self.eval_hits) = (0, 0);
        }
    }

    /// Nodes of all threads as far as this one knows (its own unflushed ones included).
    pub(crate) fn total_nodes(&self) -> u64 {
        self.task.shared.nodes.load(Relaxed) + self.unflushed
    }

    /// Fifty-move rule (unless the move that ends it mates), insufficient material, or a
    /// repetition of a position of the game or of the search path (one earlier occurrence
    /// suffices inside the search).
    fn is_draw(&self, board: &Board) -> bool {
        let clock = board.halfmove_clock() as usize;
        if clock >= 100 && (board.checkers().is_empty() || has_legal_move(board)) {
            return true;
        }
        if insufficient_material(board) {
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

    /// A draw's score for the side to move at `ply`: `−contempt` for the root's side (on even
    /// plies), `+contempt` for its opponent.
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.task.contempt
        } else {
            self.task.contempt
        }
    }

    /// Alpha-beta search of `board` to `depth` plies; the result is from the side to move's
    /// view, and `pv[ply]` holds the line when it lies inside the window.
    pub(crate) fn negamax(
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
                return self.draw_score(ply);
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
            tt_move = legal_move(entry, board).filter(|mv| !root || self.root_moves.contains(mv));
            let score = score_from_tt(entry.score, ply);
            if !pv_node && cuts_off(entry, score, depth, alpha, beta) {
                return score;
            }
        }
        let in_check = !board.checkers().is_empty();
        // The table keeps the evaluation itself; the search uses it corrected.
        let raw_eval = self.raw_eval(board, entry.as_ref());
        let static_eval = self.corrected(board, raw_eval, in_check);
        self.evals[ply] = if in_check { NO_EVAL } else { static_eval };
        let improving = !in_check
            && ply >= 2
            && self.evals[ply - 2] != NO_EVAL
            && static_eval > self.evals[ply - 2];
        let mut node = Node {
            ply,
            depth,
            pv_node,
            in_check,
            improving,
            raw_eval,
            static_eval,
            eval: refined_eval(entry.as_ref(), static_eval, in_check),
            key,
        };
        if !pv_node && !in_check {
            if let Some(score) = self.prune_node(board, &node, beta, allow_null) {
                return score;
            }
        }
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() {
            node.depth -= 1;
        }
        self.search_moves(board, &node, tt_move, alpha, beta)
    }

    /// Reverse futility pruning and the null move, at a non-PV node not in check: the node's
    /// score when either cuts it off (0 when the search stopped meanwhile), else `None`.
    fn prune_node(
        &mut self,
        board: &Board,
        node: &Node,
        beta: i32,
        allow_null: bool,
    ) -> Option<i32> {
        let (depth, eval, ply) = (node.depth, node.eval, node.ply);
        if depth <= RFP_MAX_DEPTH
            && eval - RFP_MARGIN * (depth - i32::from(node.improving)) >= beta
            && beta.abs() < MATE_BOUND
            && eval.abs() < MATE_BOUND
        {
            return Some(eval);
        }
        if allow_null && depth >= 3 && eval >= beta && has_non_pawn_material(board) {
            if let Some(mut child) = board.null_move() {
                // The null move breaks repetition chains: nothing before it may repeat.
                child.set_halfmove_clock(0);
                self.task.tt.prefetch(child.hash());
                self.played[ply] = None;
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.path.push(node.key);
                let score = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.path.pop();
                if self.stopped {
                    return Some(0);
                }
                if score >= beta {
                    return Some(if score >= MATE_BOUND { beta } else { score });
                }
            }
        }
        None
    }

    /// A node's moves in order, each pruned or searched, then its result recorded.
    fn search_moves(
        &mut self,
        board: &Board,
        node: &Node,
        tt_move: Option<Move>,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let (ply, depth, root) = (node.ply, node.depth, node.is_root());
        let earlier = |back: usize| ply.checked_sub(back).and_then(|p| self.played[p]);
        let continuation = self.ordering.continuation(board, [earlier(1), earlier(2)]);
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        let only = if root { &self.root_moves[..] } else { &[] };
        board.generate_moves(|piece_moves| {
            for mv in piece_moves {
                if !root || only.contains(&mv) {
                    let order = self.ordering.score(board, mv, tt_move, ply, &continuation);
                    moves.push((mv, order));
                }
            }
            false
        });
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return if node.in_check {
                -MATE + ply as i32
            } else {
                self.draw_score(ply)
            };
        }

        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried = std::mem::take(&mut self.quiet_lists[ply]);
        quiets_tried.clear();
        let mut captures_tried = std::mem::take(&mut self.capture_lists[ply]);
        captures_tried.clear();
        let original_alpha = alpha;
        let mut searched = 0usize;
        let mut skip_quiets = false;
        let prunable = !root && has_non_pawn_material(board);
        for (index, (mv, order)) in MovePicker::new(&mut moves).enumerate() {
            let tactical = is_tactical(board, mv);
            let mut child = board.clone();
            child.play_unchecked(mv);
            let facts = MoveFacts {
                mv,
                order,
                tactical,
                gives_check: !child.checkers().is_empty(),
            };
            if prunable && best_score > -MATE_BOUND {
                if skip_quiets && !tactical && !facts.gives_check {
                    continue;
                }
                match self.prune_move(board, node, &facts, alpha, quiets_tried.len()) {
                    Pruning::Search => {}
                    Pruning::Skip => continue,
                    Pruning::SkipQuiets => {
                        skip_quiets = true;
                        continue;
                    }
                }
            }
            self.task.tt.prefetch(child.hash());
            if root {
                self.report_currmove(board, mv, index);
            }
            let nodes_before = self.nodes;
            let score = self.search_move(board, &child, node, &facts, searched, (alpha, beta));
            if root {
                self.root_effort.push((mv, self.nodes - nodes_before));
            }
            if self.stopped {
                self.move_lists[ply] = moves;
                self.quiet_lists[ply] = quiets_tried;
                self.capture_lists[ply] = captures_tried;
                return 0;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.extend_pv(ply, mv);
                    if root {
                        self.root_improved = true;
                    }
                    if score >= beta {
                        let tried = Tried {
                            quiets: &quiets_tried,
                            captures: &captures_tried,
                        };
                        self.ordering
                            .reward(board, mv, ply, depth, tried, &continuation);
                        break;
                    }
                }
            }
            if !tactical {
                quiets_tried.push(mv);
            } else {
                captures_tried.push(mv);
            }
        }
        self.move_lists[ply] = moves;
        self.quiet_lists[ply] = quiets_tried;
        self.capture_lists[ply] = captures_tried;
        let bound = Bound::of_result(best_score, original_alpha, alpha, beta);
        self.record(board, node, best_move, best_score, bound);
        best_score
    }

    /// What the move loop does with a move before searching it (at a node with non-pawn
    /// material, once a move escapes mate): move-count, history and futility pruning of quiet
    /// moves (quiet checks are kept from them: they are how mates are found), and
    /// static-exchange pruning of quiet moves and of losing captures.
    fn prune_move(
        &self,
        board: &Board,
        node: &Node,
        facts: &MoveFacts,
        alpha: i32,
        quiets_tried: usize,
    ) -> Pruning {
        let (depth, order, mv) = (node.depth, facts.order, facts.mv);
        if facts.tactical {
            let losing = depth <= SEE_MAX_DEPTH
                && is_losing_capture(order)
                && !see_at_least(board, mv, -CAPTURE_SEE * depth);
            return if losing {
                Pruning::Skip
            } else {
                Pruning::Search
            };
        }
        if !facts.gives_check {
            if depth <= LMP_MAX_DEPTH && quiets_tried >= node.lmp_limit() {
                return Pruning::SkipQuiets;
            }
            if depth <= HISTORY_PRUNE_MAX_DEPTH
                && is_history_score(order)
                && order < -HISTORY_PRUNE_PER_DEPTH * depth
            {
                return Pruning::Skip;
            }
            // (Not against a mate score: no eval margin reaches one.)
            if !node.in_check
                && depth <= FUTILITY_MAX_DEPTH
                && alpha.abs() < MATE_BOUND
                && node.eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha
            {
                return Pruning::SkipQuiets;
            }
        }
        if depth <= SEE_MAX_DEPTH && !see_at_least(board, mv, -QUIET_SEE * depth * depth) {
            return Pruning::Skip;
        }
        Pruning::Search
    }

    /// `info currmove` for a root move, from the main thread after `CURRMOVE_AFTER`.
    fn report_currmove(&self, board: &Board, mv: Move, index: usize) {
        if self.is_main() && self.task.report {
            let elapsed = self.task.limits.deadlines.elapsed();
            if elapsed >= CURRMOVE_AFTER {
                say!(
                    "info depth {} currmove {} currmovenumber {}",
                    self.iteration,
                    uci_move(board, mv, self.task.chess960),
                    index + 1
                );
            }
        }
    }

    /// Searches the `child` a move leads to: the first move with the whole window, later ones
    /// with a null window, reduced when late and quiet, and again unreduced, then with the whole
    /// window, while they beat alpha (PVS). Checks that do not lose material are extended (a
    /// sacrificial check is searched like any other move, so check sequences cannot blow the
    /// tree up).
    fn search_move(
        &mut self,
        board: &Board,
        child: &Board,
        node: &Node,
        facts: &MoveFacts,
        searched: usize,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let (ply, depth, mv, order) = (node.ply, node.depth, facts.mv, facts.order);
        let extend = facts.gives_check && see_at_least(board, mv, 0);
        let new_depth = depth - 1 + i32::from(extend);
        self.played[ply] = board
            .piece_on(mv.from)
            .map(|piece| PlayedMove { piece, to: mv.to });
        self.path.push(node.key);
        let score = if searched == 0 {
            -self.negamax(child, new_depth, -beta, -alpha, ply + 1, true)
        } else {
            let reduction = if depth >= 3 && searched >= 2 && !facts.tactical {
                let mut r = self.reductions[depth.min(63) as usize][searched.min(63)];
                r -= i32::from(node.pv_node);
                r += i32::from(!node.improving);
                r -= i32::from(self.ordering.is_killer(mv, ply));
                r -= i32::from(facts.gives_check || node.in_check);
                if is_history_score(order) {
                    r -= order / HISTORY_REDUCTION_UNIT;
                }
                r.clamp(0, (new_depth - 1).max(0))
            } else {
                0
            };
            let mut score = -self.negamax(
                child,
                new_depth - reduction,
                -alpha - 1,
                -alpha,
                ply + 1,
                true,
            );
            if score > alpha && reduction > 0 {
                score = -self.negamax(child, new_depth, -alpha - 1, -alpha, ply + 1, true);
            }
            if score > alpha && score < beta {
                score = -self.negamax(child, new_depth, -beta, -alpha, ply + 1, true);
            }
            score
        };
        self.path.pop();
        score
    }

    /// Records a node's result: the eval correction, where the result says how wrong the eval
    /// was, and the table entry (not for a root searched over some of its moves only: its
    /// result is not the position's).
    fn record(
        &mut self,
        board: &Board,
        node: &Node,
        best_move: Option<Move>,
        best_score: i32,
        bound: Bound,
    ) {
        // The eval was wrong by at least this much where the bound says which side it is on;
        // a capture's result says more about the capture than about the pawns.
        let quiet_best = best_move.is_none_or(|mv| !is_tactical(board, mv));
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > node.static_eval,
            Bound::Upper => best_score < node.static_eval,
        };
        if !node.in_check && quiet_best && informative && best_score.abs() < MATE_BOUND {
            self.correction
                .update(board, best_score - node.static_eval, node.depth);
        }
        if !(node.is_root() && self.root_restricted) {
            self.task.tt.store(
                node.key,
                TtEntry {
                    mv: best_move,
                    score: score_to_tt(best_score, node.ply),
                    eval: node.raw_eval.clamp(-MATE_BOUND, MATE_BOUND) as i16,
                    depth: node.depth.min(MAX_DEPTH) as i8,
                    bound,
                },
            );
        }
    }

    /// The position's uncorrected static evaluation: the table entry's, else the evaluation
    /// cache's, else computed (and then cached). All three are the same number.
    #[inline]
    fn raw_eval(&mut self, board: &Board, entry: Option<&TtEntry>) -> i32 {
        if let Some(eval) = entry.and_then(|e| e.stored_eval()) {
            return eval;
        }
        if !self.task.evals.is_on() {
            return evaluate(board);
        }
        let (eval, hit) = self.task.evals.evaluate(board);
        self.eval_probes += 1;
        self.eval_hits += u64::from(hit);
        eval
    }

    /// The static evaluation with this thread's pawn-structure correction (none in check, where
    /// the evaluation only orders nothing and prunes nothing).
    fn corrected(&self, board: &Board, raw_eval: i32, in_check: bool) -> i32 {
        if in_check {
            raw_eval
        } else {
            (raw_eval + self.correction.get(board)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        }
    }

    /// `pv[ply]` = `mv` followed by the child's line.
    fn extend_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Captures and promotions that do not lose material, until the position is quiet; all
    /// evasions when in check. Results are stored at depth 0; the line is kept in `pv[ply]`
    /// like the main search's, so a mate found here has its full PV.
    fn quiescence(&mut self, board: &Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY_USIZE - 1 {
            return evaluate(board);
        }
        if insufficient_material(board) {
            return self.draw_score(ply);
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
        let raw_eval = self.raw_eval(board, entry.as_ref());
        let static_eval = self.corrected(board, raw_eval, in_check);
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
                    // (No continuation here: quiet moves are only evasions, rarely many.)
                    let order =
                        self.ordering
                            .score(board, mv, tt_move, ply, &Continuation::default());
                    moves.push((mv, order));
                }
            }
            false
        });
        let mut best_move = None;
        for (mv, order) in MovePicker::new(&mut moves) {
            if !in_check {
                if is_losing_capture(order) {
                    // Sorted last: every capture after this one loses material too.
                    break;
                }
                if mv.promotion.is_none() {
                    let gain = board.piece_on(mv.to).map_or(100, piece_value);
                    if static_eval + gain + DELTA_MARGIN <= alpha {
                        continue;
                    }
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
                    self.extend_pv(ply, mv);
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
                eval: raw_eval.clamp(-MATE_BOUND, MATE_BOUND) as i16,
                depth: 0,
                bound,
            },
        );
        best_score
    }
}

/// Whether the side to move has any legal move.
pub(crate) fn has_legal_move(board: &Board) -> bool {
    let mut any = false;
    board.generate_moves(|moves| {
        any = !moves.is_empty();
        any
    });
    any
}

/// Whether the side to move has a piece other than pawns and king (null-move safety: zugzwang
/// is common in pawn endings).
fn has_non_pawn_material(board: &Board) -> bool {
    let own = board.colors(board.side_to_move());
    let kings_and_pawns = board.pieces(Piece::King) | board.pieces(Piece::Pawn);
    !(own & !kings_and_pawns).is_empty()
}
