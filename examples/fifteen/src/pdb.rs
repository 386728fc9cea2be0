//! Additive disjoint pattern databases for the 15-puzzle (Korf & Felner 2002): the tiles are
//! split into groups; each group's table holds, for every placement of its tiles, the fewest
//! moves *of those tiles* that bring them home, whatever the other tiles do. Moves of different
//! groups are different moves, so the sum over groups is admissible. The value is also taken
//! for the board reflected in the main diagonal (the goal is symmetric), and the larger kept.
//!
//! Tables are built by a breadth-first search backwards from the goal at first use, and cached
//! on disk with a format version and a checksum; a file that fails either check is rebuilt.

use crate::board::Board;
use crate::heuristic::{Heuristic, Manhattan};
use crate::pdb_file::{self, Kind};
use crate::regions::{flood, spread};
use rayon::prelude::*;
use std::io;
use std::path::Path;

/// The default partition, 6-6-3: two 6-tile groups and a 3-tile one, each a compact region of
/// the goal (tiles close together interact the most, so their moves are counted together).
///
/// ```text
///  .  A  A  A
///  B  A  A  A
///  B  B  C  C
///  B  B  B  C
/// ```
pub const PARTITION_663: [&[u8]; 3] = [&[1, 2, 3, 5, 6, 7], &[4, 8, 9, 12, 13, 14], &[10, 11, 15]];

/// The largest group we build: 6 tiles index 16^6 entries (16 MiB in memory) and the search
/// marks 16^7 (placement, blank) states in a 32 MiB bitmap. 7 tiles would need 512 MiB.
pub const MAX_GROUP: usize = 6;

/// Groups per partition.
pub const MAX_GROUPS: usize = 4;

const SIDE: u8 = 4;
const CELLS: usize = 16;
const UNSET: u8 = u8::MAX;

/// One group's table, indexed by `Σ cell(tile_i) << 4i` (4 bits per tile, some entries unused).
struct Group {
    tiles: Vec<u8>,
    table: Vec<u8>,
}

/// The cell of `cell`'s mirror image in the main diagonal; also the tile that is `tile`'s mirror
/// image, because tile `t`'s goal cell is `t`.
#[inline]
fn transpose(cell: u8) -> u8 {
    (cell % SIDE) * SIDE + cell / SIDE
}

/// The additive pattern-database heuristic (with its diagonal mirror and Manhattan parity).
pub struct PatternDb {
    groups: Vec<Group>,
    /// For each tile: (group, slot) in the board itself, or `None` when in no group.
    slot: [Option<(u8, u8)>; CELLS],
    /// For each tile `u` of the board: the (group, slot) of its image `transpose(u)` in the
    /// mirrored board.
    mirror_slot: [Option<(u8, u8)>; CELLS],
    md: Manhattan,
}

/// The heuristic's incremental state.
#[derive(Clone, Copy, Debug)]
pub struct PdbState {
    index: [u32; MAX_GROUPS],
    value: [u8; MAX_GROUPS],
    mirror_index: [u32; MAX_GROUPS],
    mirror_value: [u8; MAX_GROUPS],
    md: u32,
}

/// What went wrong with a partition.
#[derive(Debug)]
pub struct PartitionError(pub String);

impl PatternDb {
    /// Loads (or builds and saves) the tables of `partition` under `dir` (`None`: build only,
    /// no cache). `log` hears what happens ("built in 3.2 s", "checksum mismatch: rebuilt").
    pub fn load_or_build(
        partition: &[&[u8]],
        dir: Option<&Path>,
        log: &(dyn Fn(String) + Sync),
    ) -> Result<PatternDb, PartitionError> {
        crate::compact_pdb::check_partition(partition, MAX_GROUP)
            .map_err(|e| PartitionError(e.0))?;
        let groups: Vec<Group> = partition
            .par_iter()
            .map(|tiles| Group::load_or_build(tiles, dir, log))
            .collect();
        let mut slot = [None; CELLS];
        for (g, group) in groups.iter().enumerate() {
            for (s, &t) in group.tiles.iter().enumerate() {
                slot[usize::from(t)] = Some((g as u8, s as u8));
            }
        }
        let mut mirror_slot = [None; CELLS];
        for u in 0..CELLS as u8 {
            mirror_slot[usize::from(u)] = slot[usize::from(transpose(u))];
        }
        Ok(PatternDb {
            groups,
            slot,
            mirror_slot,
            md: Manhattan::new(SIDE),
        })
    }

