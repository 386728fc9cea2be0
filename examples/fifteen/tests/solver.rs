//! The fifteen solver: exact node counts against Korf 1985, optimal lengths with the
//! table on (1 and 2 threads), the 8-puzzle against a breadth-first search of all 181,440
//! states, the admissibility of every table entry, and the pattern-database cache.
//!
//! `FIFTEEN_LONG=1` adds all of Korf's 100 with the pattern databases and the table (1 and 2
//! threads) and exact Manhattan-distance counts for 20 instances (minutes).

use fifteen::board::{Board, DIRS};
use fifteen::cycles::MoveAutomaton;
use fifteen::heuristic::{Heuristic, LinearConflict, Manhattan};
use fifteen::ida::{solve_sequential, BoundTable, Pruning, Solution};
use fifteen::korf::{korf100, KorfInstance};
use fifteen::parallel::solve_parallel;
use fifteen::pdb::{self, PatternDb};
use searchcache::Size;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::OnceLock;

fn long() -> bool {
    std::env::var_os("FIFTEEN_LONG").is_some_and(|v| !v.is_empty() && v != "0")
}

fn korf(id: usize) -> KorfInstance {
    korf100()
        .into_iter()
        .find(|k| k.id == id)
        .expect("id in 1..=100")
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

/// Solves with `threads` (1: sequential) and checks the solution replays to the goal.
fn solve<H: Heuristic>(
    h: &H,
    table: Option<&BoundTable>,
    slack: u32,
    threads: usize,
    board: Board,
) -> Solution {
    let s = if threads == 1 {
        solve_sequential(h, Pruning::table(table, slack), board)
    } else {
        solve_parallel(&pool(threads), h, Pruning::table(table, slack), board)
    };
    assert!(
        board.solves(&s.moves),
        "solution of {board} does not replay to the goal"
    );
    s
}

fn pdb_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fifteen-pdb")
}

/// The 6-6-3 databases, built once per test binary (cached on disk under target/).
fn pdb() -> &'static PatternDb {
    static PDB: OnceLock<PatternDb> = OnceLock::new();
    PDB.get_or_init(|| {
        PatternDb::load_or_build(&pdb::PARTITION_663, Some(&pdb_dir()), &|m| eprintln!("{m}"))
            .expect("partition")
    })
}

#[test]
fn korf_table_is_complete_and_consistent() {
    let all = korf100();
    assert_eq!(all.len(), 100);
    let md = Manhattan::new(4);
    for (i, k) in all.iter().enumerate() {
        assert_eq!(k.id, i + 1);
        assert_eq!(k.board.side(), 4);
        assert!(
            md.of(&k.board) <= k.len && k.md_nodes >= k.mdlc_nodes,
            "instance {}",
            k.id
        );
    }
}

#[test]
fn plain_ida_with_manhattan_reproduces_korfs_node_counts() {
    let mut ids = vec![9, 12, 19, 2, 5, 16, 13];
    if long() {
        ids.extend([4, 6, 8, 18, 20, 23, 24, 28, 31, 35, 38, 42, 47, 54]);
    }
    let md = Manhattan::new(4);
    for id in ids {
        let k = korf(id);
        let s = solve(&md, None, 0, 1, k.board);
        assert_eq!(s.moves.len() as u32, k.len, "instance {id}: length");
        assert_eq!(s.counters.nodes, k.md_nodes, "instance {id}: nodes");
    }
}

#[test]
fn plain_ida_with_linear_conflict_reproduces_korfs_node_counts() {
    let lc = LinearConflict::new(4);
    for id in [9, 12, 19, 2, 5, 8, 6, 20, 16, 13] {
        let k = korf(id);
        let s = solve(&lc, None, 0, 1, k.board);
        assert_eq!(s.moves.len() as u32, k.len, "instance {id}: length");
        assert_eq!(s.counters.nodes, k.mdlc_nodes, "instance {id}: nodes");
    }
}

