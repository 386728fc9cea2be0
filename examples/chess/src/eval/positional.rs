//! The evaluation's terms beyond material and piece-square tables: pawn structure (passed
//! pawns by rank, blocked, free and safely advancing, and the kings' distances to them;
//! doubled, isolated, backward, protected and side-by-side pawns), the bishop pair, rooks on
//! open and half-open files and on the seventh, outposts, mobility, king safety (attacks on
//! the king's zone, attacker pairs, safe checks, shelter, open files, storm) and threats. Each
//! is a (middlegame, endgame) pair in centipawns, tapered with the rest.
//!
//! Two passes: the first (`side_terms`) per side, which also collects what the side attacks;
//! the second (`threat_terms`) for the terms that need both sides' attacks (a check square is
//! safe only if the enemy does not attack it).
//!
//! The weights are in `crate::weights`, indexed by this module's term constants.

use crate::eval::sink::EvalSink;
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, File, Piece, Rank, Square,
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
/// Per square of the enemy king's zone (its square and the squares next to it) a piece
/// attacks: knight, bishop, rook, queen at `KING_ZONE_ATTACK + kind`.
pub const KING_ZONE_ATTACK: usize = 19;
/// `n·(n − 1)` for `n` pieces attacking the enemy king's zone: attacks add up faster than
/// linearly, and this is the linear tuner's way to say so.
pub const KING_ATTACKER_PAIRS: usize = 23;
/// Per own pawn one or two ranks in front of our king on its file or the adjacent ones.
pub const KING_SHELTER: usize = 24;
/// Per file among the king's and the adjacent ones without an own pawn.
pub const KING_OPEN_FILE: usize = 25;
/// Per enemy pawn one to three ranks in front of our king on its file or the adjacent ones.
pub const PAWN_STORM: usize = 26;
/// Per pawn an own pawn defends.
pub const PROTECTED_PAWN: usize = 27;
/// Per pawn with an own pawn beside it on its rank.
pub const PHALANX_PAWN: usize = 28;
/// Per passed pawn whose square in front is occupied, times (rank − 1).
pub const PASSED_BLOCKED: usize = 29;
/// Per knight on relative ranks 4 to 6 an own pawn defends and no enemy pawn can attack.
pub const KNIGHT_OUTPOST: usize = 30;
/// Per pawn no own pawn on the adjacent files can come to defend (none level with it or behind
/// it) whose square in front an enemy pawn attacks.
pub const BACKWARD_PAWN: usize = 31;
/// Per passed pawn whose way to the last rank is empty, times (rank − 1).
pub const PASSED_FREE: usize = 32;
/// Per rook on the relative seventh rank.
pub const ROOK_ON_SEVENTH: usize = 33;
/// Per bishop on relative ranks 4 to 6 an own pawn defends and no enemy pawn can attack.
pub const BISHOP_OUTPOST: usize = 34;
/// Per passed pawn whose square in front the enemy does not attack, times (rank − 1).
pub const PASSED_SAFE_STEP: usize = 35;
/// The threats, counted at `THREATS + offset` for the side that waits and at
/// `THREATS + TO_MOVE + offset` for the side to move (which can carry its threat out at once,
/// so its weights differ). Offsets: per safe checking square (one a piece of ours reaches,
/// not ours, not attacked by the enemy) for knight, bishop, rook, queen at `SAFE_CHECK + kind`…
pub const THREATS: usize = 36;
/// …the terms of one side's block: safe checks by kind…
pub const SAFE_CHECK: usize = 0;
/// …per enemy knight, bishop, rook or queen our pawns attack…
pub const THREAT_BY_PAWN: usize = 4;
/// …per enemy rook or queen our knights and bishops attack…
pub const THREAT_BY_MINOR: usize = 5;
/// …per enemy queen our rooks attack…
pub const THREAT_BY_ROOK: usize = 6;
/// …and per enemy knight, bishop, rook or queen we attack and the enemy does not defend.
pub const HANGING: usize = 7;
/// The side to move's block starts this far after the waiting side's.
pub const TO_MOVE: usize = 8;
/// The number of positional terms.
pub const TERMS: usize = THREATS + 2 * TO_MOVE;
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
    "knight attacks on the enemy king's zone, per square",
    "bishop attacks on the enemy king's zone, per square",
    "rook attacks on the enemy king's zone, per square",
    "queen attacks on the enemy king's zone, per square",
    "pieces attacking the enemy king's zone, n(n - 1)",
    "own pawns one or two ranks in front of the king, its file and the adjacent ones",
    "files at the king without an own pawn",
    "enemy pawns one to three ranks in front of the king, its file and the adjacent ones",
    "pawns defended by a pawn",
    "pawns with a pawn beside them",
    "passed pawn with its front square occupied, times (rank - 1)",
    "knight outpost: relative ranks 4-6, defended by a pawn, no enemy pawn can attack it",
    "backward pawn: no pawn beside or behind on the adjacent files, its front square attacked by a pawn",
    "passed pawn with an empty way to the last rank, times (rank - 1)",
    "rook on the seventh rank",
    "bishop outpost: relative ranks 4-6, defended by a pawn, no enemy pawn can attack it",
    "passed pawn whose front square the enemy does not attack, times (rank - 1)",
    "waiting side: safe knight checks, per square",
    "waiting side: safe bishop checks, per square",
    "waiting side: safe rook checks, per square",
    "waiting side: safe queen checks, per square",
    "waiting side: enemy pieces attacked by our pawns",
    "waiting side: enemy rooks and queens attacked by our knights and bishops",
    "waiting side: enemy queens attacked by our rooks",
    "waiting side: enemy pieces attacked and not defended",
    "side to move: safe knight checks, per square",
    "side to move: safe bishop checks, per square",
    "side to move: safe rook checks, per square",
    "side to move: safe queen checks, per square",
    "side to move: enemy pieces attacked by our pawns",
    "side to move: enemy rooks and queens attacked by our knights and bishops",
    "side to move: enemy queens attacked by our rooks",
    "side to move: enemy pieces attacked and not defended",
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

