//! `VisitedSet`: the lockless visited-state set of an explicit-state model checker, by hash
//! compaction on the cache-line layout of [`crate::SearchCache`].
//!
//! # Layout and walk
//!
//! The table is an array of 64-byte lines of signatures ([`Signature`]: 8 × `u64` or 16 × `u32`).
//! A state's home line is `scale(mix64(index), lines)`, the multiply-shift of the core table.
//! An insert scans the home line's slots in order, then up to [`WALK_LINES`] following lines
//! (wrapping at the end of the table): it stops at its own signature (`Present`) or at the first
//! empty slot, which it claims with a compare-and-swap (`New`). Slots are only ever changed from
//! empty to a signature (until `clear`, which needs `&mut self`), which gives:
//!
//! * **Once found, always found.** Every slot before a state's slot in its walk was occupied by
//!   another signature when the state was inserted, and stays so; a later insert or `contains`
//!   of the state walks the same slots and reaches it.
//! * **Exactly one `New`.** Two threads inserting one state walk the same slots. The one whose
//!   CAS succeeds reports `New`; the other either reads the signature in that slot, or loses the
//!   CAS on it and re-reads the winner's value, and reports `Present`. A CAS lost to a *different*
//!   signature moves on to the next slot.
//! * **Happens-before.** The CAS is `AcqRel` and every read `Acquire`: whatever the thread that
//!   got `New` did before the insert is visible to any thread that then gets `Present` or a true
//!   `contains` for that state.
//!
//! # Why key-only (no value bits)
//!
//! A slot is all signature: every bit taken for data would double the omission probability
//! (a 64-bit slot with 8 data bits is a 56-bit signature, 256 times the bound). A checker that
//! needs counterexample traces keeps them beside the set, as TLC does: each worker appends
//! `(state fingerprint, parent fingerprint)` to a log when an insert returns `New` (16 bytes per
//! state, on disk or in a `Vec` per thread, written sequentially). To print a trace to a bad
//! state, follow parent fingerprints back to an initial state, then replay forwards from that
//! initial state, at each step generating the successors and keeping the one whose fingerprint
//! is the next on the chain: the full states are recomputed, never stored. A BFS checker that
//! only needs depths can keep one level counter instead.

use crate::alloc::{self, HugePages, Region};
use crate::error::{Error, GrowRefused};
use crate::mix::{mix64, scale};
use crate::omission;
use crate::persist::{self, FileError, Header, Kind};
use crate::rehash::rehash;
use crate::signature::{self, Line, Signature};
use crate::size::Size;
use crate::state_hash::StateHash;
use crate::sync::Intent;
use crate::tally::Tally;

use std::fmt;
use std::io::{Read, Write};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// The file kind of a set of `S` signatures.
fn kind<S: Signature>() -> Kind {
    if S::BITS == 64 {
        Kind::FingerprintSet
    } else {
        Kind::CompactSet
    }
}

/// [`Tally`] totals of a set: states inserted, signature comparisons those inserts made.
const STATES: usize = 0;
const COMPARISONS: usize = 1;

/// The fourth header parameter of a saved set: 1 when the set holds states and every one was
/// inserted with `index == signature` (so [`VisitedSet::grow`] can place it), else 0.
const KEYED: u64 = 1;

/// How many lines a walk covers in a set of `lines` lines: the home line and up to
/// [`WALK_LINES`] more, each line of the set at most once.
pub(crate) fn walk_lines(lines: usize) -> usize {
    WALK_LINES.min(lines - 1) + 1
}