#[test]
fn linear_conflict_never_exceeds_the_true_distance_and_dominates_manhattan() {
    let (md, lc) = (Manhattan::new(4), LinearConflict::new(4));
    for k in korf100() {
        let (_, h) = lc.init(&k.board);
        assert!(md.of(&k.board) <= h && h <= k.len, "instance {}", k.id);
        // Incremental updates agree with recomputation along a walk.
        let (mut state, _) = lc.init(&k.board);
        let mut b = k.board;
        for step in 0..40usize {
            let d = DIRS[(step * 7 + k.id) % 4];
            let Some(to) = b.target(d) else { continue };
            let before = b;
            let tile = b.slide(to);
            let (s, h) = lc.update(state, &before, &b, tile, to, before.blank());
            state = s;
            assert_eq!(h, lc.init(&b).1);
        }
    }
}

#[test]
fn the_table_never_changes_an_optimal_length_with_pattern_databases() {
    let pdb = pdb();
    // Korf's 1-20, and two of the five hardest for 6-6-3 (33 and 88: 10 and 13 M nodes with
    // the defaults; 60, the hardest, and all 100 with FIFTEEN_LONG).
    let (easy, hard): (Vec<usize>, Vec<usize>) = if long() {
        ((1..=100).collect(), vec![])
    } else {
        ((1..=20).collect(), vec![33, 88])
    };
    // A small table (evictions all the time) with every node probing and storing, on the easy
    // ones; a big one with `--table-slack 2` on all.
    let small = BoundTable::new(Size::Mib(1)).expect("table");
    let big = BoundTable::new(Size::Mib(64)).expect("table");
    for &id in easy.iter().chain(&hard) {
        let k = korf(id);
        let (_, h0) = pdb.init(&k.board);
        assert!(
            h0 <= k.len,
            "instance {id}: PDB heuristic {h0} above the optimal {}",
            k.len
        );
        for threads in [1, 2] {
            if easy.contains(&id) {
                let s = solve(pdb, Some(&small), 0, threads, k.board);
                assert_eq!(
                    s.moves.len() as u32,
                    k.len,
                    "instance {id}, 1 MiB, {threads} thread(s)"
                );
            }
            let s = solve(pdb, Some(&big), 2, threads, k.board);
            assert_eq!(
                s.moves.len() as u32,
                k.len,
                "instance {id}, 64 MiB, slack 2, {threads} thread(s)"
            );
        }
    }
}

#[test]
fn the_table_never_changes_an_optimal_length_with_linear_conflict() {
    let lc = LinearConflict::new(4);
    let table = BoundTable::new(Size::Mib(1)).expect("table");
    for id in [9, 12, 19, 2, 5, 8, 6, 16, 13, 20, 4] {
        let k = korf(id);
        for threads in [1, 2] {
            let s = solve(&lc, Some(&table), 0, threads, k.board);
            assert_eq!(
                s.moves.len() as u32,
                k.len,
                "instance {id}, {threads} thread(s)"
            );
        }
    }
}

#[test]
fn the_automaton_alone_and_with_the_table_keeps_optimal_lengths_on_the_15_puzzle() {
    let pdb = pdb();
    let automaton = MoveAutomaton::build(4, 12);
    let table = BoundTable::new(Size::Mib(1)).expect("table");
    let cycles = Pruning {
        cycles: Some(&automaton),
        ..Pruning::default()
    };
    let (mut with, mut without) = (0, 0);
    for id in 1..=20 {
        let k = korf(id);
        for threads in [1, 2] {
            // A small table probed everywhere: evictions and salted keys all the time.
            for pruning in [
                cycles,
                Pruning {
                    table: Some(&table),
                    ..cycles
                },
            ] {
                let s = if threads == 1 {
                    solve_sequential(pdb, pruning, k.board)
                } else {
                    solve_parallel(&pool(threads), pdb, pruning, k.board)
                };
                assert!(k.board.solves(&s.moves), "instance {id}");
                assert!(
                    automaton.allows(&s.moves),
                    "instance {id}: a forbidden string"
                );
                assert_eq!(
                    s.moves.len() as u32,
                    k.len,
                    "instance {id}, {threads} thread(s)"
                );
            }
        }
        with += solve_sequential(pdb, cycles, k.board).counters.nodes;
        without += solve_sequential(pdb, Pruning::default(), k.board)
            .counters
            .nodes;
    }
    assert!(
        with < without,
        "{with} nodes with the automaton, {without} without"
    );
}

