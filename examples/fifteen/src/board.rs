//! The sliding-tile board: an N×N grid packed into one integer, which is at once the board and
//! its equality: 4 bits per cell in a `u64` for N = 2, 3, 4 (also the transposition-table key),
//! 5 bits per cell in a `u128` for N = 5 (the 24-puzzle; its table key is a 64-bit hash).
//! Every search is generic over the [`Packing`], so both sizes share one solver.

use std::fmt;
use std::hash::Hash;

/// How the cells of a board are packed into one integer: `BITS` bits per cell, cell `i` in bits
/// `BITS·i..BITS·(i+1)`.
pub trait Packing: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    /// Bits per cell.
    const BITS: u32;
    /// The sides this packing holds (`side² · BITS` bits fit and tiles fit `BITS` bits).
    const SIDES: std::ops::RangeInclusive<u8>;
    /// No tile anywhere.
    const EMPTY: Self;
    /// `tile` added on `cell` (which holds 0).
    fn with(self, cell: u8, tile: u8) -> Self;
    /// The tile on `cell`.
    fn get(self, cell: u8) -> u8;
    /// `tile` moved from cell `from` to the blank's cell `to`.
    fn moved(self, tile: u8, from: u8, to: u8) -> Self;
    /// The 64-bit table key: the packing itself when it fits (distinct boards, distinct keys),
    /// else a mix of it: distinct boards then share a key as random 64-bit values would, about
    /// 2^-64 per pair (`tests/pdb24.rs` counts each 32-bit half's collisions among 2^20 random
    /// boards against 2^-32 per pair).
    fn key(self) -> u64;
}

impl Packing for u64 {
    const BITS: u32 = 4;
    const SIDES: std::ops::RangeInclusive<u8> = 2..=4;
    const EMPTY: u64 = 0;
    #[inline]
    fn with(self, cell: u8, tile: u8) -> u64 {
        self | u64::from(tile) << (4 * cell)
    }
    #[inline]
    fn get(self, cell: u8) -> u8 {
        ((self >> (4 * cell)) & 15) as u8
    }
    #[inline]
    fn moved(self, tile: u8, from: u8, to: u8) -> u64 {
        let t = u64::from(tile);
        self - (t << (4 * from)) + (t << (4 * to))
    }
    #[inline]
    fn key(self) -> u64 {
        self
    }
}

impl Packing for u128 {
    const BITS: u32 = 5;
    const SIDES: std::ops::RangeInclusive<u8> = 5..=5;
    const EMPTY: u128 = 0;
    #[inline]
    fn with(self, cell: u8, tile: u8) -> u128 {
        self | u128::from(tile) << (5 * cell)
    }
    #[inline]
    fn get(self, cell: u8) -> u8 {
        ((self >> (5 * cell)) & 31) as u8
    }
    #[inline]
    fn moved(self, tile: u8, from: u8, to: u8) -> u128 {
        let t = u128::from(tile);
        self - (t << (5 * from)) + (t << (5 * to))
    }
    #[inline]
    fn key(self) -> u64 {
        let (low, high) = (self as u64, (self >> 64) as u64);
        searchcache::mix64(low ^ searchcache::mix64(high).rotate_left(17))
    }
}

/// A move of the blank. The order is Korf's (up, left, right, down), which the node counts of
/// `korf100.tsv` depend on; `opposite` is `3 - d`.
pub const DIRS: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Right, Dir::Down];

/// Where the blank moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Dir {
    /// The blank moves up (the tile above it moves down).
    Up = 0,
    /// The blank moves left.
    Left = 1,
    /// The blank moves right.
    Right = 2,
    /// The blank moves down.
    Down = 3,
}

impl Dir {
    /// The move that undoes this one.
    #[inline]
    pub fn opposite(self) -> Dir {
        DIRS[3 - self as usize]
    }

    /// One letter: U, L, R, D (the blank's direction).
    pub fn letter(self) -> char {
        ['U', 'L', 'R', 'D'][self as usize]
    }
}

/// What is wrong with a list of tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The count is not a square of 2..=5 (4, 9, 16 or 25 numbers), or not one this packing
    /// holds.
    Count(usize),
    /// A number is not a tile of this board (tiles are 0..cells).
    OutOfRange {
        /// The number given.
        tile: u32,
        /// The board's cell count.
        cells: usize,
    },
    /// A tile appears twice.
    Repeated(u8),
    /// A tile is missing.
    Missing(u8),
    /// The permutation cannot reach the goal (wrong parity).
    Unsolvable,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Count(n) => write!(
                f,
                "{n} numbers: a board has 4 (2×2), 9 (3×3), 16 (4×4) or 25 (5×5) tiles, blank = 0"
            ),
            BoardError::OutOfRange { tile, cells } => {
                write!(
                    f,
                    "tile {tile} is out of range: a {cells}-cell board has tiles 0..={}",
                    cells - 1
                )
            }
            BoardError::Repeated(t) => write!(f, "tile {t} appears more than once"),
            BoardError::Missing(t) => write!(f, "tile {t} is missing"),
            BoardError::Unsolvable => write!(
                f,
                "unsolvable: the permutation has the wrong parity to reach the goal 0 1 2 …"
            ),
        }
    }
}

/// A board. Cell `i` holds the tile in bits `BITS·i..` of the packing; the goal has tile `t`
/// at cell `t` (blank top-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board<P: Packing = u64> {
    cells: P,
    blank: u8,
    side: u8,
}

impl Board<u64> {
    /// The goal of an `side`×`side` board (2..=4): 0 1 2 … (blank top-left).
    pub fn goal(side: u8) -> Board {
        Board::goal_of(side)
    }

