//! Builds one pattern's database: a breadth-first search of the abstract space backwards from
//! the goal, level by level, on every thread of rayon's pool, in about 1 GB for 8 tiles.
//!
//! A state of the abstract space is a placement of the pattern's tiles (its compact rank, see
//! `rank.rs`) and the region of free cells the blank is in (`regions.rs`): moving the blank
//! through free cells is free, moving a pattern tile costs one. Each placement has one 16-bit
//! word, 2 bits per region (at most 8): unreached, reached at an even level, at an odd level,
//! or expanded. Level `d` scans the words for regions labelled with `d`'s parity, expands them
//! (every pattern tile next to the region into every region cell next to it) and labels the
//! unreached regions they reach with `d + 1`'s parity. A placement's entry is written when its
//! first region is reached: that is its distance, the least over its regions. No queue is kept,
//! so the memory is the words (2 bytes per placement) and the output (half a byte), whatever
//! the shape of the levels; the scan skips blocks no region of the level lies in.
//!
//! Threads share the words through atomic `fetch_or`s, which commute: labels only gain bits
//! within a level (unreached → next, current → expanded), so exactly one thread sees a region
//! (and a placement) go from unreached to reached, and the rayon join between levels orders one
//! level's labels before the next level's scan.
//!
//! Entries are stored as the *excess over the pattern's Manhattan distance*, `(d − md) / 2`,
//! 4 bits each: `d` has the parity of `md` (every counted move changes one tile's Manhattan
//! distance by one), and an excess above 15 is stored as 15, which only lowers the bound.

use crate::rank::{Ranking, MAX_CELLS, MAX_TILES};
use crate::regions::{Grid, Regions};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};

/// The most excess an entry holds; larger excesses are stored as this.
pub const MAX_EXCESS: u8 = 15;

/// Words per block of the scan: a block no region of the level lies in is skipped whole.
const BLOCK: usize = 4096;

/// Blocks per rayon task.
const BLOCKS_PER_TASK: usize = 16;

/// Children collected before their words are prefetched and read: enough loads in flight to
/// cover memory latency.
const BATCH: usize = 32;

/// A finished table: `entries` holds the excess of rank `r` in the low (even `r`) or high (odd
/// `r`) nibble of byte `r / 2`.
#[derive(Clone, Debug)]
pub struct Built {
    /// Two 4-bit excesses per byte.
    pub entries: Vec<u8>,
    /// Entries whose excess was above [`MAX_EXCESS`] and stored as it.
    pub saturated: u64,
    /// The largest entry, as a distance (in moves of the pattern's tiles).
    pub max_distance: u32,
}

/// The excess of rank `rank` in a nibble table.
#[inline]
pub fn excess(entries: &[u8], rank: u32) -> u8 {
    (entries[(rank >> 1) as usize] >> ((rank & 1) * 4)) & 15
}

/// Manhattan distance of `tile` on `cell` of the 4×4 board (tile `t`'s goal is cell `t`).
#[inline]
pub fn manhattan(tile: u8, cell: u8) -> u32 {
    u32::from((tile / 4).abs_diff(cell / 4) + (tile % 4).abs_diff(cell % 4))
}

/// Placements per 64-bit word of labels (16 bits each), so that the scan reads four at once.
const PER_WORD: usize = 4;

/// The label of level `d` (2 bits): 01 for even levels, 10 for odd ones; 11 is "expanded".
#[inline]
fn label(level: u32) -> u64 {
    1 + u64::from(level & 1)
}

/// One bit (the low bit of the field) per region of `word` whose label is `label`.
#[inline]
fn fields_with(word: u64, label: u64) -> u64 {
    const LOW_BITS: u64 = 0x5555_5555_5555_5555;
    let low = word & LOW_BITS;
    let high = (word >> 1) & LOW_BITS;
    if label == 1 {
        low & !high
    } else {
        high & !low
    }
}

/// The word and the bit offset of `field` of placement `rank`.
#[inline]
fn locate(rank: u32, field: u8) -> (usize, u32) {
    (
        rank as usize / PER_WORD,
        16 * (rank % PER_WORD as u32) + 2 * u32::from(field),
    )
}

/// A region reached from the level being expanded, before its word is read.
#[derive(Clone, Copy)]
struct Child {
    rank: u32,
    field: u8,
    manhattan: u8,
}