#[test]
fn plain_ida_with_two_threads_finds_the_optimal_length() {
    let lc = LinearConflict::new(4);
    for id in [9, 12, 19, 2] {
        let k = korf(id);
        assert_eq!(solve(&lc, None, 0, 2, k.board).moves.len() as u32, k.len);
    }
}

/// Exact distances of all 9!/2 = 181,440 solvable 3×3 boards, by breadth-first search.
fn eight_puzzle_distances() -> std::collections::HashMap<u64, u32> {
    let goal = Board::goal(3);
    let mut dist = std::collections::HashMap::with_capacity(181_440);
    dist.insert(goal.key(), 0);
    let mut queue = VecDeque::from([goal]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b.key()];
        for dir in DIRS {
            if let Some(n) = b.moved(dir) {
                dist.entry(n.key()).or_insert_with(|| {
                    queue.push_back(n);
                    d + 1
                });
            }
        }
    }
    dist
}

#[test]
fn eight_puzzle_lengths_match_breadth_first_search_and_every_table_entry_is_a_lower_bound() {
    let dist = eight_puzzle_distances();
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().max(), Some(&31));
    let (md, lc) = (Manhattan::new(3), LinearConflict::new(3));
    let table = BoundTable::new(Size::Mib(64)).expect("table");
    let tiny = BoundTable::new(Size::Bytes(4096)).expect("table");
    let mut keys: Vec<u64> = dist.keys().copied().collect();
    keys.sort_unstable();
    // Every 400th board (454 of them, all distances), plus the 2 hardest (31 moves).
    let mut sample: Vec<u64> = keys.iter().step_by(400).copied().collect();
    sample.extend(keys.iter().filter(|k| dist[k] == 31));
    for (i, key) in sample.iter().enumerate() {
        let tiles: Vec<u32> = (0..9).map(|c| ((key >> (4 * c)) & 15) as u32).collect();
        let board = Board::from_tiles(&tiles).expect("a BFS board is valid");
        let want = dist[key];
        assert!(md.of(&board) <= want && lc.init(&board).1 <= want);
        let threads = 1 + i % 2;
        assert_eq!(
            solve(&md, None, 0, 1, board).moves.len() as u32,
            want,
            "{board} md"
        );
        assert_eq!(
            solve(&lc, Some(&table), 0, threads, board).moves.len() as u32,
            want,
            "{board} lc+table"
        );
        assert_eq!(
            solve(&md, Some(&tiny), 0, threads, board).moves.len() as u32,
            want,
            "{board} md+tiny"
        );
    }
    // Every entry left in the big table (bounds from all those searches) is admissible for
    // every way a search can read it: over all moves, and excluding a move back to a neighbour
    // that lies farther from the goal (then some optimal path does not start with that move).
    let mut checked = 0;
    for key in &keys {
        let Some(entry) = table.probe(*key) else {
            continue;
        };
        let tiles: Vec<u32> = (0..9).map(|c| ((key >> (4 * c)) & 15) as u32).collect();
        let board = Board::from_tiles(&tiles).expect("valid");
        let d = dist[key];
        assert!(
            entry.excluding(None) <= d,
            "{board}: {entry:?} above the distance {d}"
        );
        for back in DIRS {
            if let Some(n) = board.moved(back) {
                if dist[&n.key()] > d {
                    assert!(
                        entry.excluding(Some(back)) <= d,
                        "{board}: {entry:?} excluding {back:?}, distance {d}"
                    );
                }
            }
        }
        checked += 1;
    }
    assert!(checked > 10_000, "only {checked} entries stored");
}

