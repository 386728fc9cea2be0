//! Dining philosophers: N in a ring, each takes its left fork, then its right, eats, and puts
//! both down. When all hold their left fork nobody can move: the classic deadlock.
//!
//! The ordered variant (`Philosophers::ordered`, `ordered-philosophers` on the command line)
//! breaks the cycle: the last philosopher takes its right fork (fork 0) first. It has no
//! deadlock, but a philosopher can still starve under weak fairness: each time its neighbour
//! puts the shared fork down it takes it again, so the hungry one is enabled only now and then,
//! never forever.

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
/// Holds its first fork: fork i (its left), or fork 0 (its right) for the ordered variant's last.
const HAS_FIRST: u64 = 1;
const EATING: u64 = 2;

/// N dining philosophers, N in 2..=32.
pub struct Philosophers {
    n: usize,
    /// The last philosopher takes its right fork first (no deadlock).
    ordered: bool,
}

/// Philosopher i's phase in bits 2i..2i+2: 0 thinking, 1 holds its first fork, 2 eating (forks
/// i and i+1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct PhilosophersState(u64);

/// A philosopher's step.
#[derive(Clone, Copy, Debug)]
pub enum PhilosopherAction {
    /// Philosopher i takes fork i (and eats if it held fork i+1).
    TakeLeft(u8),
    /// Philosopher i takes fork i+1 (and eats if it held fork i).
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
            Ok(Philosophers { n, ordered: false })
        } else {
            Err(format!(
                "philosophers needs 2 to {MAX_PHILOSOPHERS} philosophers, got {n}"
            ))
        }
    }

    /// `n` philosophers, 2..=32, the last of whom takes its right fork first: no deadlock.
    pub fn ordered(n: usize) -> Result<Self, String> {
        Ok(Philosophers {
            ordered: true,
            ..Philosophers::new(n)?
        })
    }

    /// Whether philosopher `i` takes its right fork first.
    fn right_first(&self, i: usize) -> bool {
        self.ordered && i == self.n - 1
    }

    /// Whether fork `f` (between philosophers `f - 1` and `f`) is on the table.
    fn fork_free(&self, s: PhilosophersState, f: usize) -> bool {
        let left_user = (f + self.n - 1) % self.n;
        let held_by = |i: usize, as_right: bool| match self.phase(s, i) {
            EATING => true,
            HAS_FIRST => self.right_first(i) == as_right,
            _ => false,
        };
        !held_by(f, false) && !held_by(left_user, true)
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
        let kind = if self.ordered { "ordered-" } else { "" };
        format!("{kind}philosophers(n={})", self.n)
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
        for i in 0..self.n {
            let a = i as u8;
            let (left, right) = (i, (i + 1) % self.n);
            let take = |fork: usize| {
                let action = if fork == left {
                    PhilosopherAction::TakeLeft(a)
                } else {
                    PhilosopherAction::TakeRight(a)
                };
                move |phase| (action, self.with_phase(s, i, phase))
            };
            let (first, second) = if self.right_first(i) {
                (right, left)
            } else {
                (left, right)
            };
            match self.phase(s, i) {
                THINKING if self.fork_free(s, first) => out.push(take(first)(HAS_FIRST)),
                HAS_FIRST if self.fork_free(s, second) => out.push(take(second)(EATING)),
                EATING => out.push((
                    PhilosopherAction::Release(a),
                    self.with_phase(s, i, THINKING),
                )),
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

    /// The philosophers sit in a ring: the least of the state's n rotations (none for the
    /// ordered variant, whose last philosopher differs).
    fn canonical(&self, s: &PhilosophersState) -> Option<PhilosophersState> {
        if self.ordered {
            return None;
        }
        let least = (1..self.n).map(|r| self.rotated(*s, r)).fold(s.0, u64::min);
        Some(PhilosophersState(least))
    }

    /// The state's period: the least rotation that gives it back, as many as distinct ones.
    fn class_size(&self, s: &PhilosophersState) -> Option<u64> {
        if self.ordered {
            return None;
        }
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

    /// Every state reachable from the start, by a plain search.
    fn reachable(model: &Philosophers) -> Vec<PhilosophersState> {
        let mut seen = std::collections::HashSet::from([PhilosophersState(0)]);
        let mut todo = vec![PhilosophersState(0)];
        let mut out = Vec::new();
        while let Some(s) = todo.pop() {
            out.clear();
            model.successors(&s, &mut out);
            todo.extend(out.iter().map(|&(_, t)| t).filter(|&t| seen.insert(t)));
        }
        seen.into_iter().collect()
    }

    /// The philosophers holding fork `f`, from the phases alone (written apart from
    /// `fork_free`): the left user eating or, if it goes right first, waiting; the right user
    /// eating or, if it goes left first, waiting.
    fn holders(model: &Philosophers, s: PhilosophersState, f: usize) -> usize {
        let n = model.n;
        let left_user = (f + n - 1) % n;
        let right_first = |i: usize| model.ordered && i == n - 1;
        let holds_right = match model.phase(s, left_user) {
            EATING => true,
            HAS_FIRST => right_first(left_user),
            _ => false,
        };
        let holds_left = match model.phase(s, f) {
            EATING => true,
            HAS_FIRST => !right_first(f),
            _ => false,
        };
        usize::from(holds_right) + usize::from(holds_left)
    }

    #[test]
    fn the_ordered_variant_never_deadlocks_and_no_fork_has_two_holders() {
        for n in 2..=7 {
            for model in [
                Philosophers::new(n).unwrap(),
                Philosophers::ordered(n).unwrap(),
            ] {
                let states = reachable(&model);
                let mut stuck = 0;
                let mut out = Vec::new();
                for &s in &states {
                    assert!((0..n).all(|f| holders(&model, s, f) <= 1), "{s:?}");
                    out.clear();
                    model.successors(&s, &mut out);
                    stuck += usize::from(out.is_empty());
                }
                // The classic ring deadlocks in exactly one state: all hold their left fork.
                let expected = usize::from(!model.ordered);
                assert_eq!(stuck, expected, "{} stuck states", model.name());
            }
        }
    }
}
