//! Single-decree Paxos (Lamport, *Paxos Made Simple*) as actors: 3 servers, each an acceptor, a
//! proposer and a learner, and N clients, each asking one server (client c asks server c mod 3)
//! to decide its value (c) and waiting for the decision. The messages are prepare, promise,
//! accept, accepted and the decision, in a [`Network`]: unordered, non-duplicating, lossless.
//!
//! A server that gets a request starts one proposal, with a ballot above every ballot it has
//! promised (round + 1, its own index breaking ties), unless it has one running or decided. It
//! never retries: a proposal pre-empted by a higher ballot waits forever, and so do the clients
//! that asked its server. That is liveness, which this model does not check, so a state without
//! successors is not an error ([`Model::deadlock_is_error`] is false). The safety property is
//! checked in every state: every value learned, by a proposer, a client or a decision in flight,
//! and every value chosen (accepted in one ballot by a majority of the acceptors' current
//! states) is one value.

use super::network::Network;
use crate::model::{Invariant, Model};
use crate::property::Property;
use crate::successors::Successors;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The servers (acceptors and proposers).
pub const SERVERS: usize = 3;
/// The most clients: a server's waiting clients are bits of a `u8`.
pub const MAX_CLIENTS: usize = 8;
/// Replies a proposer needs in each phase: a majority of the servers.
const MAJORITY: u32 = 2;

/// A ballot: a round, then the proposing server's index, so two servers never share one.
/// `Ballot::default()` (round 0) is below every proposal's.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
pub struct Ballot {
    /// The round; proposals start at 1.
    pub round: u8,
    /// The server that proposes in this ballot.
    pub server: u8,
}

/// A message in flight; delivering it is the model's only kind of step.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum PaxosMsg {
    /// A client asks a server to decide the client's value (its index).
    Propose {
        /// The client, whose value is its index.
        client: u8,
        /// The server asked.
        server: u8,
    },
    /// Phase 1a: a proposer asks an acceptor to promise `ballot`.
    Prepare {
        /// The proposer.
        from: u8,
        /// The acceptor.
        to: u8,
        /// The ballot to promise.
        ballot: Ballot,
    },
    /// Phase 1b: an acceptor promises `ballot` and reports what it accepted last.
    Promise {
        /// The acceptor.
        from: u8,
        /// The proposer.
        to: u8,
        /// The ballot promised.
        ballot: Ballot,
        /// The acceptor's last accepted (ballot, value), if any.
        accepted: Option<(Ballot, u8)>,
    },
    /// Phase 2a: a proposer asks an acceptor to accept `value` in `ballot`.
    Accept {
        /// The proposer.
        from: u8,
        /// The acceptor.
        to: u8,
        /// The ballot.
        ballot: Ballot,
        /// The value.
        value: u8,
    },
    /// Phase 2b: an acceptor accepted the proposer's value in `ballot`.
    Accepted {
        /// The acceptor.
        from: u8,
        /// The proposer.
        to: u8,
        /// The ballot accepted.
        ballot: Ballot,
    },
    /// A server tells a client the decided value.
    Decided {
        /// The server.
        server: u8,
        /// The client.
        client: u8,
        /// The value decided.
        value: u8,
    },
}

/// A server's proposer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Proposer {
    /// No proposal yet.
    Idle,
    /// Phase 1: promises collected (a bit per acceptor), and the highest accepted value reported.
    Preparing {
        /// The proposal's ballot.
        ballot: Ballot,
        /// The value asked for (used when no promise reports an accepted value).
        value: u8,
        /// The acceptors that promised, one bit each.
        promises: u8,
        /// The highest-ballot (ballot, value) the promises reported.
        best: Option<(Ballot, u8)>,
    },
    /// Phase 2: acceptances collected.
    Accepting {
        /// The proposal's ballot.
        ballot: Ballot,
        /// The value proposed.
        value: u8,
        /// The acceptors that accepted, one bit each.
        accepts: u8,
    },
    /// A majority accepted `value`: the proposer learned it.
    Decided {
        /// The value chosen.
        value: u8,
    },
}

/// One server: an acceptor's promise and acceptance, its proposer, the clients waiting on it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Server {
    /// The highest ballot promised (or accepted); default when none.
    pub promised: Ballot,
    /// The last (ballot, value) accepted.
    pub accepted: Option<(Ballot, u8)>,
    /// The proposer.
    pub proposer: Proposer,
    /// Clients waiting for this server's decision, one bit each.
    pub waiting: u8,
}

/// A Paxos state: the servers, the clients (the value each learned, if any) and the network.
#[derive(PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct PaxosState {
    /// The servers, by index.
    pub servers: Vec<Server>,
    /// Client c's learned value, or `None` while it waits.
    pub clients: Vec<Option<u8>>,
    /// The messages in flight.
    pub network: Network<PaxosMsg>,
}