#[test]
fn two_by_two_boards_are_solved() {
    // The 12 solvable 2×2 boards lie on one cycle; the farthest is 6 moves away.
    let md = Manhattan::new(2);
    let mut b = Board::goal(2);
    let mut seen = Vec::new();
    for step in 0..12 {
        let d = [DIRS[2], DIRS[3], DIRS[1], DIRS[0]][step % 4];
        b = b.moved(d).expect("on the board");
        seen.push(b);
    }
    for (i, b) in seen.iter().enumerate() {
        let want = (i + 1).min(11 - i) as u32;
        assert_eq!(
            solve(&md, None, 0, 1, *b).moves.len() as u32,
            want.min(12 - want),
            "{b}"
        );
    }
}

#[test]
fn pattern_database_cache_is_checked_and_rebuilt() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fifteen-pdb663-cache-test");
    let _ = std::fs::remove_dir_all(&dir);
    let partition: [&[u8]; 2] = [&[1, 2, 3, 5], &[10, 11, 15]];
    let log = std::sync::Mutex::new(Vec::<String>::new());
    let record = |m: String| log.lock().unwrap().push(m);
    let built = PatternDb::load_or_build(&partition, Some(&dir), &record).expect("partition");
    assert_eq!(
        log.lock()
            .unwrap()
            .iter()
            .filter(|m| m.contains("built"))
            .count(),
        2
    );
    log.lock().unwrap().clear();
    // A clean reload builds nothing and gives the same heuristic.
    let loaded = PatternDb::load_or_build(&partition, Some(&dir), &record).expect("partition");
    assert!(log.lock().unwrap().is_empty(), "{:?}", log.lock().unwrap());
    // Damage one file: one byte of data, then the version; each is detected and rebuilt.
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("1_2_3_5"))
        .expect("cache file");
    let good = std::fs::read(&file).unwrap();
    for damage in [good.len() - 10, 9] {
        let mut bad = good.clone();
        bad[damage] ^= 0x5a;
        std::fs::write(&file, &bad).unwrap();
        let rebuilt = PatternDb::load_or_build(&partition, Some(&dir), &record).expect("partition");
        assert!(
            log.lock().unwrap().iter().any(|m| m.contains("rebuilding")),
            "{:?}",
            log.lock().unwrap()
        );
        log.lock().unwrap().clear();
        assert_eq!(std::fs::read(&file).unwrap(), good, "rewritten identically");
        for k in korf100().iter().take(20) {
            assert_eq!(rebuilt.init(&k.board).1, built.init(&k.board).1);
        }
    }
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    PatternDb::load_or_build(&partition, Some(&dir), &record).expect("partition");
    assert!(log.lock().unwrap().iter().any(|m| m.contains("rebuilding")));
    for k in korf100() {
        let (a, b) = (built.init(&k.board).1, loaded.init(&k.board).1);
        assert_eq!(a, b);
        assert!(a <= k.len);
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Bad partitions are errors, not panics.
    assert!(PatternDb::load_or_build(&[&[1, 2], &[2, 3]], None, &record).is_err());
    assert!(PatternDb::load_or_build(&[&[0, 1]], None, &record).is_err());
    assert!(PatternDb::load_or_build(&[&[1, 2, 3, 4, 5, 6, 7]], None, &record).is_err());
}

#[test]
fn pattern_database_heuristic_is_admissible_along_solutions() {
    // Along an optimal solution, h never exceeds the moves left.
    let pdb = pdb();
    let lc = LinearConflict::new(4);
    for id in [9, 12, 19] {
        let k = korf(id);
        let s = solve(&lc, None, 0, 1, k.board);
        let mut b = k.board;
        let (mut state, mut h) = pdb.init(&b);
        for (i, &d) in s.moves.iter().enumerate() {
            assert!(h as usize <= s.moves.len() - i, "instance {id}, step {i}");
            let before = b;
            let to = b.target(d).unwrap();
            let tile = b.slide(to);
            (state, h) = pdb.update(state, &before, &b, tile, to, before.blank());
            assert_eq!(h, pdb.init(&b).1, "incremental = from scratch");
        }
        assert_eq!(h, 0);
    }
}

