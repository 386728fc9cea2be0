//! `VisitedMap`: a [`VisitedSet`](crate::VisitedSet) whose every state carries a few bits of its
//! own, updated in place without locks (LTSmin's "satellite bits"): the colours of a nested
//! depth-first search, a visit mark per pass, a small index.
//!
//! # Race policy
//!
//! A slot is one 64-bit word: the state's signature in its high `64 − p` bits and its payload
//! in the low `p` ([`VisitedMap::payload_bits`]). The signature is never zero, so a zero word
//! is an empty slot. An insert claims an empty word with one compare-and-swap of signature and
//! first payload together; every later change is a `fetch_or` or a compare-and-swap on that
//! same word, which rewrites the payload and leaves the signature bits as they were. Hence:
//!
//! * The placement guarantees of the set hold unchanged (a slot goes from empty to one
//!   signature, for good): once found, always found; of several threads inserting one state,
//!   exactly one gets [`Inserted::New`].
//! * Each payload update is atomic as a whole: two threads setting different bits of one state
//!   ([`fetch_or`](VisitedMap::fetch_or)) lose neither, and a
//!   [`fetch_update`](VisitedMap::fetch_update) applies its function to the payload it replaces.
//!   Updates of *different* states order nothing between them.
//! * Every read is `Acquire` and every write `AcqRel`: whatever a thread did before it inserted
//!   or updated a state is visible to a thread that reads that payload afterwards.
//!
//! Not guaranteed, as in every hash-compacted set: that two different states are told apart.
//! The signature is `64 − p` bits, so each payload bit doubles the omission bound
//! ([`omission_probability`](VisitedMap::omission_probability) counts it).

use crate::alloc::{self, HugePages, Region};
use crate::error::Error;
use crate::mix::{mix64, scale};
use crate::persist::{self, FileError, Header, Kind};
use crate::set::{slots_for, walk_lines, Full, Inserted, WALK_LINES};
use crate::signature::Line;
use crate::size::Size;
use crate::state_hash::StateHash;
use crate::sync::{AtomicU64, Intent, Ordering::Acquire};
use crate::tally::Tally;

use std::fmt;
use std::io::{Read, Write};

/// The widest payload: 32 bits, which leaves a 32-bit signature (a `CompactSet`'s).
pub const MAX_PAYLOAD_BITS: u32 = 32;

/// Slots per 64-byte line: one word each.
const PER_LINE: usize = 8;

/// [`Tally`] totals: states inserted, signature comparisons those inserts made.
const STATES: usize = 0;
const COMPARISONS: usize = 1;

/// A fixed-size, lockless map from states (by hash compaction) to a payload of 1 to 32 bits,
/// 8 bytes per state. See the module docs for the layout and what is atomic.
///
/// # Guarantees
///
/// * An inserted state is never lost, and its payload changes only by this map's updates.
/// * Of any number of threads inserting one state, exactly one gets [`Inserted::New`], and its
///   payload is the one that insert gave.
/// * Concurrent updates of one state's payload are each applied exactly once.
/// * A full walk is [`Full`], never a dropped state and never a panic.
/// * Not guaranteed: that two different states are told apart (see
///   [`omission_probability`](Self::omission_probability)).
///
/// # Example
///
/// ```
/// use searchcache::{Inserted, StateHash, VisitedMap};
///
/// const BLUE: u32 = 1;
/// const RED: u32 = 2;
/// let colours = VisitedMap::with_expected_states(1000, 2)?;
/// let state = StateHash::of(&(3u8, [1u16, 2]));
/// assert_eq!(colours.insert(state, BLUE), Ok((Inserted::New, BLUE)));
/// assert_eq!(colours.insert(state, 0), Ok((Inserted::Present, BLUE)));
/// assert_eq!(colours.fetch_or(state, RED), Some(BLUE));
/// assert_eq!(colours.get(state), Some(BLUE | RED));
/// # Ok::<(), searchcache::Error>(())
/// ```
pub struct VisitedMap {
    lines: Region<Line>,
    payload_bits: u32,
    tally: Tally<2>,
    /// Tells loom what each operation will do (`sync::Intent`); nothing outside loom.
    intent: Intent,
}

