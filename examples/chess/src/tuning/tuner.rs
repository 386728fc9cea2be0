//! Texel tuning: the evaluation's weights fitted to game results by logistic regression.
//!
//! The model of a quiet position's result (White's side: 1, ½, 0) is `sigmoid(K × eval)`, eval
//! the static evaluation from White's side as [`Features::white_eval`] computes it from real
//! weights. `K` is fitted first with the current weights ([`fit_scale`]), then the weights by
//! Adam on the mean squared error ([`tune`]), starting from the current ones. [`render`] writes
//! integer weights back as the source of `src/weights.rs`.

use crate::eval::positional::{TERMS, TERM_NAMES};
use crate::tuning::features::Features;
use crate::tuning::params::{param_index, Param, PARAMS};
use crate::weights::MATERIAL;
use std::fmt::Write;

/// One position of the data: its features and its game's result from White's side.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The evaluation's coefficients.
    pub features: Features,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
}

/// Real-valued weights in the flat layout of [`param_index`].
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Middlegame halves.
    pub mg: Vec<f64>,
    /// Endgame halves.
    pub eg: Vec<f64>,
}

impl Weights {
    /// Integer weights as reals.
    pub fn from_integers(weights: &[(i32, i32)]) -> Weights {
        Weights {
            mg: weights.iter().map(|w| f64::from(w.0)).collect(),
            eg: weights.iter().map(|w| f64::from(w.1)).collect(),
        }
    }

    /// Rounded to whole centipawns (the engine's integers).
    pub fn rounded(&self) -> Vec<(i32, i32)> {
        self.mg
            .iter()
            .zip(&self.eg)
            .map(|(m, e)| (m.round() as i32, e.round() as i32))
            .collect()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of `sigmoid(k × eval)` against the results.
pub fn mean_squared_error(samples: &[Sample], k: f64, weights: &Weights) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * s.features.white_eval(&weights.mg, &weights.eg));
            (s.result - p).powi(2)
        })
        .sum();
    sum / samples.len() as f64
}

/// The `K` (per centipawn) that minimises the error with `weights`: a golden-section search on
/// its logarithm between 10⁻⁴ and 10⁻¹ (the error is unimodal in `K` for any data that is not
/// degenerate).
pub fn fit_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let error = |log_k: f64| mean_squared_error(samples, log_k.exp(), weights);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (1e-4f64.ln(), 1e-1f64.ln());
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut error_a, mut error_b) = (error(a), error(b));
    for _ in 0..60 {
        if error_a < error_b {
            high = b;
            (b, error_b) = (a, error_a);
            a = high - ratio * (high - low);
            error_a = error(a);
        } else {
            low = a;
            (a, error_a) = (b, error_b);
            b = low + ratio * (high - low);
            error_b = error(b);
        }
    }
    ((low + high) / 2.0).exp()
}

/// Which weights [`tune`] may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The positional terms only (`crate::weights::POSITIONAL`).
    Positional,
    /// Positional terms, material (not the king's) and piece-square tables.
    All,
}

impl Scope {
    /// Whether the weight at flat `index` is tuned.
    pub fn tunes(self, index: usize) -> bool {
        let first_positional = param_index(Param::Positional(0));
        let king = param_index(Param::Material(MATERIAL.len() - 1));
        match self {
            Scope::Positional => index >= first_positional,
            Scope::All => index != king,
        }
    }
}

/// How [`tune`] runs.
#[derive(Clone, Copy, Debug)]
pub struct TuneConfig {
    /// Full passes over the data (each one Adam step).
    pub epochs: usize,
    /// Adam's step size, centipawns.
    pub learning_rate: f64,
    /// L2 pull towards the starting weights, per centipawn² of change (0 = none).
    pub l2: f64,
    /// The weights to move.
    pub scope: Scope,
}

/// The gradient of the mean squared error (plus the L2 pull) with respect to every weight.
fn gradient(samples: &[Sample], k: f64, weights: &Weights, start: &Weights, l2: f64) -> Weights {
    let mut grad = Weights {
        mg: vec![0.0; PARAMS],
        eg: vec![0.0; PARAMS],
    };
    let scale = 2.0 * k / samples.len().max(1) as f64;
    for sample in samples {
        let features = &sample.features;
        let p = sigmoid(k * features.white_eval(&weights.mg, &weights.eg));
        let g = scale * (p - sample.result) * p * (1.0 - p);
        let middle = features.middlegame_share();
        let (g_mg, g_eg) = (g * middle, g * (1.0 - middle));
        for &(index, c) in &features.coefficients {
            let c = f64::from(c);
            grad.mg[usize::from(index)] += g_mg * c;
            grad.eg[usize::from(index)] += g_eg * c;
        }
    }
    for i in 0..PARAMS {
        grad.mg[i] += 2.0 * l2 * (weights.mg[i] - start.mg[i]);
        grad.eg[i] += 2.0 * l2 * (weights.eg[i] - start.eg[i]);
    }
    grad
}

