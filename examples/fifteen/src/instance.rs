//! A puzzle to solve, and instance files: one board per line, checked with an error that
//! names the line (never a panic).

use crate::board::{Board, BoardError};

/// A puzzle to solve, with a label for the report.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Korf id, `file:line`, or `argv`.
    pub label: String,
    /// The start.
    pub board: Board,
    /// The known optimal length, for Korf's instances.
    pub known_len: Option<u32>,
    /// Korf's node count for the chosen heuristic (md/lc), for Korf's instances.
    pub known_nodes: Option<u64>,
}

/// One instance per non-empty line; `#` starts a comment. Errors name `source:line`.
pub fn parse_instances(text: &str, source: &str) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let label = format!("{source}:{}", n + 1);
        let tiles = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u32>()
                    .map_err(|_| format!("{label}: '{t}' is not a tile number"))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        let board = Board::from_tiles(&tiles).map_err(|e: BoardError| format!("{label}: {e}"))?;
        out.push(Instance {
            label,
            board,
            known_len: None,
            known_nodes: None,
        });
    }
    if out.is_empty() {
        return Err(format!("{source}: no instances"));
    }
    Ok(out)
}
