//! A plain test-and-set spinlock: a process asks for the lock, then spins on an atomic
//! test-and-set until it wins it, works in its critical section, and clears the lock. Mutual
//! exclusion holds; freedom from starvation does not, even under weak fairness: a spinning
//! process moves (each failed test-and-set is a step), and another one can win every race.

use super::locks::{mutual_exclusion, no_starvation, MAX_LOCK_PROCESSES};
use crate::model::{Invariant, Model};
use crate::property::Property;
use std::fmt;

const IDLE: u8 = 0;
const SPINNING: u8 = 1;
const CRITICAL: u8 = 2;

/// The test-and-set lock for `n` processes, 2..=8.
pub struct Tas {
    n: usize,
}

/// Program counters and the lock bit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct TasState {
    pc: [u8; MAX_LOCK_PROCESSES],
    locked: bool,
}

/// One atomic step of process `.0`.
#[derive(Clone, Copy, Debug)]
pub struct TasAction(u8, &'static str);

impl fmt::Display for TasAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}: {}", self.0, self.1)
    }
}

impl Tas {
    /// The test-and-set lock for `n` processes, 2..=8.
    pub fn new(n: usize) -> Result<Self, String> {
        if (2..=MAX_LOCK_PROCESSES).contains(&n) {
            Ok(Tas { n })
        } else {
            Err(format!(
                "tas needs 2 to {MAX_LOCK_PROCESSES} processes, got {n}"
            ))
        }
    }
}

impl Model for Tas {
    type State = TasState;
    type Action = TasAction;

    fn name(&self) -> String {
        format!("tas(n={})", self.n)
    }

    fn initial_states(&self) -> Vec<TasState> {
        vec![TasState {
            pc: [IDLE; MAX_LOCK_PROCESSES],
            locked: false,
        }]
    }

    fn successors(&self, s: &TasState, out: &mut Vec<(TasAction, TasState)>) {
        for i in 0..self.n {
            let mut t = *s;
            let label = match s.pc[i] {
                IDLE => {
                    t.pc[i] = SPINNING;
                    "ask"
                }
                SPINNING if s.locked => "test-and-set fails",
                SPINNING => {
                    t.locked = true;
                    t.pc[i] = CRITICAL;
                    "test-and-set wins, enter"
                }
                _ => {
                    t.locked = false;
                    t.pc[i] = IDLE;
                    "clear, exit"
                }
            };
            out.push((TasAction(i as u8, label), t));
        }
    }

    fn invariants(&self) -> Vec<Invariant<TasState>> {
        vec![mutual_exclusion(|s: &TasState| s.pc, CRITICAL)]
    }

    fn properties(&self) -> Vec<Property<TasState>> {
        no_starvation(self.n, |s: &TasState| s.pc, |pc| pc == SPINNING, CRITICAL)
    }

    fn processes(&self) -> usize {
        self.n
    }

    fn process_of(&self, action: &TasAction) -> Option<usize> {
        Some(action.0 as usize)
    }

    fn show(&self, s: &TasState) -> String {
        let pcs = ["idle", "spinning", "CRITICAL"];
        let procs: Vec<String> = (0..self.n)
            .map(|i| format!("p{i}:{}", pcs[s.pc[i] as usize]))
            .collect();
        format!("{} locked={}", procs.join(" "), s.locked)
    }
}