/// Adam from `start`; `progress` is told the epoch and the weights every 100 epochs.
pub fn tune(
    samples: &[Sample],
    k: f64,
    start: &Weights,
    config: &TuneConfig,
    mut progress: impl FnMut(usize, &Weights),
) -> Weights {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-12;
    let mut weights = start.clone();
    let zeros = || vec![0.0; PARAMS];
    let (mut m_mg, mut m_eg, mut v_mg, mut v_eg) = (zeros(), zeros(), zeros(), zeros());
    for epoch in 1..=config.epochs {
        let grad = gradient(samples, k, &weights, start, config.l2);
        let bias1 = 1.0 - BETA1.powi(epoch as i32);
        let bias2 = 1.0 - BETA2.powi(epoch as i32);
        for i in (0..PARAMS).filter(|&i| config.scope.tunes(i)) {
            for (w, g, m, v) in [
                (&mut weights.mg[i], grad.mg[i], &mut m_mg[i], &mut v_mg[i]),
                (&mut weights.eg[i], grad.eg[i], &mut m_eg[i], &mut v_eg[i]),
            ] {
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *w -= config.learning_rate * (*m / bias1) / ((*v / bias2).sqrt() + EPSILON);
            }
        }
        if epoch % 100 == 0 {
            progress(epoch, &weights);
        }
    }
    weights
}

const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The source of `src/weights.rs` holding `weights` (flat layout, integers).
pub fn render(weights: &[(i32, i32)]) -> String {
    let mut out = String::new();
    let w = |p: Param| weights[param_index(p)];
    out.push_str(
        "//! The evaluation's weights in centipawns, (middlegame, endgame): material, piece-square tables\n\
         //! and the positional terms. The tuner (`texel fit --write`, `examples/texel.rs`) rewrites this\n\
         //! file whole.\n\n",
    );
    out.push_str(
        "/// Material of pawn, knight, bishop, rook, queen, king.\n\
         #[rustfmt::skip]\npub const MATERIAL: [(i32, i32); 6] = [\n",
    );
    for (piece, name) in PIECE_NAMES.iter().enumerate() {
        let _ = writeln!(out, "    {:?}, // {name}", w(Param::Material(piece)));
    }
    out.push_str("];\n\n");
    out.push_str(
        "/// Piece-square tables, middlegame then endgame per piece (pawn to king), from White's side with\n\
         /// a8 first (as printed: rank 8 on the first row), so a White piece on square `s` (a1 = 0) reads\n\
         /// entry `s ^ 56`.\n#[rustfmt::skip]\npub const PST: [[[i32; 64]; 2]; 6] = [\n",
    );
    for (piece, name) in PIECE_NAMES.iter().enumerate() {
        let _ = writeln!(out, "    // {name}");
        out.push_str("    [\n");
        for half in 0..2 {
            out.push_str("        [\n");
            for rank in 0..8 {
                out.push_str("           ");
                for file in 0..8 {
                    let (m, e) = w(Param::PieceSquare(piece, rank * 8 + file));
                    let _ = write!(out, " {:>4},", if half == 0 { m } else { e });
                }
                out.push('\n');
            }
            out.push_str("        ],\n");
        }
        out.push_str("    ],\n");
    }
    out.push_str("];\n\n");
    let _ = writeln!(
        out,
        "/// The positional terms, indexed by `crate::eval::positional`'s term constants.\n\
         #[rustfmt::skip]\npub const POSITIONAL: [(i32, i32); {TERMS}] = ["
    );
    for (term, name) in TERM_NAMES.iter().enumerate() {
        let _ = writeln!(out, "    {:?}, // {name}", w(Param::Positional(term)));
    }
    out.push_str("];\n");
    out
}

