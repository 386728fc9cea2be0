//! Move ordering: the table's move first, then captures that do not lose material (static
//! exchange evaluation) by MVV-LVA, and promotions, then the killer moves of this ply, then
//! quiet moves by their history score, then the captures that lose material.
//!
//! A quiet move's history score is the sum of three tables: the butterfly history (side, from,
//! to), and two continuation histories (the piece and destination of this move, after those of
//! the move one ply before, and two plies before). The butterfly table says "this move is good
//! here", the continuations "this move answers that one". Captures of one band are ordered by
//! the victim first, then by a capture history (side, attacker, destination, victim), then by
//! the attacker.

use crate::see::{piece_value, see_at_least};
use cozy_chess::{Board, Move, Piece, Square};

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

/// Piece-and-destination pairs: 6 pieces × 64 squares.
const PIECE_SQUARES: usize = 6 * 64;
/// One continuation table: side to move × the earlier move's pair × this move's pair.
const CONTINUATION_LEN: usize = 2 * PIECE_SQUARES * PIECE_SQUARES;

/// The piece and destination of a move that was played, the key of continuation history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The piece that moved (before any promotion).
    pub piece: Piece,
    /// Where it went.
    pub to: Square,
}

impl PlayedMove {
    fn pair(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

/// Where a node's continuation histories live: one row per earlier move (one ply before, two
/// plies before) that exists; none at the root, none past a null move.
#[derive(Clone, Copy, Debug, Default)]
pub struct Continuation {
    rows: [Option<usize>; 2],
}

/// The per-thread statistics ordering learns from: killers per ply, the butterfly history per
/// (side, from, to), and the continuation histories.
pub struct OrderingStats {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// `[plies back − 1][side][earlier pair][this pair]`; i16, so both tables take 1.2 MB a
    /// thread (scores stay within ±16,384, see `bump`).
    continuation: Vec<i16>,
    /// `[side][attacker][to][victim]`, same scale as the others.
    captures: Vec<i16>,
}

/// The moves a node tried before the one that cut off: they get the maluses.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tried<'a> {
    /// Quiet moves searched before the cutoff.
    pub quiets: &'a [Move],
    /// Captures searched before the cutoff.
    pub captures: &'a [Move],
}

impl OrderingStats {
    /// Empty statistics for searches up to `max_ply` deep.
    pub fn new(max_ply: usize) -> Self {
        OrderingStats {
            killers: vec![[None; 2]; max_ply + 1],
            history: vec![0; 2 * 64 * 64],
            continuation: vec![0; 2 * CONTINUATION_LEN],
            captures: vec![0; 2 * PIECE_SQUARES * 6],
        }
    }

    /// The continuation rows of a node whose earlier moves (one ply back, two plies back) were
    /// `earlier`.
    pub fn continuation(&self, board: &Board, earlier: [Option<PlayedMove>; 2]) -> Continuation {
        let side = board.side_to_move() as usize;
        let mut rows = [None; 2];
        for (back, played) in earlier.into_iter().enumerate() {
            rows[back] = played.map(|p| {
                back * CONTINUATION_LEN + (side * PIECE_SQUARES + p.pair()) * PIECE_SQUARES
            });
        }
        Continuation { rows }
    }

    /// The continuation-table indices of `mv` (a quiet move of the side to move) at a node.
    fn continuation_indices(
        board: &Board,
        mv: Move,
        continuation: &Continuation,
    ) -> impl Iterator<Item = usize> {
        let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        let pair = PlayedMove { piece, to: mv.to }.pair();
        continuation
            .rows
            .into_iter()
            .flatten()
            .map(move |row| row + pair)
    }

    /// The capture-history index of `mv`, if it captures.
    fn capture_index(board: &Board, mv: Move) -> Option<usize> {
        let victim = captured(board, mv)?;
        let attacker = board.piece_on(mv.from)?;
        Some(Self::capture_slot(board, attacker, mv, victim))
    }

    /// The capture-history index of `attacker` taking `victim` with `mv`.
    fn capture_slot(board: &Board, attacker: Piece, mv: Move, victim: Piece) -> usize {
        let pair = PlayedMove {
            piece: attacker,
            to: mv.to,
        }
        .pair();
        (board.side_to_move() as usize * PIECE_SQUARES + pair) * 6 + victim as usize
    }

    /// The history score of the quiet move `mv`: butterfly plus continuations.
    fn quiet_score(&self, board: &Board, mv: Move, continuation: &Continuation) -> i32 {
        let mut score = self.history[Self::history_index(board, mv)];
        for index in Self::continuation_indices(board, mv, continuation) {
            score += i32::from(self.continuation[index]);
        }
        score
    }

    fn history_index(board: &Board, mv: Move) -> usize {
        board.side_to_move() as usize * 4096 + mv.from as usize * 64 + mv.to as usize
    }

