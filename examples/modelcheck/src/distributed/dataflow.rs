//! One worker's timely dataflow, and the rounds it runs: [`build`] installs the two streams
//! (successors in [`Parcel`]s to their owner's insert operator; control messages to the
//! worker they name), and [`Dataflow`] drives them: it ends a level's epoch of successors, or
//! runs one control round, and steps the worker until progress tracking says every worker's
//! messages of that epoch have arrived.

use super::messages::Control;
use super::owned::Owned;
use super::parcel::{Parcel, ParcelLink, Parcels, ToOwner};
use super::watchdog::Watchdog;
use super::wire::Traffic;
use crate::model::Model;
use searchcache::StateHash;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{DistributorPact, Pipeline};
use timely::dataflow::operators::{Exchange, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// How many successors ahead of its insert a received successor's line is prefetched.
const PREFETCH_AHEAD: usize = 64;

/// How long a waiting worker parks before it looks for a lost peer again.
const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// The message of a run that lost a peer (the peer itself is in [`Traffic::fault`]).
pub(super) const LOST: &str = "a peer was lost";

/// Control messages to send, each with the worker it is for.
type ControlInput<S> = InputHandle<u64, CapacityContainerBuilder<Vec<(u16, Control<S>)>>>;

/// Control messages received, with the epoch they were sent at.
type Inbox<S> = Rc<RefCell<Vec<(u64, Control<S>)>>>;

/// Who this worker waits for: its process's sockets, their watchdog, its peers.
pub(super) struct Peers<'a> {
    /// This process's socket counters and lost peer.
    pub(super) traffic: &'a Traffic,
    /// The silent-peer watchdog and its heartbeats.
    pub(super) watch: Watchdog<'a>,
    /// Timely workers per process.
    pub(super) workers: usize,
    /// Timely workers in the run.
    pub(super) peers: usize,
}

/// The handles of one worker's dataflow, and the control epoch it has reached.
pub(super) struct Dataflow<'a, S: Clone + 'static> {
    /// Successors for their owners, at the epoch of the level that made them.
    pub(super) states_in: InputHandle<u64, Parcels>,
    control_in: ControlInput<S>,
    states_probe: ProbeHandle<u64>,
    control_probe: ProbeHandle<u64>,
    inbox: Inbox<S>,
    control_epoch: u64,
    /// Who the rounds wait for.
    pub(super) peers: Peers<'a>,
}

/// Installs the worker's dataflow: successors go through timely's exchange pact, in parcels
/// for one worker each, to the insert operator that puts them into `owned`; control messages
/// go to the worker they name, into the inbox [`Dataflow::round`] reads.
pub(super) fn build<'a, M: Model>(
    worker: &mut Worker,
    owned: &Rc<RefCell<Owned<M>>>,
    peers: Peers<'a>,
) -> Dataflow<'a, M::State>
where
    M::State: serde::Serialize + serde::de::DeserializeOwned,
{
    let mut states_in = InputHandle::<u64, Parcels>::new_with_builder();
    let mut control_in: ControlInput<M::State> = InputHandle::new();
    let (states_probe, control_probe) = (ProbeHandle::new(), ProbeHandle::new());
    let inbox: Inbox<M::State> = Rc::default();
    worker.dataflow::<u64, _, _>(|scope| {
        let insert_into = Rc::clone(owned);
        let to_owner = DistributorPact(|_peers: usize| ToOwner);
        let mut keys: Vec<StateHash> = Vec::new();
        let mut arrived: Vec<(M::State, ParcelLink)> = Vec::new();
        states_in
            .to_stream(scope)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(to_owner, "Insert", |_, _| {
                move |input, _output| {
                    input.for_each(|_time, parcel: &mut Parcel| {
                        insert_parcel(
                            &mut insert_into.borrow_mut(),
                            parcel,
                            &mut keys,
                            &mut arrived,
                        );
                    });
                }
            })
            .probe_with(&states_probe);
        let deliver_to = Rc::clone(&inbox);
        control_in
            .to_stream(scope)
            .exchange(|(to, _): &(u16, Control<M::State>)| *to as u64)
            .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(Pipeline, "Deliver", |_, _| {
                move |input, _output| {
                    input.for_each(|time, data| {
                        let epoch = time.least().copied().unwrap_or(0);
                        let mut inbox = deliver_to.borrow_mut();
                        inbox.extend(data.drain(..).map(|(_, c)| (epoch, c)));
                    });
                }
            })
            .probe_with(&control_probe);
    });
    Dataflow {
        states_in,
        control_in,
        states_probe,
        control_probe,
        inbox,
        control_epoch: 0,
        peers,
    }
}

