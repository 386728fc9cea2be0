//! Texel tuning of the evaluation on the engine's own games (see the chess README, "Tuning").
//!
//! `texel generate` plays self-play games at a fixed node count per move and writes their quiet
//! positions with the results (JSON lines, the same file for the same arguments whatever
//! `--threads` is); `texel fit` fits the scale `K`, then the weights, reports the error on the
//! training games and on the held-out tenth, and with `--write` rewrites `src/weights.rs`.

use chess::tuning::features::Features;
use chess::tuning::params::current_weights;
use chess::tuning::selfplay::{is_quiet, play_games, SelfPlayConfig};
use chess::tuning::tuner::{
    changes, fit_scale, mean_squared_error, render, tune, Sample, Scope, TuneConfig, Weights,
};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

/// Texel tuning: self-play data, then a logistic fit of the evaluation's weights.
#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays self-play games and writes their quiet positions with the games' results.
    Generate {
        /// Games to play.
        #[arg(long, default_value_t = 4000)]
        games: u64,
        /// Nodes per move.
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Seed of the whole set: game i's random opening is a function of (seed, i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (each on one search thread).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// Output file (JSON lines).
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits K and the weights to a file from `generate`.
    Fit {
        /// Input file (JSON lines from `generate`).
        #[arg(long)]
        data: PathBuf,
        /// Which weights to tune.
        #[arg(long, value_enum, default_value_t = ScopeArg::All)]
        scope: ScopeArg,
        /// Adam steps (full passes over the training positions).
        #[arg(long, default_value_t = 1000)]
        epochs: usize,
        /// Adam's step size in centipawns.
        #[arg(long, default_value_t = 1.0)]
        learning_rate: f64,
        /// L2 pull towards the current weights, per centipawn² of change.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// The share of the target taken from Stockfish's score (`label.py`'s "score", read as a
        /// win probability `1 / (1 + 10^(−score/400))`) rather than from the game's result; with
        /// a share above 0 only positions with a score whose best move ("best") is quiet and
        /// whose score is within ±3,000 are used.
        #[arg(long, default_value_t = 0.0)]
        stockfish_share: f64,
        /// Rewrite this weights file (`examples/chess/src/weights.rs`) with the tuned weights.
        #[arg(long)]
        write: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ScopeArg {
    /// The positional terms only.
    Positional,
    /// Positional terms, material and piece-square tables.
    All,
}

/// One line of the data file.
#[derive(Serialize, Deserialize)]
struct Line {
    fen: String,
    /// White's result: 1, 0.5 or 0.
    result: f64,
    /// The game's index (a tenth of the games is held out by it).
    game: u64,
    /// White's score in centipawns from Stockfish (`label.py`), if labelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<i32>,
    /// Stockfish's best move in UCI notation, if labelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    best: Option<String>,
}

fn main() {
    let result = match Cli::parse().command {
        Command::Generate {
            games,
            nodes,
            seed,
            threads,
            out,
        } => generate(games, nodes, seed, threads.into(), &out),
        Command::Fit {
            data,
            scope,
            epochs,
            learning_rate,
            l2,
            stockfish_share,
            write,
        } => {
            if !(0.0..=1.0).contains(&stockfish_share) {
                eprintln!("error: --stockfish-share must be between 0 and 1");
                std::process::exit(2);
            }
            let scope = match scope {
                ScopeArg::Positional => Scope::Positional,
                ScopeArg::All => Scope::All,
            };
            let config = TuneConfig {
                epochs,
                learning_rate,
                l2,
                scope,
            };
            fit(&data, &config, stockfish_share, write.as_deref())
        }
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn generate(
    games: u64,
    nodes: u64,
    seed: u64,
    threads: usize,
    out: &PathBuf,
) -> Result<(), String> {
    let file = File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut writer = BufWriter::new(file);
    let config = SelfPlayConfig {
        nodes,
        ..SelfPlayConfig::default()
    };
    let bar = ProgressBar::new(games).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg} ({elapsed}, eta {eta})")
            .map_err(|e| e.to_string())?,
    );
    let mut written = 0u64;
    let mut write_error = None;
    play_games(games, seed, threads, &config, |game, record| {
        for fen in record.positions {
            let line = Line {
                fen,
                result: record.result,
                game,
                score: None,
                best: None,
            };
            let text = serde_json::to_string(&line).map_err(|e| e.to_string());
            let done = text.and_then(|text| {
                writeln!(writer, "{text}").map_err(|e| format!("{}: {e}", out.display()))
            });
            if let Err(e) = done {
                write_error = Some(e);
                return false;
            }
            written += 1;
        }
        bar.inc(1);
        bar.set_message(format!("{written} positions"));
        true
    })?;
    bar.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    writer
        .flush()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "{written} positions from {games} games written to {}",
        out.display()
    );
    Ok(())
}

/// Reads the data: (training, held-out) samples, games with index ≡ 9 (mod 10) held out.
fn load(path: &PathBuf, stockfish_share: f64) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let (mut dropped, mut unlabelled) = (0u64, 0u64);
    for (number, text) in BufReader::new(file).lines().enumerate() {
        let text = text.map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = |what: String| format!("{} line {}: {what}", path.display(), number + 1);
        let line: Line = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let board = line
            .fen
            .parse::<cozy_chess::Board>()
            .map_err(|e| bad(format!("bad FEN '{}': {e:?}", line.fen)))?;
        if ![0.0, 0.5, 1.0].contains(&line.result) {
            return Err(bad(format!("result {} is not 0, 0.5 or 1", line.result)));
        }
        if !is_quiet(&board) {
            dropped += 1;
            continue;
        }
        let mut result = line.result;
        if stockfish_share > 0.0 {
            let (Some(score), Some(best)) = (line.score, &line.best) else {
                unlabelled += 1;
                continue;
            };
            let best_is_quiet = chess::position::parse_move(&board, best, false)
                .is_some_and(|mv| !chess::ordering::is_tactical(&board, mv));
            if !best_is_quiet || score.abs() > 3000 {
                dropped += 1;
                continue;
            }
            let stockfish = 1.0 / (1.0 + 10f64.powf(-f64::from(score) / 400.0));
            result = stockfish_share * stockfish + (1.0 - stockfish_share) * result;
        }
        let sample = Sample {
            features: Features::of(&board),
            result,
        };
        if line.game % 10 == 9 {
            held_out.push(sample);
        } else {
            train.push(sample);
        }
    }
    if train.is_empty() {
        return Err(format!("{}: no training positions", path.display()));
    }
    eprintln!(
        "{dropped} positions left out: a winning capture or a promotion to play (or, with \
         Stockfish's share, a capture or promotion as its best move, or a score beyond 3,000); \
         {unlabelled} without Stockfish's score"
    );
    Ok((train, held_out))
}

fn fit(
    data: &PathBuf,
    config: &TuneConfig,
    stockfish_share: f64,
    write: Option<&std::path::Path>,
) -> Result<(), String> {
    let (train, held_out) = load(data, stockfish_share)?;
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        held_out.len()
    );
    let integers = current_weights();
    let start = Weights::from_integers(&integers);
    let k = fit_scale(&train, &start);
    let report = |label: &str, weights: &Weights| {
        eprintln!(
            "{label}: error train {:.6}, held out {:.6}",
            mean_squared_error(&train, k, weights),
            mean_squared_error(&held_out, k, weights)
        );
    };
    eprintln!("K = {k:.6} per centipawn");
    report("current weights", &start);
    let tuned = tune(&train, k, &start, config, |epoch, weights| {
        report(&format!("epoch {epoch}"), weights);
    });
    let rounded = Weights::from_integers(&tuned.rounded());
    report("tuned, rounded", &rounded);
    for line in changes(&integers, &tuned.rounded()) {
        eprintln!("  {line}");
    }
    if let Some(path) = write {
        std::fs::write(path, render(&tuned.rounded()))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}