/// Lines scanned after the home line before an insert gives up with [`Full`].
///
/// Linear probing by lines keeps a walk sequential (the hardware prefetcher streams the next
/// lines), but near full load its clusters get long, and the longest grows with the table (like
/// `log n`). Measured with random states, the load at which the first `Full` came:
///
/// | walk bound (lines) | 2^20 slots | 2^24 slots | 2^26 slots |
/// |--------------------|------------|------------|------------|
/// | 32, `u64`          | 0.780      | 0.754      |            |
/// | 256, `u64`         | 0.937      | 0.922      |            |
/// | 1024, `u64`        | 0.973      | 0.964      | 0.960      |
/// | 1024, `u32`        | 0.986      | 0.976      | 0.970      |
///
/// With 1024, each 4× larger table lost 0.002 to 0.005: at that rate the first `Full` reaches
/// [`MAX_LOAD`] only past 2^50 slots. The worst insert reads 64 KiB sequentially
/// (microseconds), and only inserts into the longest clusters, or into a full table, do.
pub const WALK_LINES: usize = 1024;

/// The load factor [`VisitedSet::with_expected_states`] sizes for, and [`Full`]'s advice uses.
pub const MAX_LOAD: f64 = 0.9;

/// What an insert found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inserted {
    /// The state was not in the set and now is: explore it. Of several threads inserting the
    /// same state at once, exactly one gets `New` (for [`VisitedSet`]).
    New,
    /// The state's signature was already there: a state seen before, or (rarely; see
    /// [`crate::omission`]) a new state whose signature matched another's.
    Present,
}

impl Inserted {
    /// Whether this is [`Inserted::New`].
    #[must_use]
    pub fn is_new(self) -> bool {
        self == Inserted::New
    }
}

/// A [`VisitedSet`] had no free slot within the walk of a new state: the state was **not**
/// inserted, and the set cannot take more states like it.
///
/// The model has more states than the set was sized for; its `Display` says how large a set to
/// build for the next run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full {
    states: usize,
    capacity: usize,
    bytes_per_state: usize,
    lines: usize,
}

impl Full {
    /// A full walk: `states` in `capacity` slots of `bytes_per_state`, `lines` searched.
    pub(crate) fn new(
        states: usize,
        capacity: usize,
        bytes_per_state: usize,
        lines: usize,
    ) -> Self {
        Full {
            states,
            capacity,
            bytes_per_state,
            lines,
        }
    }

    /// States in the set when the insert failed.
    #[must_use]
    pub fn states(&self) -> usize {
        self.states
    }

    /// Slots in the set.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Lines the failed insert searched: the new state's home line and up to [`WALK_LINES`]
    /// after it (all of the set's lines, when it has no more than that).
    #[must_use]
    pub fn lines_searched(&self) -> usize {
        self.lines
    }

    /// `states / capacity`.
    #[must_use]
    pub fn load_factor(&self) -> f64 {
        self.states as f64 / self.capacity as f64
    }

    /// Bytes of table memory a set sized for `states` takes (at [`MAX_LOAD`]), rounded up to
    /// whole 64-byte lines, for the signature width of the set that was full.
    #[must_use]
    pub fn bytes_for(&self, states: usize) -> usize {
        let slots = slots_for(states).unwrap_or(usize::MAX);
        let per_line = 64 / self.bytes_per_state;
        slots.div_ceil(per_line).saturating_mul(64)
    }
}