/// What one side attacks, from the first pass, for the terms that need both sides' attacks.
struct Attacks {
    pawns: BitBoard,
    /// Knight, bishop, rook, queen attacks, each kind's union.
    pieces: [BitBoard; 4],
    /// Every square the side attacks, king included.
    all: BitBoard,
    /// The side's passed pawns on relative ranks 3 to 7 (those with king-distance terms).
    advanced_passers: BitBoard,
}

/// One rank towards `color`'s far side, as a rank offset.
fn forward(color: Color) -> i8 {
    if color == Color::White {
        1
    } else {
        -1
    }
}

/// The king's square and the squares next to it.
fn king_zone(king: Square) -> BitBoard {
    get_king_moves(king) | king.bitboard()
}

/// The files of `square` and the ones next to it, on the `ranks` relative ranks in front of it
/// for `color` (`ranks` = 1..=2: the next two).
fn in_front(square: Square, color: Color, ranks: std::ops::RangeInclusive<i8>) -> BitBoard {
    let files = square.file().bitboard() | square.file().adjacent();
    let mut rows = BitBoard::EMPTY;
    let rank = square.rank() as i8;
    for step in ranks {
        let r = if color == Color::White {
            rank + step
        } else {
            rank - step
        };
        if (0..8).contains(&r) {
            rows |= Rank::index(r as usize).bitboard();
        }
    }
    files & rows
}

