//! The ABD linearizable register (Attiya, Bar-Noy and Dolev; the multi-writer form of Lynch and
//! Shvartsman) as actors: 3 replicas and N clients, the clients coordinating their own
//! operations through majority quorums, over a [`Network`]: unordered, non-duplicating, lossless.
//!
//! Each client runs one operation, which it may begin at any step (so operations overlap in
//! every way, or follow each other): even clients write their value c + 1, odd clients read. An
//! operation takes two phases. A query asks every replica for its (timestamp, value) and waits
//! for a majority; a write then sends (the highest counter + 1, its own index) and its value to
//! every replica, a read writes back the highest pair it saw; the operation completes when a
//! majority acknowledged. A replica adopts an update only when its timestamp is higher. Replies
//! that come after their phase's majority are delivered and ignored.
//!
//! The state keeps the history the check needs (ghost variables, sent to no one): the highest
//! timestamp of the operations completed so far, and each operation's *floor*, that timestamp
//! when the operation began, and its result. The invariant `Linearizable` checks that ordering
//! the operations by timestamp (a write before the reads of its timestamp; timestamps of writes
//! are distinct, as each carries its writer) is a linearization of the completed operations:
//! every read returns the value of the write of its timestamp (the initial 0 for the zero
//! timestamp), and an operation that began after another completed is ordered after it: a
//! write's timestamp is above its floor, a read's at least its floor (so a read never returns a
//! value older than a write, or a read, completed before it began). It does not check pending
//! operations, which a linearization may leave out or complete.
//!
//! Every client finishes and the network empties in every run; that final state steps to itself
//! ([`AbdStep::Finished`]), so any other state without a step would be reported as a deadlock.

use super::network::Network;
use crate::model::{Invariant, Model};
use crate::property::Property;
use crate::successors::Successors;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The replicas.
pub const REPLICAS: usize = 3;
/// The most clients.
pub const MAX_CLIENTS: usize = 8;
/// Replies a phase needs: a majority of the replicas.
const MAJORITY: u32 = 2;

/// A write's timestamp: its counter, then its writer, so writes never share one.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
pub struct Ts {
    /// One more than the highest counter the writer's query saw.
    pub counter: u8,
    /// The writing client.
    pub writer: u8,
}

/// A message in flight.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum AbdMsg {
    /// A client asks a replica for its timestamp and value.
    Query {
        /// The client.
        client: u8,
        /// The replica.
        replica: u8,
    },
    /// A replica's answer to a query.
    QueryReply {
        /// The client.
        client: u8,
        /// The replica.
        replica: u8,
        /// The replica's timestamp.
        ts: Ts,
        /// The replica's value.
        value: u8,
    },
    /// A client asks a replica to store (ts, value) unless it holds a higher timestamp.
    Update {
        /// The client.
        client: u8,
        /// The replica.
        replica: u8,
        /// The timestamp.
        ts: Ts,
        /// The value.
        value: u8,
    },
    /// A replica acknowledges an update.
    UpdateAck {
        /// The client.
        client: u8,
        /// The replica.
        replica: u8,
    },
}

/// A step: a client begins its operation, a message is delivered, or the final state steps to
/// itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AbdStep {
    /// The client begins its operation: a query to every replica.
    Begin(u8),
    /// A message is delivered.
    Deliver(AbdMsg),
    /// Every client is done and nothing is in flight.
    Finished,
}

/// Where a client's operation is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Phase {
    /// Not begun.
    Idle,
    /// Querying the replicas.
    Query,
    /// Updating them (a write's new pair, or a read's write-back).
    Update,
    /// Completed.
    Done,
}

/// A client: its phase, the replicas that answered it, the pair it carries, and the history.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Client {
    /// Where the operation is.
    pub phase: Phase,
    /// The replicas that answered this phase, one bit each.
    pub replies: u8,
    /// The highest (ts, value) queried; from the update phase on, the pair written (a write) or
    /// read (a read).
    pub best: (Ts, u8),
    /// Ghost: the highest completed timestamp when the operation began.
    pub floor: Ts,
}