impl fmt::Display for Full {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let twice = self.states.saturating_mul(2);
        write!(
            f,
            "visited-state set is full: {} states in {} slots (load factor {:.3}, {} bytes at {} \
             bytes per state), no free slot in the {} line(s) searched from a new state's home \
             line. The model has more than {} states; a set for N states needs N / {} slots: for twice the states \
             so far, VisitedSet::with_expected_states({}) takes {} bytes",
            self.states,
            self.capacity,
            self.load_factor(),
            self.capacity * self.bytes_per_state,
            self.bytes_per_state,
            self.lines,
            self.states,
            MAX_LOAD,
            twice,
            self.bytes_for(twice),
        )?;
        if self.load_factor() < 0.5 {
            write!(
                f,
                ". The load is low for a full table: the states' index hashes are not spread \
                 (check that StateHash::index differs between states)"
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Full {}

/// Slots for `states` at [`MAX_LOAD`] (`⌈states · 10/9⌉`), or `None` on overflow.
pub(crate) fn slots_for(states: usize) -> Option<usize> {
    states.checked_add(states.div_ceil(9))
}

/// A fixed-size, lockless set of states by hash compaction: each state is a `b`-bit signature
/// (`S = u64`: 8 bytes per state; `S = u32`: 4 bytes) in a slot chosen by an independent index
/// hash. See the module docs for the layout and the guarantees.
///
/// # Guarantees
///
/// * An inserted state is never lost or overwritten: a later [`insert`](Self::insert) of it
///   returns `Present` and [`contains`](Self::contains) returns true.
/// * Of any number of threads inserting one state, exactly one gets [`Inserted::New`].
/// * A full walk is an error, [`Full`], never a dropped state and never a panic.
/// * Not guaranteed: that two *different* states are told apart. A new state whose signature
///   equals that of a state it is compared with is reported `Present` (an omission); bound the
///   chance with [`omission_probability`](Self::omission_probability).
///
/// # Example
///
/// ```
/// use searchcache::{FingerprintSet, Inserted, StateHash};
///
/// let seen = FingerprintSet::with_expected_states(1000)?;
/// let state = (3u8, [1u16, 2, 3]);
/// assert_eq!(seen.insert(StateHash::of(&state)), Ok(Inserted::New));
/// assert_eq!(seen.insert(StateHash::of(&state)), Ok(Inserted::Present));
/// assert_eq!(seen.len(), 1);
/// println!("P(omission) <= {:e}", seen.omission_probability());
/// # Ok::<(), searchcache::Error>(())
/// ```
pub struct VisitedSet<S: Signature> {
    lines: Region<Line>,
    _signature: PhantomData<S>,
    /// Totals: [`STATES`] inserted (`New`), and the signature [`COMPARISONS`] they made.
    tally: Tally<2>,
    /// Tells loom what each operation will do (`sync::Intent`); nothing outside loom.
    intent: Intent,
    /// Whether every `New` insert so far had `index == signature` ([`StateHash::from_u64`]
    /// keys): then each slot says where it belongs in a larger table. Cleared at most once
    /// (checked before it is written, so threads share its line read-only); `Relaxed`, since
    /// only [`grow`](Self::grow) reads it for a decision, and it holds `&mut self`.
    keyed: AtomicBool,
}

/// 64-bit signatures, 8 bytes per state, 8 per line: TLC's fingerprint set.
pub type FingerprintSet = VisitedSet<u64>;

/// 32-bit signatures, 4 bytes per state, 16 per line: half the memory, with an omission bound
/// 2^32 times larger (fine up to some 10^6–10^7 states; check the bound).
pub type CompactSet = VisitedSet<u32>;

impl<S: Signature> VisitedSet<S> {
    /// A set of `size`: bytes round down to whole 64-byte lines, entries (states) round up.
    ///
    /// Errors: a size below one line, one that overflows the address space, or memory the OS
    /// refuses. Never panics or aborts. Tables of 2 MiB and more are mapped lazily and asked for
    /// transparent huge pages.
    pub fn new(size: Size) -> Result<Self, Error> {
        let lines = size.lines(64, S::PER_LINE)?;
        Ok(VisitedSet {
            lines: Region::zeroed(lines, HugePages::Advise)?,
            _signature: PhantomData,
            tally: Tally::new(),
            intent: Intent::new(),
            keyed: AtomicBool::new(true),
        })
    }

    /// A set with room for `states` states at a load factor of at most [`MAX_LOAD`].
    ///
    /// Errors: as [`new`](Self::new) (0 states still makes one line), except that a count
    /// whose set overflows the address space is [`Error::TooManyStates`], naming `states`.
    pub fn with_expected_states(states: usize) -> Result<Self, Error> {
        let too_many = Error::TooManyStates { states };
        let slots = slots_for(states).ok_or(too_many.clone())?;
        Self::new(Size::Entries(slots.max(1))).map_err(|e| match e {
            Error::TooLarge { .. } => too_many,
            e => e,
        })
    }

    /// The home line of a state and its signature.
    #[inline]
    fn locate(&self, h: StateHash) -> (usize, u64) {
        (
            scale(mix64(h.index), self.lines.len()),
            S::from_mixed(mix64(h.signature)).to_u64(),
        )
    }

    /// How many lines a walk covers: the home line and up to [`WALK_LINES`] more, each line
    /// of the set at most once.
    #[inline]
    fn walk_lines(&self) -> usize {
        walk_lines(self.lines.len())
    }

    /// The lines an insert may use, home line first.
    #[inline]
    fn walk(&self, home: usize) -> impl Iterator<Item = &Line> {
        let n = self.lines.len();
        (0..self.walk_lines()).map(move |j| {
            let i = home + j;
            &self.lines[if i >= n { i - n } else { i }]
        })
    }

    /// Inserts a state: [`Inserted::New`] if it was not in the set, [`Inserted::Present`] if its
    /// signature was found, or [`Full`] if neither its signature nor an empty slot is within its
    /// walk (the state is then not inserted). Lock-free: one CAS per new state (with `u32`
    /// signatures, two when the other half of the slot's 64-bit word is filled at that moment).
    #[inline]
    pub fn insert(&self, h: StateHash) -> Result<Inserted, Full> {
        self.intent.write();
        let (home, signature) = self.locate(h);
        let mut compared = 0u64;
        for line in self.walk(home) {
            for i in 0..S::PER_LINE {
                let mut seen = signature::load::<S>(line, i);
                if seen == 0 {
                    match signature::claim::<S>(line, i, signature) {
                        Ok(()) => {
                            self.tally.add([1, compared]);
                            if h.index != h.signature && self.keyed.load(Relaxed) {
                                self.keyed.store(false, Relaxed);
                            }
                            return Ok(Inserted::New);
                        }
                        // Another thread filled the slot first, maybe with this very state.
                        Err(winner) => seen = winner,
                    }
                }
                if seen == signature {
                    return Ok(Inserted::Present);
                }
                compared += 1;
            }
        }
        Err(Full {
            states: self.len(),
            capacity: self.capacity(),
            bytes_per_state: size_of::<S>(),
            lines: self.walk_lines(),
        })
    }

    /// Whether the state's signature is in the set (its walk reaches it before an empty slot).
    #[inline]
    #[must_use]
    pub fn contains(&self, h: StateHash) -> bool {
        self.intent.read();
        let (home, signature) = self.locate(h);
        for line in self.walk(home) {
            for i in 0..S::PER_LINE {
                let seen = signature::load::<S>(line, i);
                if seen == signature {
                    return true;
                }
                if seen == 0 {
                    return false;
                }
            }
        }
        false
    }

    /// Starts loading the state's home line into the cache (a hint; see
    /// [`crate::SearchCache::prefetch`]). Call it when a successor is generated, insert it later.
    #[inline]
    pub fn prefetch(&self, h: StateHash) {
        alloc::prefetch(&self.lines[self.locate(h).0]);
    }

    /// States inserted (`New` results). Exact when no insert is running; during inserts, a value
    /// between the counts at the start and at the end of the call.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tally.total(STATES) as usize
    }

    /// Whether no state has been inserted (with the caveat of [`len`](Self::len)).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Slots: `S::PER_LINE` per 64-byte line.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.lines.len() * S::PER_LINE
    }

    /// `len() / capacity()`.
    #[must_use]
    pub fn load_factor(&self) -> f64 {
        self.len() as f64 / self.capacity() as f64
    }

    /// Bytes of table memory: 64 per line, `size_of::<S>()` per slot. (Pages never touched are
    /// never committed by the OS, so a sparse large set costs less resident memory.)
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.lines.len() * 64
    }

