//! The transposition table's entry: what the search remembers about a position, packed into the
//! 56-bit payload of a `searchcache::SearchCache` entry, and the rules for reading it.
//!
//! Payload layout (56 bits):
//!
//! ```text
//!  55 54 | 53 ...... 47 | 46 ..... 31 | 30 ...... 15 | 14 ........ 0
//!  bound | depth + 8 (7)| eval (i16)  | score (i16)  | move: from 6, to 6, promotion 3
//! ```
//!
//! The move `0` (a1a1, which no legal move is) means "no move". Depth takes 7 bits with an
//! offset of 8, so quiescence entries (depth 0 and below, down to -8) and searches up to depth
//! 119 fit; the engine never iterates deeper than `MAX_DEPTH` (100).

use cozy_chess::{Board, Move, Piece, Square};
use searchcache::Pack64;

/// Scores at or beyond this magnitude are mates: `MATE - plies to mate`.
pub const MATE: i32 = 32_000;
/// The deepest ply a search path can reach (mate scores are `MATE - ply` with `ply < MAX_PLY`).
pub const MAX_PLY: i32 = 128;
/// Any score above this is a mate for the side to move.
pub const MATE_BOUND: i32 = MATE - MAX_PLY;
/// Stored depth = depth + DEPTH_OFFSET in 7 bits: depths -8 ..= 119.
const DEPTH_OFFSET: i32 = 8;
const DEPTH_BITS: u32 = 7;
const MIN_DEPTH: i32 = -DEPTH_OFFSET;
const MAX_STORED_DEPTH: i32 = (1 << DEPTH_BITS) - 1 - DEPTH_OFFSET;
/// A same-generation entry this many plies deeper than the new one survives a non-Exact store
/// (the seed's "depth + 4" guard against a shallow result replacing a deep one).
const DEEPER_GUARD: i32 = 4;

/// The `eval` of an entry that does not keep one (the dense layout's, `tt_dense.rs`): no
/// evaluation is this low (they are clamped well inside the mate bounds).
pub const NO_EVAL: i16 = i16::MIN;

/// What a stored score means relative to the window it was searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is an upper bound (no move beat alpha).
    Upper = 1,
    /// The score is a lower bound (a move failed high).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    /// What a node's result is, given its window: a lower bound when it failed high (`best ≥
    /// beta`), exact when it raised alpha, else an upper bound (no move beat alpha).
    pub fn of_result(best: i32, original_alpha: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One position's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found, if any. Must be checked for legality before use.
    pub mv: Option<Move>,
    /// Score, node-relative for mates (see [`score_to_tt`]).
    pub score: i16,
    /// Static evaluation of the position ([`NO_EVAL`] when the table did not keep it).
    pub eval: i16,
    /// Search depth (quiescence: 0 or below).
    pub depth: i8,
    /// How to read `score`.
    pub bound: Bound,
}

impl TtEntry {
    /// The static evaluation the table kept, if it kept one (the dense layout does not).
    pub fn stored_eval(&self) -> Option<i32> {
        (self.eval != NO_EVAL).then_some(i32::from(self.eval))
    }
}

/// Packs a move in 15 bits: from (6), to (6), promotion (3: 0 none, 1 knight … 4 queen).
pub fn pack_move(mv: Option<Move>) -> u64 {
    let Some(mv) = mv else { return 0 };
    let promotion = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        // Only knight..queen are legal promotions; anything else is stored as a queen and
        // rejected later by the legality check.
        Some(_) => 4,
    };
    mv.from as u64 | (mv.to as u64) << 6 | promotion << 12
}

/// Inverse of [`pack_move`] (any 15-bit pattern decodes to some move or `None`).
pub fn unpack_move(bits: u64) -> Option<Move> {
    let bits = bits & 0x7FFF;
    if bits == 0 {
        return None;
    }
    let promotion = match (bits >> 12) & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        _ => Some(Piece::Queen),
    };
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion,
    })
}

impl Pack64 for TtEntry {
    const BITS: u32 = 56;

    fn pack(self) -> u64 {
        let depth =
            (i32::from(self.depth).clamp(MIN_DEPTH, MAX_STORED_DEPTH) + DEPTH_OFFSET) as u64;
        pack_move(self.mv)
            | u64::from(self.score as u16) << 15
            | u64::from(self.eval as u16) << 31
            | depth << 47
            | (self.bound as u64) << 54
    }

    fn unpack(bits: u64) -> Self {
        let bound = match (bits >> 54) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        TtEntry {
            mv: unpack_move(bits),
            score: (bits >> 15) as u16 as i16,
            eval: (bits >> 31) as u16 as i16,
            depth: (((bits >> 47) & 0x7F) as i32 - DEPTH_OFFSET) as i8,
            bound,
        }
    }

    fn depth(&self) -> i32 {
        self.depth.into()
    }

    /// Keep the old move when the new entry has none; keep a much deeper entry of this
    /// generation unless the new one is Exact.
    fn merge(mut self, old: Self, age: u8) -> Option<Self> {
        if age == 0
            && self.bound != Bound::Exact
            && i32::from(self.depth) + DEEPER_GUARD < old.depth.into()
        {
            return None;
        }
        if self.mv.is_none() {
            self.mv = old.mv;
        }
        Some(self)
    }
}

/// Ply-relative (distance from the root) → node-relative (distance from this node), for storing.
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    let s = if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// Node-relative → ply-relative, for a probe at `ply`.
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let (s, ply) = (i32::from(score), ply as i32);
    if s > MATE_BOUND {
        s - ply
    } else if s < -MATE_BOUND {
        s + ply
    } else {
        s
    }
}

/// Whether a stored entry decides this node without searching it (non-PV nodes only).
pub fn cuts_off(entry: &TtEntry, score: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    i32::from(entry.depth) >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
}

/// The stored move, if it is legal here: a key collision (or a torn racing write the table could
/// not tell apart) must never make the engine play an illegal move or corrupt its board.
pub fn legal_move(entry: &TtEntry, board: &Board) -> Option<Move> {
    entry.mv.filter(|&mv| board.is_legal(mv))
}
