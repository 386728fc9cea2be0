//! UCI text: moves (standard castling `e1g1`, or king-takes-rook `e1h1` under `UCI_Chess960`),
//! scores (`cp N`, `mate N`) and principal variations.

use crate::tt::{MATE, MATE_BOUND};
use cozy_chess::{util::display_uci_move, Board, File, Move, Piece, Rank};

/// A move in UCI notation: castling as the king's two-square move in standard chess, as the
/// king taking its own rook in Chess960 (what cozy-chess's `Move` already is). Never ambiguous:
/// a castling that is not standard chess's (king off e1/e8 or rook off its corner, which a
/// standard-chess `position` refuses but a position set under `UCI_Chess960` keeps when the
/// option is switched off) is written as king-takes-rook, since its two-square form could be a
/// king step as well (`d1c1`).
pub fn uci_move(board: &Board, mv: Move, chess960: bool) -> String {
    if chess960 || (is_castling(board, mv) && !is_standard_castling(mv)) {
        mv.to_string()
    } else {
        display_uci_move(board, mv).to_string()
    }
}

/// Whether `mv` is castling: cozy-chess writes it as the king taking its own rook.
fn is_castling(board: &Board, mv: Move) -> bool {
    board.king(board.side_to_move()) == mv.from
        && board
            .colored_pieces(board.side_to_move(), Piece::Rook)
            .has(mv.to)
}

/// Castling as standard chess has it: the king from e1/e8 to a rook in the corner.
fn is_standard_castling(mv: Move) -> bool {
    mv.from.file() == File::E
        && matches!(mv.to.file(), File::A | File::H)
        && matches!(mv.from.rank(), Rank::First | Rank::Eighth)
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
pub fn pv_string(root: &Board, pv: &[Move], chess960: bool) -> String {
    let mut board = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !board.is_legal(mv) {
            break;
        }
        out.push(uci_move(&board, mv, chess960));
        board.play_unchecked(mv);
    }
    out.join(" ")
}
