//! The successors' exchange: successors travel to their owner in parcels of up to [`RECORDS_PER_PARCEL`]
//! records for one worker, already encoded. A record is the state's bincode encoding, the very
//! bytes its sender hashed for its portable key, followed by the bincode encoding of its trace
//! [`ParcelLink`]. The owner hashes the bytes as they arrived (its key is the sender's without
//! serializing the state again) and decodes the state and link from them.
//!
//! Why not timely's `Vec` of records with a per-record exchange function: the sender has the
//! state's encoding at hand (it hashed it to find the owner), so a record costs one copy into
//! its parcel; timely's `Vec` container would serialize each record again field by field through
//! a generic writer, after a first pass to size the message, and the exchange would route each
//! record again. A parcel crosses as one copy of its bytes, and its [`ToOwner`] distributor
//! hands it whole to the worker it is for.
//!
//! [`Parcels`] is the container builder of the successors' input: it fills one parcel per
//! destination and hands out each one when it holds [`RECORDS_PER_PARCEL`] records, and every partial one
//! when the level's epoch closes ([`ContainerBuilder::finish`]), so no successor waits longer.
//!
//! Why [`RECORDS_PER_PARCEL`]: every message to another process is one more wake-up of timely's send thread
//! (it parks when its queue is empty), one more write and read on the socket and one more header;
//! a parcel of 4,096 records (64 KiB on the wire for 8-byte states) costs those once per 4,096.

use searchcache::StateHash;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::ops::Range;
use timely::bytes::arc::Bytes;
use timely::communication::Push;
use timely::container::{ContainerBuilder, PushInto};
use timely::dataflow::channels::pushers::exchange::Distributor;
use timely::dataflow::channels::{ContainerBytes, Message, Stamp};
use timely::Accountable;

/// The portable hash of a state: XXH3-128 ([`StateHash::portable`]) of its bincode encoding,
/// identical on every machine and build, so every process agrees on every state's owner.
pub fn portable_key<S: Serialize>(state: &S, buffer: &mut Vec<u8>) -> Result<StateHash, String> {
    buffer.clear();
    encode_key(state, buffer).map(|(key, _)| key)
}

/// [`portable_key`] of a state encoded at the end of `encodings`: its key, and where its
/// encoding lies there (the bytes a record of a parcel carries).
#[inline(always)]
pub(super) fn encode_key<S: Serialize>(
    state: &S,
    encodings: &mut Vec<u8>,
) -> Result<(StateHash, Range<usize>), String> {
    let start = encodings.len();
    if let Err(e) = bincode::serialize_into(&mut *encodings, state) {
        // A failed encoding takes no room: the next one starts where this one would have.
        encodings.truncate(start);
        return Err(format!("cannot serialize a state: {e}"));
    }
    Ok((
        StateHash::portable(&encodings[start..]),
        start..encodings.len(),
    ))
}

/// Records per parcel.
pub const RECORDS_PER_PARCEL: usize = 4096;

/// Bytes of a [`ParcelLink`] in bincode's fixed-width encoding.
const PARCEL_LINK_BYTES: usize = 8;

impl ParcelLink {
    /// Bincode's fixed-width little-endian encoding of the link (what `bincode::serialize`
    /// writes; a test holds them equal), written directly: bincode's generic writer costs
    /// more than the rest of a record's copy.
    #[inline]
    fn encoded(self) -> [u8; PARCEL_LINK_BYTES] {
        let mut bytes = [0u8; PARCEL_LINK_BYTES];
        bytes[..2].copy_from_slice(&self.parent_worker.to_le_bytes());
        bytes[2..6].copy_from_slice(&self.parent.to_le_bytes());
        bytes[6..].copy_from_slice(&self.ordinal.to_le_bytes());
        bytes
    }

    /// The inverse of [`ParcelLink::encoded`].
    #[inline]
    fn decoded(bytes: [u8; PARCEL_LINK_BYTES]) -> ParcelLink {
        ParcelLink {
            parent_worker: u16::from_le_bytes([bytes[0], bytes[1]]),
            parent: u32::from_le_bytes([bytes[2], bytes[3], bytes[4], bytes[5]]),
            ordinal: u16::from_le_bytes([bytes[6], bytes[7]]),
        }
    }
}

