//! The 24-puzzle (5×5) through the same code as the 15-puzzle: the board in a `u128`, the
//! pattern-database builder against a plain breadth-first search, the reflected lookups, and
//! optimal lengths of random-walk boards checked by an independent IDA* written here, with one
//! thread and two.
//!
//! The real 6-6-6-6 tables are not built here (minutes of both cores): the tests use a
//! partition of small groups, which runs every code path of the large one.

mod common;

use fifteen::board::{Board, Packing, DIRS};
use fifteen::compact_pdb::{CompactPdb, PARTITION_6666};
use fifteen::cycles::MoveAutomaton;
use fifteen::heuristic::{Heuristic, Manhattan};
use fifteen::ida::{solve_sequential, BoundTable, Pruning};
use fifteen::instance::{parse_instances, Puzzle};
use fifteen::korf::{korf24_instances, KORF24};
use fifteen::parallel::solve_parallel;
use fifteen::pdb_build;
use fifteen::rank::{Ranking, MAX_TILES};
use fifteen::regions::{Grid, Regions, MAX_REGIONS};
use searchcache::Size;
use std::sync::OnceLock;

type Board5 = Board<u128>;

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

/// A test partition of small groups (tiles in none count their Manhattan distance): built in
/// well under a second, reflected like the 6-6-6-6 one.
const SMALL: [&[u8]; 4] = [
    &[1, 2, 5, 6],
    &[3, 4, 8, 9],
    &[10, 11, 15, 16],
    &[18, 19, 23, 24],
];

fn silent(_: String) {}

fn small_pdb() -> &'static CompactPdb {
    static PDB: OnceLock<CompactPdb> = OnceLock::new();
    PDB.get_or_init(|| {
        CompactPdb::load_or_build_on(Grid::new(5), &SMALL, None, false, &silent)
            .expect("partition")
            .0
    })
}

/// A walk of `moves` random moves of the blank from the goal, never straight back.
fn walk(rng: &mut Rng, moves: usize) -> Board5 {
    let mut b = Board5::goal_of(5);
    let mut back = None;
    let mut done = 0;
    while done < moves {
        let d = DIRS[rng.below(4)];
        if Some(d) == back {
            continue;
        }
        if let Some(next) = b.moved(d) {
            b = next;
            back = Some(d.opposite());
            done += 1;
        }
    }
    b
}

/// Plain IDA* with Manhattan distance on a `Vec` of tiles, sharing nothing with the library:
/// the optimal length.
fn reference_length(board: &Board5) -> u32 {
    fn md(tiles: &[u8]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|(_, &t)| t != 0)
            .map(|(c, &t)| {
                let (c, t) = (c as i32, i32::from(t));
                ((c / 5 - t / 5).abs() + (c % 5 - t % 5).abs()) as u32
            })
            .sum()
    }
    fn dfs(
        tiles: &mut [u8],
        blank: usize,
        g: u32,
        bound: u32,
        prev: usize,
        next: &mut u32,
    ) -> bool {
        let h = md(tiles);
        if g + h > bound {
            *next = (*next).min(g + h);
            return false;
        }
        if h == 0 {
            return true;
        }
        let (r, c) = (blank / 5, blank % 5);
        let mut targets = Vec::new();
        if r > 0 {
            targets.push(blank - 5);
        }
        if r < 4 {
            targets.push(blank + 5);
        }
        if c > 0 {
            targets.push(blank - 1);
        }
        if c < 4 {
            targets.push(blank + 1);
        }
        for to in targets {
            if to == prev {
                continue;
            }
            tiles.swap(blank, to);
            let found = dfs(tiles, to, g + 1, bound, blank, next);
            tiles.swap(blank, to);
            if found {
                return true;
            }
        }
        false
    }
    let mut tiles = board.tiles();
    let blank = usize::from(board.blank());
    let mut bound = md(&tiles);
    loop {
        let mut next = u32::MAX;
        if dfs(&mut tiles, blank, 0, bound, usize::MAX, &mut next) {
            return bound;
        }
        bound = next;
    }
}

