//! `go`: its parameters, read leniently (each malformed one is reported and left out, the rest
//! still count) into the limits of one search.
//!
//! Every `go` ends by itself unless it says `infinite` or `ponder`: one that leaves the side to
//! move without a limit (a bare `go`, `go btime 1000` with White to move, `go winc 1000`, or a
//! `go` whose only limits were malformed) thinks for [`DEFAULT_THINK_MS`].

use crate::position::parse_move;
use crate::search::MAX_DEPTH;
use crate::text::{parse_clock_value, truncate};
use crate::time::Clock;
use cozy_chess::{Board, Color, Move};

/// How long a `go` without any limit for the side to move thinks, ms.
pub const DEFAULT_THINK_MS: u64 = 5_000;

/// A parsed `go` command.
#[derive(Clone, Debug, Default)]
pub struct GoCommand {
    /// The side to move's clock (and a fixed `movetime`).
    pub clock: Clock,
    /// `depth N`.
    pub depth: Option<i32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `mate N` (moves).
    pub mate: Option<u32>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `searchmoves …`, legal ones only.
    pub search_moves: Vec<Move>,
    /// One message per malformed or ignored parameter.
    pub errors: Vec<String>,
}

impl GoCommand {
    /// Whether anything ends this search by itself: the side to move's clock, a move time, a
    /// depth, a node count or a mate to find.
    pub fn is_bounded(&self) -> bool {
        self.clock.time_ms.is_some()
            || self.clock.move_time_ms.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.mate.is_some()
    }

    /// The deepest iteration: `depth`, or for `mate N` enough plies for a mate in N and a margin
    /// for pruning (2N + 4), or the engine's maximum.
    pub fn max_depth(&self) -> i32 {
        let mate_depth = self
            .mate
            .map(|moves| (2 * moves.min(MAX_DEPTH as u32) as i32 + 4).min(MAX_DEPTH));
        match (self.depth, mate_depth) {
            (Some(d), Some(m)) => d.min(m),
            (Some(d), None) => d,
            (None, Some(m)) => m,
            (None, None) => MAX_DEPTH,
        }
    }
}

/// Parses the arguments of `go` for `board` (the side to move picks `wtime`/`btime` and
/// `winc`/`binc`; `chess960` says how `searchmoves` writes castling).
pub fn parse_go(args: &[&str], board: &Board, chess960: bool) -> GoCommand {
    let mut go = GoCommand::default();
    let white = board.side_to_move() == Color::White;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let number = args.get(i + 1).and_then(|v| parse_clock_value(v));
        let takes_number = matches!(
            key,
            "depth"
                | "nodes"
                | "movetime"
                | "wtime"
                | "btime"
                | "winc"
                | "binc"
                | "movestogo"
                | "mate"
        );
        if takes_number {
            match number {
                Some(value) => {
                    i += 1;
                    let ours = !matches!(
                        (key, white),
                        ("wtime" | "winc", false) | ("btime" | "binc", true)
                    );
                    match key {
                        "depth" => go.depth = Some(value.clamp(1, MAX_DEPTH as u64) as i32),
                        "nodes" => go.nodes = Some(value),
                        "movetime" => go.clock.move_time_ms = Some(value),
                        "wtime" | "btime" if ours => go.clock.time_ms = Some(value),
                        "winc" | "binc" if ours => go.clock.inc_ms = value,
                        "movestogo" => go.clock.moves_to_go = Some(value),
                        "mate" => go.mate = Some(value.min(u64::from(u32::MAX)) as u32),
                        _ => {} // the other side's clock
                    }
                }
                None => go.errors.push(format!("go {key} needs a number")),
            }
        } else {
            match key {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    // Every following word that reads as a move; illegal ones are reported and
                    // dropped, and with none left the search considers every move.
                    while let Some(mv) = args
                        .get(i + 1)
                        .and_then(|text| parse_move(board, text, chess960))
                    {
                        i += 1;
                        if board.is_legal(mv) {
                            go.search_moves.push(mv);
                        } else {
                            go.errors
                                .push(format!("searchmoves: '{}' is not legal here", args[i]));
                        }
                    }
                    if go.search_moves.is_empty() {
                        go.errors
                            .push("searchmoves: no legal move given; searching all moves".into());
                    }
                }
                other => go
                    .errors
                    .push(format!("unknown go parameter '{}'", truncate(other))),
            }
        }
        i += 1;
    }
    go
}