/// An ABD state: replicas, clients, the ghost highest completed timestamp, the network.
#[derive(PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct AbdState {
    /// Each replica's (timestamp, value).
    pub replicas: Vec<(Ts, u8)>,
    /// The clients, by index.
    pub clients: Vec<Client>,
    /// Ghost: the highest timestamp of the operations completed so far.
    pub completed: Ts,
    /// The messages in flight.
    pub network: Network<AbdMsg>,
}

/// `clone_from` reuses the state's buffers ([`Model::successors_reusing`] writes successors
/// over spare states with it).
impl Clone for AbdState {
    fn clone(&self) -> Self {
        AbdState {
            replicas: self.replicas.clone(),
            clients: self.clients.clone(),
            completed: self.completed,
            network: self.network.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.replicas.clone_from(&source.replicas);
        self.clients.clone_from(&source.clients);
        self.completed = source.completed;
        self.network.clone_from(&source.network);
    }
}

/// The ABD register with 3 replicas and `clients` clients.
pub struct Abd {
    clients: usize,
}

impl Abd {
    /// ABD with `clients` clients, 1..=8.
    pub fn new(clients: usize) -> Result<Self, String> {
        if (1..=MAX_CLIENTS).contains(&clients) {
            Ok(Abd { clients })
        } else {
            Err(format!(
                "abd needs 1 to {MAX_CLIENTS} clients, got {clients}"
            ))
        }
    }
}

/// Whether client `c` writes (even clients write, odd ones read).
pub fn is_write(client: u8) -> bool {
    client.is_multiple_of(2)
}

/// The value client `writer` writes.
pub fn written_value(writer: u8) -> u8 {
    writer + 1
}

impl Model for Abd {
    type State = AbdState;
    type Action = AbdStep;

    fn name(&self) -> String {
        format!("abd(clients={})", self.clients)
    }

    fn initial_states(&self) -> Vec<AbdState> {
        let client = Client {
            phase: Phase::Idle,
            replies: 0,
            best: (Ts::default(), 0),
            floor: Ts::default(),
        };
        vec![AbdState {
            replicas: vec![(Ts::default(), 0); REPLICAS],
            clients: vec![client; self.clients],
            completed: Ts::default(),
            network: Network::new(),
        }]
    }

    fn successors(&self, state: &AbdState, out: &mut Vec<(AbdStep, AbdState)>) {
        let mut list = Successors::new();
        self.successors_reusing(state, &mut list);
        out.extend(list.drain());
    }

    fn successors_reusing(&self, state: &AbdState, out: &mut Successors<AbdStep, AbdState>) {
        for c in 0..state.clients.len() as u8 {
            if state.clients[c as usize].phase == Phase::Idle {
                begin(out.push_copy(AbdStep::Begin(c), state), c);
            }
        }
        for &msg in state.network.deliverable() {
            let next = out.push_copy(AbdStep::Deliver(msg), state);
            next.network.take(&msg);
            deliver(next, msg);
        }
        if out.is_empty() && state.clients.iter().all(|c| c.phase == Phase::Done) {
            out.push_copy(AbdStep::Finished, state);
        }
    }

    fn invariants(&self) -> Vec<Invariant<AbdState>> {
        vec![Invariant::new("Linearizable", linearizable)]
    }