/// Decodes a parcel that arrived and inserts its successors into `owned`, each line
/// prefetched [`PREFETCH_AHEAD`] successors ahead of its insert so that the inserts' cache
/// misses overlap instead of queueing. `keys` and `arrived` are reused buffers.
#[inline]
fn insert_parcel<M: Model>(
    owned: &mut Owned<M>,
    parcel: &Parcel,
    keys: &mut Vec<StateHash>,
    arrived: &mut Vec<(M::State, ParcelLink)>,
) where
    M::State: serde::Serialize + serde::de::DeserializeOwned,
{
    keys.clear();
    arrived.clear();
    let decoded = parcel.decode(|key, state, link| {
        keys.push(key);
        arrived.push((state, link));
    });
    if let Err(e) = decoded {
        // Recorded; `insert` does nothing more once there is an error.
        owned.error.get_or_insert(e);
    }
    for &key in keys.iter().take(PREFETCH_AHEAD) {
        owned.visited.prefetch(key);
    }
    for (i, (state, link)) in arrived.drain(..).enumerate() {
        if let Some(&ahead) = keys.get(i + PREFETCH_AHEAD) {
            owned.visited.prefetch(ahead);
        }
        let ParcelLink {
            parent_worker,
            parent,
            ordinal,
        } = link;
        owned.insert(keys[i], state, parent_worker, parent, ordinal);
    }
}

impl<S: Clone + 'static> Dataflow<'_, S> {
    /// Closes the successors' epoch `level - 1` and waits until every worker has inserted
    /// every successor of it (`Err` for a lost or silent peer).
    pub(super) fn end_level(&mut self, worker: &mut Worker, level: u64) -> Result<(), String> {
        self.states_in.advance_to(level);
        self.wait_for(worker, false, level)
    }

    /// One control round: sends `messages`, closes the epoch, waits until every worker's
    /// messages of it have arrived, and returns them (later epochs' early arrivals stay in the
    /// inbox).
    pub(super) fn round(
        &mut self,
        worker: &mut Worker,
        messages: Vec<(u16, Control<S>)>,
    ) -> Result<Vec<Control<S>>, String> {
        for message in messages {
            self.control_in.send(message);
        }
        self.control_epoch += 1;
        self.control_in.advance_to(self.control_epoch);
        self.wait_for(worker, true, self.control_epoch)?;
        let mut inbox = self.inbox.borrow_mut();
        let (now, later): (Vec<_>, Vec<_>) = inbox
            .drain(..)
            .partition(|(epoch, _)| *epoch < self.control_epoch);
        *inbox = later;
        Ok(now.into_iter().map(|(_, c)| c).collect())
    }

    /// `control` for every worker of the run.
    pub(super) fn broadcast(&self, control: Control<S>) -> Vec<(u16, Control<S>)> {
        (0..self.peers.peers)
            .map(|to| (to as u16, control.clone()))
            .collect()
    }

    /// Steps `worker` until the control stream's probe (`control`) or the successors' has
    /// passed `epoch`, sending heartbeats to the other processes meanwhile; `Err` when a peer
    /// is lost, or silent for the watchdog's timeout.
    fn wait_for(&mut self, worker: &mut Worker, control: bool, epoch: u64) -> Result<(), String> {
        let probe = if control {
            &self.control_probe
        } else {
            &self.states_probe
        };
        while probe.less_than(&epoch) {
            let Peers {
                traffic,
                watch,
                workers,
                ..
            } = &self.peers;
            if traffic.fault().is_some() || watch.silent_peer().is_some() {
                return Err(LOST.into());
            }
            let beats = watch.beat_due();
            if !beats.is_empty() {
                for process in beats {
                    self.control_in
                        .send(((process * workers) as u16, Control::Heartbeat));
                }
                self.control_in.flush();
            }
            worker.step_or_park(Some(POLL_INTERVAL));
        }
        Ok(())
    }
}
