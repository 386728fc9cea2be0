//! A puzzle to solve, and instance files: one board per line (or korf24.tsv's lines: id,
//! optimal length, Manhattan distance, board), checked with an error that names the line
//! (never a panic).

use crate::board::{Board, BoardError, Dir};
use std::fmt;

/// A board of any supported size: up to 4×4 packed in a `u64`, 5×5 in a `u128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// 2×2, 3×3 or 4×4.
    Small(Board),
    /// 5×5 (the 24-puzzle).
    Large(Board<u128>),
}

impl Puzzle {
    /// A board from its tiles (4, 9, 16 or 25 numbers), checked as [`Board::from_tiles_of`]
    /// checks them.
    pub fn from_tiles(tiles: &[u32]) -> Result<Puzzle, BoardError> {
        if tiles.len() == 25 {
            Board::<u128>::from_tiles_of(tiles).map(Puzzle::Large)
        } else {
            Board::from_tiles(tiles).map(Puzzle::Small)
        }
    }

    /// The side.
    pub fn side(&self) -> u8 {
        match self {
            Puzzle::Small(b) => b.side(),
            Puzzle::Large(b) => b.side(),
        }
    }

    /// Whether replaying `moves` ends at the goal, every move on the board.
    pub fn solves(&self, moves: &[Dir]) -> bool {
        match self {
            Puzzle::Small(b) => b.solves(moves),
            Puzzle::Large(b) => b.solves(moves),
        }
    }
}

impl From<Board> for Puzzle {
    fn from(b: Board) -> Puzzle {
        Puzzle::Small(b)
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Puzzle::Small(b) => b.fmt(f),
            Puzzle::Large(b) => b.fmt(f),
        }
    }
}

/// A puzzle to solve, with a label for the report.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Korf id, `file:line`, or `argv`.
    pub label: String,
    /// The start.
    pub board: Puzzle,
    /// The known optimal length, for Korf's instances.
    pub known_len: Option<u32>,
    /// Korf's node count for the chosen heuristic (md/lc), for Korf's instances.
    pub known_nodes: Option<u64>,
}

/// One instance per non-empty line; `#` starts a comment; a line starting `id` (a header) is
/// skipped. A line is a board, or (korf24.tsv's format) tab-separated id, optimal length,
/// Manhattan distance and board: the length is then checked against the solution's. Errors
/// name `source:line`.
pub fn parse_instances(text: &str, source: &str) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with("id") {
            continue;
        }
        let mut label = format!("{source}:{}", n + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        let (board_text, known_len) = if let [id, len, _md, board] = fields[..] {
            let len = len
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("{label}: '{len}' is not an optimal length"))?;
            label = format!("{}:{}", source, id.trim());
            (board, Some(len))
        } else {
            (line, None)
        };
        let tiles = board_text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u32>()
                    .map_err(|_| format!("{label}: '{t}' is not a tile number"))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        let board = Puzzle::from_tiles(&tiles).map_err(|e: BoardError| format!("{label}: {e}"))?;
        out.push(Instance {
            label,
            board,
            known_len,
            known_nodes: None,
        });
    }
    if out.is_empty() {
        return Err(format!("{source}: no instances"));
    }
    Ok(out)
}
