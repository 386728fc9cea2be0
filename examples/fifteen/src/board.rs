//! The sliding-tile board: an N×N grid (N = 2, 3, 4) packed 4 bits per cell into one `u64`,
//! which is at once the board, its equality and its transposition-table key.

use std::fmt;

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
    /// The count is not a square of 2..=4 (4, 9 or 16 numbers).
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
            BoardError::Count(25) => write!(
                f,
                "25 tiles (5×5) are not supported: boards are packed 4 bits per cell into the 64-bit \
                 table key, so at most 16 cells (4×4)"
            ),
            BoardError::Count(n) => write!(
                f,
                "{n} numbers: a board has 4 (2×2), 9 (3×3) or 16 (4×4) tiles, blank = 0"
            ),
            BoardError::OutOfRange { tile, cells } => {
                write!(f, "tile {tile} is out of range: a {cells}-cell board has tiles 0..={}", cells - 1)
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

/// A board. Cell `i` holds the tile in bits `4i..4i+4`; the goal has tile `t` at cell `t`
/// (blank top-left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: u64,
    blank: u8,
    side: u8,
}

impl Board {
    /// The goal of an `side`×`side` board: 0 1 2 … (blank top-left).
    pub fn goal(side: u8) -> Board {
        let cells = (0..side * side).fold(0u64, |acc, t| acc | u64::from(t) << (4 * t));
        Board {
            cells,
            blank: 0,
            side,
        }
    }

    /// A board from its tiles, row-major, blank = 0; checked for count, range, repeats,
    /// missing tiles and solvability.
    pub fn from_tiles(tiles: &[u32]) -> Result<Board, BoardError> {
        let side = match tiles.len() {
            4 => 2,
            9 => 3,
            16 => 4,
            n => return Err(BoardError::Count(n)),
        };
        let cells = tiles.len();
        let mut seen = [false; 16];
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
            .fold(0u64, |acc, (i, &t)| acc | u64::from(t) << (4 * i));
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
        ((self.cells >> (4 * cell)) & 15) as u8
    }

    /// The blank's cell.
    #[inline]
    pub fn blank(&self) -> u8 {
        self.blank
    }

    /// The packed cells: unique per board of a given side, the table key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.cells
    }

    /// Whether this is the goal.
    #[inline]
    pub fn is_goal(&self) -> bool {
        self.cells == Board::goal(self.side).cells
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
        let t = u64::from(tile);
        self.cells = self.cells - (t << (4 * to)) + (t << (4 * self.blank));
        self.blank = to;
        tile
    }

    /// The board after moving the blank `dir`, or `None` off the edge.
    pub fn moved(&self, dir: Dir) -> Option<Board> {
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

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles: Vec<String> = self.tiles().iter().map(u8::to_string).collect();
        write!(f, "{}", tiles.join(" "))
    }
}