    /// A board of up to 16 cells from its tiles (see [`Board::from_tiles_of`]).
    pub fn from_tiles(tiles: &[u32]) -> Result<Board, BoardError> {
        Board::from_tiles_of(tiles)
    }
}

impl<P: Packing> Board<P> {
    /// The goal of an `side`×`side` board: 0 1 2 … (blank top-left). `side` must be one of
    /// `P::SIDES`.
    pub fn goal_of(side: u8) -> Board<P> {
        debug_assert!(P::SIDES.contains(&side));
        let cells = (0..side * side).fold(P::EMPTY, |acc, t| acc.with(t, t));
        Board {
            cells,
            blank: 0,
            side,
        }
    }

    /// A board from its tiles, row-major, blank = 0; checked for count (a side `P` holds),
    /// range, repeats, missing tiles and solvability.
    pub fn from_tiles_of(tiles: &[u32]) -> Result<Board<P>, BoardError> {
        let side = match tiles.len() {
            4 => 2,
            9 => 3,
            16 => 4,
            25 => 5,
            n => return Err(BoardError::Count(n)),
        };
        if !P::SIDES.contains(&side) {
            return Err(BoardError::Count(tiles.len()));
        }
        let cells = tiles.len();
        let mut seen = [false; 25];
        for &t in tiles {
            let i = usize::try_from(t).ok().filter(|&i| i < cells);
            let i = i.ok_or(BoardError::OutOfRange { tile: t, cells })?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(BoardError::Repeated(i as u8));
            }
        }
        // With `cells` numbers in range and none repeated, none is missing; kept for clarity of
        // the error when the count check above changes.
        if let Some(t) = (0..cells).find(|&t| !seen[t]) {
            return Err(BoardError::Missing(t as u8));
        }
        let packed = tiles
            .iter()
            .enumerate()
            .fold(P::EMPTY, |acc, (i, &t)| acc.with(i as u8, t as u8));
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        let board = Board {
            cells: packed,
            blank,
            side,
        };
        if !board.solvable() {
            return Err(BoardError::Unsolvable);
        }
        Ok(board)
    }

    /// The goal has an even number of inversions and the blank on row 0. A move changes the
    /// inversions by 0 (horizontal) or by `side - 1` (vertical, which also moves the blank a row):
    /// odd sides keep the inversion parity, even sides keep the parity of inversions + blank row.
    fn solvable(&self) -> bool {
        let tiles: Vec<u8> = (0..self.cell_count())
            .map(|i| self.tile(i))
            .filter(|&t| t != 0)
            .collect();
        let inversions = (0..tiles.len())
            .map(|i| tiles[i + 1..].iter().filter(|&&u| u < tiles[i]).count())
            .sum::<usize>();
        let blank_row = usize::from(self.blank / self.side);
        if self.side % 2 == 1 {
            inversions % 2 == 0
        } else {
            (inversions + blank_row) % 2 == 0
        }
    }

    /// Side length.
    #[inline]
    pub fn side(&self) -> u8 {
        self.side
    }

    /// Number of cells, `side²`.
    #[inline]
    pub fn cell_count(&self) -> u8 {
        self.side * self.side
    }

    /// The tile at `cell` (0 = blank).
    #[inline]
    pub fn tile(&self, cell: u8) -> u8 {
        self.cells.get(cell)
    }

    /// The blank's cell.
    #[inline]
    pub fn blank(&self) -> u8 {
        self.blank
    }

    /// The table key: the packed cells (unique per board of a given side) for up to 16 cells,
    /// a 64-bit hash of them for 25 (see [`Packing::key`]).
    #[inline]
    pub fn key(&self) -> u64 {
        self.cells.key()
    }

    /// Whether this is the goal.
    #[inline]
    pub fn is_goal(&self) -> bool {
        self.cells == Board::<P>::goal_of(self.side).cells
    }

    /// The cell the blank moves to, if the move stays on the board.
    #[inline]
    pub fn target(&self, dir: Dir) -> Option<u8> {
        let (b, s) = (self.blank, self.side);
        match dir {
            Dir::Up if b >= s => Some(b - s),
            Dir::Left if b % s != 0 => Some(b - 1),
            Dir::Right if b % s != s - 1 => Some(b + 1),
            Dir::Down if b + s < s * s => Some(b + s),
            _ => None,
        }
    }

    /// Moves the blank to `to` (a neighbour); returns the tile that moved, from `to` to the
    /// old blank cell.
    #[inline]
    pub fn slide(&mut self, to: u8) -> u8 {
        let tile = self.tile(to);
        self.cells = self.cells.moved(tile, to, self.blank);
        self.blank = to;
        tile
    }

    /// The board after moving the blank `dir`, or `None` off the edge.
    pub fn moved(&self, dir: Dir) -> Option<Board<P>> {
        let to = self.target(dir)?;
        let mut b = *self;
        b.slide(to);
        Some(b)
    }

    /// The tiles, row-major.
    pub fn tiles(&self) -> Vec<u8> {
        (0..self.cell_count()).map(|i| self.tile(i)).collect()
    }

    /// Whether replaying `moves` from this board ends at the goal, every move on the board.
    pub fn solves(&self, moves: &[Dir]) -> bool {
        let mut b = *self;
        for &d in moves {
            match b.moved(d) {
                Some(next) => b = next,
                None => return false,
            }
        }
        b.is_goal()
    }
}

impl<P: Packing> fmt::Display for Board<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles: Vec<String> = self.tiles().iter().map(u8::to_string).collect();
        write!(f, "{}", tiles.join(" "))
    }
}