impl VisitedMap {
    /// A map of `size` whose states carry `payload_bits` bits each: bytes round down to whole
    /// 64-byte lines, entries round up.
    ///
    /// Errors: [`Error::PayloadBits`] for `payload_bits` outside `1..=32`; otherwise those of
    /// [`VisitedSet::new`](crate::VisitedSet::new). Never panics or aborts.
    pub fn new(size: Size, payload_bits: u32) -> Result<Self, Error> {
        if !(1..=MAX_PAYLOAD_BITS).contains(&payload_bits) {
            return Err(Error::PayloadBits {
                bits: payload_bits,
                max: MAX_PAYLOAD_BITS,
            });
        }
        let lines = size.lines(64, PER_LINE)?;
        Ok(VisitedMap {
            lines: Region::zeroed(lines, HugePages::Advise)?,
            payload_bits,
            tally: Tally::new(),
            intent: Intent::new(),
        })
    }

    /// A map with room for `states` states at a load of at most
    /// [`MAX_LOAD`](crate::consts::MAX_LOAD). Errors: as [`new`](Self::new), with a count that
    /// overflows the address space as [`Error::TooManyStates`].
    pub fn with_expected_states(states: usize, payload_bits: u32) -> Result<Self, Error> {
        let too_many = Error::TooManyStates { states };
        let slots = slots_for(states).ok_or(too_many.clone())?;
        Self::new(Size::Entries(slots.max(1)), payload_bits).map_err(|e| match e {
            Error::TooLarge { .. } => too_many,
            e => e,
        })
    }

    /// Bits of payload per state.
    #[must_use]
    pub fn payload_bits(&self) -> u32 {
        self.payload_bits
    }

    /// The largest payload: all `payload_bits` set.
    #[must_use]
    pub fn payload_mask(&self) -> u32 {
        (u64::MAX >> (64 - self.payload_bits)) as u32
    }

    /// The home line of a state and its signature, already shifted into the word's high bits
    /// (never zero).
    #[inline]
    fn locate(&self, h: StateHash) -> (usize, u64) {
        let signature = match mix64(h.signature) >> self.payload_bits {
            // A stand-in for the zero signature, as the set's (any fixed non-zero value works).
            0 => 0x9e37_79b9_7f4a_7c15 >> self.payload_bits,
            s => s,
        };
        (
            scale(mix64(h.index), self.lines.len()),
            signature << self.payload_bits,
        )
    }

