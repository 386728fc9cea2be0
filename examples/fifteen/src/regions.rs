//! The blank's free regions: for a set of occupied cells, the connected components of the
//! others. In a pattern database's abstract space the blank moves through cells no pattern tile
//! holds at no cost, so a (placement, region) pair stands for every blank cell of the region.
//! Sets of cells are `u32` masks (bit `c` = cell `c`) on a [`Grid`] of side 4 or 5.

/// The most regions the free cells of a set of at most 8 occupied cells form on the 4×4 board
/// (8, for 8 occupied cells in a checkerboard; `tests/pdb.rs` checks this over every set of up to
/// 8 cells)
/// or the 5×5 board (fewer: isolating a cell takes at least 2 occupied cells, and only corners
/// take 2).
pub const MAX_REGIONS: usize = 8;

/// The neighbours (up, down, left, right) of every cell of `mask` on the 4×4 grid.
#[inline]
pub fn spread(mask: u16) -> u16 {
    const NOT_COL0: u16 = 0xEEEE;
    const NOT_COL3: u16 = 0x7777;
    ((mask << 1) & NOT_COL0) | ((mask >> 1) & NOT_COL3) | (mask << 4) | (mask >> 4)
}

/// The cells of `!occupied` connected to `cell` (itself free) through free cells, on the 4×4
/// grid.
#[inline]
pub fn flood(occupied: u16, cell: u8) -> u16 {
    Grid::new(4).flood(u32::from(occupied), cell) as u16
}

/// A square grid's geometry as masks: which cells have a left or right neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    side: u8,
    all: u32,
    not_first_col: u32,
    not_last_col: u32,
}

impl Grid {
    /// The `side`×`side` grid, `side` in 2..=5.
    ///
    /// # Panics
    /// When `side` is out of that range.
    pub fn new(side: u8) -> Grid {
        assert!((2..=5).contains(&side), "grids are 2×2 to 5×5");
        let cells = u32::from(side) * u32::from(side);
        let all = u32::MAX >> (32 - cells);
        let first_col = (0..side).fold(0u32, |m, r| m | 1 << (r * side));
        Grid {
            side,
            all,
            not_first_col: all & !first_col,
            not_last_col: all & !(first_col << (side - 1)),
        }
    }

    /// The side.
    #[inline]
    pub fn side(&self) -> u8 {
        self.side
    }

    /// Cells: `side²`.
    #[inline]
    pub fn cells(&self) -> usize {
        usize::from(self.side) * usize::from(self.side)
    }

    /// Every cell.
    #[inline]
    pub fn all(&self) -> u32 {
        self.all
    }

    /// The neighbours (up, down, left, right) of every cell of `mask`.
    #[inline]
    pub fn spread(&self, mask: u32) -> u32 {
        let s = u32::from(self.side);
        (((mask << 1) & self.not_first_col)
            | ((mask >> 1) & self.not_last_col)
            | (mask << s)
            | (mask >> s))
            & self.all
    }

