//! The 7-8 machinery on smaller patterns (the same code paths with fewer tiles): compact
//! ranks, blank regions, the parallel builder against an independent breadth-first search of
//! the abstract space, the reflected heuristic's admissibility and incremental updates, and the cache
//! files (checksum, truncation, damage, builds killed half-way).
//!
//! The real 7-8 tables are not built here (about a minute of both cores): `.ci/run` builds them
//! once and checks Korf 1-10's optimal lengths with them.

mod common;

use fifteen::board::{Board, DIRS};
use fifteen::compact_pdb::{self, CompactPdb, LoadReport};
use fifteen::heuristic::{Heuristic, LinearConflict};
use fifteen::ida::{solve_sequential, Pruning};
use fifteen::korf::korf100;
use fifteen::pdb_build::{self, manhattan, MAX_EXCESS};
use fifteen::pdb_file::{self, Kind};
use fifteen::rank::{Ranking, MAX_TILES};
use fifteen::regions::{flood, Grid, Regions, MAX_REGIONS};
use std::path::PathBuf;
use std::sync::Mutex;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn test_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fifteen-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn no_set_of_occupied_cells_leaves_more_than_max_regions() {
    let mut most = 0;
    for k in 0..=8 {
        let regions = Regions::new(k, Grid::new(4));
        for occupied in (0..=u16::MAX).filter(|m| m.count_ones() as usize == k) {
            let r = regions.of(u32::from(occupied));
            let n = r.iter().take_while(|&&m| m != 0).count();
            most = most.max(n);
            // The regions are disjoint, connected, and cover exactly the free cells.
            let union = r.iter().fold(0u32, |u, &m| {
                assert_eq!(u & m, 0, "{occupied:#06x}");
                u | m
            });
            assert_eq!(union, u32::from(!occupied), "{occupied:#06x}");
            for (i, &region) in r[..n].iter().enumerate() {
                let lowest = region.trailing_zeros() as u8;
                assert_eq!(u32::from(flood(occupied, lowest)), region);
                assert!(i == 0 || r[i - 1].trailing_zeros() < region.trailing_zeros());
            }
            for cell in 0..16u8 {
                if !occupied >> cell & 1 == 1 {
                    let i = regions.index_of(u32::from(occupied), cell);
                    assert_ne!(r[i] & 1 << cell, 0);
                }
            }
        }
    }
    assert_eq!(most, MAX_REGIONS);
}

#[test]
fn ranks_are_a_bijection_and_deltas_match_recomputed_ranks() {
    // Every placement of 3 tiles, both ways.
    let r3 = Ranking::new(3, 16);
    assert_eq!(r3.count(), 16 * 15 * 14);
    let mut seen = vec![false; r3.count()];
    let mut cells = [0u8; MAX_TILES];
    for rank in 0..r3.count() as u32 {
        r3.unrank(rank, &mut cells);
        assert_eq!(r3.rank(&cells), rank);
        assert!(!std::mem::replace(&mut seen[rank as usize], true));
    }
    assert_eq!(Ranking::new(7, 16).count(), 57_657_600);
    assert_eq!(Ranking::new(8, 16).count(), 518_918_400);
    // Random 8-tile placements and one-step moves: the delta equals the recomputed rank.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for k in [1, 5, 7, 8] {
        let ranking = Ranking::new(k, 16);
        for _ in 0..20_000 {
            let rank = rng.below(ranking.count()) as u32;
            let occupied = ranking.unrank(rank, &mut cells);
            assert_eq!(occupied.count_ones() as usize, k);
            assert_eq!(ranking.rank(&cells), rank);
            let slot = rng.below(k);
            let from = cells[slot];
            let to = [
                from.wrapping_sub(4),
                from + 4,
                from.wrapping_sub(1),
                from + 1,
            ];
            let to = to[rng.below(4)];
            let legal = to < 16 && (to / 4 == from / 4 || to % 4 == from % 4);
            if !legal || occupied >> to & 1 == 1 {
                continue;
            }
            let delta = ranking.delta(slot, from, to, |x| {
                cells[..k].iter().position(|&c| c == x).map(|s| s as u8)
            });
            let mut moved = cells;
            moved[slot] = to;
            assert_eq!(
                i64::from(rank) + i64::from(delta),
                i64::from(ranking.rank(&moved)),
                "k {k}, {cells:?} slot {slot} to {to}"
            );
        }
        // The last placement unranks to valid distinct cells.
        let occupied = ranking.unrank(ranking.count() as u32 - 1, &mut cells);
        assert_eq!(occupied.count_ones() as usize, k);
    }
}