/// What the shared arrays of a build are.
struct Space<'a> {
    ranking: &'a Ranking,
    regions: &'a Regions,
    tiles: &'a [u8],
    /// The labels, [`PER_WORD`] placements per word.
    words: &'a [AtomicU64],
    nibbles: &'a [AtomicU8],
    /// Blocks holding a region of the next level.
    next_active: &'a [AtomicBool],
}

/// What one task counted.
#[derive(Clone, Copy, Default)]
struct Tally {
    regions: u64,
    placements: u64,
    saturated: u64,
    deepest: u32,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, o: Tally) -> Tally {
        Tally {
            regions: self.regions + o.regions,
            placements: self.placements + o.placements,
            saturated: self.saturated + o.saturated,
            deepest: self.deepest.max(o.deepest),
        }
    }
}

impl Space<'_> {
    /// Labels the children in `batch` with `next` (level `level + 1`), prefetching their words
    /// first.
    fn settle(&self, batch: &mut Vec<Child>, next_level: u32, tally: &mut Tally) {
        for c in batch.iter() {
            searchcache::prefetch(&self.words[c.rank as usize / PER_WORD]);
        }
        let next = label(next_level);
        for c in batch.drain(..) {
            let (at, shift) = locate(c.rank, c.field);
            let word = &self.words[at];
            if (word.load(Relaxed) >> shift) & 3 != 0 {
                continue;
            }
            let before = word.fetch_or(next << shift, Relaxed);
            if (before >> shift) & 3 != 0 {
                continue;
            }
            // The placement's whole 16 bits were clear: no region of it was reached before.
            let before = before >> (shift & !15) & 0xFFFF;
            tally.regions += 1;
            let block = &self.next_active[c.rank as usize / BLOCK];
            if !block.load(Relaxed) {
                block.store(true, Relaxed);
            }
            if before == 0 {
                tally.placements += 1;
                tally.deepest = next_level;
                let excess = (next_level - u32::from(c.manhattan)) / 2;
                let stored = excess.min(u32::from(MAX_EXCESS)) as u8;
                tally.saturated += u64::from(excess > u32::from(MAX_EXCESS));
                self.nibbles[(c.rank >> 1) as usize]
                    .fetch_or(stored << ((c.rank & 1) * 4), Relaxed);
            }
        }
    }

    /// Expands every region of level `level` whose word lies in `blocks`.
    fn expand(&self, blocks: std::ops::Range<usize>, level: u32) -> Tally {
        let current = label(level);
        let mut tally = Tally::default();
        let mut batch = Vec::with_capacity(BATCH + 4 * 4 * 8);
        let mut cells = [0u8; MAX_TILES];
        let words =
            blocks.start * BLOCK / PER_WORD..(blocks.end * BLOCK / PER_WORD).min(self.words.len());
        for w in words {
            let all = fields_with(self.words[w].load(Relaxed), current);
            if all == 0 {
                continue;
            }
            self.words[w].fetch_or(all * 3, Relaxed);
            for part in 0..PER_WORD {
                let fields = (all >> (16 * part)) as u16;
                if fields != 0 {
                    self.expand_placement(
                        (w * PER_WORD + part) as u32,
                        fields,
                        &mut cells,
                        &mut batch,
                    );
                }
            }
            if batch.len() >= BATCH {
                self.settle(&mut batch, level + 1, &mut tally);
            }
        }
        self.settle(&mut batch, level + 1, &mut tally);
        tally
    }

    /// Collects the children of placement `r`'s regions marked in `fields` into `batch`.
    #[inline]
    fn expand_placement(
        &self,
        r: u32,
        fields: u16,
        cells: &mut [u8; MAX_TILES],
        batch: &mut Vec<Child>,
    ) {
        let occupied = self.ranking.unrank(r, cells);
        let grid = self.regions.grid();
        let mut slot_at = [u8::MAX; MAX_CELLS];
        let mut md = 0;
        for (i, &c) in cells[..self.tiles.len()].iter().enumerate() {
            slot_at[usize::from(c)] = i as u8;
            md += grid.manhattan(self.tiles[i], c);
        }
        let regions = self.regions.of(occupied);
        let mut left = fields;
        while left != 0 {
            let region = regions[left.trailing_zeros() as usize / 2];
            left &= left - 1;
            let mut movable = grid.spread(region) & occupied;
            while movable != 0 {
                let from = movable.trailing_zeros() as u8;
                movable &= movable - 1;
                let slot = usize::from(slot_at[usize::from(from)]);
                let tile = self.tiles[slot];
                let mut into = grid.spread(1 << from) & region;
                while into != 0 {
                    let to = into.trailing_zeros() as u8;
                    into &= into - 1;
                    let delta = self.ranking.delta(slot, from, to, |x| {
                        Some(slot_at[usize::from(x)]).filter(|&s| s != u8::MAX)
                    });
                    let child_occupied = occupied ^ (1 << from) ^ (1 << to);
                    batch.push(Child {
                        rank: (i64::from(r) + i64::from(delta)) as u32,
                        field: self.regions.index_of(child_occupied, from) as u8,
                        manhattan: (md + grid.manhattan(tile, to) - grid.manhattan(tile, from))
                            as u8,
                    });
                }
            }
        }
    }
}

