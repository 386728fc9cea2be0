//! The tuner's view of a position: the coefficient of every evaluation weight, recorded by the
//! same code that evaluates ([`crate::eval::terms`]), so that the static evaluation is exactly
//! `taper(Σ coefficient × weight)` over the flat layout of [`crate::tuning::params::param_index`].

use crate::eval::{taper, terms, EvalSink, PHASE_TOTAL, TEMPO};
use crate::tuning::params::{param_index, Param, PARAMS};
use cozy_chess::{Board, Color, Piece};

/// A position's nonzero coefficients (the same for a weight's middlegame and endgame halves),
/// its phase and its side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// (flat index, coefficient) pairs, indices ascending, no zero coefficient.
    pub coefficients: Vec<(u16, i16)>,
    /// 0 (endgame) to [`PHASE_TOTAL`] (middlegame).
    pub phase: i32,
    /// +1 when White is to move, −1 when Black is.
    pub side: i32,
}

/// The tuner's sink: dense coefficients, compressed once the position is done.
struct Recorder {
    dense: Vec<i32>,
}

impl EvalSink for Recorder {
    fn piece_square(&mut self, piece: Piece, square: usize, sign: i32) {
        let piece = piece as usize;
        self.dense[param_index(Param::Material(piece))] += sign;
        // The tables are printed with a8 first: entry = square ^ 56 (see `crate::weights::PST`).
        self.dense[param_index(Param::PieceSquare(piece, square ^ 56))] += sign;
    }

    fn positional(&mut self, term: usize, times: i32) {
        self.dense[param_index(Param::Positional(term))] += times;
    }
}

impl Features {
    /// The coefficients of `board`'s evaluation.
    pub fn of(board: &Board) -> Features {
        let mut recorder = Recorder {
            dense: vec![0; PARAMS],
        };
        let phase = terms(board, &mut recorder);
        let coefficients = recorder
            .dense
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            // Coefficients are piece counts, distances times ranks and mobility counts: far
            // inside i16.
            .map(|(index, &c)| (index as u16, c as i16))
            .collect();
        let side = if board.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        Features {
            coefficients,
            phase,
            side,
        }
    }

    /// The engine's static evaluation (side to move's view) from integer `weights` in the flat
    /// layout, with the engine's integer arithmetic: equals [`crate::eval::evaluate`] when
    /// `weights` are the engine's.
    pub fn evaluate_exactly(&self, board: &Board, weights: &[(i32, i32)]) -> i32 {
        let (mut mg, mut eg) = (0, 0);
        for &(index, c) in &self.coefficients {
            let (m, e) = weights[usize::from(index)];
            mg += m * i32::from(c);
            eg += e * i32::from(c);
        }
        taper(board, mg, eg, self.phase)
    }

    /// The evaluation from White's side with real-valued `mg` and `eg` weights (flat layout),
    /// tempo included: the tuner's model, which the engine's rounds.
    pub fn white_eval(&self, mg: &[f64], eg: &[f64]) -> f64 {
        let (mut m, mut e) = (0.0, 0.0);
        for &(index, c) in &self.coefficients {
            m += mg[usize::from(index)] * f64::from(c);
            e += eg[usize::from(index)] * f64::from(c);
        }
        let middle = f64::from(self.phase) / f64::from(PHASE_TOTAL);
        m * middle + e * (1.0 - middle) + f64::from(self.side * TEMPO)
    }

    /// How much a unit change of a weight's middlegame half moves [`Features::white_eval`] per
    /// unit of coefficient (its endgame half: one minus this).
    pub fn middlegame_share(&self) -> f64 {
        f64::from(self.phase) / f64::from(PHASE_TOTAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use crate::eval::positional::MOBILITY;
    use crate::tuning::params::current_weights;

    /// Openings, middlegames and endgames, both sides to move, passed pawns and open files.
    const POSITIONS: [&str; 8] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
        "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 b - - 0 22",
        "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
        "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
        "8/5pk1/1p4p1/pP1P4/P7/4B1P1/5PK1/2r5 b - - 0 40",
    ];

    #[test]
    fn coefficients_reproduce_the_engines_evaluation_exactly() {
        let weights = current_weights();
        for fen in POSITIONS {
            let board: Board = fen.parse().unwrap();
            let features = Features::of(&board);
            assert_eq!(
                features.evaluate_exactly(&board, &weights),
                evaluate(&board),
                "{fen}"
            );
            let (mg, eg): (Vec<f64>, Vec<f64>) = weights
                .iter()
                .map(|&(m, e)| (f64::from(m), f64::from(e)))
                .unzip();
            let white = f64::from(evaluate(&board) * features.side);
            // The engine truncates the tapered sum to whole centipawns.
            assert!((features.white_eval(&mg, &eg) - white).abs() < 1.0, "{fen}");
        }
    }

    #[test]
    fn a_changed_weight_changes_the_evaluation_by_its_coefficient() {
        let board: Board = POSITIONS[1].parse().unwrap();
        let features = Features::of(&board);
        let knight_mobility = param_index(Param::Positional(MOBILITY));
        let &(_, c) = features
            .coefficients
            .iter()
            .find(|(index, _)| usize::from(*index) == knight_mobility)
            .expect("Kiwipete's knights have mobility");
        let mut weights = current_weights();
        let before = features.evaluate_exactly(&board, &weights);
        weights[knight_mobility].0 += PHASE_TOTAL;
        weights[knight_mobility].1 += PHASE_TOTAL;
        let after = features.evaluate_exactly(&board, &weights);
        assert_eq!(after - before, i32::from(c) * PHASE_TOTAL);
    }

    #[test]
    fn material_coefficients_are_piece_count_differences() {
        // White: king, queen, two pawns; Black: king, rook.
        let board: Board = "6k1/8/8/3r4/8/8/PP6/K2Q4 w - - 0 1".parse().unwrap();
        let features = Features::of(&board);
        let coefficient = |piece: Piece| {
            let index = param_index(Param::Material(piece as usize));
            features
                .coefficients
                .iter()
                .find(|(i, _)| usize::from(*i) == index)
                .map_or(0, |&(_, c)| c)
        };
        assert_eq!(coefficient(Piece::Pawn), 2);
        assert_eq!(coefficient(Piece::Queen), 1);
        assert_eq!(coefficient(Piece::Rook), -1);
        assert_eq!(coefficient(Piece::King), 0, "one king each");
        assert_eq!(features.phase, 6);
    }
}
