//! The draw by insufficient material, as the search and the self-play games both apply it (the
//! other draw rules, repetition and the fifty-move rule, need the game's history: the search
//! checks them in `search/worker.rs`, self-play in `tuning/selfplay.rs`).

use cozy_chess::{Board, Piece};

/// Neither side can mate: no pawns, rooks or queens, and at most one minor piece in all.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    heavy.is_empty() && (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).len() <= 1
}