/// A successor's trace link: its parent's worker, the parent's index in its level, and the
/// step's position among the parent's successors.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParcelLink {
    /// The worker that owns the parent.
    pub parent_worker: u16,
    /// The parent's index in its owner's level.
    pub parent: u32,
    /// The step's position among the parent's successors.
    pub ordinal: u16,
}

/// The parcel's header on the wire: destination worker, records, payload bytes.
type Header = (u64, u64, u64);

/// Bytes of the [`Header`] in bincode's fixed-width encoding.
const HEADER_BYTES: usize = 24;

/// Bincode's legacy options (fixed-width little-endian integers), those of
/// `bincode::serialize` and `bincode::deserialize` that the portable hash hashes.
fn legacy() -> impl bincode::Options + Copy {
    use bincode::Options;
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .allow_trailing_bytes()
}

/// Encoded successors for one worker (see the module documentation).
#[derive(Clone, Default, Debug)]
pub struct Parcel {
    /// The destination worker.
    to: usize,
    /// Records in `bytes`.
    records: usize,
    /// The records, one after the other.
    bytes: Vec<u8>,
    /// The bytes a peer sent could not be read as a parcel (`records` is then 0): decoding it
    /// is an error.
    malformed: bool,
}

impl Parcel {
    /// Appends a record: `state`, the bincode encoding of a state, and its `link`.
    #[inline]
    pub fn push(&mut self, state: &[u8], link: ParcelLink) {
        self.bytes.extend_from_slice(state);
        self.bytes.extend_from_slice(&link.encoded());
        self.records += 1;
    }

    /// The destination worker.
    #[cfg(test)]
    pub fn to(&self) -> usize {
        self.to
    }

    /// The records, in the order they were pushed: each with the portable hash of the state's
    /// encoding as it arrived ([`StateHash::portable`], the sender's key), the state and its
    /// link. Errors: bytes that do not decode as records of `S` (a record the sender did not
    /// encode from an `S`, or a parcel that did not arrive whole).
    pub fn decode<S: Serialize + DeserializeOwned>(
        &self,
        mut each: impl FnMut(StateHash, S, ParcelLink),
    ) -> Result<(), String> {
        if self.malformed {
            return Err("a peer sent successors that are not a parcel".into());
        }
        use bincode::Options;
        let options = legacy();
        let mut at = 0usize;
        for _ in 0..self.records {
            let rest = &self.bytes[at..];
            let state: S = options
                .deserialize(rest)
                .map_err(|e| format!("cannot decode a successor's state: {e}"))?;
            // The reader does not say how much it read: the state's encoded size does.
            let size = options
                .serialized_size(&state)
                .map_err(|e| format!("cannot size a successor's state: {e}"))?
                as usize;
            let (encoded, link) = rest
                .get(..size)
                .zip(rest.get(size..size + PARCEL_LINK_BYTES))
                .ok_or("a successor is cut short in its parcel")?;
            let key = StateHash::portable(encoded);
            let link = ParcelLink::decoded(link.try_into().map_err(|_| "a link is cut short")?);
            at += size + PARCEL_LINK_BYTES;
            each(key, state, link);
        }
        if at != self.bytes.len() {
            return Err(format!(
                "a parcel of {} successors has {} bytes, not {at}",
                self.records,
                self.bytes.len()
            ));
        }
        Ok(())
    }

    /// Empties it, keeping its allocation.
    fn clear(&mut self) {
        self.records = 0;
        self.bytes.clear();
        self.malformed = false;
    }
}

/// Counts its records for timely's progress tracking.
impl Accountable for Parcel {
    #[inline]
    fn record_count(&self) -> i64 {
        self.records as i64
    }
}

/// On the wire: a bincode header (destination worker, records, payload bytes: three `u64`),
/// the records' bytes, zeros up to a multiple of 8 bytes (timely's alignment of what follows).
impl ContainerBytes for Parcel {
    fn from_bytes(bytes: Bytes) -> Self {
        let read = || -> Option<Parcel> {
            let header = bytes.get(..HEADER_BYTES)?;
            let (to, records, length): Header = bincode::deserialize(header).ok()?;
            let payload = bytes.get(HEADER_BYTES..HEADER_BYTES.checked_add(length as usize)?)?;
            Some(Parcel {
                to: to as usize,
                records: records as usize,
                bytes: payload.to_vec(),
                malformed: false,
            })
        };
        read().unwrap_or(Parcel {
            malformed: true,
            ..Parcel::default()
        })
    }