    /// The word of a state, if its walk reaches it before an empty slot.
    #[inline]
    fn find(&self, h: StateHash) -> Option<&AtomicU64> {
        let (home, signature) = self.locate(h);
        let n = self.lines.len();
        for j in 0..walk_lines(n) {
            let line = &self.lines[(home + j) % n];
            for word in &line.0 {
                match word.load(Acquire) {
                    0 => return None,
                    held if held & !u64::from(self.payload_mask()) == signature => {
                        return Some(word)
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// Inserts a state with `payload` (its bits above [`payload_bits`](Self::payload_bits)
    /// dropped): `(New, payload)` if it was not in the map, `(Present, its payload)` if its
    /// signature was found, or [`Full`] if neither is within its walk (nothing inserted).
    /// Lock-free: one CAS per new state.
    #[inline]
    pub fn insert(&self, h: StateHash, payload: u32) -> Result<(Inserted, u32), Full> {
        self.intent.write();
        let (home, signature) = self.locate(h);
        let mask = u64::from(self.payload_mask());
        let word_new = signature | u64::from(payload) & mask;
        let n = self.lines.len();
        let mut compared = 0u64;
        for j in 0..walk_lines(n) {
            let line = &self.lines[(home + j) % n];
            for word in &line.0 {
                let mut seen = word.load(Acquire);
                if seen == 0 {
                    match claim(word, word_new) {
                        Ok(()) => {
                            self.tally.add([1, compared]);
                            return Ok((Inserted::New, (word_new & mask) as u32));
                        }
                        Err(winner) => seen = winner,
                    }
                }
                if seen & !mask == signature {
                    return Ok((Inserted::Present, (seen & mask) as u32));
                }
                compared += 1;
            }
        }
        Err(Full::new(self.len(), self.capacity(), 8, walk_lines(n)))
    }

    /// Starts loading the state's home line into the cache (a hint that changes nothing in the
    /// map; see [`crate::SearchCache::prefetch`]). Call it when a successor is generated, and
    /// insert or read it later, so that the cache misses of several states overlap.
    #[inline]
    pub fn prefetch(&self, h: StateHash) {
        alloc::prefetch(&self.lines[self.locate(h).0]);
    }

    /// The payload of a state, or `None` if it is not in the map.
    #[inline]
    #[must_use]
    pub fn get(&self, h: StateHash) -> Option<u32> {
        self.intent.read();
        let mask = u64::from(self.payload_mask());
        self.find(h).map(|word| (word.load(Acquire) & mask) as u32)
    }

    /// Sets `bits` (those above [`payload_bits`](Self::payload_bits) dropped) in a state's
    /// payload in one atomic step, and returns the payload before; `None` (nothing changed) if
    /// the state is not in the map.
    #[inline]
    pub fn fetch_or(&self, h: StateHash, bits: u32) -> Option<u32> {
        self.intent.write();
        let mask = u64::from(self.payload_mask());
        let word = self.find(h)?;
        Some((or(word, u64::from(bits) & mask) & mask) as u32)
    }

    /// Replaces a state's payload by `f(payload)` in one atomic step (a compare-and-swap loop,
    /// so `f` may run more than once, each time on the payload then current): `Ok(previous)`
    /// when it did, `Err(previous)` when `f` returned `None` (nothing changed), `None` when the
    /// state is not in the map. Bits of `f`'s result above
    /// [`payload_bits`](Self::payload_bits) are dropped.
    #[inline]
    pub fn fetch_update(
        &self,
        h: StateHash,
        mut f: impl FnMut(u32) -> Option<u32>,
    ) -> Option<Result<u32, u32>> {
        self.intent.write();
        let mask = u64::from(self.payload_mask());
        let word = self.find(h)?;
        let mut current = word.load(Acquire);
        loop {
            let previous = (current & mask) as u32;
            let Some(next) = f(previous) else {
                return Some(Err(previous));
            };
            match swap(word, current, current & !mask | u64::from(next) & mask) {
                Ok(()) => return Some(Ok(previous)),
                Err(now) => current = now,
            }
        }
    }

    /// States inserted (`New` results); exact when no insert is running.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tally.total(STATES) as usize
    }

    /// Whether no state has been inserted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Slots: 8 per 64-byte line.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.lines.len() * PER_LINE
    }

    /// Bytes of table memory: 8 per slot.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.lines.len() * 64
    }

    /// Signature comparisons with occupied slots made by the inserts that returned `New`.
    #[must_use]
    pub fn signature_comparisons(&self) -> u64 {
        self.tally.total(COMPARISONS)
    }

    /// An upper bound on the probability that a new state was taken for another (Stern and
    /// Dill's `E / 2^b`, as [`VisitedSet::omission_probability`](crate::VisitedSet::omission_probability)),
    /// with `b = 64 − payload_bits`, the signature's width here.
    #[must_use]
    pub fn omission_probability(&self) -> f64 {
        let bits = 64 - self.payload_bits as i32;
        (self.signature_comparisons() as f64 * 0.5f64.powi(bits)).min(1.0)
    }

    /// Empties the map (fresh zero pages when the OS gives them, as the sets' `clear`).
    pub fn clear(&mut self) {
        alloc::clear_lines(&mut self.lines);
        self.tally.reset();
    }

    /// Writes the map in the format of [`crate::persist`], payloads included, streaming (see
    /// [`VisitedSet::save`](crate::VisitedSet::save)). Errors: [`Error::Io`] from `w`.
    pub fn save(&self, w: impl Write) -> Result<(), Error> {
        let header = Header {
            kind: Kind::VisitedMap,
            lines: self.lines.len(),
            params: [
                u64::from(self.payload_bits),
                WALK_LINES as u64,
                self.signature_comparisons(),
                0,
            ],
        };
        persist::save(w, header, &self.lines, |words| {
            persist::nonzero_slots(words, 64)
        })
    }

    /// Reads a map that [`save`](Self::save) wrote: its states, their payloads, `len()` and
    /// comparisons. Errors as [`VisitedSet::load`](crate::VisitedSet::load); never a panic, and
    /// never a map built from bytes that fail a check.
    pub fn load(r: impl Read) -> Result<Self, Error> {
        let (header, lines, count) =
            persist::load::<Line>(r, Kind::VisitedMap, HugePages::Advise, |w| {
                persist::nonzero_slots(w, 64)
            })?;
        let [bits, walk, comparisons, reserved] = header.params;
        let bits_ok = (1..=u64::from(MAX_PAYLOAD_BITS)).contains(&bits);
        if !bits_ok || walk != WALK_LINES as u64 || reserved != 0 {
            return Err(FileError::Invalid(format!(
                "a map with {bits} payload bits walking {walk} lines (reserved field \
                 {reserved}); this build reads 1 to {MAX_PAYLOAD_BITS} bits, a walk of \
                 {WALK_LINES} lines, reserved 0"
            ))
            .into());
        }
        let tally = Tally::new();
        tally.add([count, comparisons]);
        Ok(VisitedMap {
            lines,
            payload_bits: bits as u32,
            tally,
            intent: Intent::new(),
        })
    }
}

impl fmt::Debug for VisitedMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VisitedMap")
            .field("payload_bits", &self.payload_bits)
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .finish_non_exhaustive()
    }
}

