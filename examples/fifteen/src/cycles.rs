//! Duplicate pruning by a finite automaton over the blank's moves (Taylor & Korf, "Pruning
//! duplicate nodes in depth-first search", AAAI 1993): a string of moves that reaches the same
//! board as a shorter string, or as an equally long one earlier in the order up, left, right,
//! down, is never searched, where that string is legal wherever this one is (below).
//!
//! # Why a search that avoids those strings stays optimal
//!
//! A string of moves of the blank permutes the cells around it the same way on every board,
//! whatever the tiles; two strings with the same permutation (and the same end cell of the
//! blank) reach the same board from any board on which both are legal. A string `A` is
//! *forbidden* only if such a string `B` comes first (shorter, or as long and smaller in the
//! move order) **and** `B`'s path stays inside the rectangle `A`'s path spans, so `B` is legal
//! wherever `A` is. Replacing `A` by `B` inside a path keeps it legal and makes it shorter or
//! smaller in the order, so the smallest optimal path contains no forbidden string: IDA* with
//! the automaton still finds an optimal solution (tests: exact lengths on 4×4 and 5×5 boards).
//!
//! The forbidden strings are found breadth-first up to a length, on a grid of the board's side
//! (a path wider or taller than the board is legal nowhere on it), and compiled into an
//! Aho–Corasick automaton: a state is the longest suffix of the moves so far that begins a
//! forbidden string, and a move that completes one has no transition.

use crate::board::{Dir, DIRS};
use std::collections::{HashMap, VecDeque};

/// The state of a search that has made no move yet.
pub const START: u32 = 0;

/// No transition: the move completes a forbidden string.
const NONE: u32 = u32::MAX;

/// The automaton: for each state, the next state per move (up, left, right, down).
#[derive(Clone, Debug)]
pub struct MoveAutomaton {
    next: Vec<[u32; 4]>,
    forbidden: usize,
}

/// The rectangle a path of the blank spans, relative to its first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    min_x: i8,
    max_x: i8,
    min_y: i8,
    max_y: i8,
}

impl Span {
    const POINT: Span = Span {
        min_x: 0,
        max_x: 0,
        min_y: 0,
        max_y: 0,
    };

    fn within(self, outer: Span) -> bool {
        outer.min_x <= self.min_x
            && self.max_x <= outer.max_x
            && outer.min_y <= self.min_y
            && self.max_y <= outer.max_y
    }

    fn with(self, x: i8, y: i8) -> Span {
        Span {
            min_x: self.min_x.min(x),
            max_x: self.max_x.max(x),
            min_y: self.min_y.min(y),
            max_y: self.max_y.max(y),
        }
    }
}

fn step(d: u8) -> (i8, i8) {
    match d {
        0 => (0, -1),
        1 => (-1, 0),
        2 => (1, 0),
        _ => (0, 1),
    }
}

/// A string of up to 16 moves: move `i` in bits `2i..2i+2` (0 up, 1 left, 2 right, 3 down).
#[derive(Clone, Copy)]
struct Moves {
    code: u32,
    len: u8,
}

impl Moves {
    fn get(self, i: u8) -> u8 {
        (self.code >> (2 * i) & 3) as u8
    }

    fn then(self, d: u8) -> Moves {
        Moves {
            code: self.code | u32::from(d) << (2 * self.len),
            len: self.len + 1,
        }
    }

    fn to_vec(self) -> Vec<u8> {
        (0..self.len).map(|i| self.get(i)).collect()
    }
}

/// The cells a string changes, each with the cell its content came from, on a grid of side
/// `2·side − 1` centred on the blank's first cell; ascending, padded with `u8::MAX`.
type Changes = [(u8, u8); 17];

/// The longest string the automaton takes (a [`Moves`] holds 16).
const LONGEST: usize = 16;

/// Incomparable spans kept per permutation: a string is forbidden only against a kept span, so
/// one not kept can only leave a string allowed.
const SPANS_KEPT: usize = 4;

/// What a string does, and the span of its path; `None` if the path is wider or taller than
/// the board.
fn effect(moves: Moves, side: u8) -> Option<(Changes, Span)> {
    let width = 2 * i16::from(side) - 1;
    let centre = i16::from(side) - 1;
    let mut cells = [0u8; 81];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = i as u8;
    }
    let (mut x, mut y, mut span) = (0i8, 0i8, Span::POINT);
    for i in 0..moves.len {
        let (dx, dy) = step(moves.get(i));
        let (nx, ny) = (x + dx, y + dy);
        span = span.with(nx, ny);
        if i16::from(span.max_x - span.min_x) >= i16::from(side)
            || i16::from(span.max_y - span.min_y) >= i16::from(side)
        {
            return None;
        }
        let at = |x: i8, y: i8| ((i16::from(y) + centre) * width + i16::from(x) + centre) as usize;
        cells.swap(at(x, y), at(nx, ny));
        (x, y) = (nx, ny);
    }
    let mut changes = [(u8::MAX, u8::MAX); 17];
    let changed = (0..(width * width) as usize).filter(|&i| usize::from(cells[i]) != i);
    for (slot, i) in changes.iter_mut().zip(changed) {
        *slot = (i as u8, cells[i]);
    }
    Some((changes, span))
}

