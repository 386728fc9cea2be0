//! The interface between the evaluation's terms and whoever adds them up: a leaf, so the
//! material and piece-square pass (`eval/mod.rs`) and the positional pass (`positional.rs`) both
//! report to it without importing each other.

use cozy_chess::Piece;

/// Receives the evaluation's terms, each counted for White (`sign` +1) or Black (−1).
pub trait EvalSink {
    /// A `piece` of the side `sign` on `square` from its own side's view (a1 = 0; a Black
    /// piece's square is mirrored): its material and its piece-square entry.
    fn piece_square(&mut self, piece: Piece, square: usize, sign: i32);
    /// The positional term `term` (an index into `crate::weights::POSITIONAL`) counted `times`
    /// times, already signed for its side.
    fn positional(&mut self, term: usize, times: i32);
}