/// The configuration and solver the binary builds for `--korf IDS --heuristic lc --hash-mib
/// MIB --threads N --parallel P` (`src/bin/fifteen/cli/tests.rs` checks that parsing).
fn solver_of(
    ids: &[usize],
    hash_mib: usize,
    threads: usize,
    parallel: fifteen::config::Parallel,
) -> (fifteen::config::Config, fifteen::solver::Solver) {
    use fifteen::config::{Config, HeuristicKind, PdbLayout};
    let heuristic = Some(HeuristicKind::Lc);
    let instances = fifteen::korf::korf_instances(ids, heuristic);
    assert_eq!(instances.len(), ids.len());
    let config = Config {
        parallel: parallel.resolve(instances.len(), false),
        instances,
        heuristic,
        threads,
        hash_mib,
        table: None,
        prefault: false,
        solution: false,
        pdb_dir: None,
        pdb_layout: PdbLayout::Nibbles,
        table_slack: fifteen::ida::DEFAULT_TABLE_SLACK,
        cycles: [0; 6],
        fresh_table: false,
        iterations: false,
    };
    let solver = fifteen::solver::Solver::new(&config, &|_| {}).expect("solver");
    (config, solver)
}

#[test]
fn instances_solved_on_several_threads_are_reported_in_order_and_a_stop_is_honoured() {
    use fifteen::config::Parallel;
    let ids = [9, 12, 19, 2, 5, 16, 13, 8];
    for (threads, requested, parallel) in [
        (2, Parallel::Auto, Parallel::Instances),
        (2, Parallel::Tree, Parallel::Tree),
        (1, Parallel::Auto, Parallel::Instances),
    ] {
        let line = format!("{threads} threads, {requested:?}");
        let (config, solver) = solver_of(&ids, 4, threads, requested);
        assert_eq!(config.parallel, parallel, "{line}");
        let solve_all = |report: &mut dyn FnMut(usize, fifteen::solver::Solved) -> bool| {
            solver
                .solve_all(
                    &config.instances,
                    config.threads,
                    config.parallel,
                    false,
                    fifteen::ida::Control::quiet(),
                    report,
                )
                .expect("threads");
        };
        let mut seen = Vec::new();
        solve_all(&mut |i, s| {
            let k = korf(ids[i]);
            let solution = s.solution.expect("not interrupted");
            assert_eq!(solution.moves.len() as u32, k.len, "{line}: #{}", k.id);
            assert!(k.board.solves(&solution.moves));
            seen.push(i);
            true
        });
        assert_eq!(seen, (0..ids.len()).collect::<Vec<_>>(), "{line}");
        // Stopping after the third: nothing more is reported.
        let mut reported = 0;
        solve_all(&mut |_, _| {
            reported += 1;
            reported < 3
        });
        assert_eq!(reported, 3, "{line}");
    }
}

#[test]
fn tables_above_the_huge_page_limit_get_small_pages() {
    use fifteen::solver::HUGE_PAGE_TABLE_MAX_MIB;
    use searchcache::HugePages;
    for (mib, pages) in [
        (64, HugePages::Advise),
        (HUGE_PAGE_TABLE_MAX_MIB, HugePages::Advise),
        (HUGE_PAGE_TABLE_MAX_MIB + 1, HugePages::Never),
    ] {
        let (_, solver) = solver_of(&[9], mib, 1, fifteen::config::Parallel::Auto);
        let table = solver.table.as_ref().expect("lc uses the table by default");
        assert_eq!(
            table.options(),
            searchcache::Options::default().huge_pages(pages)
        );
        assert!(table.memory_bytes() >> 20 <= mib);
    }
}