    fn length_in_bytes(&self) -> usize {
        (HEADER_BYTES + self.bytes.len() + 7) & !7
    }

    fn into_bytes<W: std::io::Write>(&self, writer: &mut W) {
        let header: Header = (self.to as u64, self.records as u64, self.bytes.len() as u64);
        // Timely hands a buffer of `length_in_bytes`: writing into it cannot fail.
        let written = bincode::serialize_into(&mut *writer, &header)
            .map_err(|e| std::io::Error::other(e.to_string()))
            .and_then(|()| writer.write_all(&self.bytes))
            .and_then(|()| {
                let padding = self.length_in_bytes() - HEADER_BYTES - self.bytes.len();
                writer.write_all(&[0u8; 8][..padding])
            });
        debug_assert!(written.is_ok(), "a parcel did not fit its buffer");
    }
}

/// The successors' input's container builder (see the module documentation).
#[derive(Default)]
pub struct Parcels {
    /// The parcel being filled for each destination worker.
    filling: Vec<Parcel>,
    /// Full parcels not yet handed out, oldest first.
    full: VecDeque<Parcel>,
    /// The parcel handed out last: timely leaves it here, emptied (it moved the records to a
    /// worker of this process) or not (it copied them to a socket); its allocation is reused.
    out: Option<Parcel>,
}

/// A record for worker `.0`: a state's encoding and its link (see [`Parcel::push`]).
impl PushInto<(usize, &[u8], ParcelLink)> for Parcels {
    #[inline]
    fn push_into(&mut self, (to, state, link): (usize, &[u8], ParcelLink)) {
        if self.filling.len() <= to {
            self.filling.resize_with(to + 1, Parcel::default);
        }
        let parcel = &mut self.filling[to];
        if parcel.bytes.capacity() == 0 {
            if let Some(mut reused) = self.out.take() {
                reused.clear();
                *parcel = reused;
            }
            parcel.to = to;
            parcel
                .bytes
                .reserve(RECORDS_PER_PARCEL * (state.len() + PARCEL_LINK_BYTES));
        }
        parcel.push(state, link);
        if parcel.records >= RECORDS_PER_PARCEL {
            self.full.push_back(std::mem::take(parcel));
        }
    }
}

impl ContainerBuilder for Parcels {
    type Container = Parcel;

    #[inline]
    fn extract(&mut self) -> Option<&mut Parcel> {
        self.out = Some(self.full.pop_front()?);
        self.out.as_mut()
    }

    #[inline]
    fn finish(&mut self) -> Option<&mut Parcel> {
        for parcel in &mut self.filling {
            if parcel.records > 0 {
                self.full.push_back(std::mem::take(parcel));
            }
        }
        self.extract()
    }
}

/// Hands each parcel whole to the worker it is for; records are never split or merged, so
/// every record counted in is counted out.
pub struct ToOwner;

impl Distributor<Parcel> for ToOwner {
    fn partition<T: Clone, P: Push<Message<T, Parcel>>>(
        &mut self,
        container: &mut Parcel,
        stamp: &Stamp<T>,
        pushers: &mut [P],
    ) {
        // `Parcels` addresses workers below `peers` only (`StateHash::owner`).
        let to = container.to.min(pushers.len() - 1);
        Message::push_at(container, stamp.clone(), &mut pushers[to]);
    }

    fn flush<T: Clone, P: Push<Message<T, Parcel>>>(&mut self, _: &Stamp<T>, _: &mut [P]) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use timely::bytes::arc::BytesMut;

    fn encode<T: Serialize>(value: &T) -> Vec<u8> {
        bincode::serialize(value).unwrap()
    }

    fn link(parent: u32) -> ParcelLink {
        ParcelLink {
            parent_worker: 1,
            parent,
            ordinal: 3,
        }
    }

    /// Drains everything the builder has ready (`extract`) or, with `finish`, everything.
    fn drain(builder: &mut Parcels, finish: bool) -> Vec<Parcel> {
        let mut out = Vec::new();
        loop {
            let next = if finish {
                builder.finish()
            } else {
                builder.extract()
            };
            let Some(parcel) = next else { break };
            out.push(std::mem::take(parcel));
        }
        out
    }

