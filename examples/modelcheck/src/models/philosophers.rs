//! Dining philosophers: N in a ring, each takes its left fork, then its right, eats, and puts
//! both down. When all hold their left fork nobody can move: the classic deadlock.

use crate::model::{Invariant, Model};
use crate::property::Property;
use std::fmt;

/// The most philosophers: 2 bits each in one `u64`.
pub const MAX_PHILOSOPHERS: usize = 32;

/// The names of the liveness properties, one per philosopher: it eventually eats.
const EATS: [&str; MAX_PHILOSOPHERS] = [
    "Eats(p0)",
    "Eats(p1)",
    "Eats(p2)",
    "Eats(p3)",
    "Eats(p4)",
    "Eats(p5)",
    "Eats(p6)",
    "Eats(p7)",
    "Eats(p8)",
    "Eats(p9)",
    "Eats(p10)",
    "Eats(p11)",
    "Eats(p12)",
    "Eats(p13)",
    "Eats(p14)",
    "Eats(p15)",
    "Eats(p16)",
    "Eats(p17)",
    "Eats(p18)",
    "Eats(p19)",
    "Eats(p20)",
    "Eats(p21)",
    "Eats(p22)",
    "Eats(p23)",
    "Eats(p24)",
    "Eats(p25)",
    "Eats(p26)",
    "Eats(p27)",
    "Eats(p28)",
    "Eats(p29)",
    "Eats(p30)",
    "Eats(p31)",
];

const THINKING: u64 = 0;
const HAS_LEFT: u64 = 1;
const EATING: u64 = 2;

/// N dining philosophers, N in 2..=32.
pub struct Philosophers {
    n: usize,
}

/// Philosopher i's phase in bits 2i..2i+2: 0 thinking, 1 holds fork i, 2 eating (forks i, i+1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct PhilosophersState(u64);

/// A philosopher's step.
#[derive(Clone, Copy, Debug)]
pub enum PhilosopherAction {
    /// Philosopher i takes fork i.
    TakeLeft(u8),
    /// Philosopher i takes fork i+1 and eats.
    TakeRight(u8),
    /// Philosopher i puts both forks down.
    Release(u8),
}

impl fmt::Display for PhilosopherAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhilosopherAction::TakeLeft(i) => write!(f, "take-left(p{i})"),
            PhilosopherAction::TakeRight(i) => write!(f, "take-right(p{i})"),
            PhilosopherAction::Release(i) => write!(f, "release(p{i})"),
        }
    }
}

impl Philosophers {
    /// `n` philosophers, 2..=32.
    pub fn new(n: usize) -> Result<Self, String> {
        if (2..=MAX_PHILOSOPHERS).contains(&n) {
            Ok(Philosophers { n })
        } else {
            Err(format!(
                "philosophers needs 2 to {MAX_PHILOSOPHERS} philosophers, got {n}"
            ))
        }
    }

    fn phase(&self, s: PhilosophersState, i: usize) -> u64 {
        (s.0 >> (2 * i)) & 3
    }
    fn with_phase(&self, s: PhilosophersState, i: usize, v: u64) -> PhilosophersState {
        PhilosophersState((s.0 & !(3 << (2 * i))) | (v << (2 * i)))
    }

    /// The state with every philosopher moved `r` seats down the ring (philosopher `i + r`'s
    /// phase becomes philosopher `i`'s), 0 < r < n.
    fn rotated(&self, s: PhilosophersState, r: usize) -> u64 {
        let bits = 2 * self.n as u32;
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        let r = 2 * r as u32;
        ((s.0 >> r) | (s.0 << (bits - r))) & mask
    }
}

impl Model for Philosophers {
    type State = PhilosophersState;
    type Action = PhilosopherAction;

    fn name(&self) -> String {
        format!("philosophers(n={})", self.n)
    }

    fn initial_states(&self) -> Vec<PhilosophersState> {
        vec![PhilosophersState(0)]
    }

    fn successors(
        &self,
        s: &PhilosophersState,
        out: &mut Vec<(PhilosopherAction, PhilosophersState)>,
    ) {
        let s = *s;
        let n = self.n;
        for i in 0..n {
            let a = i as u8;
            match self.phase(s, i) {
                // Fork i is free unless the left neighbour eats (it holds forks i-1 and i).
                THINKING if self.phase(s, (i + n - 1) % n) != EATING => {
                    out.push((
                        PhilosopherAction::TakeLeft(a),
                        self.with_phase(s, i, HAS_LEFT),
                    ));
                }
                // Fork i+1 is free only while the right neighbour thinks.
                HAS_LEFT if self.phase(s, (i + 1) % n) == THINKING => {
                    out.push((
                        PhilosopherAction::TakeRight(a),
                        self.with_phase(s, i, EATING),
                    ));
                }
                EATING => {
                    out.push((
                        PhilosopherAction::Release(a),
                        self.with_phase(s, i, THINKING),
                    ));
                }
                _ => {}
            }
        }
    }

    fn invariants(&self) -> Vec<Invariant<PhilosophersState>> {
        let n = self.n;
        vec![Invariant::new(
            "NeighboursNeverBothEat",
            move |s: &PhilosophersState| {
                (0..n).all(|i| {
                    !((s.0 >> (2 * i)) & 3 == EATING && (s.0 >> (2 * ((i + 1) % n))) & 3 == EATING)
                })
            },
        )]
    }

    fn properties(&self) -> Vec<Property<PhilosophersState>> {
        let n = self.n;
        let mut properties = vec![Property::sometimes(
            "SomeoneEats",
            move |s: &PhilosophersState| (0..n).any(|i| (s.0 >> (2 * i)) & 3 == EATING),
        )];
        properties.extend((0..self.n).map(|i| {
            Property::eventually(EATS[i], move |s: &PhilosophersState| {
                (s.0 >> (2 * i)) & 3 == EATING
            })
        }));
        properties
    }

    /// The philosophers sit in a ring: the least of the state's n rotations.
    fn canonical(&self, s: &PhilosophersState) -> Option<PhilosophersState> {
        let least = (1..self.n).map(|r| self.rotated(*s, r)).fold(s.0, u64::min);
        Some(PhilosophersState(least))
    }

    /// The state's period: the least rotation that gives it back, as many as distinct ones.
    fn class_size(&self, s: &PhilosophersState) -> Option<u64> {
        let period = (1..self.n)
            .find(|&r| self.rotated(*s, r) == s.0)
            .unwrap_or(self.n);
        Some(period as u64)
    }

    fn processes(&self) -> usize {
        self.n
    }

    fn process_of(&self, action: &PhilosopherAction) -> Option<usize> {
        match *action {
            PhilosopherAction::TakeLeft(i)
            | PhilosopherAction::TakeRight(i)
            | PhilosopherAction::Release(i) => Some(i as usize),
        }
    }

    fn show(&self, s: &PhilosophersState) -> String {
        (0..self.n)
            .map(|i| ["T", "L", "E", "?"][self.phase(*s, i) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::symmetry::testing::assert_classes;

    #[test]
    fn classes_match_a_brute_force_count_over_every_rotation() {
        for n in 2..=7 {
            let model = Philosophers::new(n).unwrap();
            assert_classes(&model, |&s| {
                let phases: Vec<u64> = (0..n).map(|i| model.phase(s, i)).collect();
                (0..n)
                    .map(|r| (0..n).map(|i| phases[(i + r) % n]).collect::<Vec<_>>())
                    .min()
            });
        }
    }
}