    /// Signature comparisons with occupied slots made by the inserts that returned `New`: the
    /// `E` of Stern and Dill's bound, counted for this run rather than computed for uniform
    /// hashing.
    #[must_use]
    pub fn signature_comparisons(&self) -> u64 {
        self.tally.total(COMPARISONS)
    }

    /// An upper bound on the probability that this run omitted a state (reported `Present` for
    /// a new state whose signature matched another's): Stern and Dill's `E / 2^b` with `E` the
    /// comparisons this set actually made ([`signature_comparisons`](Self::signature_comparisons)),
    /// `b = S::BITS`. Assumes the index and signature hashes are independent and random; see
    /// [`crate::omission`] for the source and [`crate::omission::stern_dill`] for the uniform
    /// hashing figure. With [`StateHash::from_u64`] keys in a `FingerprintSet`, distinct keys are
    /// never confused (but for one fixed pair, see there), and the relevant figure is instead
    /// [`crate::omission::birthday`]`(len, 64)`, the chance that your keys collide.
    #[must_use]
    pub fn omission_probability(&self) -> f64 {
        (self.signature_comparisons() as f64 * 0.5f64.powi(S::BITS as i32)).min(1.0)
    }

    /// Stern and Dill's bound for uniform hashing at this set's `len()` and `capacity()`
    /// ([`crate::omission::stern_dill`]), for comparison with published figures.
    #[must_use]
    pub fn uniform_hashing_bound(&self) -> f64 {
        omission::stern_dill(self.len() as u64, self.capacity() as u64, S::BITS)
    }