/// Builds the 4×4 database of `tiles` (see [`build_on`]).
pub fn build(tiles: &[u8], progress: &(dyn Fn(u64) + Sync)) -> Built {
    build_on(Grid::new(4), tiles, progress)
}

/// Builds the database of `tiles` on `grid` (distinct tiles of 1..side², at most 8, whose
/// placements number below 2^32), calling `progress` with the number of placements whose entry
/// was just written (they add up to `n!/(n-k)!` for `n` cells).
///
/// # Panics
/// When `tiles` is not such a pattern (the callers check patterns first).
pub fn build_on(grid: Grid, tiles: &[u8], progress: &(dyn Fn(u64) + Sync)) -> Built {
    assert!(
        tiles
            .iter()
            .all(|&t| (1..grid.cells()).contains(&usize::from(t))),
        "pattern tiles are 1..side²"
    );
    let ranking = Ranking::new(tiles.len(), grid.cells());
    let regions = Regions::new(tiles.len(), grid);
    let n = ranking.count();
    let words: Vec<AtomicU64> = (0..n.div_ceil(PER_WORD))
        .map(|_| AtomicU64::new(0))
        .collect();
    let nibbles: Vec<AtomicU8> = (0..n.div_ceil(2)).map(|_| AtomicU8::new(0)).collect();
    const { assert!(BLOCK.is_multiple_of(PER_WORD)) };
    let blocks = n.div_ceil(BLOCK);
    let mut active: Vec<AtomicBool> = (0..blocks).map(|_| AtomicBool::new(false)).collect();
    let mut next_active: Vec<AtomicBool> = (0..blocks).map(|_| AtomicBool::new(false)).collect();

    // The goal: every tile on its own cell, the blank on cell 0 (never a pattern tile's).
    let goal = ranking.rank(tiles);
    let goal_occupied = tiles.iter().fold(0u32, |m, &t| m | 1 << t);
    let (at, shift) = locate(goal, regions.index_of(goal_occupied, 0) as u8);
    words[at].store(label(0) << shift, Relaxed);
    active[goal as usize / BLOCK].store(true, Relaxed);
    progress(1);
    let mut placements = 1u64;
    let mut saturated = 0u64;
    let mut deepest = 0;
    let mut level = 0;
    loop {
        let space = Space {
            ranking: &ranking,
            regions: &regions,
            tiles,
            words: &words,
            nibbles: &nibbles,
            next_active: &next_active,
        };
        let tasks = blocks.div_ceil(BLOCKS_PER_TASK);
        let tally = (0..tasks)
            .into_par_iter()
            .map(|task| {
                let first = task * BLOCKS_PER_TASK;
                let last = (first + BLOCKS_PER_TASK).min(blocks);
                let mut tally = Tally::default();
                let mut b = first;
                while b < last {
                    if !active[b].load(Relaxed) {
                        b += 1;
                        continue;
                    }
                    let mut e = b + 1;
                    while e < last && active[e].load(Relaxed) {
                        e += 1;
                    }
                    tally = tally + space.expand(b..e, level);
                    b = e;
                }
                if tally.placements > 0 {
                    progress(tally.placements);
                }
                tally
            })
            .reduce(Tally::default, |a, b| a + b);
        placements += tally.placements;
        saturated += tally.saturated;
        deepest = deepest.max(tally.deepest);
        if tally.regions == 0 {
            break;
        }
        level += 1;
        std::mem::swap(&mut active, &mut next_active);
        next_active.par_iter().for_each(|b| b.store(false, Relaxed));
    }
    assert_eq!(
        placements as usize, n,
        "every placement of a pattern is reachable from the goal"
    );
    drop(words);
    Built {
        entries: nibbles.into_iter().map(AtomicU8::into_inner).collect(),
        saturated,
        max_distance: deepest,
    }
}
