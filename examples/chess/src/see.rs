//! Static exchange evaluation: whether the captures and recaptures on a move's target square,
//! each side always taking with its least valuable piece and free to stop, gain at least a
//! threshold for the side that moves.
//!
//! X-rays (a rook behind a rook, a bishop or queen behind a pawn or bishop) join the exchange as
//! the pieces in front leave. Pins are ignored, as in most engines: a pinned piece may take part.
//! Castling gains nothing; a promotion counts the promoted piece as the one standing on the
//! square and its gain (piece minus pawn) as part of the first capture.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Move, Piece, Square,
};

/// Values of pawn, knight, bishop, rook, queen, king for exchanges (SEE), move ordering and
/// pruning margins; the king's is only "more than everything else".
const EXCHANGE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The exchange value of a piece (SEE, move ordering and pruning margins).
pub fn piece_value(piece: Piece) -> i32 {
    EXCHANGE_VALUE[piece as usize]
}

/// Every piece of either colour that attacks `square` when `occupied` are the occupied squares.
fn attackers(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let pawns = board.pieces(Piece::Pawn);
    (get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black))
        | (get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White))
        | (get_knight_moves(square) & board.pieces(Piece::Knight))
        | (get_king_moves(square) & board.pieces(Piece::King))
        | (get_bishop_moves(square, occupied) & diagonal)
        | (get_rook_moves(square, occupied) & straight)
}

/// Whether the exchange started by `mv` gains at least `threshold` centipawns (exchange values
/// of [`piece_value`]) for the side to move. `mv` must be legal.
pub fn see_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    let us = board.side_to_move();
    if board.colors(us).has(mv.to) {
        return threshold <= 0; // castling, encoded as the king taking its own rook
    }
    let Some(mover) = board.piece_on(mv.from) else {
        return threshold <= 0;
    };
    let en_passant =
        mover == Piece::Pawn && mv.from.file() != mv.to.file() && board.piece_on(mv.to).is_none();
    let captured = if en_passant {
        piece_value(Piece::Pawn)
    } else {
        board.piece_on(mv.to).map_or(0, piece_value)
    };
    let (on_square, promotion_gain) = match mv.promotion {
        Some(piece) => (piece, piece_value(piece) - piece_value(Piece::Pawn)),
        None => (mover, 0),
    };
    // `swap` is what the side that just moved stands to have gained beyond the threshold if the
    // exchange stops now; each step the other side may take the piece on the square.
    let mut swap = captured + promotion_gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = piece_value(on_square) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ mv.from.bitboard() ^ mv.to.bitboard();
    if en_passant {
        let taken = Square::new(mv.to.file(), mv.from.rank());
        occupied ^= taken.bitboard();
    }
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut all = attackers(board, mv.to, occupied);
    let mut side = us;
    // 1 while the side to move "wins" (reaches the threshold) if the exchange stops here.
    let mut result = true;
    loop {
        side = !side;
        all &= occupied;
        let ours = all & board.colors(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((piece, from)) = least_valuable(board, ours) else {
            break;
        };
        if piece == Piece::King {
            // The king may only take last: if the other side still attacks, it cannot.
            return if (all & board.colors(!side)).is_empty() {
                result
            } else {
                !result
            };
        }
        swap = piece_value(piece) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied ^= from.bitboard();
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            all |= get_bishop_moves(mv.to, occupied) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            all |= get_rook_moves(mv.to, occupied) & straight;
        }
    }
    result
}

/// The least valuable piece among `candidates`, and one square it stands on.
fn least_valuable(board: &Board, candidates: BitBoard) -> Option<(Piece, Square)> {
    Piece::ALL.into_iter().find_map(|piece| {
        let of_kind = candidates & board.pieces(piece);
        of_kind.next_square().map(|square| (piece, square))
    })
}