    /// Writes the set to `w` in the format of [`crate::persist`] (a 64-byte header, the lines
    /// as they lie in memory, a count and a CRC-32), streaming: no copy of the set is made. See
    /// there for what a save racing inserts writes. Errors: [`Error::Io`] from `w`.
    pub fn save(&self, w: impl Write) -> Result<(), Error> {
        let header = Header {
            kind: kind::<S>(),
            lines: self.lines.len(),
            params: [
                u64::from(S::BITS),
                WALK_LINES as u64,
                self.signature_comparisons(),
                if self.is_empty() || !self.keyed.load(Relaxed) {
                    0
                } else {
                    KEYED
                },
            ],
        };
        persist::save(w, header, &self.lines, |words| {
            persist::nonzero_slots(words, S::BITS)
        })
    }

    /// Reads a set that [`save`](Self::save) wrote, of the same signature width: its states,
    /// `len()` (the occupied slots) and [`signature_comparisons`](Self::signature_comparisons).
    /// Reads exactly the saved bytes, no further.
    ///
    /// Errors: [`Error::File`] for a file that is not such a set (another kind, another format
    /// version, a short input, a checksum that does not match), [`Error::Io`] from `r`,
    /// [`Error::AllocationFailed`] for memory the OS refuses. Never a panic, and never a set
    /// built from bytes that fail a check.
    pub fn load(r: impl Read) -> Result<Self, Error> {
        let bits = S::BITS;
        let (header, lines, count) =
            persist::load::<Line>(r, kind::<S>(), HugePages::Advise, |w| {
                persist::nonzero_slots(w, bits)
            })?;
        let [width, walk, comparisons, keyed] = header.params;
        // A keyed mark on an empty set is refused: it would not save back to the same bytes.
        let keyed_ok = keyed == 0 || (keyed == KEYED && count > 0);
        if width != u64::from(bits) || walk != WALK_LINES as u64 || !keyed_ok {
            return Err(FileError::Invalid(format!(
                "a set of {width}-bit signatures walking {walk} lines (keyed field {keyed}, \
                 {count} states); this build's walk is {WALK_LINES} lines, its keyed field 0, \
                 or 1 for a set of states"
            ))
            .into());
        }
        let tally = Tally::new();
        tally.add([count, comparisons]);
        Ok(VisitedSet {
            lines,
            _signature: PhantomData,
            tally,
            intent: Intent::new(),
            keyed: AtomicBool::new(keyed == KEYED || count == 0),
        })
    }