    /// `ReadSeesAWrite` with a reader, i.e. from 2 clients on (client 1 is the first reader):
    /// with one client it would be vacuous by construction.
    fn properties(&self) -> Vec<Property<AbdState>> {
        if self.clients < 2 {
            return Vec::new();
        }
        vec![Property::sometimes("ReadSeesAWrite", |s: &AbdState| {
            s.clients.iter().enumerate().any(|(c, client)| {
                !is_write(c as u8) && client.phase == Phase::Done && client.best.1 != 0
            })
        })]
    }
}

/// The check described in the module docs, on every completed operation.
pub fn linearizable(s: &AbdState) -> bool {
    s.clients.iter().enumerate().all(|(c, client)| {
        let (ts, value) = client.best;
        if client.phase != Phase::Done {
            true
        } else if is_write(c as u8) {
            ts > client.floor && ts.writer == c as u8 && value == written_value(c as u8)
        } else {
            let expected = if ts == Ts::default() {
                0
            } else {
                written_value(ts.writer)
            };
            ts >= client.floor && value == expected
        }
    })
}

/// Client `c` begins its operation: its floor is the highest completed timestamp, and a query
/// goes to every replica.
fn begin(s: &mut AbdState, client: u8) {
    let me = &mut s.clients[client as usize];
    me.phase = Phase::Query;
    me.floor = s.completed;
    for replica in 0..REPLICAS as u8 {
        s.network.send(AbdMsg::Query { client, replica });
    }
}

/// Applies the delivery of `msg` (already taken from the network) to `s`.
fn deliver(s: &mut AbdState, msg: AbdMsg) {
    match msg {
        AbdMsg::Query { client, replica } => {
            let (ts, value) = s.replicas[replica as usize];
            s.network.send(AbdMsg::QueryReply {
                client,
                replica,
                ts,
                value,
            });
        }
        AbdMsg::Update {
            client,
            replica,
            ts,
            value,
        } => {
            let stored = &mut s.replicas[replica as usize];
            if ts > stored.0 {
                *stored = (ts, value);
            }
            s.network.send(AbdMsg::UpdateAck { client, replica });
        }
        AbdMsg::QueryReply {
            client,
            replica,
            ts,
            value,
        } => on_query_reply(s, client, replica, (ts, value)),
        AbdMsg::UpdateAck { client, replica } => on_update_ack(s, client, replica),
    }
}

/// Counts a reply of the client's phase `phase`: `None` when the reply is late (the client is
/// past that phase, or already counted the replica), else whether the phase now has its
/// majority.
fn count_reply(client: &mut Client, replica: u8, phase: Phase) -> Option<bool> {
    if client.phase != phase || client.replies & 1 << replica != 0 {
        return None;
    }
    client.replies |= 1 << replica;
    Some(client.replies.count_ones() >= MAJORITY)
}

/// A query reply: at a majority, a write picks its timestamp and a read its pair, and the
/// update phase sends it to every replica.
fn on_query_reply(s: &mut AbdState, c: u8, replica: u8, pair: (Ts, u8)) {
    let client = &mut s.clients[c as usize];
    let Some(majority) = count_reply(client, replica, Phase::Query) else {
        return;
    };
    client.best = client.best.max(pair);
    if !majority {
        return;
    }
    if is_write(c) {
        let ts = Ts {
            counter: client.best.0.counter + 1,
            writer: c,
        };
        client.best = (ts, written_value(c));
    }
    client.phase = Phase::Update;
    client.replies = 0;
    let (ts, value) = client.best;
    for replica in 0..REPLICAS as u8 {
        s.network.send(AbdMsg::Update {
            client: c,
            replica,
            ts,
            value,
        });
    }
}

/// An update's acknowledgement: at a majority the operation completes (which replicas
/// answered is forgotten: later replies are ignored whoever sends them).
fn on_update_ack(s: &mut AbdState, c: u8, replica: u8) {
    let client = &mut s.clients[c as usize];
    if count_reply(client, replica, Phase::Update) == Some(true) {
        client.phase = Phase::Done;
        client.replies = 0;
        s.completed = s.completed.max(client.best.0);
    }
}

impl fmt::Display for AbdStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = |t: &Ts| format!("({},c{})", t.counter, t.writer);
        let msg = match self {
            AbdStep::Begin(c) => return write!(f, "c{c} begins"),
            AbdStep::Finished => return write!(f, "finished"),
            AbdStep::Deliver(msg) => msg,
        };
        match msg {
            AbdMsg::Query { client, replica } => write!(f, "c{client}->r{replica} Query"),
            AbdMsg::QueryReply {
                client,
                replica,
                ts,
                value,
            } => {
                write!(f, "r{replica}->c{client} QueryReply({}, {value})", t(ts))
            }
            AbdMsg::Update {
                client,
                replica,
                ts,
                value,
            } => {
                write!(f, "c{client}->r{replica} Update({}, {value})", t(ts))
            }
            AbdMsg::UpdateAck { client, replica } => write!(f, "r{replica}->c{client} UpdateAck"),
        }
    }
}
