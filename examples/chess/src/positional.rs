//! The evaluation's terms beyond material and piece-square tables: pawn structure (passed,
//! doubled and isolated pawns, and in the endgame the kings' distances to passed pawns), the
//! bishop pair, rooks on open and half-open files, and piece
//! mobility. Each is a (middlegame, endgame) pair in centipawns, tapered with the rest.
//!
//! The weights are round numbers of the size small engines use, not tuned here; games measured
//! the whole set (BENCHMARKS.md, "Chess engine: strength").

use cozy_chess::{
    get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard, Board, Color,
    File, Piece, Square,
};

/// A passed pawn on relative rank 2..7 (index = rank, 0 = first rank).
const PASSED: [(i32, i32); 8] = [
    (0, 0),
    (0, 5),
    (3, 10),
    (8, 20),
    (18, 35),
    (35, 60),
    (60, 90),
    (0, 0),
];
/// Endgame, per passed pawn beyond its third rank, times (rank − 1): per square the enemy king
/// is from the square in front of it, and less per square our king is.
const PASSER_ENEMY_KING: i32 = 5;
const PASSER_OWN_KING: i32 = 2;
const DOUBLED: (i32, i32) = (-10, -20);
const ISOLATED: (i32, i32) = (-10, -12);
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN_FILE: (i32, i32) = (25, 10);
const ROOK_HALF_OPEN_FILE: (i32, i32) = (12, 8);
/// Per square a piece reaches (not own-occupied, not attacked by an enemy pawn), beyond a
/// typical count: knight, bishop, rook, queen.
const MOBILITY: [(i32, i32); 4] = [(4, 4), (5, 5), (2, 4), (1, 2)];
const MOBILITY_BASE: [i32; 4] = [4, 6, 7, 13];

/// The squares in front of `square` (towards the far rank for `color`) on its file and the
/// adjacent files: a pawn there could stop or take a pawn on `square`.
fn front_span(square: Square, color: Color) -> BitBoard {
    let file = square.file();
    let files = file.bitboard() | file.adjacent();
    let rank = square.rank() as u32;
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << (8 * (rank + 1)),
        Color::Black if rank > 0 => !0u64 >> (8 * (8 - rank)),
        _ => 0,
    };
    files & BitBoard(ahead)
}

/// King moves from `a` to `b` on an empty board (Chebyshev distance).
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Squares attacked by the pawns of `color`.
fn pawn_attacks(board: &Board, color: Color) -> BitBoard {
    let mut attacks = BitBoard::EMPTY;
    for square in board.colored_pieces(color, Piece::Pawn) {
        attacks |= get_pawn_attacks(square, color);
    }
    attacks
}

fn add(sum: &mut (i32, i32), term: (i32, i32), times: i32) {
    sum.0 += term.0 * times;
    sum.1 += term.1 * times;
}

/// The terms for `color`, (middlegame, endgame), from its own side.
fn side_terms(board: &Board, color: Color) -> (i32, i32) {
    let mut sum = (0, 0);
    let own = board.colors(color);
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn);
    let (own_king, enemy_king) = (board.king(color), board.king(!color));
    for square in own_pawns {
        if (front_span(square, color) & enemy_pawns).is_empty() {
            let rank = square.rank().relative_to(color) as usize;
            add(&mut sum, PASSED[rank], 1);
            // In the endgame the kings decide: the enemy king far from the square in front of
            // the pawn, our king near it, the more the further the pawn has come.
            if (2..7).contains(&rank) {
                let ahead = if color == Color::White { 1 } else { -1 };
                let front = square.offset(0, ahead);
                let weight = rank as i32 - 1;
                sum.1 += weight
                    * (PASSER_ENEMY_KING * distance(enemy_king, front)
                        - PASSER_OWN_KING * distance(own_king, front));
            }
        }
        if (square.file().adjacent() & own_pawns).is_empty() {
            add(&mut sum, ISOLATED, 1);
        }
    }
    for file in File::ALL {
        let on_file = (own_pawns & file.bitboard()).len() as i32;
        if on_file > 1 {
            add(&mut sum, DOUBLED, on_file - 1);
        }
    }
    if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
        add(&mut sum, BISHOP_PAIR, 1);
    }
    for square in board.colored_pieces(color, Piece::Rook) {
        let file = square.file().bitboard();
        if (file & own_pawns).is_empty() {
            let term = if (file & enemy_pawns).is_empty() {
                ROOK_OPEN_FILE
            } else {
                ROOK_HALF_OPEN_FILE
            };
            add(&mut sum, term, 1);
        }
    }
    let reachable = !own & !pawn_attacks(board, !color);
    let occupied = board.occupied();
    let pieces = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];
    for (kind, piece) in pieces.into_iter().enumerate() {
        for square in board.colored_pieces(color, piece) {
            let moves = match piece {
                Piece::Knight => get_knight_moves(square),
                Piece::Bishop => get_bishop_moves(square, occupied),
                Piece::Rook => get_rook_moves(square, occupied),
                _ => get_bishop_moves(square, occupied) | get_rook_moves(square, occupied),
            };
            let count = (moves & reachable).len() as i32;
            add(&mut sum, MOBILITY[kind], count - MOBILITY_BASE[kind]);
        }
    }
    sum
}

/// White's terms less Black's, (middlegame, endgame).
pub fn positional_terms(board: &Board) -> (i32, i32) {
    let white = side_terms(board, Color::White);
    let black = side_terms(board, Color::Black);
    (white.0 - black.0, white.1 - black.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Rank;

    #[test]
    fn front_spans() {
        let e4 = Square::new(File::E, Rank::Fourth);
        let white = front_span(e4, Color::White);
        assert_eq!(white.len(), 12, "d5-f8: three files, four ranks");
        assert!(white.has(Square::new(File::D, Rank::Eighth)));
        assert!(!white.has(Square::new(File::E, Rank::Fourth)));
        let black = front_span(e4, Color::Black);
        assert_eq!(black.len(), 9, "d3-f1: three files, three ranks");
        assert!(front_span(Square::new(File::A, Rank::Eighth), Color::White).is_empty());
    }

    /// The position with the board flipped top to bottom and the colours swapped.
    fn mirrored(fen: &str) -> Board {
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap = |text: &str| -> String {
            text.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let ranks: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        format!("{} {side} {} - 0 1", ranks.join("/"), swap(fields[2]))
            .parse()
            .unwrap()
    }

    #[test]
    fn mirrored_positions_score_the_same_for_each_side() {
        for fen in [
            "r1bqkb1r/pp3ppp/2n2n2/2pp4/3P4/2P1PN2/PP1N1PPP/R1BQKB1R w KQkq - 0 6",
            "8/5pk1/1p4p1/pP1P4/P7/4B1P1/5PK1/2r5 w - - 0 40",
        ] {
            let board: Board = fen.parse().unwrap();
            let a = positional_terms(&board);
            let b = positional_terms(&mirrored(fen));
            assert_eq!(a, (-b.0, -b.1), "{fen}");
            assert_ne!(a, (0, 0), "{fen}: some term counts");
        }
    }
}
