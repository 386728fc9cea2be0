//! Additive pattern databases indexed by compact rank (Korf & Felner 2002): the 7-8 partition
//! (tiles 1-7: 57,657,600 entries; tiles 8-15: 518,918,400), or any partition of groups of up
//! to 8 tiles, with the diagonally reflected lookup and incremental ranks.
//!
//! An entry is the excess of the group's abstract distance over its tiles' Manhattan distance,
//! halved (`pdb_build.rs`), so the heuristic is `md + 2 · max(Σ excess, Σ reflected excess)`:
//! tiles in no group count their Manhattan distance, and the value has the parity of the true
//! distance. A move changes one tile: only its group's rank changes in each view, by an amount
//! read off the three cells a vertical step passes (`rank.rs`), and only those two entries are
//! read; [`Heuristic::begin`] prefetches them so that a node's children's lookups overlap.
//!
//! Tables are built on first use on every core (`pdb_build.rs`, with a progress bar) and
//! cached in the cache directory (`pdb_file.rs`: checksum, atomic rename).

use crate::board::{Board, Packing};
use crate::heuristic::{Heuristic, Manhattan};
use crate::pdb_build::{self, MAX_EXCESS};
use crate::pdb_file::{self, Kind};
use crate::rank::{Ranking, MAX_CELLS, MAX_TILES};
use crate::regions::Grid;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io;
use std::path::Path;
use std::time::Instant;

/// The 7-8 partition: the top two rows and the bottom two.
///
/// ```text
///  .  A  A  A
///  A  A  A  A
///  B  B  B  B
///  B  B  B  B
/// ```
pub const PARTITION_78: [&[u8]; 2] = [&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]];

/// Korf and Felner's (2002) 6-6-6-6 partition of the 24-puzzle, 25P6 = 127,512,000 entries per
/// group (64 MB as nibbles):
///
/// ```text
///  .  A  A  B  B
///  A  A  A  B  B
///  C  C  A  B  B
///  C  C  D  D  D
///  C  C  D  D  D
/// ```
///
/// Its reflection in the main diagonal is a different partition (A's image is
/// {5, 10, 1, 6, 11, 12}), so the reflected lookups need all four tables: no two groups are
/// images of each other (`tests/pdb24.rs` checks it).
pub const PARTITION_6666: [&[u8]; 4] = [
    &[1, 2, 5, 6, 7, 12],
    &[3, 4, 8, 9, 13, 14],
    &[10, 11, 15, 16, 20, 21],
    &[17, 18, 19, 22, 23, 24],
];

/// Groups per partition.
pub const MAX_GROUPS: usize = 4;

/// "In no group".
const NONE: u8 = u8::MAX;

/// How entries are held in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// Two entries per byte, as on disk (7-8: 289 MB).
    #[default]
    Nibbles,
    /// One entry per byte (7-8: 577 MB): no shift on lookup, twice the memory.
    Bytes,
}

/// One group's entries by rank.
pub trait Entries: Sync + Send {
    /// The entry of `rank`.
    fn get(&self, rank: u32) -> u8;
    /// Starts loading the line holding `rank`'s entry.
    fn prefetch(&self, rank: u32);
}

/// Two 4-bit entries per byte (rank `r` in byte `r / 2`, low nibble for even `r`).
pub struct Nibbles(Vec<u8>);

/// One entry per byte.
pub struct Bytes(Vec<u8>);

impl Entries for Nibbles {
    #[inline]
    fn get(&self, rank: u32) -> u8 {
        pdb_build::excess(&self.0, rank)
    }
    #[inline]
    fn prefetch(&self, rank: u32) {
        searchcache::prefetch(&self.0[(rank >> 1) as usize]);
    }
}

impl Entries for Bytes {
    #[inline]
    fn get(&self, rank: u32) -> u8 {
        self.0[rank as usize]
    }
    #[inline]
    fn prefetch(&self, rank: u32) {
        searchcache::prefetch(&self.0[rank as usize]);
    }
}

/// A group: its tiles (slot order), ranking and entries.
struct Group<E> {
    ranking: Ranking,
    entries: E,
}

/// What went wrong with a partition or a table.
#[derive(Debug)]
pub struct PdbError(pub String);

/// What loading or building a partition did, for the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Tables read from the cache.
    pub loaded: usize,
    /// Tables built.
    pub built: usize,
    /// Entries whose excess did not fit 4 bits and was lowered to 15, over all tables built.
    pub saturated: u64,
}