/// `clone_from` reuses the state's buffers ([`Model::successors_reusing`] writes successors
/// over spare states with it).
impl Clone for PaxosState {
    fn clone(&self) -> Self {
        PaxosState {
            servers: self.servers.clone(),
            clients: self.clients.clone(),
            network: self.network.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.servers.clone_from(&source.servers);
        self.clients.clone_from(&source.clients);
        self.network.clone_from(&source.network);
    }
}

/// Single-decree Paxos with 3 servers and `clients` clients.
pub struct Paxos {
    clients: usize,
}

impl Paxos {
    /// Paxos with `clients` clients, 1..=8.
    pub fn new(clients: usize) -> Result<Self, String> {
        if (1..=MAX_CLIENTS).contains(&clients) {
            Ok(Paxos { clients })
        } else {
            Err(format!(
                "paxos needs 1 to {MAX_CLIENTS} clients, got {clients}"
            ))
        }
    }
}

impl Model for Paxos {
    type State = PaxosState;
    type Action = PaxosMsg;

    fn name(&self) -> String {
        format!("paxos(clients={})", self.clients)
    }

    fn initial_states(&self) -> Vec<PaxosState> {
        let idle = Server {
            promised: Ballot::default(),
            accepted: None,
            proposer: Proposer::Idle,
            waiting: 0,
        };
        let mut network = Network::new();
        for c in 0..self.clients {
            let (client, server) = (c as u8, (c % SERVERS) as u8);
            network.send(PaxosMsg::Propose { client, server });
        }
        vec![PaxosState {
            servers: vec![idle; SERVERS],
            clients: vec![None; self.clients],
            network,
        }]
    }

    fn successors(&self, state: &PaxosState, out: &mut Vec<(PaxosMsg, PaxosState)>) {
        let mut list = Successors::new();
        self.successors_reusing(state, &mut list);
        out.extend(list.drain());
    }

    fn successors_reusing(&self, state: &PaxosState, out: &mut Successors<PaxosMsg, PaxosState>) {
        for &msg in state.network.deliverable() {
            let next = out.push_copy(msg, state);
            next.network.take(&msg);
            deliver(next, msg);
        }
    }

    fn invariants(&self) -> Vec<Invariant<PaxosState>> {
        vec![Invariant::new("Agreement", |s: &PaxosState| {
            let mut values = learned(s).chain(chosen(s));
            match values.next() {
                Some(first) => values.all(|v| v == first),
                None => true,
            }
        })]
    }

    fn properties(&self) -> Vec<Property<PaxosState>> {
        vec![Property::sometimes("ClientLearns", |s: &PaxosState| {
            s.clients.iter().any(Option::is_some)
        })]
    }

    fn deadlock_is_error(&self) -> bool {
        false
    }
}

/// The values learned: by proposers, by clients, and in decisions in flight.
fn learned(s: &PaxosState) -> impl Iterator<Item = u8> + '_ {
    let proposers = s.servers.iter().filter_map(|v| match v.proposer {
        Proposer::Decided { value } => Some(value),
        _ => None,
    });
    let in_flight = s.network.iter().filter_map(|m| match *m {
        PaxosMsg::Decided { value, .. } => Some(value),
        _ => None,
    });
    proposers
        .chain(s.clients.iter().flatten().copied())
        .chain(in_flight)
}

/// The values chosen in the acceptors' current states: accepted in one ballot by a majority.
fn chosen(s: &PaxosState) -> impl Iterator<Item = u8> + '_ {
    s.servers.iter().filter_map(|a| {
        let (_, value) = a.accepted?;
        let same = s
            .servers
            .iter()
            .filter(|b| b.accepted == a.accepted)
            .count();
        (same as u32 >= MAJORITY).then_some(value)
    })
}

/// Applies the delivery of `msg` (already taken from the network) to `s`.
fn deliver(s: &mut PaxosState, msg: PaxosMsg) {
    match msg {
        PaxosMsg::Propose { client, server } => on_propose(s, client, server),
        PaxosMsg::Prepare { from, to, ballot } => on_prepare(s, from, to, ballot),
        PaxosMsg::Promise {
            from,
            to,
            ballot,
            accepted,
        } => on_promise(s, from, to, ballot, accepted),
        PaxosMsg::Accept {
            from,
            to,
            ballot,
            value,
        } => on_accept(s, from, to, ballot, value),
        PaxosMsg::Accepted { from, to, ballot } => on_accepted(s, from, to, ballot),
        PaxosMsg::Decided { client, value, .. } => s.clients[client as usize] = Some(value),
    }
}