/// Writes `value` into an empty word: `Err` with what it holds if it is not empty. `AcqRel`,
/// so a reader of the value sees what the writer did before.
#[cfg(not(searchcache_naive))]
#[inline]
fn claim(word: &AtomicU64, value: u64) -> Result<(), u64> {
    use crate::sync::Ordering::AcqRel;
    word.compare_exchange(0, value, AcqRel, Acquire).map(|_| ())
}

/// Sets `bits` in `word`; the word before.
#[cfg(not(searchcache_naive))]
#[inline]
fn or(word: &AtomicU64, bits: u64) -> u64 {
    word.fetch_or(bits, crate::sync::Ordering::AcqRel)
}

/// Replaces `current` by `next` in `word`: `Err` with the word now if it was not `current`.
#[cfg(not(searchcache_naive))]
#[inline]
fn swap(word: &AtomicU64, current: u64, next: u64) -> Result<(), u64> {
    use crate::sync::Ordering::AcqRel;
    word.compare_exchange(current, next, AcqRel, Acquire)
        .map(|_| ())
}

// TEST ONLY: `--cfg searchcache_naive` makes every write a load-then-store, which two racing
// threads can both win and in which one update can wipe another's bits, to prove that
// tests/loom.rs's map models detect a lost insert or a lost bit (.ci/run expects them to fail).
#[cfg(searchcache_naive)]
fn claim(word: &AtomicU64, value: u64) -> Result<(), u64> {
    match word.load(Acquire) {
        0 => {
            word.store(value, crate::sync::Ordering::Release);
            Ok(())
        }
        held => Err(held),
    }
}

#[cfg(searchcache_naive)]
fn or(word: &AtomicU64, bits: u64) -> u64 {
    let before = word.load(Acquire);
    word.store(before | bits, crate::sync::Ordering::Release);
    before
}

#[cfg(searchcache_naive)]
fn swap(word: &AtomicU64, current: u64, next: u64) -> Result<(), u64> {
    match word.load(Acquire) {
        now if now == current => {
            word.store(next, crate::sync::Ordering::Release);
            Ok(())
        }
        now => Err(now),
    }
}