    /// Empties the set. Large sets get fresh zero pages from the OS (cheap, and it returns
    /// their memory); if that allocation fails, the slots are zeroed in place instead.
    pub fn clear(&mut self) {
        alloc::clear_lines(&mut self.lines);
        self.tally.reset();
        *self.keyed.get_mut() = true;
    }

    /// Moves the set into a larger table of `size` (rounded as in [`new`](Self::new)),
    /// rehashing every stored signature to its line there: afterwards every state that was in
    /// the set still is (`insert` returns `Present`, `contains` true), `len()` is unchanged
    /// (no state is stored twice), and new states go into the larger table, so a `Full` that
    /// the old size would have hit may not come. A move of all the slots: one read of the
    /// old table and one random write per state (BENCHMARKS.md has the time), with both tables
    /// allocated at the peak.
    ///
    /// `&mut self`: no insert or lookup can run while it does, so there is no race inside it
    /// and no atomic protocol beyond the CAS claims of a table only this thread sees (hence no
    /// loom model of its own). A BFS checker calls it between levels.
    ///
    /// Only a [`FingerprintSet`] whose every state came from [`StateHash::from_u64`] keys (index
    /// equal to signature) can grow when it holds states: its slots keep `mix64(key)`, from
    /// which the line in a table of any size follows. Any other set's slots keep no bit of
    /// the index that chose their line, so they cannot be moved without losing states, and
    /// `grow` refuses them ([`GrowRefused`]). An empty set of either width always grows. The
    /// one caveat of a keyed set is the pair of keys that share
    /// [`Signature::ZERO_STAND_IN`] (see [`StateHash::from_u64`]): in a table of under about
    /// 2,700 lines (168 KiB) the one that is not key 0 may be reported `New` once more after
    /// the grow, a state explored twice, never one lost.
    ///
    /// [`signature_comparisons`](Self::signature_comparisons) keeps the comparisons made
    /// before the grow (they are the chances of an omission this run has had; the move itself
    /// compares no new state) and adds those of later inserts; the omission bound therefore
    /// still covers the whole run. [`uniform_hashing_bound`](Self::uniform_hashing_bound) is
    /// computed at the new capacity.
    ///
    /// Errors, each leaving the set exactly as it was: [`Error::Grow`] for a size with no more
    /// lines than the set has ([`GrowRefused::NotLarger`]; equal is refused, not a no-op), a
    /// set that cannot be moved (above), or a walk with no free slot in the new table; the
    /// errors of [`new`](Self::new) for the size itself, [`Error::AllocationFailed`] included.
    pub fn grow(&mut self, size: Size) -> Result<(), Error> {
        let asked = size.lines(64, S::PER_LINE)?;
        let lines = self.lines.len();
        if asked <= lines {
            return Err(Error::Grow(GrowRefused::NotLarger { lines, asked }));
        }
        if !self.is_empty() && S::BITS != 64 {
            return Err(Error::Grow(GrowRefused::CompactSignatures));
        }
        if !self.is_empty() && !*self.keyed.get_mut() {
            return Err(Error::Grow(GrowRefused::IndependentIndex));
        }
        let fresh = Region::zeroed(asked, HugePages::Advise)?;
        if !rehash::<S>(&self.lines, &fresh, walk_lines) {
            return Err(Error::Grow(GrowRefused::Full));
        }
        self.lines = fresh;
        Ok(())
    }
}

impl<S: Signature> fmt::Debug for VisitedSet<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VisitedSet")
            .field("signature_bits", &S::BITS)
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(any(loom, searchcache_loom))))]
mod tests {
    use super::*;

