//! Move ordering: the table's move first, then captures that do not lose material (static
//! exchange evaluation) by MVV-LVA, and promotions, then the killer moves of this ply, then
//! quiet moves by their history score, then the captures that lose material.

use crate::eval::piece_value;
use crate::see::see_at_least;
use cozy_chess::{Board, Move, Piece};

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
/// History scores are kept within ±HISTORY_MAX so they never reach the killer band.
pub const HISTORY_MAX: i32 = 1 << 20;
/// Losing captures sort below every quiet move.
const BAD_CAPTURE: i32 = -(1 << 24);

/// Whether an ordering score is a quiet move's history score (not the table move, a capture, a
/// promotion or a killer).
pub fn is_history_score(score: i32) -> bool {
    (-HISTORY_MAX..=HISTORY_MAX).contains(&score)
}

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

/// The per-thread statistics ordering learns from: killers per ply and history per
/// (side, from, to).
pub struct OrderingStats {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

impl OrderingStats {
    /// Empty statistics for searches up to `max_ply` deep.
    pub fn new(max_ply: usize) -> Self {
        OrderingStats {
            killers: vec![[None; 2]; max_ply + 1],
            history: vec![0; 2 * 64 * 64],
        }
    }

    fn history_index(board: &Board, mv: Move) -> usize {
        board.side_to_move() as usize * 4096 + mv.from as usize * 64 + mv.to as usize
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
        self.bump(Self::history_index(board, mv), bonus);
        for &other in tried {
            self.bump(Self::history_index(board, other), -bonus);
        }
    }

    /// The history gravity update: scores saturate smoothly at ±HISTORY_MAX.
    fn bump(&mut self, index: usize, bonus: i32) {
        let h = &mut self.history[index];
        *h += bonus * 32 - *h * bonus.abs() / 512;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
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
        self.history[Self::history_index(board, mv)]
    }
}

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
