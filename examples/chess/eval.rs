//! Static evaluation: material plus piece-square terms, tapered between middlegame and endgame
//! by the non-pawn material left. Deliberately simple (the issue asks for no more); the tables
//! are computed from a few geometric rules rather than tuned.

use cozy_chess::{Board, Color, Piece, Square};

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
fn ring(square: Square) -> i32 {
    let f = square.file() as i32;
    let r = square.rank() as i32;
    let df = (2 * f - 7).abs() / 2;
    let dr = (2 * r - 7).abs() / 2;
    df.max(dr)
}

/// Piece-square (middlegame, endgame) for `piece` on `square` seen from White (rank 0 = own back
/// rank).
fn square_bonus(piece: Piece, square: Square) -> (i32, i32) {
    let rank = square.rank() as i32;
    let file = square.file() as i32;
    let centre = 3 - ring(square); // 3 in the centre .. 0 on the rim
    match piece {
        Piece::Pawn => {
            let central_file = if file == 3 || file == 4 { 1 } else { 0 };
            // Advancing pays, more so in the endgame; central pawns matter in the middlegame.
            let mg = (rank - 1) * 4 + central_file * (rank - 1).clamp(0, 3) * 6;
            let eg = (rank - 1) * (rank - 1) * 3;
            (mg, eg)
        }
        Piece::Knight => (centre * 12 - 18, centre * 10 - 15),
        Piece::Bishop => (centre * 6 - 6, centre * 5 - 6),
        Piece::Rook => {
            let seventh = if rank == 6 { 20 } else { 0 };
            let central_file = if (2..=5).contains(&file) { 5 } else { 0 };
            (seventh + central_file, seventh / 2)
        }
        Piece::Queen => (centre * 3 - 4, centre * 6 - 8),
        Piece::King => {
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

/// Material and piece-square sums for both phases, from White's side.
fn white_terms(board: &Board) -> (i32, i32, i32) {
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for piece in Piece::ALL {
        let (m, e) = MATERIAL[piece as usize];
        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            for square in board.colored_pieces(color, piece) {
                let (pm, pe) = square_bonus(piece, square.relative_to(color));
                mg += sign * (m + pm);
                eg += sign * (e + pe);
                phase += PHASE_WEIGHT[piece as usize];
            }
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
