//! The blank's free regions: for a set of occupied cells, the connected components of the
//! others. In a pattern database's abstract space the blank moves through cells no pattern tile
//! holds at no cost, so a (placement, region) pair stands for every blank cell of the region.

/// The most regions the free cells of any set of occupied cells form on the 4×4 board (8, for
/// 8 occupied cells in a checkerboard; `tests/pdb.rs` checks this over all 65,536 sets).
pub const MAX_REGIONS: usize = 8;

/// The neighbours (up, down, left, right) of every cell of `mask` on the 4×4 grid.
#[inline]
pub fn spread(mask: u16) -> u16 {
    const NOT_COL0: u16 = 0xEEEE;
    const NOT_COL3: u16 = 0x7777;
    ((mask << 1) & NOT_COL0) | ((mask >> 1) & NOT_COL3) | (mask << 4) | (mask >> 4)
}

/// The cells of `!occupied` connected to `cell` (itself free) through free cells.
#[inline]
pub fn flood(occupied: u16, cell: u8) -> u16 {
    let mut region = 1u16 << cell;
    loop {
        let grown = region | (spread(region) & !occupied);
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// `C(n, r)` for `n, r <= 16`.
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
/// (`Σ C(cell_j, j + 1)` over its cells in increasing order): 12,870 sets for 8 cells, about
/// 300 KiB, small enough to stay in a core's L2 cache while a build looks them up.
pub struct Regions {
    k: u32,
    /// The rank's part from the low byte of the set.
    low: [u16; 256],
    /// The rank's part from the high byte, by the number of cells in the low byte.
    high: [[u16; 256]; 9],
    /// Per set: its regions, lowest cell first, then zeros.
    masks: Vec<[u16; MAX_REGIONS]>,
    /// Per set: the region index of each free cell, 4 bits per cell.
    index: Vec<u64>,
}

impl Regions {
    /// The table for sets of `k` occupied cells, `0..=16`.
    pub fn new(k: usize) -> Regions {
        let mut low = [0u16; 256];
        let mut high = [[0u16; 256]; 9];
        for byte in 0..256usize {
            let bits = (0..8).filter(|b| byte >> b & 1 == 1);
            low[byte] = bits
                .clone()
                .enumerate()
                .map(|(j, p)| binomial(p, j + 1))
                .sum::<usize>() as u16;
            for (before, row) in high.iter_mut().enumerate() {
                row[byte] = bits
                    .clone()
                    .enumerate()
                    .map(|(j, p)| binomial(8 + p, before + j + 1))
                    .sum::<usize>() as u16;
            }
        }
        let count = binomial(16, k);
        let mut table = Regions {
            k: k as u32,
            low,
            high,
            masks: vec![[0; MAX_REGIONS]; count],
            index: vec![0; count],
        };
        for occupied in (0..=u16::MAX).filter(|m| m.count_ones() as usize == k) {
            let at = table.compact(occupied);
            let mut left = !occupied;
            let mut n = 0;
            while left != 0 {
                let region = flood(occupied, left.trailing_zeros() as u8);
                table.masks[at][n] = region;
                for cell in 0..16 {
                    if region >> cell & 1 == 1 {
                        table.index[at] |= (n as u64) << (4 * cell);
                    }
                }
                n += 1;
                left &= !region;
            }
        }
        table
    }

    #[inline]
    fn compact(&self, occupied: u16) -> usize {
        debug_assert_eq!(occupied.count_ones(), self.k);
        let lo = occupied & 0xFF;
        usize::from(self.low[usize::from(lo)])
            + usize::from(self.high[lo.count_ones() as usize][usize::from(occupied >> 8)])
    }

    /// The regions of `occupied`'s free cells (`k` of them occupied), lowest cell first, then
    /// zeros.
    #[inline]
    pub fn of(&self, occupied: u16) -> &[u16; MAX_REGIONS] {
        &self.masks[self.compact(occupied)]
    }

    /// The index (in [`of`](Self::of)) of the region holding the free `cell`.
    #[inline]
    pub fn index_of(&self, occupied: u16, cell: u8) -> usize {
        (self.index[self.compact(occupied)] >> (4 * cell) & 15) as usize
    }
}