    /// `mv` caused a beta cutoff at `ply` after `depth` plies of search: remember it (a quiet
    /// move as a killer and in the quiet histories, a capture in the capture history), and
    /// punish the moves tried before it (the quiet ones only after a quiet cutoff).
    pub fn reward(
        &mut self,
        board: &Board,
        mv: Move,
        ply: usize,
        depth: i32,
        tried: Tried<'_>,
        continuation: &Continuation,
    ) {
        let bonus = (depth * depth).min(400);
        if is_tactical(board, mv) {
            self.bump_capture(board, mv, bonus);
        } else {
            let killers = &mut self.killers[ply];
            if killers[0] != Some(mv) {
                killers[1] = killers[0];
                killers[0] = Some(mv);
            }
            self.bump_all(board, mv, bonus, continuation);
            for &other in tried.quiets {
                self.bump_all(board, other, -bonus, continuation);
            }
        }
        for &other in tried.captures {
            self.bump_capture(board, other, -bonus);
        }
    }

    fn bump_capture(&mut self, board: &Board, mv: Move, bonus: i32) {
        if let Some(index) = Self::capture_index(board, mv) {
            let c = &mut self.captures[index];
            *c = to_i16(gravity(i32::from(*c), bonus));
        }
    }

    fn bump_all(&mut self, board: &Board, mv: Move, bonus: i32, continuation: &Continuation) {
        let h = &mut self.history[Self::history_index(board, mv)];
        *h = gravity(*h, bonus);
        for index in Self::continuation_indices(board, mv, continuation) {
            let c = &mut self.continuation[index];
            *c = to_i16(gravity(i32::from(*c), bonus));
        }
    }

    /// Whether `mv` is one of the killer moves of `ply`.
    pub fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// The ordering score of `mv` at `ply`, a node with the given continuation rows.
    pub fn score(
        &self,
        board: &Board,
        mv: Move,
        tt_move: Option<Move>,
        ply: usize,
        continuation: &Continuation,
    ) -> i32 {
        if Some(mv) == tt_move {
            return TT_MOVE;
        }
        if let Some(victim) = captured(board, mv) {
            let attacker = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
            let band = if see_at_least(board, mv, 0) {
                CAPTURE
            } else {
                BAD_CAPTURE
            };
            let learned = self.captures[Self::capture_slot(board, attacker, mv, victim)];
            return band + piece_value(victim) * 16 + i32::from(learned) / 16
                - piece_value(attacker) / 16;
        }
        if let Some(promotion) = mv.promotion {
            return CAPTURE + piece_value(promotion) - 1000;
        }
        if self.killers[ply].contains(&Some(mv)) {
            return KILLER;
        }
        self.quiet_score(board, mv, continuation)
    }
}

/// `gravity` keeps scores within 32 · 512 (+ one step's rounding), well inside i16.
fn to_i16(score: i32) -> i16 {
    score.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

/// The history gravity update: a score moves by 32 · bonus, less in proportion to how far it
/// already is, so it saturates smoothly near ±32 · 512 = ±16,384 (for |bonus| ≤ 512), far inside
/// ±HISTORY_MAX even summed over the three tables.
fn gravity(score: i32, bonus: i32) -> i32 {
    (score + bonus * 32 - score * bonus.abs() / 512).clamp(-HISTORY_MAX / 4, HISTORY_MAX / 4)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn a_continuation_rewards_the_answer_to_that_move_only() {
        let board = Board::default();
        let mut stats = OrderingStats::new(8);
        let after = |piece, to: &str| {
            Some(PlayedMove {
                piece,
                to: to.parse().unwrap(),
            })
        };
        let one = stats.continuation(&board, [after(Piece::Knight, "f6"), None]);
        let other = stats.continuation(&board, [after(Piece::Pawn, "e5"), None]);
        let answer = mv("e2e4");
        let tried = Tried::default();
        stats.reward(&board, answer, 1, 8, tried, &one);
        let (rewarded, elsewhere) = (
            stats.score(&board, answer, None, 3, &one),
            stats.score(&board, answer, None, 3, &other),
        );
        // The butterfly table counts everywhere, the continuation only after Nf6.
        assert!(
            elsewhere > 0 && rewarded > elsewhere,
            "{rewarded} {elsewhere}"
        );
    }

    #[test]
    fn histories_saturate_inside_the_quiet_band_and_captures_inside_theirs() {
        let board: Board = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        let mut stats = OrderingStats::new(8);
        let played = Some(PlayedMove {
            piece: Piece::Pawn,
            to: "d5".parse().unwrap(),
        });
        let context = stats.continuation(&board, [played, played]);
        let (quiet, capture) = (mv("e1d2"), mv("e4d5"));
        for sign in [1, -1] {
            for _ in 0..10_000 {
                let (good, bad) = if sign > 0 {
                    (quiet, capture)
                } else {
                    (capture, quiet)
                };
                let tried = Tried {
                    quiets: &[quiet],
                    captures: &[capture],
                };
                stats.reward(&board, good, 1, 30, tried, &context);
                stats.reward(&board, bad, 1, 30, Tried::default(), &context);
            }
            let score = stats.score(&board, quiet, None, 5, &context);
            assert!(is_history_score(score), "{score}");
            assert!(
                score.abs() <= 3 * 16_400,
                "three tables, each near ±16,384: {score}"
            );
            let capture_score = stats.score(&board, capture, None, 5, &context);
            assert!(
                capture_score > KILLER,
                "a winning capture stays above the quiet moves"
            );
        }
    }
}
