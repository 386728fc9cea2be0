//! The tuner's view of the evaluation's weights: every (middlegame, endgame) weight pair at one
//! index of a flat vector, material first, then piece-square entries, then positional terms.

use crate::eval::positional::TERMS;
use crate::weights::{MATERIAL, POSITIONAL, PST};

/// The number of (middlegame, endgame) weight pairs in the flat layout of [`param_index`]:
/// material (6), piece-square entries (6 × 64) and positional terms.
pub const PARAMS: usize = 6 + 6 * 64 + TERMS;

/// Where each weight lives in the flat layout the tuner uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// `MATERIAL[piece]`.
    Material(usize),
    /// `PST[piece][·][entry]` (entry in the printed order, a8 = 0).
    PieceSquare(usize, usize),
    /// `POSITIONAL[term]`.
    Positional(usize),
}

/// The flat index of `param`: material first, then piece-square entries, then positional terms.
pub fn param_index(param: Param) -> usize {
    match param {
        Param::Material(piece) => piece,
        Param::PieceSquare(piece, entry) => 6 + piece * 64 + entry,
        Param::Positional(term) => 6 + 6 * 64 + term,
    }
}

/// Every weight of the evaluation in the flat layout of [`param_index`].
pub fn current_weights() -> Vec<(i32, i32)> {
    let mut weights = vec![(0, 0); PARAMS];
    for piece in 0..6 {
        weights[param_index(Param::Material(piece))] = MATERIAL[piece];
        for entry in 0..64 {
            weights[param_index(Param::PieceSquare(piece, entry))] =
                (PST[piece][0][entry], PST[piece][1][entry]);
        }
    }
    for (term, &weight) in POSITIONAL.iter().enumerate() {
        weights[param_index(Param::Positional(term))] = weight;
    }
    weights
}
