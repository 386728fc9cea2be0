//! The ABD register as a `stateright::Model`, written apart from `examples/modelcheck`'s
//! `models/abd.rs` to the same description: 3 replicas, N clients with one operation each (even
//! clients write c + 1, odd ones read), begun at any step; a query phase to all replicas until 2
//! answered (a write takes counter + 1 and its index, a read the highest pair), then an update
//! phase to all until 2 acknowledged; a replica keeps the higher timestamp; late replies are
//! delivered and ignored. History: the highest completed timestamp, and each operation's floor
//! (that timestamp when it began). The network is a multiset (message → copies).

use std::collections::{BTreeMap, BTreeSet};

/// (counter, writer): compared counter first.
type Stamp = (u8, u8);

const REPLICAS: u8 = 3;
const QUORUM: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Msg {
    Get { c: u8, r: u8 },
    GetOk { c: u8, r: u8, stamp: Stamp, val: u8 },
    Set { c: u8, r: u8, stamp: Stamp, val: u8 },
    SetOk { c: u8, r: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Start(u8),
    Deliver(Msg),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Op {
    NotStarted,
    Reading {
        heard: BTreeSet<u8>,
        max: (Stamp, u8),
        began_after: Stamp,
    },
    Writing {
        heard: BTreeSet<u8>,
        pair: (Stamp, u8),
        began_after: Stamp,
    },
    Finished {
        pair: (Stamp, u8),
        began_after: Stamp,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    stores: Vec<(Stamp, u8)>,
    ops: Vec<Op>,
    latest_done: Stamp,
    net: BTreeMap<Msg, usize>,
}

pub struct AbdPort {
    pub clients: u8,
}

fn writes(c: u8) -> bool {
    c.is_multiple_of(2)
}

impl State {
    fn send(&mut self, m: Msg) {
        *self.net.entry(m).or_insert(0) += 1;
    }

    fn start(&mut self, c: u8) {
        let began_after = self.latest_done;
        self.ops[c as usize] = Op::Reading {
            heard: BTreeSet::new(),
            max: ((0, 0), 0),
            began_after,
        };
        for r in 0..REPLICAS {
            self.send(Msg::Get { c, r });
        }
    }

    fn get_ok(&mut self, c: u8, r: u8, pair: (Stamp, u8)) {
        let Op::Reading {
            heard,
            max,
            began_after,
        } = &mut self.ops[c as usize]
        else {
            return;
        };
        if !heard.insert(r) {
            return;
        }
        *max = (*max).max(pair);
        if heard.len() < QUORUM {
            return;
        }
        let pair = if writes(c) {
            ((max.0 .0 + 1, c), c + 1)
        } else {
            *max
        };
        let began_after = *began_after;
        self.ops[c as usize] = Op::Writing {
            heard: BTreeSet::new(),
            pair,
            began_after,
        };
        for r in 0..REPLICAS {
            self.send(Msg::Set {
                c,
                r,
                stamp: pair.0,
                val: pair.1,
            });
        }
    }

    fn set_ok(&mut self, c: u8, r: u8) {
        let Op::Writing {
            heard,
            pair,
            began_after,
        } = &mut self.ops[c as usize]
        else {
            return;
        };
        if !heard.insert(r) || heard.len() < QUORUM {
            return;
        }
        let (pair, began_after) = (*pair, *began_after);
        self.ops[c as usize] = Op::Finished { pair, began_after };
        self.latest_done = self.latest_done.max(pair.0);
    }

    /// Each finished operation against its floor; a read's value against its stamp's writer.
    fn history_ok(&self) -> bool {
        self.ops.iter().enumerate().all(|(c, op)| {
            let Op::Finished {
                pair: (stamp, val),
                began_after,
            } = *op
            else {
                return true;
            };
            if writes(c as u8) {
                stamp > began_after && stamp.1 == c as u8 && val == c as u8 + 1
            } else {
                stamp >= began_after && val == if stamp == (0, 0) { 0 } else { stamp.1 + 1 }
            }
        })
    }
}

impl stateright::Model for AbdPort {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        let n = self.clients as usize;
        vec![State {
            stores: vec![((0, 0), 0); REPLICAS as usize],
            ops: vec![Op::NotStarted; n],
            latest_done: (0, 0),
            net: BTreeMap::new(),
        }]
    }

    fn actions(&self, state: &State, actions: &mut Vec<Action>) {
        for (c, op) in state.ops.iter().enumerate() {
            if *op == Op::NotStarted {
                actions.push(Action::Start(c as u8));
            }
        }
        actions.extend(state.net.keys().map(|m| Action::Deliver(*m)));
    }

    fn next_state(&self, state: &State, action: Action) -> Option<State> {
        let mut s = state.clone();
        let m = match action {
            Action::Start(c) => {
                s.start(c);
                return Some(s);
            }
            Action::Deliver(m) => m,
        };
        let copies = s.net.get_mut(&m)?;
        *copies -= 1;
        if *copies == 0 {
            s.net.remove(&m);
        }
        match m {
            Msg::Get { c, r } => {
                let (stamp, val) = s.stores[r as usize];
                s.send(Msg::GetOk { c, r, stamp, val });
            }
            Msg::Set { c, r, stamp, val } => {
                if stamp > s.stores[r as usize].0 {
                    s.stores[r as usize] = (stamp, val);
                }
                s.send(Msg::SetOk { c, r });
            }
            Msg::GetOk { c, r, stamp, val } => s.get_ok(c, r, (stamp, val)),
            Msg::SetOk { c, r } => s.set_ok(c, r),
        }
        Some(s)
    }

    fn properties(&self) -> Vec<stateright::Property<Self>> {
        vec![stateright::Property::always(
            "linearizable",
            |_: &Self, s: &State| s.history_ok(),
        )]
    }
}