/// A line per positional term and per material value where `after` differs from `before`.
pub fn changes(before: &[(i32, i32)], after: &[(i32, i32)]) -> Vec<String> {
    let mut lines = Vec::new();
    for (piece, name) in PIECE_NAMES.iter().enumerate() {
        let index = param_index(Param::Material(piece));
        if before[index] != after[index] {
            lines.push(format!(
                "material {name}: {:?} -> {:?}",
                before[index], after[index]
            ));
        }
    }
    for (term, name) in TERM_NAMES.iter().enumerate() {
        let index = param_index(Param::Positional(term));
        if before[index] != after[index] {
            lines.push(format!("{name}: {:?} -> {:?}", before[index], after[index]));
        }
    }
    let moved = (0..6)
        .flat_map(|piece| (0..64).map(move |entry| (piece, entry)))
        .map(|(piece, entry)| param_index(Param::PieceSquare(piece, entry)))
        .filter(|&index| before[index] != after[index])
        .count();
    lines.push(format!("piece-square entries changed: {moved} of 384"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::params::current_weights;
    use cozy_chess::Board;

    #[test]
    fn rendering_the_current_weights_gives_the_weights_file() {
        assert_eq!(render(&current_weights()), include_str!("../weights.rs"));
    }

    /// A few positions with results chosen so that some weights are clearly wrong: White's
    /// extra knight wins, and so does White's passed pawn, Black's isolated pawns lose.
    fn samples() -> Vec<Sample> {
        [
            ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", 1.0),
            ("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", 1.0),
            ("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", 1.0),
            ("4k3/8/8/3P4/8/8/8/4K3 b - - 0 1", 1.0),
            ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", 1.0),
            ("4k3/p1p5/8/8/8/8/1P6/4K3 w - - 0 1", 1.0),
            ("4k3/p1p1p3/8/8/8/8/1PP5/4K3 b - - 0 1", 1.0),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0.5,
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0.5),
            ("4k3/1n6/8/8/8/8/8/4K3 w - - 0 1", 0.0),
        ]
        .iter()
        .map(|&(fen, result)| Sample {
            features: Features::of(&fen.parse::<Board>().unwrap()),
            result,
        })
        .collect()
    }

    #[test]
    fn the_scale_minimises_the_error() {
        let samples = samples();
        let weights = Weights::from_integers(&current_weights());
        let k = fit_scale(&samples, &weights);
        let best = mean_squared_error(&samples, k, &weights);
        assert!(best <= mean_squared_error(&samples, k * 1.2, &weights));
        assert!(best <= mean_squared_error(&samples, k / 1.2, &weights));
    }

    #[test]
    fn tuning_lowers_the_error_and_moves_only_its_scope() {
        let samples = samples();
        let start = Weights::from_integers(&current_weights());
        let k = fit_scale(&samples, &start);
        let before = mean_squared_error(&samples, k, &start);
        for scope in [Scope::Positional, Scope::All] {
            let config = TuneConfig {
                epochs: 200,
                learning_rate: 1.0,
                l2: 0.0,
                scope,
            };
            let tuned = tune(&samples, k, &start, &config, |_, _| {});
            let after = mean_squared_error(&samples, k, &tuned);
            assert!(after < before, "{scope:?}: {after} >= {before}");
            for i in 0..PARAMS {
                if !scope.tunes(i) {
                    assert_eq!(tuned.mg[i], start.mg[i]);
                    assert_eq!(tuned.eg[i], start.eg[i]);
                }
            }
            let moved = |p: Param| {
                let i = param_index(p);
                tuned.mg[i] != start.mg[i] || tuned.eg[i] != start.eg[i]
            };
            assert!(moved(Param::Positional(crate::eval::positional::ISOLATED)));
            assert_eq!(scope == Scope::All, moved(Param::Material(1)), "{scope:?}");
        }
    }

    #[test]
    fn the_l2_pull_keeps_weights_nearer_the_start() {
        let samples = samples();
        let start = Weights::from_integers(&current_weights());
        let k = fit_scale(&samples, &start);
        let distance = |l2: f64| {
            let config = TuneConfig {
                epochs: 300,
                learning_rate: 1.0,
                l2,
                scope: Scope::Positional,
            };
            let tuned = tune(&samples, k, &start, &config, |_, _| {});
            (0..PARAMS)
                .map(|i| (tuned.mg[i] - start.mg[i]).powi(2) + (tuned.eg[i] - start.eg[i]).powi(2))
                .sum::<f64>()
        };
        assert!(distance(0.01) < distance(0.0));
    }
}