    fn total(&self, value: &[u8; MAX_GROUPS]) -> u32 {
        value[..self.groups.len()]
            .iter()
            .map(|&v| u32::from(v))
            .sum()
    }

    /// max(direct, mirrored), raised to the parity of the Manhattan distance: every move changes
    /// the Manhattan distance by one, so the true distance has its parity, and a bound of the
    /// other parity can be raised by one.
    #[inline]
    fn value(&self, s: &PdbState) -> u32 {
        let h = self.total(&s.value).max(self.total(&s.mirror_value));
        h + ((h ^ s.md) & 1)
    }
}

impl Heuristic for PatternDb {
    type State = PdbState;
    type Pending = (PdbState, u32);

    fn init(&self, board: &Board) -> (PdbState, u32) {
        assert_eq!(
            board.side(),
            SIDE,
            "pattern databases are built for the 4×4 board"
        );
        let mut s = PdbState {
            index: [0; MAX_GROUPS],
            value: [0; MAX_GROUPS],
            mirror_index: [0; MAX_GROUPS],
            mirror_value: [0; MAX_GROUPS],
            md: self.md.of(board),
        };
        for cell in 0..CELLS as u8 {
            let tile = board.tile(cell);
            if let Some((g, i)) = self.slot[usize::from(tile)] {
                s.index[usize::from(g)] |= u32::from(cell) << (4 * i);
            }
            if let Some((g, i)) = self.mirror_slot[usize::from(tile)] {
                s.mirror_index[usize::from(g)] |= u32::from(transpose(cell)) << (4 * i);
            }
        }
        for (g, group) in self.groups.iter().enumerate() {
            s.value[g] = group.table[s.index[g] as usize];
            s.mirror_value[g] = group.table[s.mirror_index[g] as usize];
        }
        let h = self.value(&s);
        (s, h)
    }

    #[inline]
    fn finish(&self, done: (PdbState, u32)) -> (PdbState, u32) {
        done
    }

    #[inline]
    fn begin(
        &self,
        mut s: PdbState,
        _: &Board,
        _: &Board,
        tile: u8,
        from: u8,
        to: u8,
    ) -> (PdbState, u32) {
        s.md = s.md.wrapping_add_signed(self.md.delta(tile, from, to));
        if let Some((g, i)) = self.slot[usize::from(tile)] {
            let g = usize::from(g);
            let shift = 4 * u32::from(i);
            s.index[g] = s.index[g] - (u32::from(from) << shift) + (u32::from(to) << shift);
            s.value[g] = self.groups[g].table[s.index[g] as usize];
        }
        if let Some((g, i)) = self.mirror_slot[usize::from(tile)] {
            let g = usize::from(g);
            let shift = 4 * u32::from(i);
            s.mirror_index[g] = s.mirror_index[g] - (u32::from(transpose(from)) << shift)
                + (u32::from(transpose(to)) << shift);
            s.mirror_value[g] = self.groups[g].table[s.mirror_index[g] as usize];
        }
        let h = self.value(&s);
        (s, h)
    }
}

