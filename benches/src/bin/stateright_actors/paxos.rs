//! Single-decree Paxos as a `stateright::Model`, written apart from `examples/modelcheck`'s
//! `models/paxos.rs` to the same description: 3 nodes (acceptor, proposer, learner each), client
//! c asks node c mod 3 to decide value c; a node starts one proposal (round one above the round
//! it promised, its index breaking ties) on its first request unless it has decided, never
//! retries; acceptors promise a strictly higher ballot and accept a ballot at least the promised
//! one; a proposer counts each acceptor once per phase and moves on at 2 of 3; a decided node
//! answers its waiting clients. The network is a multiset (message → copies); delivering one
//! copy is the only step.

use std::collections::{BTreeMap, BTreeSet};

/// (round, node): compared round first.
type Ballot = (u8, u8);

const NODES: u8 = 3;
const QUORUM: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Msg {
    Request {
        client: u8,
        node: u8,
    },
    P1a {
        src: u8,
        dst: u8,
        ballot: Ballot,
    },
    P1b {
        src: u8,
        dst: u8,
        ballot: Ballot,
        last: Option<(Ballot, u8)>,
    },
    P2a {
        src: u8,
        dst: u8,
        ballot: Ballot,
        value: u8,
    },
    P2b {
        src: u8,
        dst: u8,
        ballot: Ballot,
    },
    Response {
        node: u8,
        client: u8,
        value: u8,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Round {
    NotStarted,
    One {
        ballot: Ballot,
        own: u8,
        from: BTreeSet<u8>,
        highest: Option<(Ballot, u8)>,
    },
    Two {
        ballot: Ballot,
        value: u8,
        from: BTreeSet<u8>,
    },
    Chosen(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    promise: Ballot,
    last: Option<(Ballot, u8)>,
    round: Round,
    clients: BTreeSet<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    nodes: Vec<Node>,
    answers: Vec<Option<u8>>,
    in_flight: BTreeMap<Msg, usize>,
}

pub struct PaxosPort {
    pub clients: u8,
}

fn post(net: &mut BTreeMap<Msg, usize>, m: Msg) {
    *net.entry(m).or_insert(0) += 1;
}

fn unpost(net: &mut BTreeMap<Msg, usize>, m: &Msg) {
    let copies = net.get_mut(m).expect("delivered message in flight");
    *copies -= 1;
    if *copies == 0 {
        net.remove(m);
    }
}

impl State {
    fn request(&mut self, client: u8, node: u8) {
        let n = &mut self.nodes[node as usize];
        match n.round {
            Round::Chosen(value) => post(
                &mut self.in_flight,
                Msg::Response {
                    node,
                    client,
                    value,
                },
            ),
            Round::NotStarted => {
                n.clients.insert(client);
                let ballot = (n.promise.0 + 1, node);
                n.round = Round::One {
                    ballot,
                    own: client,
                    from: BTreeSet::new(),
                    highest: None,
                };
                for dst in 0..NODES {
                    post(
                        &mut self.in_flight,
                        Msg::P1a {
                            src: node,
                            dst,
                            ballot,
                        },
                    );
                }
            }
            _ => {
                n.clients.insert(client);
            }
        }
    }

    fn p1a(&mut self, src: u8, dst: u8, ballot: Ballot) {
        let n = &mut self.nodes[dst as usize];
        if n.promise < ballot {
            n.promise = ballot;
            let last = n.last;
            post(
                &mut self.in_flight,
                Msg::P1b {
                    src: dst,
                    dst: src,
                    ballot,
                    last,
                },
            );
        }
    }

    fn p1b(&mut self, src: u8, dst: u8, ballot: Ballot, last: Option<(Ballot, u8)>) {
        let n = &mut self.nodes[dst as usize];
        let Round::One {
            ballot: b,
            own,
            from,
            highest,
        } = &mut n.round
        else {
            return;
        };
        if *b != ballot || !from.insert(src) {
            return;
        }
        if last > *highest {
            *highest = last;
        }
        if from.len() < QUORUM {
            return;
        }
        let value = highest.map(|(_, v)| v).unwrap_or(*own);
        n.round = Round::Two {
            ballot,
            value,
            from: BTreeSet::new(),
        };
        for d in 0..NODES {
            post(
                &mut self.in_flight,
                Msg::P2a {
                    src: dst,
                    dst: d,
                    ballot,
                    value,
                },
            );
        }
    }

    fn p2a(&mut self, src: u8, dst: u8, ballot: Ballot, value: u8) {
        let n = &mut self.nodes[dst as usize];
        if ballot < n.promise {
            return;
        }
        n.promise = ballot;
        n.last = Some((ballot, value));
        post(
            &mut self.in_flight,
            Msg::P2b {
                src: dst,
                dst: src,
                ballot,
            },
        );
    }

    fn p2b(&mut self, src: u8, dst: u8, ballot: Ballot) {
        let n = &mut self.nodes[dst as usize];
        let Round::Two {
            ballot: b,
            value,
            from,
        } = &mut n.round
        else {
            return;
        };
        if *b != ballot || !from.insert(src) || from.len() < QUORUM {
            return;
        }
        let value = *value;
        n.round = Round::Chosen(value);
        for client in std::mem::take(&mut n.clients) {
            post(
                &mut self.in_flight,
                Msg::Response {
                    node: dst,
                    client,
                    value,
                },
            );
        }
    }

    /// Every value a node decided, a client heard or a response carries, and every value a
    /// quorum of acceptors holds in one ballot now.
    fn values_known(&self) -> Vec<u8> {
        let mut v: Vec<u8> = self.answers.iter().flatten().copied().collect();
        for n in &self.nodes {
            if let Round::Chosen(x) = n.round {
                v.push(x);
            }
            if let Some((_, x)) = n.last {
                if self.nodes.iter().filter(|m| m.last == n.last).count() >= QUORUM {
                    v.push(x);
                }
            }
        }
        for m in self.in_flight.keys() {
            if let Msg::Response { value, .. } = m {
                v.push(*value);
            }
        }
        v
    }
}

impl stateright::Model for PaxosPort {
    type State = State;
    type Action = Msg;

    fn init_states(&self) -> Vec<State> {
        let node = Node {
            promise: (0, 0),
            last: None,
            round: Round::NotStarted,
            clients: BTreeSet::new(),
        };
        let mut in_flight = BTreeMap::new();
        for client in 0..self.clients {
            post(
                &mut in_flight,
                Msg::Request {
                    client,
                    node: client % NODES,
                },
            );
        }
        vec![State {
            nodes: vec![node; NODES as usize],
            answers: vec![None; self.clients as usize],
            in_flight,
        }]
    }

    fn actions(&self, state: &State, actions: &mut Vec<Msg>) {
        actions.extend(state.in_flight.keys().copied());
    }

    fn next_state(&self, state: &State, m: Msg) -> Option<State> {
        let mut s = state.clone();
        unpost(&mut s.in_flight, &m);
        match m {
            Msg::Request { client, node } => s.request(client, node),
            Msg::P1a { src, dst, ballot } => s.p1a(src, dst, ballot),
            Msg::P1b {
                src,
                dst,
                ballot,
                last,
            } => s.p1b(src, dst, ballot, last),
            Msg::P2a {
                src,
                dst,
                ballot,
                value,
            } => s.p2a(src, dst, ballot, value),
            Msg::P2b { src, dst, ballot } => s.p2b(src, dst, ballot),
            Msg::Response { client, value, .. } => s.answers[client as usize] = Some(value),
        }
        Some(s)
    }

    fn properties(&self) -> Vec<stateright::Property<Self>> {
        vec![stateright::Property::always(
            "agreement",
            |_: &Self, s: &State| {
                let v = s.values_known();
                v.iter().all(|x| *x == v[0])
            },
        )]
    }
}