#[test]
fn the_builder_matches_a_plain_breadth_first_search_of_the_abstract_space() {
    for tiles in [
        &[1u8, 2, 3, 4][..],
        &[8, 9, 12, 13, 14],
        &[3, 7, 11, 15, 10],
    ] {
        let reference = common::reference_distances(tiles, 4);
        let progress = Mutex::new(0u64);
        let built = pdb_build::build(tiles, &|n| *progress.lock().unwrap() += n);
        let ranking = Ranking::new(tiles.len(), 16);
        assert_eq!(
            *progress.lock().unwrap() as usize,
            ranking.count(),
            "{tiles:?}"
        );
        assert_eq!(built.entries.len(), ranking.count().div_ceil(2));
        let mut cells = [0u8; MAX_TILES];
        let mut saturated = 0;
        for (rank, &d) in reference.iter().enumerate() {
            assert_ne!(d, u8::MAX, "{tiles:?}: rank {rank} unreached");
            ranking.unrank(rank as u32, &mut cells);
            let md: u32 = tiles
                .iter()
                .zip(&cells)
                .map(|(&t, &c)| manhattan(t, c))
                .sum();
            let excess = (u32::from(d) - md) / 2;
            assert_eq!((u32::from(d) - md) % 2, 0, "parity");
            saturated += u64::from(excess > u32::from(MAX_EXCESS));
            assert_eq!(
                u32::from(pdb_build::excess(&built.entries, rank as u32)),
                excess.min(u32::from(MAX_EXCESS)),
                "{tiles:?}: rank {rank} ({cells:?}), distance {d}"
            );
        }
        assert_eq!(built.saturated, saturated);
        assert_eq!(
            built.max_distance,
            u32::from(*reference.iter().max().unwrap())
        );
    }
}

/// A 5-5-5 partition (Korf & Felner's), built in memory: the 7-8 code paths with small tables.
const PARTITION_555: [&[u8]; 3] = [&[1, 2, 3, 5, 6], &[4, 7, 8, 11, 12], &[9, 10, 13, 14, 15]];

fn silent(_: String) {}

#[test]
fn the_reflected_compact_heuristic_is_admissible_and_incremental() {
    let (pdb, report) = CompactPdb::load_or_build(&PARTITION_555, None, false, &silent).unwrap();
    assert_eq!(
        report,
        LoadReport {
            loaded: 0,
            built: 3,
            saturated: 0
        }
    );
    let lc = LinearConflict::new(4);
    let mut rng = Rng(7);
    for k in korf100().iter().take(40) {
        let (state, h) = pdb.init(&k.board);
        assert!(h <= k.len, "instance {}: {h} > {}", k.id, k.len);
        assert_eq!(h % 2, k.len % 2, "parity");
        // Random walks: incremental = from scratch, and the reflected board's views are swapped.
        let (mut state, mut h, mut b) = (state, h, k.board);
        for _ in 0..200 {
            let d = DIRS[rng.below(4)];
            let Some(to) = b.target(d) else { continue };
            let before = b;
            let tile = b.slide(to);
            let (s, h2) = pdb.update(state, &before, &b, tile, to, before.blank());
            assert_eq!(h2, pdb.init(&b).1, "incremental = from scratch");
            // Not consistent (an entry is the least over the blank's regions, and the blank
            // may be in another), but the parity flips with every move.
            assert_eq!(h2.abs_diff(h) % 2, 1, "parity: {h} -> {h2}");
            let mirrored: Vec<u32> = (0..16)
                .map(|c| u32::from(compact_pdb::transpose(b.tile(compact_pdb::transpose(c)))))
                .collect();
            let mirrored = Board::from_tiles(&mirrored).unwrap();
            let (a, m) = pdb.views(&b);
            assert_eq!(pdb.views(&mirrored), (m, a), "views swap under reflection");
            (state, h) = (s, h2);
        }
    }
    // Along optimal solutions (found with linear conflict) h never exceeds the moves left,
    // and IDA* with it finds the same lengths.
    for id in [9, 12, 19, 2, 5] {
        let k = &korf100()[id - 1];
        let s = solve_sequential(&lc, Pruning::default(), k.board);
        let mut b = k.board;
        for (i, &d) in s.moves.iter().enumerate() {
            assert!(pdb.init(&b).1 as usize <= s.moves.len() - i);
            b = b.moved(d).unwrap();
        }
        let with_pdb = solve_sequential(&pdb, Pruning::default(), k.board);
        assert_eq!(with_pdb.moves.len() as u32, k.len);
        assert!(k.board.solves(&with_pdb.moves));
        let bytes = CompactPdb::load_or_build_bytes(&PARTITION_555, None, false, &silent)
            .unwrap()
            .0;
        assert_eq!(bytes.init(&k.board).1, pdb.init(&k.board).1);
    }
}