/// The first pass for `color`, signed `sign` (+1 White, −1 Black), given the squares our pawns
/// and the enemy's attack: pawn structure, the bishop pair, rooks, outposts, king shelter,
/// mobility and attacks on the enemy king's zone; returns what the side attacks.
#[inline(always)]
fn side_terms(
    board: &Board,
    color: Color,
    sign: i32,
    [own_pawn_attacks, enemy_pawn_attacks]: [BitBoard; 2],
    sink: &mut impl EvalSink,
) -> Attacks {
    let own = board.colors(color);
    let own_pawns = board.colored_pieces(color, Piece::Pawn);
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn);
    let (own_king, enemy_king) = (board.king(color), board.king(!color));
    let occupied = board.occupied();
    let ahead = forward(color);
    let mut advanced_passers = BitBoard::EMPTY;
    for square in own_pawns {
        if (front_span(square, color) & enemy_pawns).is_empty() {
            let rank = square.rank().relative_to(color) as usize;
            sink.positional(PASSED + rank, sign);
            // In the endgame the kings decide: the enemy king far from the square in front of
            // the pawn, our king near it, the more the further the pawn has come.
            if (2..7).contains(&rank) {
                let front = square.offset(0, ahead);
                let weight = sign * (rank as i32 - 1);
                advanced_passers |= square.bitboard();
                sink.positional(PASSER_ENEMY_KING, weight * distance(enemy_king, front));
                sink.positional(PASSER_OWN_KING, weight * distance(own_king, front));
                if occupied.has(front) {
                    sink.positional(PASSED_BLOCKED, weight);
                }
                if (front_span(square, color) & square.file().bitboard() & occupied).is_empty() {
                    sink.positional(PASSED_FREE, weight);
                }
            }
        }
        if (square.file().adjacent() & own_pawns).is_empty() {
            sink.positional(ISOLATED, sign);
        }
        if own_pawn_attacks.has(square) {
            sink.positional(PROTECTED_PAWN, sign);
        }
        let supporters = square.file().adjacent() & !front_span(square, color);
        if (supporters & own_pawns).is_empty() {
            if let Some(stop) = square.try_offset(0, ahead) {
                if enemy_pawn_attacks.has(stop) {
                    sink.positional(BACKWARD_PAWN, sign);
                }
            }
        }
        if !(square.file().adjacent() & square.rank().bitboard() & own_pawns).is_empty() {
            sink.positional(PHALANX_PAWN, sign);
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
    for (piece, term) in [
        (Piece::Knight, KNIGHT_OUTPOST),
        (Piece::Bishop, BISHOP_OUTPOST),
    ] {
        for square in board.colored_pieces(color, piece) {
            let rank = square.rank().relative_to(color) as usize;
            let attackable = square.file().adjacent() & front_span(square, color);
            if (3..6).contains(&rank)
                && own_pawn_attacks.has(square)
                && (attackable & enemy_pawns).is_empty()
            {
                sink.positional(term, sign);
            }
        }
    }
    let seventh = Rank::Seventh.relative_to(color).bitboard();
    let on_seventh = board.colored_pieces(color, Piece::Rook) & seventh;
    sink.positional(ROOK_ON_SEVENTH, sign * on_seventh.len() as i32);
    // Our king's shelter and the enemy pawns coming at it.
    let shelter = in_front(own_king, color, 1..=2);
    sink.positional(KING_SHELTER, sign * (shelter & own_pawns).len() as i32);
    sink.positional(
        PAWN_STORM,
        sign * (in_front(own_king, color, 1..=3) & enemy_pawns).len() as i32,
    );
    let king_files = own_king.file().bitboard() | own_king.file().adjacent();
    for square in king_files & Rank::First.bitboard() {
        if (square.file().bitboard() & own_pawns).is_empty() {
            sink.positional(KING_OPEN_FILE, sign);
        }
    }

    let reachable = !own & !enemy_pawn_attacks;
    let enemy_zone = king_zone(enemy_king);
    let mut attacks = Attacks {
        pawns: own_pawn_attacks,
        pieces: [BitBoard::EMPTY; 4],
        all: own_pawn_attacks | get_king_moves(own_king),
        advanced_passers,
    };
    let mut zone_attackers = 0;
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
            let on_zone = (moves & enemy_zone).len() as i32;
            if on_zone > 0 {
                sink.positional(KING_ZONE_ATTACK + kind, sign * on_zone);
                zone_attackers += 1;
            }
            attacks.pieces[kind] |= moves;
        }
    }
    sink.positional(
        KING_ATTACKER_PAIRS,
        sign * zone_attackers * (zone_attackers - 1),
    );
    attacks.all |= attacks.pieces[0] | attacks.pieces[1] | attacks.pieces[2] | attacks.pieces[3];
    attacks
}

/// The second pass for `color`: the terms that need what the enemy attacks (`theirs`) as well
/// as what we attack (`ours`): safe checks and threats.
#[inline(always)]
fn threat_terms(
    board: &Board,
    color: Color,
    sign: i32,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut impl EvalSink,
) {
    let occupied = board.occupied();
    let enemy_king = board.king(!color);
    let block = THREATS
        + if color == board.side_to_move() {
            TO_MOVE
        } else {
            0
        };
    let safe = !board.colors(color) & !theirs.all;
    let bishop_lines = get_bishop_moves(enemy_king, occupied);
    let rook_lines = get_rook_moves(enemy_king, occupied);
    let checks = [
        get_knight_moves(enemy_king),
        bishop_lines,
        rook_lines,
        bishop_lines | rook_lines,
    ];
    for (kind, (checking, reached)) in checks.iter().zip(ours.pieces).enumerate() {
        let squares = (*checking & reached & safe).len() as i32;
        sink.positional(block + SAFE_CHECK + kind, sign * squares);
    }
    let enemy = |piece| board.colored_pieces(!color, piece);
    let enemy_pieces =
        board.colors(!color) & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King);
    let majors = enemy(Piece::Rook) | enemy(Piece::Queen);
    let minor_attacks = ours.pieces[0] | ours.pieces[1];
    let count = |set: BitBoard| sign * set.len() as i32;
    sink.positional(block + THREAT_BY_PAWN, count(enemy_pieces & ours.pawns));
    sink.positional(block + THREAT_BY_MINOR, count(majors & minor_attacks));
    sink.positional(
        block + THREAT_BY_ROOK,
        count(enemy(Piece::Queen) & ours.pieces[2]),
    );
    sink.positional(
        block + HANGING,
        count(enemy_pieces & ours.all & !theirs.all),
    );
    for square in ours.advanced_passers {
        if !theirs.all.has(square.offset(0, forward(color))) {
            let rank = square.rank().relative_to(color) as i32;
            sink.positional(PASSED_SAFE_STEP, sign * (rank - 1));
        }
    }
}

