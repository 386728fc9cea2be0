//! Two-phase commit, exactly the TLA+ `TwoPhase` specification (Lamport and Gray): N resource
//! managers, a transaction manager, the set of managers the TM heard `Prepared` from, and a set
//! of messages that only grows.

use super::symmetry::permutations_of;
use crate::model::{Invariant, Model};
use crate::property::Property;
use std::fmt;

/// The most resource managers: a state is 4N + 4 bits of one `u64`.
pub const MAX_RMS: usize = 15;

const WORKING: u64 = 0;
const PREPARED: u64 = 1;
const COMMITTED: u64 = 2;
const ABORTED: u64 = 3;
const TM_INIT: u64 = 0;
const TM_COMMITTED: u64 = 1;
const TM_ABORTED: u64 = 2;

/// Two-phase commit with `rms` resource managers.
pub struct TwoPhase {
    rms: usize,
}

/// A 2PC state packed in 64 bits: 2 bits per RM state (bits 0..2N), the TM state (2 bits), the
/// TM's prepared set (N bits), the `Prepared(rm)` messages (N bits), then `Commit` and `Abort`.
/// Packing keeps the frontier at 8 bytes a state and hashing at one word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TwoPhaseState(u64);

/// A 2PC step, named as in the TLA+ spec.
#[derive(Clone, Copy, Debug)]
pub enum TwoPhaseAction {
    /// The TM records `Prepared(rm)`.
    TmRcvPrepared(u8),
    /// The TM commits (every RM prepared) and sends `Commit`.
    TmCommit,
    /// The TM aborts and sends `Abort`.
    TmAbort,
    /// An RM prepares and sends `Prepared(rm)`.
    RmPrepare(u8),
    /// A working RM aborts on its own.
    RmChooseToAbort(u8),
    /// An RM receives `Commit` (also when already committed: a self-loop).
    RmRcvCommitMsg(u8),
    /// An RM receives `Abort` (also when already aborted: a self-loop).
    RmRcvAbortMsg(u8),
}

impl fmt::Display for TwoPhaseAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TwoPhaseAction::TmRcvPrepared(rm) => write!(f, "TMRcvPrepared(rm{rm})"),
            TwoPhaseAction::TmCommit => write!(f, "TMCommit"),
            TwoPhaseAction::TmAbort => write!(f, "TMAbort"),
            TwoPhaseAction::RmPrepare(rm) => write!(f, "RMPrepare(rm{rm})"),
            TwoPhaseAction::RmChooseToAbort(rm) => write!(f, "RMChooseToAbort(rm{rm})"),
            TwoPhaseAction::RmRcvCommitMsg(rm) => write!(f, "RMRcvCommitMsg(rm{rm})"),
            TwoPhaseAction::RmRcvAbortMsg(rm) => write!(f, "RMRcvAbortMsg(rm{rm})"),
        }
    }
}

impl TwoPhase {
    /// 2PC with `rms` resource managers, 1..=15.
    pub fn new(rms: usize) -> Result<Self, String> {
        if (1..=MAX_RMS).contains(&rms) {
            Ok(TwoPhase { rms })
        } else {
            Err(format!(
                "2pc needs 1 to {MAX_RMS} resource managers, got {rms}"
            ))
        }
    }

    fn tm_shift(&self) -> u32 {
        2 * self.rms as u32
    }
    fn prepared_shift(&self) -> u32 {
        2 * self.rms as u32 + 2
    }
    fn msg_shift(&self) -> u32 {
        3 * self.rms as u32 + 2
    }
    fn commit_bit(&self) -> u64 {
        1 << (4 * self.rms + 2)
    }
    fn abort_bit(&self) -> u64 {
        1 << (4 * self.rms + 3)
    }
    fn all_rms(&self) -> u64 {
        (1 << self.rms) - 1
    }

    /// Resource manager `rm`'s state: 0 working, 1 prepared, 2 committed, 3 aborted.
    pub fn rm_state(&self, s: TwoPhaseState, rm: usize) -> u64 {
        (s.0 >> (2 * rm)) & 3
    }
    fn with_rm(&self, s: TwoPhaseState, rm: usize, v: u64) -> u64 {
        (s.0 & !(3 << (2 * rm))) | (v << (2 * rm))
    }
    fn tm_state(&self, s: TwoPhaseState) -> u64 {
        (s.0 >> self.tm_shift()) & 3
    }
    fn with_tm(&self, bits: u64, v: u64) -> u64 {
        (bits & !(3 << self.tm_shift())) | (v << self.tm_shift())
    }
    fn tm_prepared(&self, s: TwoPhaseState) -> u64 {
        (s.0 >> self.prepared_shift()) & self.all_rms()
    }
    fn prepared_msgs(&self, s: TwoPhaseState) -> u64 {
        (s.0 >> self.msg_shift()) & self.all_rms()
    }

