//! The short-cycle automaton (`cycles.rs`): what it forbids, and that it loses no shortest path
//! from any start, whatever cell the blank starts on.

use fifteen::board::{Board, Dir, Packing, DIRS};
use fifteen::cycles::{MoveAutomaton, START};
use std::collections::{HashMap, HashSet};

/// Breadth-first from `start`, every move against the moves the automaton allows: each board
/// within `depth` moves, with its distance.
fn distances<P: Packing>(
    start: Board<P>,
    depth: u32,
    automaton: Option<&MoveAutomaton>,
) -> HashMap<Board<P>, u32> {
    let mut distance = HashMap::from([(start, 0)]);
    let mut seen = HashSet::from([(start, START)]);
    let mut level = vec![(start, START)];
    for k in 1..=depth {
        let mut next = Vec::new();
        for &(board, state) in &level {
            for d in DIRS {
                let Some(child) = board.moved(d) else {
                    continue;
                };
                let state = match automaton {
                    Some(a) => match a.step(state, d) {
                        Some(s) => s,
                        None => continue,
                    },
                    None => START,
                };
                if seen.insert((child, state)) {
                    distance.entry(child).or_insert(k);
                    next.push((child, state));
                }
            }
        }
        level = next;
    }
    distance
}

/// A board with the blank moved along `moves` from the goal of side `side`.
fn walked<P: Packing>(side: u8, moves: &[Dir]) -> Board<P> {
    moves.iter().fold(Board::goal_of(side), |b, &d| {
        b.moved(d).expect("the walk stays on the board")
    })
}

fn same_distances<P: Packing>(start: Board<P>, depth: u32, automaton: &MoveAutomaton) -> usize {
    let all = distances(start, depth, None);
    let pruned = distances(start, depth, Some(automaton));
    assert_eq!(
        all, pruned,
        "a board got farther (or lost) with the automaton"
    );
    all.len()
}

#[test]
fn every_board_of_the_8_puzzle_keeps_its_distance_from_every_start_cell() {
    use Dir::*;
    let automaton = MoveAutomaton::build(3, 14);
    assert!(automaton.forbidden() > 100, "{}", automaton.forbidden());
    // The blank in a corner, on an edge and in the middle.
    for walk in [&[][..], &[Right][..], &[Right, Down][..]] {
        let start: Board<u64> = walked(3, walk);
        assert_eq!(same_distances(start, 31, &automaton), 181_440);
    }
}

#[test]
fn boards_near_a_15_and_a_24_puzzle_start_keep_their_distances() {
    use Dir::*;
    let four = MoveAutomaton::build(4, 12);
    for walk in [
        &[][..],
        &[Right][..],
        &[Right, Down][..],
        &[Right, Right, Down][..],
    ] {
        let start: Board<u64> = walked(4, walk);
        let n = same_distances(start, 15, &four);
        assert!(n > 100_000);
    }
    let five = MoveAutomaton::build(5, 12);
    for walk in [&[][..], &[Right, Down][..], &[Right, Right, Down, Down][..]] {
        let start: Board<u128> = walked(5, walk);
        let n = same_distances(start, 14, &five);
        assert!(n > 100_000);
    }
}

#[test]
fn the_move_back_and_the_shortest_cycles_are_forbidden() {
    use Dir::*;
    let automaton = MoveAutomaton::build(4, 12);
    for d in DIRS {
        let state = automaton
            .step(START, d)
            .expect("one move is never forbidden");
        assert_eq!(automaton.step(state, d.opposite()), None, "{d:?} then back");
    }
    // Round a 2×2 block twice one way: the same as once the other way, which comes first.
    let twice = [Right, Down, Left, Up, Right, Down, Left, Up];
    assert!(!automaton.allows(&twice));
    assert!(automaton.allows(&twice[..4]));
    // Nothing of 1..=2 moves besides the move back, and nothing with a string of 1 or 2.
    assert_eq!(MoveAutomaton::build(4, 2).forbidden(), 4);
    assert_eq!(MoveAutomaton::build(4, 1).forbidden(), 0);
}

#[test]
fn it_prunes_more_as_its_strings_grow() {
    let counts: Vec<u64> = [2, 8, 12]
        .iter()
        .map(|&n| MoveAutomaton::build(5, n).count_allowed(16))
        .collect();
    // Without the move back: 4 · 3^15 strings of 16 moves.
    assert_eq!(counts[0], 4 * 3u64.pow(15));
    assert!(counts[1] < counts[0] && counts[2] < counts[1], "{counts:?}");
}
