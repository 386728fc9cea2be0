//! Peterson's mutual exclusion generalized to N processes: the filter lock. A process climbs
//! levels 1..N-1; at each it announces its level, makes itself the victim, and waits while
//! another process is at its level or above and it is still the victim.

use super::locks::{critical_reachable, mutual_exclusion, no_starvation, MAX_LOCK_PROCESSES};
use crate::model::{Invariant, Model};
use crate::property::Property;
use std::fmt;

const IDLE: u8 = 0;
const SET_LEVEL: u8 = 1;
const SET_VICTIM: u8 = 2;
const WAIT: u8 = 3;
/// The program counter of a process in its critical section.
pub const CRITICAL: u8 = 4;

/// The filter lock for `n` processes, 2..=8.
pub struct Peterson {
    n: usize,
}

/// Program counters, each process's loop variable, the shared `level` and `victim` arrays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct PetersonState {
    pc: [u8; MAX_LOCK_PROCESSES],
    at: [u8; MAX_LOCK_PROCESSES],
    level: [u8; MAX_LOCK_PROCESSES],
    victim: [u8; MAX_LOCK_PROCESSES],
}

/// One atomic step of process `.0`.
#[derive(Clone, Copy, Debug)]
pub struct PetersonAction(u8, &'static str);

impl fmt::Display for PetersonAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}: {}", self.0, self.1)
    }
}

impl Peterson {
    /// The filter lock for `n` processes, 2..=8.
    pub fn new(n: usize) -> Result<Self, String> {
        if (2..=MAX_LOCK_PROCESSES).contains(&n) {
            Ok(Peterson { n })
        } else {
            Err(format!(
                "peterson needs 2 to {MAX_LOCK_PROCESSES} processes, got {n}"
            ))
        }
    }
}

impl Model for Peterson {
    type State = PetersonState;
    type Action = PetersonAction;

    fn name(&self) -> String {
        format!("peterson(n={})", self.n)
    }

    fn initial_states(&self) -> Vec<PetersonState> {
        vec![PetersonState {
            pc: [IDLE; MAX_LOCK_PROCESSES],
            at: [0; MAX_LOCK_PROCESSES],
            level: [0; MAX_LOCK_PROCESSES],
            victim: [0; MAX_LOCK_PROCESSES],
        }]
    }

    fn successors(&self, s: &PetersonState, out: &mut Vec<(PetersonAction, PetersonState)>) {
        for i in 0..self.n {
            let mut t = *s;
            let l = s.at[i] as usize;
            let label = match s.pc[i] {
                IDLE => {
                    t.at[i] = 1;
                    t.pc[i] = SET_LEVEL;
                    "start"
                }
                SET_LEVEL => {
                    t.level[i] = l as u8;
                    t.pc[i] = SET_VICTIM;
                    "level[i] := L"
                }
                SET_VICTIM => {
                    t.victim[l] = i as u8;
                    t.pc[i] = WAIT;
                    "victim[L] := i"
                }
                WAIT => {
                    let contended = (0..self.n).any(|k| k != i && s.level[k] as usize >= l);
                    if contended && s.victim[l] as usize == i {
                        continue; // still waiting: the step is disabled
                    }
                    if l + 1 == self.n {
                        t.pc[i] = CRITICAL;
                        "enter"
                    } else {
                        t.at[i] += 1;
                        t.pc[i] = SET_LEVEL;
                        "climb"
                    }
                }
                _ => {
                    t.level[i] = 0;
                    t.at[i] = 0;
                    t.pc[i] = IDLE;
                    "exit"
                }
            };
            out.push((PetersonAction(i as u8, label), t));
        }
    }

    fn invariants(&self) -> Vec<Invariant<PetersonState>> {
        vec![mutual_exclusion(|s: &PetersonState| s.pc, CRITICAL)]
    }

    fn properties(&self) -> Vec<Property<PetersonState>> {
        let asking = |pc| pc != IDLE && pc != CRITICAL;
        let mut properties = vec![critical_reachable(|s: &PetersonState| s.pc, CRITICAL)];
        properties.extend(no_starvation(
            self.n,
            |s: &PetersonState| s.pc,
            asking,
            CRITICAL,
        ));
        properties
    }

    fn processes(&self) -> usize {
        self.n
    }

    fn process_of(&self, action: &PetersonAction) -> Option<usize> {
        Some(action.0 as usize)
    }

    fn show(&self, s: &PetersonState) -> String {
        let pcs = ["idle", "set-level", "set-victim", "wait", "CRITICAL"];
        let procs: Vec<String> = (0..self.n)
            .map(|i| format!("p{i}:{}@L{}", pcs[s.pc[i] as usize], s.at[i]))
            .collect();
        format!(
            "{} level={:?} victim={:?}",
            procs.join(" "),
            &s.level[..self.n],
            &s.victim[1..self.n]
        )
    }
}
