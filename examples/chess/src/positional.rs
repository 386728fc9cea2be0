//! The evaluation's terms beyond material and piece-square tables: pawn structure (passed,
//! doubled and isolated pawns, and in the endgame the kings' distances to passed pawns), the
//! bishop pair, rooks on open and half-open files, and piece
//! mobility. Each is a (middlegame, endgame) pair in centipawns, tapered with the rest.
//!
//! The weights are in `crate::weights`, indexed by this module's term constants.

use crate::eval::EvalSink;
use cozy_chess::{
    get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard, Board, Color,
    File, Piece, Square,
};

/// Term of a passed pawn on relative rank `PASSED + rank` (0 = first rank; only 1..=6 occur).
pub const PASSED: usize = 0;
/// Per passed pawn beyond its second rank, times (rank − 1): per square the enemy king is from
/// the square in front of it (an endgame term at first: its middlegame weight started at 0)…
pub const PASSER_ENEMY_KING: usize = 8;
/// …and per square our king is (a negative weight).
pub const PASSER_OWN_KING: usize = 9;
/// Per pawn beyond the first on a file.
pub const DOUBLED: usize = 10;
/// Per pawn without own pawns on the adjacent files.
pub const ISOLATED: usize = 11;
/// Two bishops or more.
pub const BISHOP_PAIR: usize = 12;
/// Per rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = 13;
/// Per rook on a file with enemy pawns only.
pub const ROOK_HALF_OPEN_FILE: usize = 14;
/// Per square a piece reaches (not own-occupied, not attacked by an enemy pawn) beyond
/// a typical count (4, 6, 7, 13): knight, bishop, rook, queen at `MOBILITY + kind`.
pub const MOBILITY: usize = 15;
/// The number of positional terms.
pub const TERMS: usize = 19;
/// What each term is, for the weights file's comments and the tuner's report.
pub const TERM_NAMES: [&str; TERMS] = [
    "passed pawn, relative rank 1 (never occurs)",
    "passed pawn, relative rank 2",
    "passed pawn, relative rank 3",
    "passed pawn, relative rank 4",
    "passed pawn, relative rank 5",
    "passed pawn, relative rank 6",
    "passed pawn, relative rank 7",
    "passed pawn, relative rank 8 (never occurs)",
    "passed pawn: enemy king's distance to its front square, times (rank - 1), ranks 3-7",
    "passed pawn: own king's distance to its front square, times (rank - 1), ranks 3-7",
    "doubled pawn, per pawn beyond the first on a file",
    "isolated pawn",
    "bishop pair",
    "rook on an open file",
    "rook on a half-open file",
    "knight mobility, per square beyond 4",
    "bishop mobility, per square beyond 6",
    "rook mobility, per square beyond 7",
    "queen mobility, per square beyond 13",
];
/// A typical count of reachable squares: knight, bishop, rook, queen.
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

/// Reports the terms of `color` to `sink`, signed `sign` (+1 White, −1 Black).
#[inline(always)]
fn side_terms(board: &Board, color: Color, sign: i32, sink: &mut impl EvalSink) {
    let own = board.colors(color);
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn);
    let (own_king, enemy_king) = (board.king(color), board.king(!color));
    for square in own_pawns {
        if (front_span(square, color) & enemy_pawns).is_empty() {
            let rank = square.rank().relative_to(color) as usize;
            sink.positional(PASSED + rank, sign);
            // In the endgame the kings decide: the enemy king far from the square in front of
            // the pawn, our king near it, the more the further the pawn has come.
            if (2..7).contains(&rank) {
                let ahead = if color == Color::White { 1 } else { -1 };
                let front = square.offset(0, ahead);
                let weight = sign * (rank as i32 - 1);
                sink.positional(PASSER_ENEMY_KING, weight * distance(enemy_king, front));
                sink.positional(PASSER_OWN_KING, weight * distance(own_king, front));
            }
        }
        if (square.file().adjacent() & own_pawns).is_empty() {
            sink.positional(ISOLATED, sign);
        }
    }
    for file in File::ALL {
        let on_file = (own_pawns & file.bitboard()).len() as i32;
        if on_file > 1 {
            sink.positional(DOUBLED, sign * (on_file - 1));
        }
    }
    if board.colored_pieces(color, Piece::Bishop).len() >= 2 {
        sink.positional(BISHOP_PAIR, sign);
    }
    for square in board.colored_pieces(color, Piece::Rook) {
        let file = square.file().bitboard();
        if (file & own_pawns).is_empty() {
            let term = if (file & enemy_pawns).is_empty() {
                ROOK_OPEN_FILE
            } else {
                ROOK_HALF_OPEN_FILE
            };
            sink.positional(term, sign);
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
            sink.positional(MOBILITY + kind, sign * (count - MOBILITY_BASE[kind]));
        }
    }
}

/// Reports White's terms (signed +1) and Black's (−1) to `sink`.
#[inline(always)]
pub fn positional_terms(board: &Board, sink: &mut impl EvalSink) {
    side_terms(board, Color::White, 1, sink);
    side_terms(board, Color::Black, -1, sink);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::POSITIONAL;
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

    /// Sums the positional weights only.
    struct PositionalSum(i32, i32);

    impl EvalSink for PositionalSum {
        fn piece_square(&mut self, _: Piece, _: usize, _: i32) {}
        fn positional(&mut self, term: usize, times: i32) {
            self.0 += POSITIONAL[term].0 * times;
            self.1 += POSITIONAL[term].1 * times;
        }
    }

    fn positional_sum(board: &Board) -> (i32, i32) {
        let mut sum = PositionalSum(0, 0);
        positional_terms(board, &mut sum);
        (sum.0, sum.1)
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
            let a = positional_sum(&board);
            let b = positional_sum(&mirrored(fen));
            assert_eq!(a, (-b.0, -b.1), "{fen}");
            assert_ne!(a, (0, 0), "{fen}: some term counts");
        }
    }
}
