//! What a search is asked and what it answers: the position and its history, the limits, the
//! state the search threads share with the UCI thread, and the outcome. A leaf: the driver
//! (`search/mod.rs`) and the tree search (`worker.rs`) both use it, and it uses neither.

use crate::eval_cache::EvalCache;
use crate::time::Deadlines;
use crate::tt::TranspositionTable;
use cozy_chess::{Board, Move};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

/// Deepest iteration (the table stores depths up to 119).
pub const MAX_DEPTH: i32 = 100;

/// What stops a search, besides `stop`.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: i32,
    /// Stop after about this many nodes (all threads together; depth 1 always completes).
    pub nodes: Option<u64>,
    /// Clock deadlines.
    pub deadlines: Deadlines,
    /// `go infinite`: do not report `bestmove` before `stop`, even after the last iteration.
    pub infinite: bool,
    /// `go mate N`: stop once a mate in N moves or fewer is found.
    pub mate: Option<u32>,
    /// Principal variations to report (`MultiPV`); the first one decides the move.
    pub multipv: usize,
}

impl Limits {
    /// A search to `depth` or `nodes`, with no clock, one line, and stopping at its last
    /// iteration (what `bench` and self-play use).
    pub fn fixed(depth: i32, nodes: Option<u64>, start: Instant) -> Self {
        Limits {
            depth,
            nodes,
            deadlines: Deadlines::unlimited(start),
            infinite: false,
            mate: None,
            multipv: 1,
        }
    }
}

/// State shared by the search threads and the UCI thread.
#[derive(Default)]
pub struct Shared {
    /// Set by `stop`/`quit`, by the main thread at its limits, by the timer, or by a new
    /// command.
    pub stop: AtomicBool,
    /// Nodes of all threads (flushed every 512 nodes per thread).
    pub nodes: AtomicU64,
    /// `go ponder` until `ponderhit`: the clock and node limits are suspended (the clock still
    /// runs from `go`, as Stockfish counts it) and `bestmove` waits, as for `infinite`.
    pub pondering: AtomicBool,
    /// Evaluations asked of the evaluation cache (those the table did not hold), all threads
    /// (flushed with the nodes).
    pub eval_probes: AtomicU64,
    /// Of those, the ones the evaluation cache held.
    pub eval_hits: AtomicU64,
}

/// A search to run: the position, how it was reached, and the shared state.
pub struct Task<'a> {
    /// The root position.
    pub root: Board,
    /// Keys of the game's positions before the root, oldest first (for repetitions).
    pub history: Vec<u64>,
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// The shared evaluation cache (`EvalHash`; possibly off).
    pub evals: &'a EvalCache,
    /// Stop flag and node counter.
    pub shared: &'a Shared,
    /// Limits.
    pub limits: Limits,
    /// The root moves to consider (`go searchmoves`); empty means every legal move.
    pub root_moves: Vec<Move>,
    /// Print `info` lines (UCI) or stay silent (bench).
    pub report: bool,
    /// Write castling as king-takes-rook (`UCI_Chess960`).
    pub chess960: bool,
    /// What a draw is worth to the root's side, negated, in centipawns (`Contempt`): with a
    /// positive value the search prefers playing on to a draw in a position it scores above
    /// `−contempt`. Mate scores are unaffected.
    pub contempt: i32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The move to play; `None` when the root has no legal move.
    pub best: Option<Move>,
    /// The reply expected after `best` (the PV's second move, else the table's move there).
    pub ponder: Option<Move>,
    /// Its score, centipawns or mate, from the root's side.
    pub score: i32,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes of all threads.
    pub nodes: u64,
}

/// Every legal move of `board`.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}
