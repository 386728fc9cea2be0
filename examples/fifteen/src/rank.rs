//! Compact ranks of tile placements: the cells of `k` distinct tiles on a board of `n` cells (16
//! or 25), numbered `0..n!/(n-k)!` with no gap (4×4: 57,657,600 for 7 tiles, 518,918,400 for
//! 8; 5×5: 127,512,000 for 6), and the change of rank when one tile slides, computed from the
//! few cells it passes over instead of from scratch.
//!
//! The rank is lexicographic in the tiles' "digits": slot `i`'s digit is its cell minus the
//! number of earlier slots on lower cells, so it lies in `0..n-i`, and
//! `rank = Σ digit_i · W_i` with `W_i = (n-1-i)·(n-2-i)·…·(n+1-k)` (the number of placements
//! of the slots after `i`; `W_{k-1} = 1`).

/// The most cells of a board (5×5); masks of cells are `u32`.
pub const MAX_CELLS: usize = 25;

/// The most tiles a ranked pattern has: 8 tiles rank below 2^32 on 16 cells, and their free
/// cells fit the builder's 16-bit state word (see `pdb_build.rs`).
pub const MAX_TILES: usize = 8;

/// `SELECT[byte][n]`: the position of the `n`-th set bit of `byte` (8 when there is none).
const SELECT: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut n = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `n`-th (from 0) set bit of `mask`; `n` must be below its popcount.
#[inline]
fn select(mask: u32, mut n: u32) -> u8 {
    let mut base = 0;
    let mut rest = mask;
    loop {
        let byte = (rest & 0xFF) as usize;
        let here = byte.count_ones();
        if n < here {
            return base + SELECT[byte][n as usize];
        }
        n -= here;
        rest >>= 8;
        base += 8;
    }
}

/// The ranking of one pattern size.
#[derive(Clone, Debug)]
pub struct Ranking {
    k: usize,
    cells: usize,
    /// `W_i` above.
    weights: [u32; MAX_TILES],
    /// `ceil(2^64 / W_i)`: `(r · inverse) >> 64` is `r / W_i` exactly for every `r < 2^32`
    /// (the rounding error stays below `r / 2^64`, far under `1 / W_i`), without a division.
    inverses: [u64; MAX_TILES],
    count: usize,
}

impl Ranking {
    /// The ranking of `k` tiles, `1..=MAX_TILES`, on a board of `cells` cells (`k..=MAX_CELLS`;
    /// the count must stay below 2^32).
    ///
    /// # Panics
    /// When `k` or `cells` is out of those ranges (patterns are checked before they get here).
    pub fn new(k: usize, cells: usize) -> Ranking {
        assert!((1..=MAX_TILES).contains(&k), "patterns have 1..=8 tiles");
        assert!((k..=MAX_CELLS).contains(&cells), "boards have k..=25 cells");
        let count: usize = (0..k).map(|j| cells - j).product();
        assert!(count <= u32::MAX as usize, "ranks fit 32 bits");
        let mut weights = [0u32; MAX_TILES];
        let mut inverses = [0u64; MAX_TILES];
        for i in 0..k {
            weights[i] = (i + 1..k).map(|j| (cells - j) as u32).product();
            // The last slot's weight is 1, whose inverse 2^64 does not fit: `unrank` needs none.
            inverses[i] = (u64::MAX / u64::from(weights[i])).wrapping_add(1);
        }
        Ranking {
            k,
            cells,
            weights,
            inverses,
            count,
        }
    }

    /// Tiles per placement.
    pub fn tiles(&self) -> usize {
        self.k
    }

    /// Cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Placements: `n!/(n-k)!`.
    pub fn count(&self) -> usize {
        self.count
    }

    /// `W_i`: how much slot `i`'s digit weighs in the rank.
    #[inline]
    pub fn weight(&self, slot: usize) -> u32 {
        self.weights[slot]
    }

    /// The rank of the placement putting slot `i` on `cells[i]` (distinct cells `< n`).
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u32 {
        let mut used = 0u32;
        let mut rank = 0;
        for (i, &c) in cells[..self.k].iter().enumerate() {
            let below = (used & ((1u32 << c) - 1)).count_ones();
            rank += (u32::from(c) - below) * self.weights[i];
            used |= 1 << c;
        }
        rank
    }

    /// The cells of the placement of rank `rank` (`< count()`), slot by slot into `cells`;
    /// returns the occupied cells as a mask.
    #[inline]
    pub fn unrank(&self, mut rank: u32, cells: &mut [u8; MAX_TILES]) -> u32 {
        let all = u32::MAX >> (32 - self.cells);
        let mut free = all;
        let last = self.k - 1;
        for ((cell, &weight), &inverse) in cells[..last]
            .iter_mut()
            .zip(&self.weights)
            .zip(&self.inverses)
        {
            let digit = ((u128::from(rank) * u128::from(inverse)) >> 64) as u32;
            rank -= digit * weight;
            *cell = select(free, digit);
            free &= !(1 << *cell);
        }
        cells[last] = select(free, rank);
        all & !(free & !(1 << cells[last]))
    }

    /// The change of rank when slot `i` slides from cell `from` to the free cell `to` (one
    /// step: `to` is `from ± 1` or `from ± side`). `slot_at(cell)` is the slot of the pattern
    /// tile on `cell`, or `None`; it is asked only about the cells strictly between `from`
    /// and `to`, so a horizontal step asks nothing.
    ///
    /// Why: slot `j`'s digit counts the earlier slots on lower cells, so moving `i` changes
    /// `i`'s own digit by the distance minus the earlier slots it passes, and the digit of
    /// each later slot it passes by one.
    #[inline]
    pub fn delta(&self, i: usize, from: u8, to: u8, slot_at: impl Fn(u8) -> Option<u8>) -> i32 {
        let (low, high, sign) = if to > from {
            (from, to, 1)
        } else {
            (to, from, -1)
        };
        let mut own = i32::from(high - low);
        let mut delta = 0;
        for cell in low + 1..high {
            match slot_at(cell) {
                Some(j) if usize::from(j) < i => own -= 1,
                Some(j) => delta += self.weights[usize::from(j)] as i32,
                None => {}
            }
        }
        sign * (own * self.weights[i] as i32 + delta)
    }
}