/// The board reflected in the main diagonal, the slow way: tile `t` on cell (r, c) becomes tile
/// t' (t's reflection) on cell (c, r).
fn reflected(board: &Board5) -> Board5 {
    let tr = |x: u8| (x % 5) * 5 + x / 5;
    let mut tiles = vec![0u32; 25];
    for cell in 0..25u8 {
        tiles[usize::from(tr(cell))] = u32::from(tr(board.tile(cell)));
    }
    Board5::from_tiles_of(&tiles).expect("a reflection stays solvable")
}

#[test]
fn boards_of_25_tiles_are_packed_in_a_u128_and_checked() {
    let goal = Board5::goal_of(5);
    assert!(goal.is_goal());
    assert_eq!(goal.tiles(), (0..25).collect::<Vec<u8>>());
    let tiles: Vec<u32> = (0..25).collect();
    assert_eq!(Puzzle::from_tiles(&tiles), Ok(Puzzle::Large(goal)));
    // Odd sides keep the inversion parity: one swap of two tiles is unsolvable.
    let mut swapped = tiles.clone();
    swapped.swap(1, 2);
    assert!(Puzzle::from_tiles(&swapped).is_err());
    // A 4×4 board does not fit the u128 packing and a 5×5 one not the u64 packing.
    assert!(Board5::from_tiles_of(&(0..16).collect::<Vec<u32>>()).is_err());
    assert!(Board::from_tiles(&tiles).is_err());
    // Distinct boards, distinct keys (the key is a hash of the 125 bits).
    let mut rng = Rng(7);
    let keys: std::collections::HashSet<u64> = (0..2000)
        .map(|i| walk(&mut rng, 10 + i % 50).key())
        .collect();
    let boards: std::collections::HashSet<Board5> = {
        let mut rng = Rng(7);
        (0..2000).map(|i| walk(&mut rng, 10 + i % 50)).collect()
    };
    assert_eq!(keys.len(), boards.len());
}

#[test]
fn korf_and_taylors_ten_parse_with_their_lengths() {
    let all = korf24_instances(&(1..=10).collect::<Vec<_>>());
    assert_eq!(all.len(), 10);
    let lengths: Vec<u32> = all.iter().filter_map(|i| i.known_len).collect();
    assert_eq!(lengths, [100, 95, 108, 98, 101, 96, 104, 97, 113, 114]);
    let md = Manhattan::new(5);
    for (i, expected_md) in all.iter().zip([78, 75, 84, 74, 75, 66, 76, 65, 89, 86]) {
        let Puzzle::Large(b) = i.board else {
            panic!("{} is 5×5", i.label)
        };
        assert_eq!(md.of(&b), expected_md, "{}", i.label);
    }
    // The same file read as an instance file.
    assert_eq!(parse_instances(KORF24, "f").unwrap().len(), 10);
}

#[test]
fn the_builder_matches_a_plain_breadth_first_search_on_5x5() {
    let grid = Grid::new(5);
    for tiles in [&[1u8, 2, 5][..], &[18, 23, 24], &[12, 4, 20]] {
        let reference = common::reference_distances(tiles, 5);
        let built = pdb_build::build_on(grid, tiles, &|_| {});
        let ranking = Ranking::new(tiles.len(), 25);
        assert_eq!(ranking.count(), 25 * 24 * 23);
        let mut cells = [0u8; MAX_TILES];
        for (rank, &d) in reference.iter().enumerate() {
            assert_ne!(d, u8::MAX, "{tiles:?}: rank {rank} unreached");
            ranking.unrank(rank as u32, &mut cells);
            let md: u32 = tiles
                .iter()
                .zip(&cells)
                .map(|(&t, &c)| grid.manhattan(t, c))
                .sum();
            let excess = (u32::from(d) - md) / 2;
            assert_eq!(
                u32::from(pdb_build::excess(&built.entries, rank as u32)),
                excess.min(15),
                "{tiles:?}: rank {rank} ({cells:?}), distance {d}"
            );
        }
    }
}

