//! A ticket lock (the bakery algorithm's take-a-number idea with one shared dispenser): a
//! process takes the next ticket, waits until it is served, enters, and on exit serves the next
//! ticket. Counters wrap modulo N + 1, which keeps the state space finite and stays correct
//! because at most N tickets are ever outstanding.

use super::locks::{critical_reachable, mutual_exclusion, no_starvation, MAX_LOCK_PROCESSES};
use super::symmetry::permutations_of;
use crate::model::{Invariant, Model};
use crate::property::Property;
use std::fmt;

const IDLE: u8 = 0;
const WAITING: u8 = 1;
const CRITICAL: u8 = 2;

/// The ticket lock for `n` processes, 2..=8.
pub struct Ticket {
    n: usize,
}

/// Program counters, each process's ticket, the dispenser and the ticket being served.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, Debug)]
pub struct TicketState {
    pc: [u8; MAX_LOCK_PROCESSES],
    my: [u8; MAX_LOCK_PROCESSES],
    next: u8,
    serving: u8,
}

/// One atomic step of process `.0`.
#[derive(Clone, Copy, Debug)]
pub struct TicketAction(u8, &'static str);

impl fmt::Display for TicketAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}: {}", self.0, self.1)
    }
}

impl Ticket {
    /// The ticket lock for `n` processes, 2..=8.
    pub fn new(n: usize) -> Result<Self, String> {
        if (2..=MAX_LOCK_PROCESSES).contains(&n) {
            Ok(Ticket { n })
        } else {
            Err(format!(
                "ticket needs 2 to {MAX_LOCK_PROCESSES} processes, got {n}"
            ))
        }
    }
}

impl Model for Ticket {
    type State = TicketState;
    type Action = TicketAction;

    fn name(&self) -> String {
        format!("ticket(n={})", self.n)
    }

    fn initial_states(&self) -> Vec<TicketState> {
        vec![TicketState {
            pc: [IDLE; MAX_LOCK_PROCESSES],
            my: [0; MAX_LOCK_PROCESSES],
            next: 0,
            serving: 0,
        }]
    }

    fn successors(&self, s: &TicketState, out: &mut Vec<(TicketAction, TicketState)>) {
        let modulus = self.n as u8 + 1;
        for i in 0..self.n {
            let mut t = *s;
            let label = match s.pc[i] {
                IDLE => {
                    t.my[i] = s.next;
                    t.next = (s.next + 1) % modulus;
                    t.pc[i] = WAITING;
                    "take ticket"
                }
                WAITING if s.serving == s.my[i] => {
                    t.pc[i] = CRITICAL;
                    "enter"
                }
                WAITING => continue,
                _ => {
                    t.serving = (s.serving + 1) % modulus;
                    t.my[i] = 0;
                    t.pc[i] = IDLE;
                    "exit"
                }
            };
            out.push((TicketAction(i as u8, label), t));
        }
    }

    fn invariants(&self) -> Vec<Invariant<TicketState>> {
        vec![mutual_exclusion(|s: &TicketState| s.pc, CRITICAL)]
    }

    fn properties(&self) -> Vec<Property<TicketState>> {
        let mut properties = vec![critical_reachable(|s: &TicketState| s.pc, CRITICAL)];
        let waiting = |pc| pc == WAITING;
        properties.extend(no_starvation(
            self.n,
            |s: &TicketState| s.pc,
            waiting,
            CRITICAL,
        ));
        properties
    }

    /// The processes are interchangeable: their (program counter, ticket) pairs, sorted.
    fn canonical(&self, s: &TicketState) -> Option<TicketState> {
        let mut pairs: Vec<(u8, u8)> = (0..self.n).map(|i| (s.pc[i], s.my[i])).collect();
        pairs.sort_unstable();
        let mut t = *s;
        for (i, (pc, my)) in pairs.into_iter().enumerate() {
            (t.pc[i], t.my[i]) = (pc, my);
        }
        Some(t)
    }

    fn class_size(&self, s: &TicketState) -> Option<u64> {
        let mut pairs: Vec<u64> = (0..self.n)
            .map(|i| u64::from(s.pc[i]) << 8 | u64::from(s.my[i]))
            .collect();
        Some(permutations_of(&mut pairs))
    }

    fn processes(&self) -> usize {
        self.n
    }

    fn process_of(&self, action: &TicketAction) -> Option<usize> {
        Some(action.0 as usize)
    }

    fn show(&self, s: &TicketState) -> String {
        let pcs = ["idle", "waiting", "CRITICAL"];
        let procs: Vec<String> = (0..self.n)
            .map(|i| format!("p{i}:{}#{}", pcs[s.pc[i] as usize], s.my[i]))
            .collect();
        format!("{} next={} serving={}", procs.join(" "), s.next, s.serving)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::symmetry::testing::{assert_classes, permutations};

    #[test]
    fn classes_match_a_brute_force_count_over_every_permutation() {
        for n in 2..=4 {
            let model = Ticket::new(n).unwrap();
            let perms = permutations(n);
            assert_classes(&model, |s| {
                let least = perms
                    .iter()
                    .map(|p| p.iter().map(|&i| (s.pc[i], s.my[i])).collect::<Vec<_>>())
                    .min();
                (least, s.next, s.serving)
            });
        }
    }
}