    /// What resource manager `rm` is in `s`, in 4 bits: its state, whether the TM recorded its
    /// `Prepared`, and whether it sent one.
    fn rm_view(&self, s: TwoPhaseState, rm: usize) -> u64 {
        self.rm_state(s, rm)
            | (self.tm_prepared(s) >> rm & 1) << 2
            | (self.prepared_msgs(s) >> rm & 1) << 3
    }

    /// Whether every resource manager is in `target` (a closure for `sometimes`).
    fn all_in(&self, target: u64) -> impl Fn(&TwoPhaseState) -> bool + Send + Sync + 'static {
        let rms = self.rms;
        move |s: &TwoPhaseState| (0..rms).all(|rm| (s.0 >> (2 * rm)) & 3 == target)
    }
}

impl Model for TwoPhase {
    type State = TwoPhaseState;
    type Action = TwoPhaseAction;

    fn name(&self) -> String {
        format!("2pc(rms={})", self.rms)
    }

    fn initial_states(&self) -> Vec<TwoPhaseState> {
        // Every RM working, the TM in init, nothing prepared, no messages: all zero bits.
        vec![TwoPhaseState(0)]
    }

    fn successors(&self, s: &TwoPhaseState, out: &mut Vec<(TwoPhaseAction, TwoPhaseState)>) {
        let s = *s;
        let tm = self.tm_state(s);
        let commit_sent = s.0 & self.commit_bit() != 0;
        let abort_sent = s.0 & self.abort_bit() != 0;
        if tm == TM_INIT {
            let arrived = self.prepared_msgs(s);
            for rm in 0..self.rms {
                if arrived >> rm & 1 != 0 {
                    let bits = s.0 | 1 << (self.prepared_shift() + rm as u32);
                    out.push((TwoPhaseAction::TmRcvPrepared(rm as u8), TwoPhaseState(bits)));
                }
            }
            if self.tm_prepared(s) == self.all_rms() {
                let bits = self.with_tm(s.0, TM_COMMITTED) | self.commit_bit();
                out.push((TwoPhaseAction::TmCommit, TwoPhaseState(bits)));
            }
            let bits = self.with_tm(s.0, TM_ABORTED) | self.abort_bit();
            out.push((TwoPhaseAction::TmAbort, TwoPhaseState(bits)));
        }
        for rm in 0..self.rms {
            let a = rm as u8;
            if self.rm_state(s, rm) == WORKING {
                let bits = self.with_rm(s, rm, PREPARED) | 1 << (self.msg_shift() + rm as u32);
                out.push((TwoPhaseAction::RmPrepare(a), TwoPhaseState(bits)));
                let bits = self.with_rm(s, rm, ABORTED);
                out.push((TwoPhaseAction::RmChooseToAbort(a), TwoPhaseState(bits)));
            }
            if commit_sent {
                let bits = self.with_rm(s, rm, COMMITTED);
                out.push((TwoPhaseAction::RmRcvCommitMsg(a), TwoPhaseState(bits)));
            }
            if abort_sent {
                let bits = self.with_rm(s, rm, ABORTED);
                out.push((TwoPhaseAction::RmRcvAbortMsg(a), TwoPhaseState(bits)));
            }
        }
    }

    fn invariants(&self) -> Vec<Invariant<TwoPhaseState>> {
        let rms = self.rms;
        vec![Invariant::new("TPConsistent", move |s: &TwoPhaseState| {
            // No RM committed while another aborted.
            let states = (0..rms).map(|rm| (s.0 >> (2 * rm)) & 3);
            let (mut committed, mut aborted) = (false, false);
            for v in states {
                committed |= v == COMMITTED;
                aborted |= v == ABORTED;
            }
            !(committed && aborted)
        })]
    }

    fn properties(&self) -> Vec<Property<TwoPhaseState>> {
        let mut properties = vec![
            Property::sometimes("AllCommitted", self.all_in(COMMITTED)),
            Property::sometimes("AllAborted", self.all_in(ABORTED)),
        ];
        let rms = self.rms;
        properties.push(Property::eventually("Decided", move |s: &TwoPhaseState| {
            let states = (0..rms).map(|rm| (s.0 >> (2 * rm)) & 3);
            let all = |v| states.clone().all(|x| x == v);
            all(COMMITTED) || all(ABORTED)
        }));
        properties
    }

