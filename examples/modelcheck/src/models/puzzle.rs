//! The sliding-tile puzzle on a k×k board (k = 3: the 8-puzzle), every arrangement reachable
//! from the goal. Nothing can go wrong in it: it is here for its exactly known state count
//! (9!/2 = 181,440 for k = 3) and depth (31).

use crate::model::Model;
use crate::property::Property;
use std::fmt;

/// A k×k puzzle, k in 2..=4 (16 cells of 4 bits fill one `u64`).
pub struct Puzzle {
    k: usize,
}

/// Cell c's tile in bits 4c..4c+4 (0 = blank); the blank's cell in the low bits of `blank`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct PuzzleState {
    cells: u64,
    blank: u8,
}

/// Which way the blank moves.
#[derive(Clone, Copy, Debug)]
pub enum PuzzleAction {
    /// The blank moves up.
    Up,
    /// The blank moves down.
    Down,
    /// The blank moves left.
    Left,
    /// The blank moves right.
    Right,
}

impl fmt::Display for PuzzleAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl Puzzle {
    /// The k×k puzzle, 2..=4.
    pub fn new(k: usize) -> Result<Self, String> {
        if (2..=4).contains(&k) {
            Ok(Puzzle { k })
        } else {
            Err(format!("puzzle needs a board side of 2 to 4, got {k}"))
        }
    }

    fn tile(s: &PuzzleState, cell: usize) -> u64 {
        (s.cells >> (4 * cell)) & 15
    }

    fn slide(&self, s: &PuzzleState, to: usize) -> PuzzleState {
        let from = s.blank as usize;
        let tile = Self::tile(s, to);
        let cells = (s.cells & !(15 << (4 * to))) | (tile << (4 * from));
        PuzzleState {
            cells,
            blank: to as u8,
        }
    }
}

impl Model for Puzzle {
    type State = PuzzleState;
    type Action = PuzzleAction;

    fn name(&self) -> String {
        format!("puzzle({}x{})", self.k, self.k)
    }

    fn initial_states(&self) -> Vec<PuzzleState> {
        // The goal: tiles 1..k²-1 in reading order, the blank last.
        let cells = self.k * self.k;
        let mut bits = 0u64;
        for c in 0..cells - 1 {
            bits |= ((c + 1) as u64) << (4 * c);
        }
        vec![PuzzleState {
            cells: bits,
            blank: (cells - 1) as u8,
        }]
    }

    fn successors(&self, s: &PuzzleState, out: &mut Vec<(PuzzleAction, PuzzleState)>) {
        let k = self.k;
        let b = s.blank as usize;
        let (row, col) = (b / k, b % k);
        if row > 0 {
            out.push((PuzzleAction::Up, self.slide(s, b - k)));
        }
        if row + 1 < k {
            out.push((PuzzleAction::Down, self.slide(s, b + k)));
        }
        if col > 0 {
            out.push((PuzzleAction::Left, self.slide(s, b - 1)));
        }
        if col + 1 < k {
            out.push((PuzzleAction::Right, self.slide(s, b + 1)));
        }
    }

    /// The search starts at the goal, so "the goal is reachable" would be its initial state;
    /// instead the blank must reach the opposite corner (2(k − 1) moves).
    fn properties(&self) -> Vec<Property<PuzzleState>> {
        vec![Property::sometimes("BlankTopLeft", |s: &PuzzleState| {
            s.blank == 0
        })]
    }

    fn show(&self, s: &PuzzleState) -> String {
        (0..self.k)
            .map(|r| {
                (0..self.k)
                    .map(|c| match Self::tile(s, r * self.k + c) {
                        0 => ".".to_string(),
                        t => t.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join(" / ")
    }
}
