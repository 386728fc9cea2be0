//! A broken lock: test the flag, then set it, in two separate steps. Two processes can both see
//! the flag clear and both enter: the shortest counterexample is check, check, set, set.

use super::locks::{critical_reachable, mutual_exclusion, MAX_LOCK_PROCESSES};
use super::symmetry::permutations_of;
use crate::model::{Invariant, Model};
use crate::property::Property;
use std::fmt;

const IDLE: u8 = 0;
const SAW_FREE: u8 = 1;
const CRITICAL: u8 = 2;

/// The test-then-set lock for `n` processes, 2..=8.
pub struct BuggyLock {
    n: usize,
}

/// Program counters and the lock flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct BuggyLockState {
    pc: [u8; MAX_LOCK_PROCESSES],
    locked: bool,
}

/// One atomic step of process `.0`.
#[derive(Clone, Copy, Debug)]
pub struct BuggyLockAction(u8, &'static str);

impl fmt::Display for BuggyLockAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}: {}", self.0, self.1)
    }
}

impl BuggyLock {
    /// The broken lock for `n` processes, 2..=8.
    pub fn new(n: usize) -> Result<Self, String> {
        if (2..=MAX_LOCK_PROCESSES).contains(&n) {
            Ok(BuggyLock { n })
        } else {
            Err(format!(
                "buggy needs 2 to {MAX_LOCK_PROCESSES} processes, got {n}"
            ))
        }
    }
}

impl Model for BuggyLock {
    type State = BuggyLockState;
    type Action = BuggyLockAction;

    fn name(&self) -> String {
        format!("buggy(n={})", self.n)
    }

    fn initial_states(&self) -> Vec<BuggyLockState> {
        vec![BuggyLockState {
            pc: [IDLE; MAX_LOCK_PROCESSES],
            locked: false,
        }]
    }

    fn successors(&self, s: &BuggyLockState, out: &mut Vec<(BuggyLockAction, BuggyLockState)>) {
        for i in 0..self.n {
            let mut t = *s;
            let label = match s.pc[i] {
                IDLE if !s.locked => {
                    t.pc[i] = SAW_FREE;
                    "see flag clear"
                }
                IDLE => continue,
                SAW_FREE => {
                    t.locked = true;
                    t.pc[i] = CRITICAL;
                    "set flag, enter"
                }
                _ => {
                    t.locked = false;
                    t.pc[i] = IDLE;
                    "clear flag, exit"
                }
            };
            out.push((BuggyLockAction(i as u8, label), t));
        }
    }

    fn processes(&self) -> usize {
        self.n
    }

    fn process_of(&self, action: &BuggyLockAction) -> Option<usize> {
        Some(action.0 as usize)
    }

    fn invariants(&self) -> Vec<Invariant<BuggyLockState>> {
        vec![mutual_exclusion(|s: &BuggyLockState| s.pc, CRITICAL)]
    }

    fn properties(&self) -> Vec<Property<BuggyLockState>> {
        vec![critical_reachable(|s: &BuggyLockState| s.pc, CRITICAL)]
    }

    /// The processes are interchangeable: their program counters, sorted.
    fn canonical(&self, s: &BuggyLockState) -> Option<BuggyLockState> {
        let mut t = *s;
        t.pc[..self.n].sort_unstable();
        Some(t)
    }

    fn class_size(&self, s: &BuggyLockState) -> Option<u64> {
        let mut pcs: Vec<u64> = s.pc[..self.n].iter().map(|&pc| u64::from(pc)).collect();
        Some(permutations_of(&mut pcs))
    }

    fn show(&self, s: &BuggyLockState) -> String {
        let pcs = ["idle", "saw-free", "CRITICAL"];
        let procs: Vec<String> = (0..self.n)
            .map(|i| format!("p{i}:{}", pcs[s.pc[i] as usize]))
            .collect();
        format!("{} flag={}", procs.join(" "), s.locked as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::symmetry::testing::{assert_classes, permutations};

    /// The run stops at the violation (level 4): the classes of levels 0 to 3 are counted.
    #[test]
    fn classes_match_a_brute_force_count_over_every_permutation() {
        for n in 2..=5 {
            let model = BuggyLock::new(n).unwrap();
            let perms = permutations(n);
            assert_classes(&model, |s| {
                let least = perms
                    .iter()
                    .map(|p| p.iter().map(|&i| s.pc[i]).collect::<Vec<_>>())
                    .min();
                (least, s.locked)
            });
        }
    }
}