#[test]
fn cache_files_are_checked_and_rebuilt_and_partial_files_never_trusted() {
    let dir = test_dir("compact-cache");
    let partition: [&[u8]; 2] = [&[1, 2, 3, 5, 6], &[4, 8, 12]];
    let log = Mutex::new(Vec::<String>::new());
    let record = |m: String| log.lock().unwrap().push(m);
    let taken = || std::mem::take(&mut *log.lock().unwrap());
    let (built, report) =
        CompactPdb::load_or_build(&partition, Some(&dir), false, &record).unwrap();
    assert_eq!((report.built, report.loaded), (2, 0));
    taken();
    let (_, report) = CompactPdb::load_or_build(&partition, Some(&dir), false, &record).unwrap();
    assert_eq!((report.built, report.loaded), (0, 2), "{:?}", taken());
    let file = dir.join(pdb_file::file_name(Kind::CompactNibbles, partition[0]));
    let good = std::fs::read(&file).unwrap();
    let boards: Vec<Board> = korf100().iter().map(|k| k.board).collect();
    // A flipped data byte, a flipped header byte, a truncated file, a file with a byte more,
    // an empty file: each is detected, rebuilt and rewritten identically.
    let mut damaged = Vec::new();
    for at in [good.len() - 1, good.len() / 2, 9, 13] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        damaged.push(bad);
    }
    damaged.push(good[..good.len() - 1].to_vec());
    damaged.push([good.as_slice(), &[0]].concat());
    damaged.push(Vec::new());
    for bad in damaged {
        std::fs::write(&file, &bad).unwrap();
        let (rebuilt, report) =
            CompactPdb::load_or_build(&partition, Some(&dir), false, &record).unwrap();
        assert_eq!((report.built, report.loaded), (1, 1));
        assert!(taken().iter().any(|m| m.contains("rebuilding")));
        assert_eq!(std::fs::read(&file).unwrap(), good, "rewritten identically");
        for b in &boards {
            assert_eq!(rebuilt.init(b).1, built.init(b).1);
        }
    }
    // A build killed half-way leaves only a partial file, which is never read: the next run
    // rebuilds (the final name is missing) and removes it (its process is gone).
    std::fs::remove_file(&file).unwrap();
    let dead_pid = u32::MAX - 1;
    let partial = dir.join(format!(
        ".{}.partial-{dead_pid}",
        file.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&partial, &good[..good.len() / 2]).unwrap();
    let (_, report) = CompactPdb::load_or_build(&partition, Some(&dir), false, &record).unwrap();
    assert_eq!(report.built, 1);
    if cfg!(target_os = "linux") {
        assert!(!partial.exists(), "stale partial file removed");
        assert!(taken().iter().any(|m| m.contains("did not finish")));
    }
    assert_eq!(std::fs::read(&file).unwrap(), good);
    let _ = std::fs::remove_dir_all(&dir);
    // Bad partitions are errors, not panics.
    for bad in [
        &[&[1u8, 2][..], &[2, 3]][..],
        &[&[0, 1]],
        &[&[1, 2, 3, 4, 5, 6, 7, 8, 9]],
        &[],
    ] {
        assert!(
            compact_pdb::check_partition(bad, MAX_TILES).is_err(),
            "{bad:?}"
        );
    }
}