impl Group {
    fn load_or_build(tiles: &[u8], dir: Option<&Path>, log: &(dyn Fn(String) + Sync)) -> Group {
        let path = dir.map(|d| d.join(pdb_file::file_name(Kind::SparseBytes, tiles)));
        if let Some(path) = &path {
            match read_table(path, tiles) {
                Ok(table) => {
                    return Group {
                        tiles: tiles.to_vec(),
                        table,
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => log(format!("{}: {e}; rebuilding", path.display())),
            }
        }
        let started = std::time::Instant::now();
        let table = build(tiles);
        log(format!(
            "pattern database {tiles:?} built in {:.1} s",
            started.elapsed().as_secs_f64()
        ));
        if let Some(path) = &path {
            if let Err(e) = write_table(path, tiles, &table) {
                log(format!("could not cache {}: {e}", path.display()));
            }
        }
        Group {
            tiles: tiles.to_vec(),
            table,
        }
    }
}

/// Breadth-first search backwards from the goal over (placement of the group's tiles, blank
/// cell). Moving the blank onto a cell no group tile occupies costs 0, so a state stands for
/// the whole region the blank can reach for free: each level floods that region, records the
/// placement's distance the first time it is met, and steps group tiles into the region.
pub fn build(tiles: &[u8]) -> Vec<u8> {
    let k = tiles.len();
    assert!(k <= MAX_GROUP);
    let entries = 1usize << (4 * k);
    let mut table = vec![UNSET; entries];
    // Bit (placement << 4 | blank) is set once the blank's free region of that placement is done.
    let mut done = vec![0u64; (entries * CELLS).div_ceil(64)];
    let goal: u32 = tiles
        .iter()
        .enumerate()
        .map(|(i, &t)| u32::from(t) << (4 * i))
        .sum();
    let mut level: Vec<u32> = vec![goal << 4];
    let mut depth = 0u8;
    while !level.is_empty() {
        let mut next = Vec::new();
        for &state in &level {
            if done[state as usize / 64] >> (state % 64) & 1 == 1 {
                continue;
            }
            let placement = state >> 4;
            let mut occupied = 0u16;
            let mut slot_at = [0u8; CELLS];
            for i in 0..k {
                let cell = (placement >> (4 * i)) & 15;
                occupied |= 1 << cell;
                slot_at[cell as usize] = i as u8;
            }
            let region = flood(occupied, (state & 15) as u8);
            let base = (placement as usize) << 4;
            for cell in 0..CELLS {
                if region >> cell & 1 == 1 {
                    done[(base + cell) / 64] |= 1 << ((base + cell) % 64);
                }
            }
            let entry = &mut table[placement as usize];
            if *entry == UNSET {
                *entry = depth;
            }
            let mut movable = spread(region) & occupied;
            while movable != 0 {
                let q = movable.trailing_zeros();
                movable &= movable - 1;
                let shift = 4 * u32::from(slot_at[q as usize]);
                let mut into = spread(1 << q) & region;
                while into != 0 {
                    let c = into.trailing_zeros();
                    into &= into - 1;
                    let moved = placement - (q << shift) + (c << shift);
                    let child = moved << 4 | q;
                    if done[child as usize / 64] >> (child % 64) & 1 == 0 {
                        next.push(child);
                    }
                }
            }
        }
        level = next;
        depth += 1;
    }
    table
}

/// Every placement of `k` distinct tiles on 16 cells, in lexicographic order of the cells: the
/// order entries are written to disk (16!/(16-k)! of them, no unused index).
fn for_each_placement(k: usize, f: &mut dyn FnMut(usize)) {
    fn go(k: usize, used: u16, index: usize, depth: usize, f: &mut dyn FnMut(usize)) {
        if depth == k {
            f(index);
            return;
        }
        for cell in 0..CELLS {
            if used >> cell & 1 == 0 {
                go(
                    k,
                    used | 1 << cell,
                    index | cell << (4 * depth),
                    depth + 1,
                    f,
                );
            }
        }
    }
    go(k, 0, 0, 0, f);
}

fn read_table(path: &Path, tiles: &[u8]) -> io::Result<Vec<u8>> {
    let k = tiles.len();
    let count: usize = (0..k).map(|i| 16 - i).product();
    let data = pdb_file::read(path, Kind::SparseBytes, tiles, count)?;
    if data.contains(&UNSET) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "bad entries"));
    }
    let mut table = vec![UNSET; 1 << (4 * k)];
    let mut next = data.iter();
    for_each_placement(k, &mut |i| table[i] = next.next().copied().unwrap_or(UNSET));
    Ok(table)
}

fn write_table(path: &Path, tiles: &[u8], table: &[u8]) -> io::Result<()> {
    let mut packed = Vec::new();
    for_each_placement(tiles.len(), &mut |i| packed.push(table[i]));
    pdb_file::write(path, Kind::SparseBytes, tiles, &packed)
}
