//! Move ordering: the table's move first, then captures that do not lose material (static
//! exchange evaluation) by MVV-LVA, and promotions, then the killer moves of this ply, then the
//! counter move (the quiet move that last refuted the opponent's previous move), then quiet
//! moves by their history plus continuation history (the history of this move after the
//! opponent's previous move), then the captures that lose material.

use crate::eval::piece_value;
use crate::see::see_at_least;
use cozy_chess::{Board, Move, Piece, Square};

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const COUNTER: i32 = KILLER - 1;
/// History scores are kept within ±HISTORY_MAX so they never reach the killer band.
pub const HISTORY_MAX: i32 = 1 << 20;
/// Losing captures sort below every quiet move.
const BAD_CAPTURE: i32 = -(1 << 24);

/// Whether an ordering score is that of a capture the static exchange evaluation says loses
/// material (quiescence search skips those).
pub fn is_losing_capture(score: i32) -> bool {
    score < -HISTORY_MAX
}

/// What the move takes, if anything (en passant takes a pawn; castling, encoded as the king
/// taking its own rook, takes nothing).
pub fn captured(board: &Board, mv: Move) -> Option<Piece> {
    if board.colors(!board.side_to_move()).has(mv.to) {
        return board.piece_on(mv.to);
    }
    let is_pawn = board.pieces(Piece::Pawn).has(mv.from);
    (is_pawn && mv.from.file() != mv.to.file()).then_some(Piece::Pawn)
}

/// Captures and promotions: the moves quiescence search looks at, and that are never "quiet".
pub fn is_tactical(board: &Board, mv: Move) -> bool {
    mv.promotion.is_some() || captured(board, mv).is_some()
}

/// A move as the continuation tables see it: the piece that moved and where it went.
pub type PieceTo = (Piece, Square);

/// Entries of a table indexed by one [`PieceTo`].
const PIECE_TO: usize = 6 * 64;

/// The per-thread statistics ordering learns from: killers per ply, history per (side, from,
/// to), counter moves and continuation history per previous move, and the previous move of
/// each ply of the current path.
pub struct OrderingStats {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    counters: Vec<Option<Move>>,
    /// (previous move's piece and target) × (this move's piece and target); i16 keeps it at
    /// 288 KiB a thread.
    continuation: Vec<i16>,
    previous: Vec<Option<PieceTo>>,
}

fn piece_to_index((piece, square): PieceTo) -> usize {
    piece as usize * 64 + square as usize
}

impl OrderingStats {
    /// Empty statistics for searches up to `max_ply` deep.
    pub fn new(max_ply: usize) -> Self {
        OrderingStats {
            killers: vec![[None; 2]; max_ply + 1],
            history: vec![0; 2 * 64 * 64],
            counters: vec![None; PIECE_TO],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            previous: vec![None; max_ply + 2],
        }
    }

    /// The move that leads to `ply` (`None` for a null move or the root).
    pub fn set_previous(&mut self, ply: usize, previous: Option<PieceTo>) {
        self.previous[ply] = previous;
    }

    fn history_index(board: &Board, mv: Move) -> usize {
        board.side_to_move() as usize * 4096 + mv.from as usize * 64 + mv.to as usize
    }

    /// The continuation-history index of `mv` after `previous`.
    fn continuation_index(board: &Board, mv: Move, previous: PieceTo) -> Option<usize> {
        let piece = board.piece_on(mv.from)?;
        Some(piece_to_index(previous) * PIECE_TO + piece_to_index((piece, mv.to)))
    }

    /// A quiet move caused a beta cutoff at `ply` after `depth` plies of search: remember it, and
    /// punish the quiet moves tried before it.
    pub fn reward(&mut self, board: &Board, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let previous = self.previous[ply];
        if let Some(previous) = previous {
            self.counters[piece_to_index(previous)] = Some(mv);
        }
        for (other, sign) in tried.iter().map(|&m| (m, -1)).chain([(mv, 1)]) {
            let h = &mut self.history[Self::history_index(board, other)];
            *h = gravity(*h, sign * bonus);
            if let Some(index) = previous.and_then(|p| Self::continuation_index(board, other, p)) {
                let c = &mut self.continuation[index];
                *c = gravity(i32::from(*c), sign * bonus) as i16;
            }
        }
    }

    /// The history score of a quiet move at `ply`: its history plus its continuation history
    /// (each within ±16,384, see [`gravity`]).
    pub fn history(&self, board: &Board, mv: Move, ply: usize) -> i32 {
        let continuation = self.previous[ply]
            .and_then(|p| Self::continuation_index(board, mv, p))
            .map_or(0, |i| i32::from(self.continuation[i]));
        self.history[Self::history_index(board, mv)] + continuation
    }

    /// Whether `mv` is one of the killer moves of `ply`.
    pub fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// The ordering score of `mv` at `ply`.
    pub fn score(&self, board: &Board, mv: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(mv) == tt_move {
            return TT_MOVE;
        }
        if let Some(victim) = captured(board, mv) {
            let attacker = board.piece_on(mv.from).map_or(0, piece_value);
            let band = if see_at_least(board, mv, 0) {
                CAPTURE
            } else {
                BAD_CAPTURE
            };
            return band + piece_value(victim) * 16 - attacker / 16;
        }
        if let Some(promotion) = mv.promotion {
            return CAPTURE + piece_value(promotion) - 1000;
        }
        if self.killers[ply].contains(&Some(mv)) {
            return KILLER;
        }
        if self.previous[ply].is_some_and(|p| self.counters[piece_to_index(p)] == Some(mv)) {
            return COUNTER;
        }
        self.history(board, mv, ply)
    }
}

/// The history gravity update: `h` moves towards ±16,384 by `bonus` (at most 400) and never
/// beyond, so it fits an i16 and stays far below [`HISTORY_MAX`].
fn gravity(h: i32, bonus: i32) -> i32 {
    (h + bonus * 32 - h * bonus.abs() / 512).clamp(-GRAVITY_LIMIT, GRAVITY_LIMIT)
}

/// Where [`gravity`] saturates: 32 · 512.
const GRAVITY_LIMIT: i32 = 16_384;

/// A list of moves with ordering scores, handed out best first by selection (most nodes cut off
/// after the first move or two, so sorting all of them would be wasted work).
pub struct MovePicker<'a> {
    moves: &'a mut Vec<(Move, i32)>,
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Wraps scored moves.
    pub fn new(moves: &'a mut Vec<(Move, i32)>) -> Self {
        MovePicker { moves, next: 0 }
    }
}

impl Iterator for MovePicker<'_> {
    /// A move and its ordering score.
    type Item = (Move, i32);

    fn next(&mut self) -> Option<(Move, i32)> {
        let rest = self.moves.get(self.next..)?;
        let best = rest.iter().enumerate().max_by_key(|(_, &(_, s))| s)?.0 + self.next;
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}