/// The additive compact-rank pattern-database heuristic, max'd with its diagonal reflection.
pub struct CompactPdb<E = Nibbles> {
    groups: Vec<Group<E>>,
    /// Per tile: (group, slot), or (NONE, NONE).
    slot: [(u8, u8); MAX_CELLS],
    /// Per tile `u` of the board: the (group, slot) of its reflection `transpose(u)` in the
    /// reflected board.
    mirror_slot: [(u8, u8); MAX_CELLS],
    /// Per cell: its reflection.
    transposed: [u8; MAX_CELLS],
    grid: Grid,
    md: Manhattan,
}

/// The heuristic's incremental state: each view's ranks, entries and their sum.
#[derive(Clone, Copy, Debug)]
pub struct CompactState {
    rank: [u32; MAX_GROUPS],
    entry: [u8; MAX_GROUPS],
    sum: u32,
    mirror_rank: [u32; MAX_GROUPS],
    mirror_entry: [u8; MAX_GROUPS],
    mirror_sum: u32,
    md: u32,
}

/// A child's state before its two entries are read: the groups whose rank changed.
#[derive(Clone, Copy, Debug)]
pub struct CompactPending {
    state: CompactState,
    group: u8,
    mirror_group: u8,
}

/// The cell of the 4×4 board mirrored in the main diagonal; also the tile that is `tile`'s
/// mirror image (tile `t`'s goal is cell `t`).
#[inline]
pub fn transpose(cell: u8) -> u8 {
    (cell % 4) * 4 + cell / 4
}

/// Checks a 4×4 partition: 1..=MAX_GROUPS groups of 1..=`max_tiles` distinct tiles of 1..=15.
pub fn check_partition(partition: &[&[u8]], max_tiles: usize) -> Result<(), PdbError> {
    check_partition_on(16, partition, max_tiles)
}

/// Checks a partition of a board of `cells` cells: 1..=MAX_GROUPS groups of 1..=`max_tiles`
/// distinct tiles of 1..cells, each group's placements fewer than 2^32.
pub fn check_partition_on(
    cells: usize,
    partition: &[&[u8]],
    max_tiles: usize,
) -> Result<(), PdbError> {
    const CELLS: usize = MAX_CELLS;
    if partition.is_empty() || partition.len() > MAX_GROUPS {
        return Err(PdbError(format!("1..={MAX_GROUPS} groups")));
    }
    if cells > MAX_CELLS || partition.iter().any(|g| g.len() > cells) {
        return Err(PdbError(format!("boards have at most {MAX_CELLS} cells")));
    }
    let mut seen = [false; CELLS];
    for group in partition {
        if group.is_empty() || group.len() > max_tiles {
            return Err(PdbError(format!("groups have 1..={max_tiles} tiles")));
        }
        for &t in group.iter() {
            if t == 0
                || usize::from(t) >= cells
                || std::mem::replace(&mut seen[usize::from(t)], true)
            {
                return Err(PdbError(format!(
                    "tile {t} is not a tile or is in two groups"
                )));
            }
        }
    }
    Ok(())
}

/// Loads the 4×4 nibble table of `tiles` (see [`load_or_build_table_on`]).
pub fn load_or_build_table(
    tiles: &[u8],
    dir: Option<&Path>,
    show_progress: bool,
    log: &(dyn Fn(String) + Sync),
) -> (Vec<u8>, Option<u64>) {
    load_or_build_table_on(Grid::new(4), tiles, dir, show_progress, log)
}

/// The kind of a grid's cache files.
fn kind_of(grid: Grid) -> Kind {
    if grid.side() == 5 {
        Kind::CompactNibbles25
    } else {
        Kind::CompactNibbles
    }
}