    /// The resource managers are interchangeable: their views (state, recorded by the TM,
    /// message sent), sorted; the TM's state and the `Commit` and `Abort` messages stay.
    fn canonical(&self, s: &TwoPhaseState) -> Option<TwoPhaseState> {
        let mut views: Vec<u64> = (0..self.rms).map(|rm| self.rm_view(*s, rm)).collect();
        views.sort_unstable();
        let keep = 3 << self.tm_shift() | self.commit_bit() | self.abort_bit();
        let mut bits = s.0 & keep;
        for (rm, view) in views.into_iter().enumerate() {
            bits |= (view & 3) << (2 * rm)
                | (view >> 2 & 1) << (self.prepared_shift() + rm as u32)
                | (view >> 3 & 1) << (self.msg_shift() + rm as u32);
        }
        Some(TwoPhaseState(bits))
    }

    fn class_size(&self, s: &TwoPhaseState) -> Option<u64> {
        let mut views: Vec<u64> = (0..self.rms).map(|rm| self.rm_view(*s, rm)).collect();
        Some(permutations_of(&mut views))
    }

    /// Fairness classes: 0 is the transaction manager's decision (`TMCommit`, `TMAbort`), 1
    /// its receiving `Prepared`, and `rm + 2` resource manager `rm`'s steps. The decision is a
    /// class of its own as in a TLA+ `WF_vars(TMCommit \/ TMAbort)`: otherwise receiving the same
    /// message again (a self-loop, a step here) would meet the TM's fairness forever.
    fn processes(&self) -> usize {
        self.rms + 2
    }

    fn process_of(&self, action: &TwoPhaseAction) -> Option<usize> {
        Some(match *action {
            TwoPhaseAction::TmCommit | TwoPhaseAction::TmAbort => 0,
            TwoPhaseAction::TmRcvPrepared(_) => 1,
            TwoPhaseAction::RmPrepare(rm)
            | TwoPhaseAction::RmChooseToAbort(rm)
            | TwoPhaseAction::RmRcvCommitMsg(rm)
            | TwoPhaseAction::RmRcvAbortMsg(rm) => rm as usize + 2,
        })
    }

    fn show(&self, s: &TwoPhaseState) -> String {
        let names = ["working", "prepared", "committed", "aborted"];
        let rms: Vec<&str> = (0..self.rms)
            .map(|rm| names[self.rm_state(*s, rm) as usize])
            .collect();
        let tm = ["init", "committed", "aborted", "?"][self.tm_state(*s) as usize];
        let mut msgs: Vec<String> = (0..self.rms)
            .filter(|rm| self.prepared_msgs(*s) >> rm & 1 != 0)
            .map(|rm| format!("Prepared(rm{rm})"))
            .collect();
        if s.0 & self.commit_bit() != 0 {
            msgs.push("Commit".into());
        }
        if s.0 & self.abort_bit() != 0 {
            msgs.push("Abort".into());
        }
        let prepared: Vec<String> = (0..self.rms)
            .filter(|rm| self.tm_prepared(*s) >> rm & 1 != 0)
            .map(|rm| format!("rm{rm}"))
            .collect();
        format!(
            "rm=[{}] tm={tm} tmPrepared={{{}}} msgs={{{}}}",
            rms.join(", "),
            prepared.join(", "),
            msgs.join(", ")
        )
    }
}

impl fmt::Debug for TwoPhaseState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TwoPhaseState({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::symmetry::testing::{assert_classes, permutations};

    #[test]
    fn classes_match_a_brute_force_count_over_every_permutation() {
        for rms in 2..=4 {
            let model = TwoPhase::new(rms).unwrap();
            let perms = permutations(rms);
            assert_classes(&model, |&s| {
                let rm = |i: usize| {
                    let bit = |set: u64| set >> i & 1;
                    (
                        model.rm_state(s, i),
                        bit(model.tm_prepared(s)),
                        bit(model.prepared_msgs(s)),
                    )
                };
                let least = perms
                    .iter()
                    .map(|p| p.iter().map(|&i| rm(i)).collect::<Vec<_>>())
                    .min();
                let messages = s.0 & (model.commit_bit() | model.abort_bit());
                (least, model.tm_state(s), messages)
            });
        }
    }
}
