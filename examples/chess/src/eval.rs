//! Static evaluation: material plus piece-square terms, tapered between middlegame and endgame
//! by the non-pawn material left. Deliberately simple (the issue asks for no more); the tables
//! are computed from a few geometric rules rather than tuned.

use cozy_chess::{Board, Color, Piece};

/// Middlegame and endgame values of pawn, knight, bishop, rook, queen, king.
const MATERIAL: [(i32, i32); 6] = [
    (100, 125),
    (320, 300),
    (335, 320),
    (480, 530),
    (960, 990),
    (0, 0),
];
/// Game phase weight per piece; 24 with all pieces on the board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_TOTAL: i32 = 24;
/// Side-to-move bonus: a rough average of what having the move is worth.
const TEMPO: i32 = 12;

/// The material value of a piece (middlegame), for move ordering and pruning.
pub fn piece_value(piece: Piece) -> i32 {
    MATERIAL[piece as usize].0
}

/// Squares from the centre: 0 on d4/e4/d5/e5, 3 in the corners (Chebyshev rings).
const fn ring(file: i32, rank: i32) -> i32 {
    let df = (2 * file - 7).abs() / 2;
    let dr = (2 * rank - 7).abs() / 2;
    if df > dr {
        df
    } else {
        dr
    }
}

/// Piece-square (middlegame, endgame) for piece index `piece` (pawn 0 … king 5) on `square`
/// (0 = a1) seen from White (rank 0 = own back rank).
const fn square_bonus(piece: usize, square: usize) -> (i32, i32) {
    let rank = (square / 8) as i32;
    let file = (square % 8) as i32;
    let centre = 3 - ring(file, rank); // 3 in the centre .. 0 on the rim
    match piece {
        0 => {
            let central_file = if file == 3 || file == 4 { 1 } else { 0 };
            let advance = if rank > 1 { rank - 1 } else { 0 };
            let early = if advance > 3 { 3 } else { advance };
            // Advancing pays, more so in the endgame; central pawns matter in the middlegame.
            (
                (rank - 1) * 4 + central_file * early * 6,
                (rank - 1) * (rank - 1) * 3,
            )
        }
        1 => (centre * 12 - 18, centre * 10 - 15),
        2 => (centre * 6 - 6, centre * 5 - 6),
        3 => {
            let seventh = if rank == 6 { 20 } else { 0 };
            let central_file = if file >= 2 && file <= 5 { 5 } else { 0 };
            (seventh + central_file, seventh / 2)
        }
        4 => (centre * 3 - 4, centre * 6 - 8),
        _ => {
            // Middlegame: stay home, preferably on the wings; endgame: walk to the centre.
            let home = match rank {
                0 => 20,
                1 => 0,
                _ => -20 * rank,
            };
            let wing = if file <= 2 || file >= 5 { 15 } else { 0 };
            (home + wing, centre * 15 - 20)
        }
    }
}

/// Material plus piece-square value, (middlegame, endgame), per piece and square from White's
/// side; computed at compile time (evaluation was 40% of the search's time with the terms
/// computed on the fly).
const TABLE: [[(i32, i32); 64]; 6] = {
    let mut table = [[(0, 0); 64]; 6];
    let mut piece = 0;
    while piece < 6 {
        let mut square = 0;
        while square < 64 {
            let (mg, eg) = square_bonus(piece, square);
            table[piece][square] = (MATERIAL[piece].0 + mg, MATERIAL[piece].1 + eg);
            square += 1;
        }
        piece += 1;
    }
    table
};

/// Material and piece-square sums for both phases, from White's side.
fn white_terms(board: &Board) -> (i32, i32, i32) {
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for piece in Piece::ALL {
        let table = &TABLE[piece as usize];
        for color in Color::ALL {
            // Black's squares are mirrored to White's view (rank r -> 7 - r).
            let (sign, flip) = if color == Color::White {
                (1, 0)
            } else {
                (-1, 56)
            };
            let pieces = board.colored_pieces(color, piece);
            for square in pieces {
                let (m, e) = table[square as usize ^ flip];
                mg += sign * m;
                eg += sign * e;
            }
            phase += PHASE_WEIGHT[piece as usize] * pieces.len() as i32;
        }
    }
    (mg, eg, phase.min(PHASE_TOTAL))
}

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let (mg, eg, phase) = white_terms(board);
    let white = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let stm = if board.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    stm + TEMPO
}

/// Neither side can mate: no pawns, rooks or queens, and at most one minor piece in all.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    heavy.is_empty() && (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).len() <= 1
}

/// Whether the side to move has a piece other than pawns and king (null-move safety: zugzwang
/// is common in pawn endings).
pub fn has_non_pawn_material(board: &Board) -> bool {
    let own = board.colors(board.side_to_move());
    let kings_and_pawns = board.pieces(Piece::King) | board.pieces(Piece::Pawn);
    !(own & !kings_and_pawns).is_empty()
}