    fn decoded(parcel: &Parcel) -> Vec<(StateHash, u64, ParcelLink)> {
        let mut out = Vec::new();
        parcel.decode(|k, s, l| out.push((k, s, l))).unwrap();
        out
    }

    /// Full parcels come out as they fill, the partial ones at `finish`, each for one worker,
    /// every record exactly once and in order; a record of an 8-byte state is 16 bytes.
    #[test]
    fn parcels_are_per_worker_full_in_order_and_finish_yields_the_rest() {
        let mut builder = Parcels::default();
        let n = 2 * RECORDS_PER_PARCEL as u64 + 5;
        for i in 0..n {
            let to = (i % 2) as usize * 2; // workers 0 and 2; none for worker 1
            builder.push_into((to, &encode(&i)[..], link(i as u32)));
        }
        let ready = drain(&mut builder, false);
        assert_eq!(ready.len(), 2);
        assert!(ready.iter().all(|p| p.records == RECORDS_PER_PARCEL));
        assert_eq!(ready[0].bytes.len(), 16 * RECORDS_PER_PARCEL);
        let rest = drain(&mut builder, true);
        assert_eq!(rest.len(), 2);
        assert!(drain(&mut builder, true).is_empty());
        let mut seen = Vec::new();
        for parcel in ready.iter().chain(&rest) {
            assert_eq!(parcel.record_count(), parcel.records as i64);
            for (key, state, l) in decoded(parcel) {
                assert_eq!(parcel.to(), (state % 2) as usize * 2);
                assert_eq!(key, StateHash::portable(&encode(&state)));
                assert_eq!(l, link(state as u32));
                seen.push(state);
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..n).collect::<Vec<_>>());
    }

    /// A link's encoding is bincode's, `PARCEL_LINK_BYTES` long, and decodes back.
    #[test]
    fn a_link_is_encoded_as_bincode_encodes_it() {
        for l in [
            link(0),
            link(u32::MAX),
            ParcelLink {
                parent_worker: 0xabcd,
                parent: 0x0102_0304,
                ordinal: 0xfedc,
            },
        ] {
            assert_eq!(encode(&l), l.encoded());
            assert_eq!(ParcelLink::decoded(l.encoded()), l);
        }
    }

    /// A parcel handed out and left in place by timely is not sent again, and its allocation
    /// starts the next one empty.
    #[test]
    fn a_reused_allocation_starts_empty() {
        let mut builder = Parcels::default();
        for i in 0..RECORDS_PER_PARCEL as u64 {
            builder.push_into((0, &encode(&i)[..], link(0)));
        }
        assert_eq!(
            builder.extract().map(|p| p.records),
            Some(RECORDS_PER_PARCEL)
        );
        builder.push_into((0, &encode(&7u64)[..], link(0)));
        let rest = drain(&mut builder, true);
        assert_eq!(rest.len(), 1);
        assert_eq!(
            decoded(&rest[0]).iter().map(|r| r.1).collect::<Vec<_>>(),
            [7]
        );
    }

    /// What `into_bytes` writes, `from_bytes` reads back: the same records, `length_in_bytes`
    /// long; cut or foreign bytes are an error, never a panic.
    #[test]
    fn a_parcel_crosses_whole_and_bad_bytes_are_an_error() {
        let mut parcel = Parcel {
            to: 5,
            ..Parcel::default()
        };
        for i in 0..3u64 {
            parcel.push(&encode(&(i * 1000)), link(i as u32));
        }
        let mut wire = Vec::new();
        parcel.into_bytes(&mut wire);
        assert_eq!(wire.len(), parcel.length_in_bytes());
        assert_eq!(wire.len() % 8, 0);
        let back = Parcel::from_bytes(BytesMut::from(wire.clone()).freeze());
        assert_eq!(back.to(), 5);
        assert_eq!(decoded(&back), decoded(&parcel));
        assert_eq!(decoded(&back).len(), 3);

        let cut = Parcel::from_bytes(BytesMut::from(wire[..30].to_vec()).freeze());
        assert!(cut.decode::<u64>(|_, _, _| {}).is_err());
        // A parcel of u64 records read as records of a wider type runs out of bytes.
        assert!(back.decode::<(u64, u64)>(|_, _, _| {}).is_err());
        // Records of a narrower type leave bytes over.
        let mut narrow = parcel.clone();
        narrow.bytes.push(0);
        assert!(narrow.decode::<u64>(|_, _, _| {}).is_err());
    }
}