/// The forbidden strings up to `max_len` moves on a board of side `side`, each with no
/// forbidden proper substring, in breadth-first order.
fn forbidden_strings(side: u8, max_len: usize) -> Vec<Vec<u8>> {
    let mut spans: HashMap<Changes, ([Span; SPANS_KEPT], usize)> = HashMap::new();
    let (identity, _) = effect(Moves { code: 0, len: 0 }, side).expect("no move");
    spans.insert(identity, ([Span::POINT; SPANS_KEPT], 1));
    let mut found: Vec<Vec<u8>> = Vec::new();
    let mut level = vec![Moves { code: 0, len: 0 }];
    for _ in 0..max_len {
        // The strings found so far, as an automaton: `s` avoids them all, so `s + d` contains
        // one exactly when the automaton has no transition for `d`.
        let known = MoveAutomaton::from_strings(&found);
        let mut next = Vec::new();
        for &s in &level {
            let state = (0..s.len)
                .try_fold(START, |state, i| {
                    known.step(state, DIRS[usize::from(s.get(i))])
                })
                .expect("a string kept avoids every forbidden string");
            for d in 0..4u8 {
                if known.step(state, DIRS[usize::from(d)]).is_none() {
                    continue;
                }
                let t = s.then(d);
                let Some((changes, span)) = effect(t, side) else {
                    continue;
                };
                let (earlier, n) = spans
                    .entry(changes)
                    .or_insert(([Span::POINT; SPANS_KEPT], 0));
                if earlier[..*n].iter().any(|e| e.within(span)) {
                    found.push(t.to_vec());
                } else {
                    if *n < SPANS_KEPT {
                        earlier[*n] = span;
                        *n += 1;
                    }
                    next.push(t);
                }
            }
        }
        level = next;
    }
    found
}

impl MoveAutomaton {
    /// The automaton of every forbidden string of at most `max_len` moves on a board of side
    /// `side` (2..=5; `max_len` at most 16). Building takes time and memory growing about 2.5×
    /// per move of `max_len`: on 5×5, 0.4 s at 12, 2-3 s at 14 (BENCHMARKS.md).
    pub fn build(side: u8, max_len: usize) -> MoveAutomaton {
        Self::from_strings(&forbidden_strings(side, max_len.min(LONGEST)))
    }

    /// The Aho–Corasick automaton of `strings` (moves as 0..4), none a substring of another.
    fn from_strings(strings: &[Vec<u8>]) -> MoveAutomaton {
        let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
        let mut terminal = vec![false];
        for s in strings {
            let mut state = 0usize;
            for &d in s {
                if goto[state][usize::from(d)] == NONE {
                    goto[state][usize::from(d)] = goto.len() as u32;
                    goto.push([NONE; 4]);
                    terminal.push(false);
                }
                state = goto[state][usize::from(d)] as usize;
            }
            terminal[state] = true;
        }
        // Aho–Corasick: complete the transitions through the failure links, breadth-first.
        let mut next = goto.clone();
        let mut fail = vec![0u32; goto.len()];
        let mut queue = VecDeque::new();
        for d in 0..4 {
            match goto[0][d] {
                NONE => next[0][d] = 0,
                child => queue.push_back(child),
            }
        }
        while let Some(state) = queue.pop_front() {
            let state = state as usize;
            terminal[state] |= terminal[fail[state] as usize];
            for d in 0..4 {
                match goto[state][d] {
                    NONE => next[state][d] = next[fail[state] as usize][d],
                    child => {
                        fail[child as usize] = next[fail[state] as usize][d];
                        queue.push_back(child);
                    }
                }
            }
        }
        Self::without_dead(next, &terminal, strings.len())
    }

    /// Drops the states that end a forbidden string: moves into them have no transition.
    fn without_dead(next: Vec<[u32; 4]>, dead: &[bool], forbidden: usize) -> MoveAutomaton {
        let mut number = vec![NONE; next.len()];
        let mut live = 0u32;
        for (state, &d) in dead.iter().enumerate() {
            if !d {
                number[state] = live;
                live += 1;
            }
        }
        let next = next
            .iter()
            .enumerate()
            .filter(|&(state, _)| !dead[state])
            .map(|(_, row)| row.map(|to| number[to as usize]))
            .collect();
        MoveAutomaton { next, forbidden }
    }

    /// The state after `d` from `state`, or `None` if `d` completes a forbidden string.
    #[inline]
    pub fn step(&self, state: u32, d: Dir) -> Option<u32> {
        let to = self.next[state as usize][d as usize];
        (to != NONE).then_some(to)
    }

    /// Whether `moves` (from [`START`]) avoids every forbidden string.
    pub fn allows(&self, moves: &[Dir]) -> bool {
        moves
            .iter()
            .try_fold(START, |state, &d| self.step(state, d))
            .is_some()
    }

    /// States of the automaton.
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// Forbidden strings it was built from.
    pub fn forbidden(&self) -> usize {
        self.forbidden
    }

    /// Strings of `len` moves it allows from [`START`] on an unbounded grid (a measure of the
    /// branching factor it leaves).
    pub fn count_allowed(&self, len: usize) -> u64 {
        let mut counts = vec![0u64; self.next.len()];
        counts[START as usize] = 1;
        for _ in 0..len {
            let mut after = vec![0u64; self.next.len()];
            for (state, &c) in counts.iter().enumerate() {
                for d in DIRS {
                    if let Some(to) = self.step(state as u32, d) {
                        after[to as usize] += c;
                    }
                }
            }
            counts = after;
        }
        counts.iter().sum()
    }
}