#[test]
fn ranks_on_25_cells_are_a_bijection_and_deltas_match() {
    let ranking = Ranking::new(6, 25);
    assert_eq!(ranking.count(), 127_512_000);
    let mut rng = Rng(0x1234_5678);
    let mut cells = [0u8; MAX_TILES];
    for _ in 0..20_000 {
        let rank = rng.below(ranking.count()) as u32;
        let occupied = ranking.unrank(rank, &mut cells);
        assert_eq!(occupied.count_ones(), 6);
        assert_eq!(ranking.rank(&cells), rank);
        let slot = rng.below(6);
        let from = cells[slot];
        let to = [
            from.wrapping_sub(5),
            from + 5,
            from.wrapping_sub(1),
            from + 1,
        ][rng.below(4)];
        let legal = to < 25 && (to / 5 == from / 5 || to % 5 == from % 5);
        if !legal || occupied >> to & 1 == 1 {
            continue;
        }
        let delta = ranking.delta(slot, from, to, |x| {
            cells[..6].iter().position(|&c| c == x).map(|s| s as u8)
        });
        let mut moved = cells;
        moved[slot] = to;
        assert_eq!(
            i64::from(rank) + i64::from(delta),
            i64::from(ranking.rank(&moved))
        );
    }
}

#[test]
fn the_6666_partition_covers_the_tiles_and_its_reflection_is_another_partition() {
    let mut seen = [false; 25];
    for group in PARTITION_6666 {
        assert_eq!(group.len(), 6);
        for &t in group {
            assert!(!std::mem::replace(&mut seen[usize::from(t)], true));
        }
    }
    assert_eq!(seen.iter().filter(|&&s| s).count(), 24);
    let grid = Grid::new(5);
    for group in PARTITION_6666 {
        let mut image: Vec<u8> = group.iter().map(|&t| grid.transpose(t)).collect();
        image.sort_unstable();
        for other in PARTITION_6666 {
            let mut other = other.to_vec();
            other.sort_unstable();
            assert_ne!(
                image, other,
                "a group is another's reflection: fewer tables would do"
            );
        }
    }
}

