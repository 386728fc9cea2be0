//! Perft of the standard positions against the reference counts (tests/data/perft.tsv), and
//! perft with subtree counts cached in a `SearchCache` against plain perft.
//!
//! Depths are capped at `CHESS_PERFT_MAX_LEAVES` leaves per position (default 5,000,000: about
//! 0.1 s each in release); set it higher to run the deep counts.

use chess::perft::{perft, perft_cached, perft_table};
use cozy_chess::Board;

const DATA: &str = include_str!("data/perft.tsv");

/// (name, position, reference counts for depth 1, 2, …).
fn positions() -> Vec<(String, Board, Vec<u64>)> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("name\t") && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let board = cols[1]
                .parse()
                .unwrap_or_else(|e| panic!("{}: bad FEN: {e:?}", cols[0]));
            let counts = cols[2]
                .split_whitespace()
                .map(|c| c.parse().unwrap())
                .collect();
            (cols[0].to_string(), board, counts)
        })
        .collect()
}

fn max_leaves() -> u64 {
    std::env::var("CHESS_PERFT_MAX_LEAVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000)
}

/// The (depth, count) pairs affordable for a position.
fn affordable(counts: &[u64]) -> impl Iterator<Item = (u32, u64)> + '_ {
    let cap = max_leaves();
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1, c))
        .filter(move |&(_, c)| c <= cap)
}

#[test]
fn perft_matches_reference_counts() {
    let positions = positions();
    assert_eq!(positions.len(), 6, "the six standard positions");
    for (name, board, counts) in &positions {
        let checked: Vec<_> = affordable(counts).collect();
        assert!(checked.len() >= 3, "{name}: at least depth 3");
        for (depth, expected) in checked {
            assert_eq!(perft(board, depth), expected, "{name} depth {depth}");
        }
    }
}

#[test]
fn cached_perft_equals_perft() {
    // 1 MiB (65,536 entries) is far smaller than the subtrees counted: entries are evicted and
    // replaced all the time, and every count must still come out exact.
    for mib in [1, 16] {
        for (name, board, counts) in positions() {
            let (depth, expected) = affordable(&counts).last().unwrap();
            let table = perft_table(mib).unwrap();
            assert_eq!(
                perft_cached(&board, depth, &table),
                expected,
                "{name} depth {depth}, {mib} MiB"
            );
            // A second run over the now warm table must agree as well.
            assert_eq!(
                perft_cached(&board, depth, &table),
                expected,
                "{name} warm, {mib} MiB"
            );
        }
    }
}

#[test]
fn cached_perft_uses_the_table() {
    // Kiwipete's depth-4 tree repeats many depth-2 and depth-3 subtrees: a warm table answers
    // the whole count from the root entry.
    let board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse()
        .unwrap();
    let table = perft_table(16).unwrap();
    assert_eq!(perft_cached(&board, 4, &table), 4_085_603);
    let root = table
        .probe(chess::perft::subtree_key(&board, 4))
        .expect("the root count is cached");
    assert_eq!(root.count, 4_085_603);
    assert_eq!(root.depth, 4);
    // The same position at another depth is another key.
    assert!(table.probe(chess::perft::subtree_key(&board, 5)).is_none());
}