    /// Pearson's chi-square of `counts` against a uniform spread.
    fn chi_square(counts: &[u64]) -> f64 {
        let expected = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    /// `StateHash::owner` is independent of what the sets use: the states one of 4 owners gets
    /// are a quarter of all, spread uniformly over the 1,024 lines of a `FingerprintSet` and of
    /// a `CompactSet`, and their signatures keep every bit at one half (and the top byte of the
    /// 32-bit signature uniform), for `of`, `portable` and `from_u64` hashes. Bounds are six
    /// standard deviations: chi-square with `d` degrees of freedom has mean `d` and deviation
    /// `√(2d)`; a bit count over `m` states has deviation `√m / 2`.
    #[test]
    fn one_owners_states_fill_every_line_and_keep_signature_entropy() {
        const STATES: u64 = 400_000;
        const OWNERS: usize = 4;
        let wide = FingerprintSet::new(Size::Entries(8 * 1024)).unwrap();
        let compact = CompactSet::new(Size::Entries(16 * 1024)).unwrap();
        assert_eq!((wide.lines.len(), compact.lines.len()), (1024, 1024));
        let chi_bound = |d: f64| d + 6.0 * (2.0 * d).sqrt();
        type Hasher = fn(u64) -> StateHash;
        let hashes: [(&str, Hasher); 3] = [
            ("of", |i| StateHash::of(&i)),
            ("portable", |i| StateHash::portable(&i.to_le_bytes())),
            ("from_u64", StateHash::from_u64),
        ];
        for (name, hash) in hashes {
            let mut owners = [0u64; 7];
            for i in 0..STATES {
                owners[hash(i).owner(7)] += 1;
            }
            assert!(
                chi_square(&owners) < chi_bound(6.0),
                "{name}: owners {owners:?}"
            );
            let mine: Vec<StateHash> = (0..STATES)
                .map(hash)
                .filter(|h| h.owner(OWNERS) == 1)
                .collect();
            let m = mine.len() as f64;
            let quarter = STATES as f64 / 4.0;
            assert!(
                (m - quarter).abs() < 6.0 * (quarter * 0.75).sqrt(),
                "{name}: {m}"
            );
            let mut lines = [vec![0u64; 1024], vec![0u64; 1024]];
            let mut top_byte = [0u64; 256];
            let mut ones = [[0u64; 64], [0u64; 64]];
            for &h in &mine {
                let (line, signature) = wide.locate(h);
                lines[0][line] += 1;
                for (bit, count) in ones[0].iter_mut().enumerate() {
                    *count += signature >> bit & 1;
                }
                let (line, signature) = compact.locate(h);
                lines[1][line] += 1;
                top_byte[(signature >> 24) as usize] += 1;
                for (bit, count) in ones[1].iter_mut().take(32).enumerate() {
                    *count += signature >> bit & 1;
                }
            }
            for (set, counts) in ["FingerprintSet", "CompactSet"].iter().zip(&lines) {
                let x2 = chi_square(counts);
                assert!(
                    x2 < chi_bound(1023.0),
                    "{name}, {set}: lines chi-square {x2:.0}"
                );
            }
            let x2 = chi_square(&top_byte);
            assert!(
                x2 < chi_bound(255.0),
                "{name}: u32 top byte chi-square {x2:.0}"
            );
            for (width, counts) in [(64, &ones[0]), (32, &ones[1])] {
                for (bit, &count) in counts.iter().take(width).enumerate() {
                    let off = (count as f64 - m / 2.0).abs();
                    assert!(
                        off < 3.0 * m.sqrt(),
                        "{name}, u{width} bit {bit}: {count} of {m}"
                    );
                }
            }
        }
        assert_eq!(StateHash::from_u64(1).owner(0), 0);
        assert_eq!(StateHash::from_u64(1).owner(1), 0);
    }
}