    /// The cells of the free cells (not in `occupied`) connected to `cell` (itself free).
    #[inline]
    pub fn flood(&self, occupied: u32, cell: u8) -> u32 {
        let mut region = 1u32 << cell;
        loop {
            let grown = region | (self.spread(region) & !occupied);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The cell mirrored in the main diagonal; also the tile that is `tile`'s mirror image
    /// (tile `t`'s goal is cell `t`).
    #[inline]
    pub fn transpose(&self, cell: u8) -> u8 {
        (cell % self.side) * self.side + cell / self.side
    }

    /// Manhattan distance of `tile` on `cell` (tile `t`'s goal is cell `t`).
    #[inline]
    pub fn manhattan(&self, tile: u8, cell: u8) -> u32 {
        let s = self.side;
        u32::from((tile / s).abs_diff(cell / s) + (tile % s).abs_diff(cell % s))
    }
}

/// `C(n, r)` for `n, r <= 32`.
const fn binomial(n: usize, r: usize) -> usize {
    if r > n {
        return 0;
    }
    let mut c = 1;
    let mut i = 0;
    while i < r {
        c = c * (n - i) / (i + 1);
        i += 1;
    }
    c
}

/// The regions of every set of `k` occupied cells, indexed by the set's combinatorial rank
/// (`Σ C(cell_j, j + 1)` over its cells in increasing order): 12,870 sets for 8 of 16 cells
/// (about 300 KiB) and 177,100 for 6 of 25 (8.5 MiB).
pub struct Regions {
    k: u32,
    grid: Grid,
    /// `part[byte_position][cells below the byte][byte]`: the rank's part from that byte.
    part: Vec<[[u32; 256]; 9]>,
    /// Per set: its regions, lowest cell first, then zeros.
    masks: Vec<[u32; MAX_REGIONS]>,
    /// Per set: the region index of each free cell, 4 bits per cell.
    index: Vec<u128>,
}

impl Regions {
    /// The table for sets of `k` occupied cells (`0..=8`) of `grid`.
    ///
    /// # Panics
    /// When `k` is above 8.
    pub fn new(k: usize, grid: Grid) -> Regions {
        assert!(k <= 8, "at most 8 occupied cells");
        let bytes = grid.cells().div_ceil(8);
        let part = (0..bytes)
            .map(|position| {
                let mut rows = [[0u32; 256]; 9];
                for (before, row) in rows.iter_mut().enumerate() {
                    for (byte, at) in row.iter_mut().enumerate() {
                        let bits = (0..8).filter(|b| byte >> b & 1 == 1);
                        *at = bits
                            .enumerate()
                            .map(|(j, p)| binomial(8 * position + p, before + j + 1))
                            .sum::<usize>() as u32;
                    }
                }
                rows
            })
            .collect();
        let count = binomial(grid.cells(), k);
        let mut table = Regions {
            k: k as u32,
            grid,
            part,
            masks: vec![[0; MAX_REGIONS]; count],
            index: vec![0; count],
        };
        let mut occupied: u32 = (1u32 << k) - 1;
        while occupied <= grid.all() {
            table.record(occupied);
            if k == 0 {
                break;
            }
            // Gosper's hack: the next larger set of the same size.
            let low = occupied & occupied.wrapping_neg();
            let ripple = occupied + low;
            occupied = (((ripple ^ occupied) >> 2) / low) | ripple;
        }
        table
    }

    /// Floods the free cells of `occupied` into regions and stores them.
    fn record(&mut self, occupied: u32) {
        let at = self.compact(occupied);
        let mut left = self.grid.all() & !occupied;
        let mut n = 0;
        while left != 0 {
            let region = self.grid.flood(occupied, left.trailing_zeros() as u8);
            self.masks[at][n] = region;
            let mut cells = region;
            while cells != 0 {
                let cell = cells.trailing_zeros();
                cells &= cells - 1;
                self.index[at] |= (n as u128) << (4 * cell);
            }
            n += 1;
            left &= !region;
        }
    }

    #[inline]
    fn compact(&self, occupied: u32) -> usize {
        debug_assert_eq!(occupied.count_ones(), self.k);
        let mut rank = 0;
        let mut before = 0;
        for (position, rows) in self.part.iter().enumerate() {
            let byte = (occupied >> (8 * position)) as u8;
            rank += rows[before][usize::from(byte)];
            before += byte.count_ones() as usize;
        }
        rank as usize
    }

    /// The grid.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The regions of `occupied`'s free cells (`k` of them occupied), lowest cell first, then
    /// zeros.
    #[inline]
    pub fn of(&self, occupied: u32) -> &[u32; MAX_REGIONS] {
        &self.masks[self.compact(occupied)]
    }

    /// The index (in [`of`](Self::of)) of the region holding the free `cell`.
    #[inline]
    pub fn index_of(&self, occupied: u32, cell: u8) -> usize {
        (self.index[self.compact(occupied)] >> (4 * cell) & 15) as usize
    }
}