/// Reports White's terms (signed +1) and Black's (−1) to `sink`.
#[inline(always)]
pub fn positional_terms(board: &Board, sink: &mut impl EvalSink) {
    let pawns = [
        pawn_attacks(board, Color::White),
        pawn_attacks(board, Color::Black),
    ];
    let white = side_terms(board, Color::White, 1, pawns, sink);
    let black = side_terms(board, Color::Black, -1, [pawns[1], pawns[0]], sink);
    threat_terms(board, Color::White, 1, &white, &black, sink);
    threat_terms(board, Color::Black, -1, &black, &white, sink);
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Each term's count, White's minus Black's.
    struct Counts([i32; TERMS]);

    impl EvalSink for Counts {
        fn piece_square(&mut self, _: Piece, _: usize, _: i32) {}
        fn positional(&mut self, term: usize, times: i32) {
            self.0[term] += times;
        }
    }

    fn counts(fen: &str) -> [i32; TERMS] {
        let mut counts = Counts([0; TERMS]);
        positional_terms(&fen.parse().unwrap(), &mut counts);
        counts.0
    }

    #[test]
    fn mirrored_positions_count_every_term_the_other_way() {
        for fen in [
            "r1bqkb1r/pp3ppp/2n2n2/2pp4/3P4/2P1PN2/PP1N1PPP/R1BQKB1R w KQkq - 0 6",
            "8/5pk1/1p4p1/pP1P4/P7/4B1P1/5PK1/2r5 w - - 0 40",
            "r1bq1rk1/pp3ppp/2n2n2/2bpN3/3P4/2PBP3/PP3PPP/RN1QK2R w KQ - 0 9",
            "6k1/5ppp/8/3n4/8/2B5/1Q3PPP/6K1 b - - 0 30",
        ] {
            let straight = counts(fen);
            let mut flipped = Counts([0; TERMS]);
            positional_terms(&mirrored(fen), &mut flipped);
            for (name, (a, b)) in TERM_NAMES.iter().zip(straight.iter().zip(flipped.0)) {
                assert_eq!(*a, -b, "{fen}: {name}");
            }
            assert!(straight.iter().any(|&c| c != 0), "{fen}: some term counts");
        }
    }

    #[test]
    fn king_terms() {
        // White: Kg1 behind f2 g2 h2, nothing open. Black: Kb8, only a7 near it, the b and c
        // files open. The rook on c1 hits c7 and c8 of b8's zone, the queen on d5 b7 and a8.
        let c = counts("1k6/p7/8/3Q4/8/8/5PPP/2R3K1 w - - 0 1");
        assert_eq!(
            c[KING_SHELTER],
            3 - 1,
            "f2 g2 h2 shelter g1; a7 shelters b8"
        );
        assert_eq!(
            c[KING_OPEN_FILE], -2,
            "the b and c files at b8 have no Black pawn"
        );
        assert_eq!(c[KING_ZONE_ATTACK + 2], 2);
        assert_eq!(c[KING_ZONE_ATTACK + 3], 2);
        assert_eq!(c[KING_ATTACKER_PAIRS], 2, "queen and rook: 2·1");
    }

    #[test]
    fn threats_are_counted_for_the_side_that_can_carry_them_out() {
        // The White bishop on c3 attacks the undefended knight on f6.
        let white_to_move = counts("6k1/8/5n2/8/8/2B5/8/6K1 w - - 0 1");
        assert_eq!(white_to_move[THREATS + TO_MOVE + HANGING], 1);
        assert_eq!(white_to_move[THREATS + HANGING], 0);
        let black_to_move = counts("6k1/8/5n2/8/8/2B5/8/6K1 b - - 0 1");
        assert_eq!(
            black_to_move[THREATS + HANGING],
            1,
            "White waits with its threat"
        );
        // A defended knight hangs no more; a pawn attacking it is still a threat.
        let defended = counts("6k1/6p1/5n2/4P3/8/2B5/8/6K1 w - - 0 1");
        assert_eq!(defended[THREATS + TO_MOVE + HANGING], 0);
        assert_eq!(defended[THREATS + TO_MOVE + THREAT_BY_PAWN], 1);
    }

    #[test]
    fn safe_checks_avoid_defended_squares() {
        // The White knight on e4 reaches f6 and d6, both checks on e8: f6 is covered by the
        // g7 pawn, d6 by nothing.
        let c = counts("4k3/6p1/8/8/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(c[THREATS + TO_MOVE + SAFE_CHECK], 1);
    }

    #[test]
    fn pawn_and_knight_terms() {
        // d4 defends the knight on e5, c4 and d4 stand side by side; the knight is an outpost
        // until a Black pawn on f7 could drive it away.
        let outpost = counts("4k3/8/8/4N3/2PP4/8/8/4K3 w - - 0 1");
        assert_eq!(outpost[KNIGHT_OUTPOST], 1);
        assert_eq!(outpost[PHALANX_PAWN], 2);
        assert_eq!(outpost[PROTECTED_PAWN], 0);
        let driven = counts("4k3/5p2/8/4N3/2PP4/8/8/4K3 w - - 0 1");
        assert_eq!(driven[KNIGHT_OUTPOST], 0);
        let chain = counts("4k3/8/8/8/3P4/2P5/8/4K3 w - - 0 1");
        assert_eq!(chain[PROTECTED_PAWN], 1);
        let blocked = counts("4k3/8/4n3/4P3/8/8/8/4K3 w - - 0 1");
        assert_eq!(blocked[PASSED_BLOCKED], 3, "rank index 4, times (4 − 1)");
        // The Black pawns on g5 and h4 are three and two ranks in front of the White king on g2,
        // on its files; the one on c4 is not.
        let storm = counts("4k3/8/8/6p1/2p4p/8/6K1/8 w - - 0 1");
        assert_eq!(
            storm[PAWN_STORM], 2,
            "counted for the side whose king is stormed"
        );
    }

    #[test]
    fn second_batch_of_terms() {
        // d3 has no pawn beside or behind it on c and e, and the c5 pawn attacks d4: backward
        // (c5, whose c4 d3 attacks, has b6 behind it). With a White pawn on e2 it could be
        // defended, so it is not.
        assert_eq!(
            counts("4k3/8/1p6/2p5/8/3P4/8/4K3 w - - 0 1")[BACKWARD_PAWN],
            1
        );
        assert_eq!(
            counts("4k3/8/1p6/2p5/8/3P4/4P3/4K3 w - - 0 1")[BACKWARD_PAWN],
            0
        );
        // The passed pawn on d5 (rank index 4, weight 3): free to d8 and its step to d6 safe;
        // a Black knight on d8 takes the free way, and one on e8 watches d6 instead.
        let free = counts("k7/8/8/3P4/8/8/8/K7 w - - 0 1");
        assert_eq!((free[PASSED_FREE], free[PASSED_SAFE_STEP]), (3, 3));
        let closed = counts("k2n4/8/8/3P4/8/8/8/K7 w - - 0 1");
        assert_eq!((closed[PASSED_FREE], closed[PASSED_SAFE_STEP]), (0, 3));
        let watched = counts("k3n3/8/8/3P4/8/8/8/K7 w - - 0 1");
        assert_eq!((watched[PASSED_FREE], watched[PASSED_SAFE_STEP]), (3, 0));
        // A rook on the seventh for each side cancels; a bishop outpost on d5.
        assert_eq!(
            counts("k7/3R4/8/8/8/8/4r3/K7 w - - 0 1")[ROOK_ON_SEVENTH],
            0
        );
        assert_eq!(counts("k7/3R4/8/8/8/8/8/K7 w - - 0 1")[ROOK_ON_SEVENTH], 1);
        assert_eq!(counts("7k/8/8/3B4/2P5/8/8/K7 w - - 0 1")[BISHOP_OUTPOST], 1);
    }
}