/// The process's peak resident memory so far (Linux `VmHWM`), for the build's log line.
pub fn peak_memory_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Loads the nibble table of `tiles` on `grid` (4×4 or 5×5) from `dir`, or builds it (on
/// rayon's pool, with a progress bar on stderr when `show_progress`) and caches it there. `log`
/// hears what happened, with the build's time and the process's peak memory.
pub fn load_or_build_table_on(
    grid: Grid,
    tiles: &[u8],
    dir: Option<&Path>,
    show_progress: bool,
    log: &(dyn Fn(String) + Sync),
) -> (Vec<u8>, Option<u64>) {
    let kind = kind_of(grid);
    let count = Ranking::new(tiles.len(), grid.cells()).count();
    let len = count.div_ceil(2);
    let path = dir.map(|d| d.join(pdb_file::file_name(kind, tiles)));
    if let Some(path) = &path {
        match pdb_file::read(path, kind, tiles, len) {
            Ok(data) => return (data, None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => log(format!("{}: {e}; rebuilding", path.display())),
        }
        for stale in pdb_file::remove_stale_partials(path) {
            log(format!(
                "removed {}, left by a build that did not finish",
                stale.display()
            ));
        }
    }
    let bar = if show_progress {
        ProgressBar::with_draw_target(Some(count as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} {bar:30} {percent:>3}% of {human_len} entries, {elapsed} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    bar.set_message(format!(
        "building the {}-tile database {tiles:?}",
        tiles.len()
    ));
    log(format!(
        "building the {}-tile pattern database {tiles:?}: {count} entries, on every core \
         (once: it is cached)",
        tiles.len()
    ));
    let started = Instant::now();
    let built = pdb_build::build_on(grid, tiles, &|n| bar.inc(n));
    bar.finish_and_clear();
    let peak = peak_memory_mib().map_or_else(String::new, |m| format!(", peak memory {m} MiB"));
    log(format!(
        "pattern database {tiles:?}: {count} entries built in {:.1} s{peak} (largest distance {}, {} entries above {MAX_EXCESS} excess stored as {MAX_EXCESS})",
        started.elapsed().as_secs_f64(),
        built.max_distance,
        built.saturated
    ));
    if let Some(path) = &path {
        if let Err(e) = pdb_file::write(path, kind, tiles, &built.entries) {
            log(format!("could not cache {}: {e}", path.display()));
        }
    }
    (built.entries, Some(built.saturated))
}

impl CompactPdb<Nibbles> {
    /// Loads (or builds and caches under `dir`; `None`: build in memory only) the tables of
    /// `partition`, entries held as nibbles.
    pub fn load_or_build(
        partition: &[&[u8]],
        dir: Option<&Path>,
        show_progress: bool,
        log: &(dyn Fn(String) + Sync),
    ) -> Result<(Self, LoadReport), PdbError> {
        CompactPdb::load_with(Grid::new(4), partition, dir, show_progress, log, Nibbles)
    }

    /// As [`CompactPdb::load_or_build`], on `grid` (4×4, or 5×5 with [`PARTITION_6666`]).
    pub fn load_or_build_on(
        grid: Grid,
        partition: &[&[u8]],
        dir: Option<&Path>,
        show_progress: bool,
        log: &(dyn Fn(String) + Sync),
    ) -> Result<(Self, LoadReport), PdbError> {
        CompactPdb::load_with(grid, partition, dir, show_progress, log, Nibbles)
    }
}

impl CompactPdb<Bytes> {
    /// As [`CompactPdb::load_or_build`], entries widened to one byte each in memory.
    pub fn load_or_build_bytes(
        partition: &[&[u8]],
        dir: Option<&Path>,
        show_progress: bool,
        log: &(dyn Fn(String) + Sync),
    ) -> Result<(Self, LoadReport), PdbError> {
        CompactPdb::load_with(
            Grid::new(4),
            partition,
            dir,
            show_progress,
            log,
            |nibbles: Vec<u8>| Bytes(nibbles.iter().flat_map(|&b| [b & 15, b >> 4]).collect()),
        )
    }
}

impl<E: Entries> CompactPdb<E> {
    fn load_with(
        grid: Grid,
        partition: &[&[u8]],
        dir: Option<&Path>,
        show_progress: bool,
        log: &(dyn Fn(String) + Sync),
        wrap: impl Fn(Vec<u8>) -> E,
    ) -> Result<(Self, LoadReport), PdbError> {
        check_partition_on(grid.cells(), partition, MAX_TILES)?;
        let mut report = LoadReport::default();
        let mut groups = Vec::new();
        // One table at a time: each build uses every core, and the next build's memory is
        // allocated only after the last one's working set is freed.
        for tiles in partition {
            let (entries, built) = load_or_build_table_on(grid, tiles, dir, show_progress, log);
            match built {
                Some(saturated) => {
                    report.built += 1;
                    report.saturated += saturated;
                }
                None => report.loaded += 1,
            }
            groups.push(Group {
                ranking: Ranking::new(tiles.len(), grid.cells()),
                entries: wrap(entries),
            });
        }
        let mut slot = [(NONE, NONE); MAX_CELLS];
        for (g, tiles) in partition.iter().enumerate() {
            for (s, &t) in tiles.iter().enumerate() {
                slot[usize::from(t)] = (g as u8, s as u8);
            }
        }
        let mut mirror_slot = [(NONE, NONE); MAX_CELLS];
        let mut transposed = [0u8; MAX_CELLS];
        for u in 0..grid.cells() as u8 {
            mirror_slot[usize::from(u)] = slot[usize::from(grid.transpose(u))];
            transposed[usize::from(u)] = grid.transpose(u);
        }
        Ok((
            CompactPdb {
                groups,
                slot,
                mirror_slot,
                transposed,
                grid,
                md: Manhattan::new(grid.side()),
            },
            report,
        ))
    }

    /// The value of a state: Manhattan distance plus twice the larger view's excess.
    #[inline]
    fn value(&self, s: &CompactState) -> u32 {
        s.md + 2 * s.sum.max(s.mirror_sum)
    }

    /// The heuristic's value for the board from scratch, and the two views' excess sums (for
    /// tests: every table entry a board reads).
    pub fn views<P: Packing>(&self, board: &Board<P>) -> (u32, u32) {
        let (s, _) = Heuristic::<P>::init(self, board);
        (s.sum, s.mirror_sum)
    }
}

impl<E: Entries, P: Packing> Heuristic<P> for CompactPdb<E> {
    type State = CompactState;
    type Pending = CompactPending;

    fn init(&self, board: &Board<P>) -> (CompactState, u32) {
        assert_eq!(
            board.side(),
            self.grid.side(),
            "pattern databases are built for one side"
        );
        let mut cells = [[0u8; MAX_TILES]; MAX_GROUPS];
        let mut mirror_cells = [[0u8; MAX_TILES]; MAX_GROUPS];
        for cell in 0..board.cell_count() {
            let tile = board.tile(cell);
            let (g, i) = self.slot[usize::from(tile)];
            if g != NONE {
                cells[usize::from(g)][usize::from(i)] = cell;
            }
            let (g, i) = self.mirror_slot[usize::from(tile)];
            if g != NONE {
                mirror_cells[usize::from(g)][usize::from(i)] = self.transposed[usize::from(cell)];
            }
        }
        let mut s = CompactState {
            rank: [0; MAX_GROUPS],
            entry: [0; MAX_GROUPS],
            sum: 0,
            mirror_rank: [0; MAX_GROUPS],
            mirror_entry: [0; MAX_GROUPS],
            mirror_sum: 0,
            md: self.md.of(board),
        };
        for (g, group) in self.groups.iter().enumerate() {
            s.rank[g] = group.ranking.rank(&cells[g]);
            s.entry[g] = group.entries.get(s.rank[g]);
            s.sum += u32::from(s.entry[g]);
            s.mirror_rank[g] = group.ranking.rank(&mirror_cells[g]);
            s.mirror_entry[g] = group.entries.get(s.mirror_rank[g]);
            s.mirror_sum += u32::from(s.mirror_entry[g]);
        }
        (s, self.value(&s))
    }

    #[inline]
    fn begin(
        &self,
        mut s: CompactState,
        _: &Board<P>,
        after: &Board<P>,
        tile: u8,
        from: u8,
        to: u8,
    ) -> CompactPending {
        s.md = s.md.wrapping_add_signed(self.md.delta(tile, from, to));
        let (g, i) = self.slot[usize::from(tile)];
        if g != NONE {
            let group = &self.groups[usize::from(g)];
            let delta = group.ranking.delta(usize::from(i), from, to, |x| {
                let (gx, sx) = self.slot[usize::from(after.tile(x))];
                (gx == g).then_some(sx)
            });
            let rank = &mut s.rank[usize::from(g)];
            *rank = rank.wrapping_add_signed(delta);
            group.entries.prefetch(*rank);
        }
        let (gm, im) = self.mirror_slot[usize::from(tile)];
        if gm != NONE {
            let group = &self.groups[usize::from(gm)];
            let t = &self.transposed;
            let (from, to) = (t[usize::from(from)], t[usize::from(to)]);
            let delta = group.ranking.delta(usize::from(im), from, to, |x| {
                let (gx, sx) = self.mirror_slot[usize::from(after.tile(t[usize::from(x)]))];
                (gx == gm).then_some(sx)
            });
            let rank = &mut s.mirror_rank[usize::from(gm)];
            *rank = rank.wrapping_add_signed(delta);
            group.entries.prefetch(*rank);
        }
        CompactPending {
            state: s,
            group: g,
            mirror_group: gm,
        }
    }

    #[inline]
    fn finish(&self, p: CompactPending) -> (CompactState, u32) {
        let mut s = p.state;
        if p.group != NONE {
            let g = usize::from(p.group);
            let entry = self.groups[g].entries.get(s.rank[g]);
            s.sum = s.sum + u32::from(entry) - u32::from(s.entry[g]);
            s.entry[g] = entry;
        }
        if p.mirror_group != NONE {
            let g = usize::from(p.mirror_group);
            let entry = self.groups[g].entries.get(s.mirror_rank[g]);
            s.mirror_sum = s.mirror_sum + u32::from(entry) - u32::from(s.mirror_entry[g]);
            s.mirror_entry[g] = entry;
        }
        (s, self.value(&s))
    }
}
