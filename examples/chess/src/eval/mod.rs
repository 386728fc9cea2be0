//! Static evaluation: material plus piece-square terms plus the positional terms of
//! [`positional`], tapered between middlegame and endgame by the non-pawn material left.
//!
//! The weights (`crate::weights`) started as Ronald Friederich's PeSTO tables as published on
//! the Chess Programming Wiki ("PeSTO's Evaluation Function") and round positional numbers.
//!
//! Every term is a weight times a count, so the evaluation is linear in its weights before the
//! taper. The terms are reported to an [`EvalSink`]: the engine's sink ([`evaluate`]) sums the
//! weights, the tuner's (`crate::tuning::features`) records each weight's coefficient. One code path
//! serves both, monomorphized per sink. The tuner's flat layout of the weights is
//! `crate::tuning::params`; the exchange values are in `crate::see`, the draw by material in
//! `crate::draws`.

pub mod positional;
mod sink;

pub use sink::EvalSink;

use crate::weights::{MATERIAL, POSITIONAL, PST};
use cozy_chess::{Board, Color, Piece};
use positional::{positional_terms, TERMS};

// The weights file and the terms agree (the tuner writes the file from `TERMS`).
const _: () = assert!(POSITIONAL.len() == TERMS);

/// Game phase weight per piece; 24 with all pieces on the board.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase with all pieces on the board: pure middlegame (0 is pure endgame).
pub const PHASE_TOTAL: i32 = 24;
/// Side-to-move bonus: a rough average of what having the move is worth (not tapered, not
/// tuned).
pub const TEMPO: i32 = 12;

/// Material plus piece-square value, (middlegame, endgame), per piece and square (a1 = 0) for a
/// White piece; computed at compile time. Black reads its square mirrored (`s ^ 56`).
const TABLE: [[(i32, i32); 64]; 6] = {
    let mut table = [[(0, 0); 64]; 6];
    let mut piece = 0;
    while piece < 6 {
        let mut square = 0;
        while square < 64 {
            table[piece][square] = (
                MATERIAL[piece].0 + PST[piece][0][square ^ 56],
                MATERIAL[piece].1 + PST[piece][1][square ^ 56],
            );
            square += 1;
        }
        piece += 1;
    }
    table
};

/// The engine's sink: sums the weights, (middlegame, endgame), from White's side.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl EvalSink for Sum {
    #[inline(always)]
    fn piece_square(&mut self, piece: Piece, square: usize, sign: i32) {
        let (m, e) = TABLE[piece as usize][square];
        self.mg += sign * m;
        self.eg += sign * e;
    }

    #[inline(always)]
    fn positional(&mut self, term: usize, times: i32) {
        let (m, e) = POSITIONAL[term];
        self.mg += m * times;
        self.eg += e * times;
    }
}

/// Reports every term of `board` to `sink` and returns the game phase (0 to [`PHASE_TOTAL`]).
#[inline(always)]
pub fn terms(board: &Board, sink: &mut impl EvalSink) -> i32 {
    let mut phase = 0;
    for piece in Piece::ALL {
        for color in Color::ALL {
            // Black's squares are mirrored to White's view (rank r -> 7 - r).
            let (sign, flip) = if color == Color::White {
                (1, 0)
            } else {
                (-1, 56)
            };
            let pieces = board.colored_pieces(color, piece);
            for square in pieces {
                sink.piece_square(piece, square as usize ^ flip, sign);
            }
            phase += PHASE_WEIGHT[piece as usize] * pieces.len() as i32;
        }
    }
    positional_terms(board, sink);
    phase.min(PHASE_TOTAL)
}

/// The tapered value from White's side of middlegame and endgame sums `mg` and `eg` at `phase`,
/// then from the side to move's, tempo included: the engine's integer arithmetic, which the
/// tuner's exactness test reproduces.
pub fn taper(board: &Board, mg: i32, eg: i32, phase: i32) -> i32 {
    let white = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let stm = if board.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    stm + TEMPO
}

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut sum = Sum::default();
    let phase = terms(board, &mut sum);
    taper(board, sum.mg, sum.eg, phase)
}
