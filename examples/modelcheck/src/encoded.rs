//! [`Encoded`]: any model whose states are serde types, with each state kept as its postcard
//! encoding, one heap block, in the frontier and in the exact set: a compact frontier for
//! states that own heap memory, at the price of decoding each state expanded and encoding each
//! successor.
//!
//! The search does not change: `Encoded<M>` is a model like any other, whose state is the
//! bytes. It counts the same states as `M` when equal states encode to equal bytes and unequal
//! ones to unequal bytes. Postcard encodings of derived serde types (structs, enums, `Vec`s,
//! `BTreeMap`s, integers) are both; a `HashMap` field (its order is not a function of its
//! contents) or a hand-written `Serialize` that drops a field is not, and such a model must
//! not be encoded.
//!
//! The bytes are trusted: decoding bytes that no state of `M` encoded to panics. So an encoded
//! model is not for checkpoints or distributed runs, whose states come from files and peers
//! (the command line refuses `--encoded-states` with both).

use crate::model::{Invariant, Model};
use crate::property::{Expectation, Predicate, Property};
use crate::successors::Successors;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;
use std::sync::Mutex;

/// A state of `M` as its postcard bytes: one heap block of exactly their length and a 16-byte
/// handle.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EncodedState(Box<[u8]>);

impl EncodedState {
    /// The encoded bytes' length.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the encoding is empty (a state of a zero-sized type).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for EncodedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EncodedState({} bytes)", self.0.len())
    }
}

/// The codec of `M`'s states, shared by the wrapped invariants and properties.
struct Codec<S>(PhantomData<fn() -> S>);

impl<S: Serialize + DeserializeOwned> Codec<S> {
    /// Postcard writes any serde value to a `Vec`; only a failing `Serialize` impl of the
    /// model's own (a custom one returning an error) makes it fail.
    fn encode(state: &S) -> EncodedState {
        Self::encode_with(state, &mut Vec::new())
    }

    /// `state`'s encoding, written in `scratch` first so that only the exact-size block is
    /// allocated.
    fn encode_with(state: &S, scratch: &mut Vec<u8>) -> EncodedState {
        scratch.clear();
        match postcard::to_extend(state, std::mem::take(scratch)) {
            Ok(bytes) => *scratch = bytes,
            Err(e) => panic!("Encoded: the model's state does not serialize: {e}"),
        }
        EncodedState(Box::from(scratch.as_slice()))
    }

    /// The bytes came from [`Codec::encode`] of the same type, so they decode.
    fn decode(state: &EncodedState) -> S {
        match postcard::from_bytes(&state.0) {
            Ok(value) => value,
            Err(e) => panic!("Encoded: a state's own encoding does not decode: {e}"),
        }
    }

    /// `p` on the decoded state.
    fn lift(p: Predicate<S>) -> Predicate<EncodedState>
    where
        S: 'static,
    {
        Box::new(move |bytes| p(&Self::decode(bytes)))
    }
}

/// One expansion's reused storage: `M`'s successors (with spares) and the encoding buffer.
type Buffers<M> = (
    Successors<<M as Model>::Action, <M as Model>::State>,
    Vec<u8>,
);

/// `M` with every state stored as its postcard encoding (see the module docs for when the
/// counts match `M`'s). Successors, invariants, properties, symmetry, fairness and traces are
/// `M`'s own, through a decode.
pub struct Encoded<M: Model> {
    inner: M,
    /// Lists of decoded successors with their spares, and encoding buffers, one of each taken
    /// per expansion, so that `M`'s [`Model::successors_reusing`] reuses buffers here too.
    lists: Mutex<Vec<Buffers<M>>>,
}

impl<M: Model> Encoded<M>
where
    M::State: Serialize + DeserializeOwned,
{
    /// `model`, encoded.
    pub fn new(model: M) -> Self {
        Encoded {
            inner: model,
            lists: Mutex::new(Vec::new()),
        }
    }

    /// The encoding of a state of `M` (for tests and callers that compare runs).
    pub fn encode(&self, state: &M::State) -> EncodedState {
        Codec::<M::State>::encode(state)
    }

    /// The state of `M` that `state` encodes.
    ///
    /// # Panics
    ///
    /// If `state` is not the encoding of a state of `M` (bytes from elsewhere, such as a
    /// deserialized `EncodedState` of another model); states this model made always decode.
    pub fn decode(&self, state: &EncodedState) -> M::State {
        Codec::<M::State>::decode(state)
    }
}

impl<M: Model> Model for Encoded<M>
where
    M::State: Serialize + DeserializeOwned,
{
    type State = EncodedState;
    type Action = M::Action;

    fn name(&self) -> String {
        self.inner.name()
    }

    fn initial_states(&self) -> Vec<EncodedState> {
        let states = self.inner.initial_states();
        states.iter().map(|s| self.encode(s)).collect()
    }

    fn successors(&self, state: &EncodedState, out: &mut Vec<(M::Action, EncodedState)>) {
        let mut decoded = Vec::new();
        self.inner.successors(&self.decode(state), &mut decoded);
        out.extend(decoded.iter().map(|(a, s)| (*a, self.encode(s))));
    }

    fn successors_reusing(
        &self,
        state: &EncodedState,
        out: &mut Successors<M::Action, EncodedState>,
    ) {
        // A poisoned lock means another thread panicked; the lists are still lists.
        let taken = self.lists.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let (mut decoded, mut scratch) = taken.unwrap_or_default();
        self.inner
            .successors_reusing(&self.decode(state), &mut decoded);
        for (action, next) in decoded.as_slice() {
            out.push(*action, Codec::encode_with(next, &mut scratch));
        }
        decoded.clear();
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        lists.push((decoded, scratch));
    }

    fn invariants(&self) -> Vec<Invariant<EncodedState>> {
        let invariants = self.inner.invariants().into_iter();
        invariants
            .map(|i| Invariant {
                name: i.name,
                holds: Codec::<M::State>::lift(i.holds),
            })
            .collect()
    }

    fn properties(&self) -> Vec<Property<EncodedState>> {
        let lift = Codec::<M::State>::lift;
        let properties = self.inner.properties().into_iter();
        properties
            .map(|p| Property {
                name: p.name,
                expectation: match p.expectation {
                    Expectation::Sometimes(q) => Expectation::Sometimes(lift(q)),
                    Expectation::Eventually(q) => Expectation::Eventually(lift(q)),
                    Expectation::LeadsTo(q, r) => Expectation::LeadsTo(lift(q), lift(r)),
                },
            })
            .collect()
    }

    fn deadlock_is_error(&self) -> bool {
        self.inner.deadlock_is_error()
    }

    fn canonical(&self, state: &EncodedState) -> Option<EncodedState> {
        let canonical = self.inner.canonical(&self.decode(state))?;
        Some(self.encode(&canonical))
    }

    fn class_size(&self, representative: &EncodedState) -> Option<u64> {
        self.inner.class_size(&self.decode(representative))
    }

    fn processes(&self) -> usize {
        self.inner.processes()
    }

    fn process_of(&self, action: &M::Action) -> Option<usize> {
        self.inner.process_of(action)
    }

    fn show(&self, state: &EncodedState) -> String {
        self.inner.show(&self.decode(state))
    }
}