/// A client's request: answered at once when decided, else the client waits and, when the
/// server has no proposal yet, it starts one above every ballot it promised.
fn on_propose(s: &mut PaxosState, client: u8, server: u8) {
    let me = &mut s.servers[server as usize];
    if let Proposer::Decided { value } = me.proposer {
        s.network.send(PaxosMsg::Decided {
            server,
            client,
            value,
        });
        return;
    }
    me.waiting |= 1 << client;
    if me.proposer != Proposer::Idle {
        return;
    }
    let ballot = Ballot {
        round: me.promised.round + 1,
        server,
    };
    me.proposer = Proposer::Preparing {
        ballot,
        value: client,
        promises: 0,
        best: None,
    };
    for to in 0..SERVERS as u8 {
        s.network.send(PaxosMsg::Prepare {
            from: server,
            to,
            ballot,
        });
    }
}

/// An acceptor promises a ballot above every one it promised, and otherwise ignores it.
fn on_prepare(s: &mut PaxosState, from: u8, to: u8, ballot: Ballot) {
    let me = &mut s.servers[to as usize];
    if ballot > me.promised {
        me.promised = ballot;
        let accepted = me.accepted;
        s.network.send(PaxosMsg::Promise {
            from: to,
            to: from,
            ballot,
            accepted,
        });
    }
}

/// A promise for the running phase 1 is counted; at a majority the proposer asks every
/// acceptor to accept the highest accepted value reported, or its own. Others are ignored.
fn on_promise(
    s: &mut PaxosState,
    from: u8,
    to: u8,
    ballot: Ballot,
    accepted: Option<(Ballot, u8)>,
) {
    let me = &mut s.servers[to as usize];
    let Proposer::Preparing {
        ballot: mine,
        value,
        promises,
        best,
    } = me.proposer
    else {
        return;
    };
    if mine != ballot || promises & 1 << from != 0 {
        return;
    }
    let (promises, best) = (promises | 1 << from, best.max(accepted));
    if promises.count_ones() < MAJORITY {
        me.proposer = Proposer::Preparing {
            ballot,
            value,
            promises,
            best,
        };
        return;
    }
    let value = best.map_or(value, |(_, v)| v);
    me.proposer = Proposer::Accepting {
        ballot,
        value,
        accepts: 0,
    };
    for acceptor in 0..SERVERS as u8 {
        s.network.send(PaxosMsg::Accept {
            from: to,
            to: acceptor,
            ballot,
            value,
        });
    }
}

/// An acceptor accepts unless it promised a higher ballot, and otherwise ignores it.
fn on_accept(s: &mut PaxosState, from: u8, to: u8, ballot: Ballot, value: u8) {
    let me = &mut s.servers[to as usize];
    if ballot >= me.promised {
        me.promised = ballot;
        me.accepted = Some((ballot, value));
        s.network.send(PaxosMsg::Accepted {
            from: to,
            to: from,
            ballot,
        });
    }
}

/// An acceptance for the running phase 2 is counted; at a majority the value is decided and
/// every waiting client is told. Others are ignored.
fn on_accepted(s: &mut PaxosState, from: u8, to: u8, ballot: Ballot) {
    let me = &mut s.servers[to as usize];
    let Proposer::Accepting {
        ballot: mine,
        value,
        accepts,
    } = me.proposer
    else {
        return;
    };
    if mine != ballot || accepts & 1 << from != 0 {
        return;
    }
    let accepts = accepts | 1 << from;
    if accepts.count_ones() < MAJORITY {
        me.proposer = Proposer::Accepting {
            ballot,
            value,
            accepts,
        };
        return;
    }
    me.proposer = Proposer::Decided { value };
    let waiting = std::mem::take(&mut me.waiting);
    for client in (0..8u8).filter(|c| waiting & 1 << c != 0) {
        s.network.send(PaxosMsg::Decided {
            server: to,
            client,
            value,
        });
    }
}

impl fmt::Display for PaxosMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = |b: &Ballot| format!("({},s{})", b.round, b.server);
        match self {
            PaxosMsg::Propose { client, server } => {
                write!(f, "c{client}->s{server} Propose({client})")
            }
            PaxosMsg::Prepare { from, to, ballot } => {
                write!(f, "s{from}->s{to} Prepare{}", b(ballot))
            }
            PaxosMsg::Promise {
                from,
                to,
                ballot,
                accepted,
            } => match accepted {
                Some((ab, v)) => write!(
                    f,
                    "s{from}->s{to} Promise{} accepted {v} in {}",
                    b(ballot),
                    b(ab)
                ),
                None => write!(f, "s{from}->s{to} Promise{}", b(ballot)),
            },
            PaxosMsg::Accept {
                from,
                to,
                ballot,
                value,
            } => write!(f, "s{from}->s{to} Accept{} {value}", b(ballot)),
            PaxosMsg::Accepted { from, to, ballot } => {
                write!(f, "s{from}->s{to} Accepted{}", b(ballot))
            }
            PaxosMsg::Decided {
                server,
                client,
                value,
            } => write!(f, "s{server}->c{client} Decided({value})"),
        }
    }
}