#[test]
fn each_lookup_equals_the_lookup_of_the_reflected_board_and_updates_match_scratch() {
    let pdb = small_pdb();
    let md = Manhattan::new(5);
    let mut rng = Rng(99);
    for n in 0..300 {
        let b = walk(&mut rng, 1 + n % 80);
        let (direct, mirror) = pdb.views(&b);
        let r = reflected(&b);
        assert_eq!(pdb.views(&r), (mirror, direct), "{b}");
        let (_, h) = Heuristic::<u128>::init(pdb, &b);
        assert_eq!(h, md.of(&b) + 2 * direct.max(mirror));
        // One move, incrementally, against the child from scratch.
        let (state, _) = pdb.init(&b);
        for d in DIRS {
            let Some(to) = b.target(d) else { continue };
            let mut child = b;
            let tile = child.slide(to);
            let (_, inc) = pdb.update(state, &b, &child, tile, to, b.blank());
            assert_eq!(inc, pdb.init(&child).1, "{b} then {d:?}");
        }
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

#[test]
fn random_walk_boards_are_solved_optimally_with_one_thread_and_two_with_and_without_the_automaton()
{
    let pdb = small_pdb();
    let two = pool(2);
    let mut rng = Rng(2026);
    let mut checked = 0;
    let mut lengths = Vec::new();
    let automaton = MoveAutomaton::build(5, 12);
    let table = BoundTable::new(Size::Mib(1)).expect("table");
    let cycles = Pruning {
        cycles: Some(&automaton),
        ..Pruning::default()
    };
    let cycles_and_table = Pruning {
        table: Some(&table),
        ..cycles
    };
    let (mut plain_nodes, mut automaton_nodes) = (0, 0);
    // Ten walks of 40 to 60 moves, then four shorter ones that the reference always checks.
    for n in 0..14 {
        let moves = if n < 10 {
            40 + (n * 7) % 21
        } else {
            20 + 3 * (n - 10)
        };
        let b = walk(&mut rng, moves);
        let one = solve_sequential(pdb, Pruning::default(), b);
        assert!(b.solves(&one.moves), "{b}");
        let par = solve_parallel(&two, pdb, Pruning::default(), b);
        assert!(b.solves(&par.moves), "{b}");
        assert_eq!(one.moves.len(), par.moves.len(), "{b}");
        // The short-cycle automaton, alone and with the table, on one thread and two.
        for pruning in [cycles, cycles_and_table] {
            let with = solve_sequential(pdb, pruning, b);
            let with_two = solve_parallel(&two, pdb, pruning, b);
            for s in [&with, &with_two] {
                assert!(b.solves(&s.moves), "{b}");
                assert!(
                    automaton.allows(&s.moves),
                    "{b}: a forbidden string was searched"
                );
                assert_eq!(s.moves.len(), one.moves.len(), "{b}");
            }
            automaton_nodes += with.counters.nodes;
        }
        plain_nodes += 2 * one.counters.nodes;
        lengths.push(one.moves.len());
        // The independent check where plain Manhattan IDA* is quick.
        if one.moves.len() <= 30 {
            assert_eq!(one.moves.len() as u32, reference_length(&b), "{b}");
            checked += 1;
        }
    }
    assert!(
        checked >= 5,
        "too few boards cross-checked: {checked} of {lengths:?}"
    );
    assert!(
        automaton_nodes < plain_nodes,
        "{automaton_nodes} nodes with the automaton, {plain_nodes} without"
    );
}

#[test]
fn manhattan_alone_solves_5x5_boards_too() {
    let md = Manhattan::new(5);
    let mut rng = Rng(5);
    for _ in 0..5 {
        let b = walk(&mut rng, 24);
        let s = solve_sequential(&md, Pruning::default(), b);
        assert!(b.solves(&s.moves));
        assert_eq!(s.moves.len() as u32, reference_length(&b));
    }
}

#[test]
fn sets_of_up_to_8_occupied_cells_leave_fewer_than_max_regions_on_5x5() {
    // `Regions::new` stores at most MAX_REGIONS per set: a set with more would panic here.
    let grid = Grid::new(5);
    let mut most = 0;
    for k in 0..=8usize {
        let regions = Regions::new(k, grid);
        let mut occupied: u32 = (1 << k) - 1;
        while occupied <= grid.all() {
            let r = regions.of(occupied);
            let n = r.iter().take_while(|&&m| m != 0).count();
            let union = r.iter().fold(0, |u, &m| u | m);
            assert_eq!(union, grid.all() & !occupied, "{occupied:#09x}");
            most = most.max(n);
            if k == 0 {
                break;
            }
            let low = occupied & occupied.wrapping_neg();
            let ripple = occupied + low;
            occupied = (((ripple ^ occupied) >> 2) / low) | ripple;
        }
    }
    assert!(most < MAX_REGIONS, "{most} regions");
}

#[test]
fn each_half_of_a_5x5_key_collides_as_a_random_32_bit_value() {
    // 2^20 random boards: a random 64-bit key collides with probability 2^-64 per pair (none
    // expected here), each 32-bit half 2^-32 per pair: λ = C(n, 2) / 2^32 ≈ 128, checked within
    // λ ± 6√λ. A key that kept fewer bits of the board, or a half that mixed poorly, fails.
    let mut rng = Rng(0x5eed_2424);
    let mut boards = std::collections::HashSet::new();
    let mut tiles: Vec<u8> = (0..25).collect();
    while boards.len() < 1 << 20 {
        for i in (1..25).rev() {
            tiles.swap(i, rng.below(i + 1));
        }
        let packed = (0..25u8).fold(<u128 as Packing>::EMPTY, |p, c| {
            p.with(c, tiles[usize::from(c)])
        });
        boards.insert(packed);
    }
    let keys: Vec<u64> = boards.iter().map(|b| b.key()).collect();
    let n = keys.len() as f64;
    let lambda = n * (n - 1.0) / 2.0 / 2f64.powi(32);
    let pairs = |half: &dyn Fn(u64) -> u64| {
        let mut h: Vec<u64> = keys.iter().map(|&k| half(k)).collect();
        h.sort_unstable();
        let mut pairs = 0u64;
        let mut run = 1u64;
        for w in h.windows(2) {
            if w[0] == w[1] {
                run += 1;
            } else {
                pairs += run * (run - 1) / 2;
                run = 1;
            }
        }
        pairs + run * (run - 1) / 2
    };
    assert_eq!(pairs(&|k| k), 0, "a full 64-bit key collision");
    for (name, half) in [
        ("low", &(|k: u64| k & 0xffff_ffff) as &dyn Fn(u64) -> u64),
        ("high", &|k: u64| k >> 32),
    ] {
        let seen = pairs(half) as f64;
        let slack = 6.0 * lambda.sqrt();
        assert!(
            (seen - lambda).abs() <= slack,
            "{name} half: {seen} colliding pairs, expected {lambda:.0} ± {slack:.0}"
        );
    }
}
