//! Admissible heuristics, updated incrementally as one tile slides: Manhattan distance and
//! Manhattan distance + linear conflict (Hansson, Mayer, Yung 1992). The pattern databases are
//! in `pdb.rs`.

use crate::board::Board;

/// A lower bound on the moves from a board to the goal, kept up to date move by move.
pub trait Heuristic: Sync {
    /// What the heuristic carries from a board to its child.
    type State: Copy + Send + Sync;

    /// The state and value of a board.
    fn init(&self, board: &Board) -> (Self::State, u32);

    /// The state and value after `tile` slid from cell `from` to cell `to`, turning `before`
    /// into `after`.
    fn update(
        &self,
        state: Self::State,
        before: &Board,
        after: &Board,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (Self::State, u32);
}

/// Manhattan distance: the sum over tiles of rows + columns to their goal cell.
pub struct Manhattan {
    side: u8,
    /// `dist[tile][cell]`: 0 for the blank.
    dist: [[u8; 16]; 16],
}

impl Manhattan {
    /// The table for an `side`×`side` board.
    pub fn new(side: u8) -> Manhattan {
        let mut dist = [[0u8; 16]; 16];
        for tile in 1..side * side {
            for cell in 0..side * side {
                let (tr, tc) = (tile / side, tile % side);
                let (r, c) = (cell / side, cell % side);
                dist[tile as usize][cell as usize] = tr.abs_diff(r) + tc.abs_diff(c);
            }
        }
        Manhattan { side, dist }
    }

    /// The Manhattan distance of a board, from scratch.
    pub fn of(&self, board: &Board) -> u32 {
        debug_assert_eq!(board.side(), self.side);
        (0..board.cell_count())
            .map(|c| u32::from(self.dist[board.tile(c) as usize][c as usize]))
            .sum()
    }

    /// The change when `tile` slides from `from` to `to`: ±1.
    #[inline]
    pub fn delta(&self, tile: u8, from: u8, to: u8) -> i32 {
        i32::from(self.dist[tile as usize][to as usize])
            - i32::from(self.dist[tile as usize][from as usize])
    }
}

impl Heuristic for Manhattan {
    type State = u32;

    fn init(&self, board: &Board) -> (u32, u32) {
        let h = self.of(board);
        (h, h)
    }

    #[inline]
    fn update(&self, h: u32, _: &Board, _: &Board, tile: u8, from: u8, to: u8) -> (u32, u32) {
        let h = h.wrapping_add_signed(self.delta(tile, from, to));
        (h, h)
    }
}

/// Manhattan distance plus 2 for every tile that must leave its goal row (column) so that the
/// others in it can pass each other: per line, tiles in their goal line minus the longest run of
/// them already in goal order (an increasing subsequence), times two. Rows and columns add up
/// because a vertical detour is never counted in a row's Manhattan term and vice versa.
pub struct LinearConflict {
    md: Manhattan,
    side: u8,
    /// `rows[r << bits | content]`: the conflict term of row `r` holding `content` (4 bits per cell).
    rows: Vec<u8>,
    /// The same for columns, content read top to bottom.
    cols: Vec<u8>,
}

impl LinearConflict {
    /// The tables for an `side`×`side` board: `side × 16^side` bytes each (256 KiB for 4×4).
    pub fn new(side: u8) -> LinearConflict {
        let bits = 4 * u32::from(side);
        let contents = 1usize << bits;
        let mut rows = vec![0u8; usize::from(side) * contents];
        let mut cols = vec![0u8; usize::from(side) * contents];
        for line in 0..side {
            for content in 0..contents {
                let tiles: Vec<u8> = (0..side)
                    .map(|i| ((content >> (4 * i)) & 15) as u8)
                    .collect();
                // Goal index along the line of each tile whose goal is in this line.
                let row_goals: Vec<u8> = tiles
                    .iter()
                    .filter(|&&t| t != 0 && t < side * side && t / side == line)
                    .map(|&t| t % side)
                    .collect();
                let col_goals: Vec<u8> = tiles
                    .iter()
                    .filter(|&&t| t != 0 && t < side * side && t % side == line)
                    .map(|&t| t / side)
                    .collect();
                let at = (usize::from(line) << bits) | content;
                rows[at] = conflict(&row_goals);
                cols[at] = conflict(&col_goals);
            }
        }
        LinearConflict {
            md: Manhattan::new(side),
            side,
            rows,
            cols,
        }
    }

    #[inline]
    fn row_term(&self, board: &Board, row: u8) -> u32 {
        let bits = 4 * u32::from(self.side);
        let content = (board.key() >> (bits * u32::from(row))) & ((1 << bits) - 1);
        u32::from(self.rows[(usize::from(row) << bits) | content as usize])
    }

    #[inline]
    fn col_term(&self, board: &Board, col: u8) -> u32 {
        let bits = 4 * u32::from(self.side);
        let content = (0..self.side).fold(0u64, |acc, i| {
            acc | u64::from(board.tile(i * self.side + col)) << (4 * i)
        });
        u32::from(self.cols[(usize::from(col) << bits) | content as usize])
    }

    /// The linear-conflict term of a board, from scratch.
    fn conflicts(&self, board: &Board) -> u32 {
        (0..self.side)
            .map(|l| self.row_term(board, l) + self.col_term(board, l))
            .sum()
    }
}

/// 2 × (tiles − longest increasing subsequence of their goal indices).
fn conflict(goals: &[u8]) -> u8 {
    let mut longest = vec![1u8; goals.len()];
    for i in 0..goals.len() {
        for j in 0..i {
            if goals[j] < goals[i] {
                longest[i] = longest[i].max(longest[j] + 1);
            }
        }
    }
    let lis = longest.iter().copied().max().unwrap_or(0);
    2 * (goals.len() as u8 - lis)
}

impl Heuristic for LinearConflict {
    /// (Manhattan distance, conflict term).
    type State = (u32, u32);

    fn init(&self, board: &Board) -> ((u32, u32), u32) {
        let (md, lc) = (self.md.of(board), self.conflicts(board));
        ((md, lc), md + lc)
    }

    #[inline]
    fn update(
        &self,
        (md, lc): (u32, u32),
        before: &Board,
        after: &Board,
        tile: u8,
        from: u8,
        to: u8,
    ) -> ((u32, u32), u32) {
        let md = md.wrapping_add_signed(self.md.delta(tile, from, to));
        let s = self.side;
        // A vertical slide changes two rows' contents (columns keep their order); a horizontal
        // slide changes two columns.
        let lc = if from / s != to / s {
            let (a, b) = (from / s, to / s);
            lc + self.row_term(after, a) + self.row_term(after, b)
                - self.row_term(before, a)
                - self.row_term(before, b)
        } else {
            let (a, b) = (from % s, to % s);
            lc + self.col_term(after, a) + self.col_term(after, b)
                - self.col_term(before, a)
                - self.col_term(before, b)
        };
        ((md, lc), md + lc)
    }
}
