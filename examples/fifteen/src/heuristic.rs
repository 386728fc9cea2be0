//! Admissible heuristics, updated incrementally as one tile slides: Manhattan distance and
//! Manhattan distance + linear conflict (Hansson, Mayer, Yung 1992). The pattern databases are
//! in `pdb.rs`.

use crate::board::{Board, Packing};

/// A lower bound on the moves from a board to the goal, kept up to date move by move.
///
/// A move is taken in two steps so that a search can overlap memory latency: [`begin`]
/// computes what the child needs (and may prefetch the lines its value lives in) for every
/// child of a node first, then [`finish`] reads the values. Heuristics that read no large table
/// do all the work in `begin`.
///
/// [`begin`]: Heuristic::begin
/// [`finish`]: Heuristic::finish
/// `P` is the board's packing: `u64` (up to 4×4, the default) or `u128` (5×5).
pub trait Heuristic<P: Packing = u64>: Sync {
    /// What the heuristic carries from a board to its child.
    type State: Copy + Send + Sync;

    /// A child's state between [`begin`](Heuristic::begin) and [`finish`](Heuristic::finish).
    type Pending: Copy;

    /// The state and value of a board.
    fn init(&self, board: &Board<P>) -> (Self::State, u32);

    /// Starts the update after `tile` slid from cell `from` to cell `to`, turning `before` into
    /// `after`.
    fn begin(
        &self,
        state: Self::State,
        before: &Board<P>,
        after: &Board<P>,
        tile: u8,
        from: u8,
        to: u8,
    ) -> Self::Pending;

    /// The child's state and value.
    fn finish(&self, pending: Self::Pending) -> (Self::State, u32);

    /// Both steps at once.
    #[inline]
    fn update(
        &self,
        state: Self::State,
        before: &Board<P>,
        after: &Board<P>,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (Self::State, u32) {
        self.finish(self.begin(state, before, after, tile, from, to))
    }
}

/// Manhattan distance: the sum over tiles of rows + columns to their goal cell.
pub struct Manhattan {
    side: u8,
    /// `dist[tile][cell]`: 0 for the blank.
    dist: [[u8; 25]; 25],
}

impl Manhattan {
    /// The table for an `side`×`side` board.
    pub fn new(side: u8) -> Manhattan {
        let mut dist = [[0u8; 25]; 25];
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
    pub fn of<P: Packing>(&self, board: &Board<P>) -> u32 {
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

impl<P: Packing> Heuristic<P> for Manhattan {
    type State = u32;
    type Pending = (u32, u32);

    fn init(&self, board: &Board<P>) -> (u32, u32) {
        let h = self.of(board);
        (h, h)
    }

    #[inline]
    fn begin(&self, h: u32, _: &Board<P>, _: &Board<P>, tile: u8, from: u8, to: u8) -> (u32, u32) {
        let h = h.wrapping_add_signed(self.delta(tile, from, to));
        (h, h)
    }

    #[inline]
    fn finish(&self, done: (u32, u32)) -> (u32, u32) {
        done
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
    /// The cell's mirror image in the main diagonal (row ↔ column).
    transpose: [u8; 16],
}

/// The linear-conflict heuristic's incremental state.
#[derive(Clone, Copy, Debug)]
pub struct LcState {
    md: u32,
    lc: u32,
    /// The board transposed (see `LinearConflict::transposed`), to read columns in one shift.
    columns: u64,
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
        let mut transpose = [0u8; 16];
        for c in 0..side * side {
            transpose[usize::from(c)] = (c % side) * side + c / side;
        }
        LinearConflict {
            md: Manhattan::new(side),
            side,
            rows,
            cols,
            transpose,
        }
    }

    /// The conflict term of line `line` of `packed` (a board's key for rows, its transpose's
    /// for columns) from `table`.
    #[inline]
    fn term(&self, table: &[u8], packed: u64, line: u8) -> u32 {
        let bits = 4 * u32::from(self.side);
        let content = (packed >> (bits * u32::from(line))) & ((1 << bits) - 1);
        u32::from(table[(usize::from(line) << bits) | content as usize])
    }

    /// The board's key transposed: cell (r, c) in nibble `c · side + r`, so columns read like rows.
    fn transposed(&self, board: &Board) -> u64 {
        (0..board.cell_count()).fold(0, |acc, c| {
            acc | u64::from(board.tile(c)) << (4 * self.transpose[usize::from(c)])
        })
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
    type State = LcState;
    type Pending = (LcState, u32);

    fn init(&self, board: &Board) -> (LcState, u32) {
        let columns = self.transposed(board);
        let lc = (0..self.side)
            .map(|l| self.term(&self.rows, board.key(), l) + self.term(&self.cols, columns, l))
            .sum();
        let md = self.md.of(board);
        (LcState { md, lc, columns }, md + lc)
    }

    #[inline]
    fn finish(&self, done: (LcState, u32)) -> (LcState, u32) {
        done
    }

    #[inline]
    fn begin(
        &self,
        s: LcState,
        before: &Board,
        after: &Board,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (LcState, u32) {
        let md = s.md.wrapping_add_signed(self.md.delta(tile, from, to));
        let t = u64::from(tile);
        let (tf, tt) = (
            self.transpose[usize::from(from)],
            self.transpose[usize::from(to)],
        );
        let columns = s.columns - (t << (4 * tf)) + (t << (4 * tt));
        let side = self.side;
        // A vertical slide changes two rows' contents (columns keep their order); a horizontal
        // slide changes two columns.
        let lc = if from / side != to / side {
            let (a, b) = (from / side, to / side);
            let rows = &self.rows;
            s.lc + self.term(rows, after.key(), a) + self.term(rows, after.key(), b)
                - self.term(rows, before.key(), a)
                - self.term(rows, before.key(), b)
        } else {
            let (a, b) = (tf / side, tt / side);
            let cols = &self.cols;
            s.lc + self.term(cols, columns, a) + self.term(cols, columns, b)
                - self.term(cols, s.columns, a)
                - self.term(cols, s.columns, b)
        };
        (LcState { md, lc, columns }, md + lc)
    }
}
