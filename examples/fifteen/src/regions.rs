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

/// Every occupancy mask's regions, in the order of their lowest cell (1 MiB).
pub struct Regions {
    masks: Vec<[u16; MAX_REGIONS]>,
}

impl Default for Regions {
    fn default() -> Self {
        Self::new()
    }
}

impl Regions {
    /// The table for all 65,536 masks.
    pub fn new() -> Regions {
        let masks = (0..=u16::MAX)
            .map(|occupied| {
                let mut regions = [0u16; MAX_REGIONS];
                let mut left = !occupied;
                let mut n = 0;
                while left != 0 {
                    let region = flood(occupied, left.trailing_zeros() as u8);
                    regions[n] = region;
                    n += 1;
                    left &= !region;
                }
                regions
            })
            .collect();
        Regions { masks }
    }

    /// The regions of `occupied`'s free cells, lowest cell first, then zeros.
    #[inline]
    pub fn of(&self, occupied: u16) -> &[u16; MAX_REGIONS] {
        &self.masks[usize::from(occupied)]
    }

    /// The index (in [`of`](Self::of)) of the region holding the free `cell`.
    #[inline]
    pub fn index_of(&self, occupied: u16, cell: u8) -> usize {
        let regions = self.of(occupied);
        let bit = 1u16 << cell;
        regions.iter().position(|r| r & bit != 0).unwrap_or(0)
    }
}
