//! `Bitstate`: SPIN's supertrace, an atomic bit array with `k` hash functions (a Bloom filter
//! shared by all threads) for state spaces too large for any set.
//!
//! A state sets `k` bits; it is `New` if at least one of them was clear. It costs `k` bits of
//! memory per state instead of 32 or 64, at the price of *missing* states: a new state whose bits
//! were all set by others is reported `Present` and never explored. The miss rate grows with the
//! fill; [`Bitstate::expected_miss_fraction`] estimates the fraction of the states offered that
//! were missed (Holzmann, "An Analysis of Bitstate Hashing", 1998;
//! [`crate::omission::bloom_miss`]). In a search, a missed state's successors are never offered
//! at all, so the fraction of the *reachable* states missed can be far larger: `tests/coverage.rs`
//! measures both on the Towers of Hanoi.
//!
//! The `k` positions come from two 64-bit hashes by double hashing, `g_i = a + i·b` (Kirsch and
//! Mitzenmacher, "Less Hashing, Same Performance: Building a Better Bloom Filter", 2006), each
//! mapped to a bit by multiply-shift. Bits are set with `fetch_or`, after a plain load shows them
//! clear (so re-visits of old states write nothing and keep their lines shared between cores).

use crate::alloc::{self, AtomicLine, HugePages, Region};
use crate::error::Error;
use crate::mix::{mix64, scale};
use crate::omission;
use crate::persist::{self, FileError, Header, Kind};
use crate::set::Inserted;
use crate::size::Size;
use crate::state_hash::StateHash;
use crate::sync::{AtomicU64, Intent, Ordering::Relaxed};
use crate::tally::Tally;
use std::fmt;
use std::io::{Read, Write};

/// Words per 64-byte line, bits per line.
const WORDS: usize = 8;
const LINE_BITS: usize = WORDS * 64;

/// The most hash functions a [`Bitstate`] uses; more are clamped to this. The miss rate is
/// least at `k = (m/n) ln 2`, which passes 32 only beyond 46 bits per state, where a
/// [`crate::CompactSet`] (32 bits per state, no Bloom losses) is the better store anyway.
pub const MAX_HASHES: u32 = 32;

/// SPIN's default number of hash functions in bitstate mode (`-k3`).
pub const DEFAULT_HASHES: u32 = 3;

/// A lockless bit array of `m` bits with `k` hash functions. See the module docs.
///
/// # Guarantees
///
/// * A state once inserted is always `Present` afterwards (bits are never cleared, until
///   [`clear`](Self::clear) with `&mut self`).
/// * `New` means the state was certainly not inserted before.
/// * Not guaranteed: that a new state is reported `New` (it may be missed, see
///   [`expected_miss_fraction`](Self::expected_miss_fraction)); nor, under races, that exactly
///   one of several threads inserting one state gets `New`: each may set a different one of its
///   bits first, and both explore it (a duplicate, never a loss).
///
/// # Example
///
/// ```
/// use searchcache::{Bitstate, Inserted, Size, StateHash};
///
/// let seen = Bitstate::new(Size::Mib(1), 3)?; // 8,388,608 bits
/// for s in 0..100_000u64 {
///     seen.insert(StateHash::of(&s));
/// }
/// assert_eq!(seen.insert(StateHash::of(&5u64)), Inserted::Present);
/// println!("expected missed: {:.2e}", seen.expected_miss_fraction());
/// # Ok::<(), searchcache::Error>(())
/// ```
pub struct Bitstate {
    lines: Region<AtomicLine<WORDS>>,
    hashes: u32,
    /// `count`: states stored (`New` results).
    tally: Tally<1>,
    /// Tells loom what each operation will do (`sync::Intent`); nothing outside loom.
    intent: Intent,
}

impl Bitstate {
    /// An array of `size` with `hashes` hash functions (clamped to `1..=`[`MAX_HASHES`]).
    /// `Size::Entries(n)` means `n` bits; bytes and MiB round down to whole 64-byte lines.
    ///
    /// Errors: a size below one line (512 bits), one that overflows the address space, or
    /// memory the OS refuses. Never panics.
    pub fn new(size: Size, hashes: u32) -> Result<Self, Error> {
        let lines = size.lines(64, LINE_BITS)?;
        Ok(Bitstate {
            lines: Region::zeroed(lines, HugePages::Advise)?,
            hashes: hashes.clamp(1, MAX_HASHES),
            tally: Tally::new(),
            intent: Intent::new(),
        })
    }

    /// The `hashes` bit positions of a state.
    #[inline]
    fn positions(&self, h: StateHash) -> impl Iterator<Item = (&AtomicU64, u64)> {
        let bits = self.bits();
        let a = mix64(h.index);
        // Odd step, and a constant folded in so that `index == signature` (one 64-bit key)
        // still gives a step unrelated to the start.
        let b = mix64(h.signature ^ 0x5851_f42d_4c95_7f2d) | 1;
        (0..self.hashes as u64).map(move |i| {
            let bit = scale(a.wrapping_add(i.wrapping_mul(b)), bits);
            let word = &self.lines[bit / LINE_BITS].0[bit % LINE_BITS / 64];
            (word, 1u64 << (bit % 64))
        })
    }

    /// Sets the state's bits: [`Inserted::New`] if any was clear, else [`Inserted::Present`]
    /// (which may be a new state that is missed: see the type's guarantees).
    #[inline]
    #[must_use = "whether the state is new decides whether to explore it"]
    pub fn insert(&self, h: StateHash) -> Inserted {
        self.intent.write();
        let mut new = false;
        for (word, mask) in self.positions(h) {
            if word.load(Relaxed) & mask == 0 && word.fetch_or(mask, Relaxed) & mask == 0 {
                new = true;
            }
        }
        if new {
            self.tally.add([1]);
            Inserted::New
        } else {
            Inserted::Present
        }
    }

    /// Whether all of the state's bits are set.
    #[inline]
    #[must_use]
    pub fn contains(&self, h: StateHash) -> bool {
        self.intent.read();
        self.positions(h)
            .all(|(word, mask)| word.load(Relaxed) & mask != 0)
    }

    /// Starts loading the `k` cache lines the state's bits live in (a hint, as
    /// [`crate::SearchCache::prefetch`]): call it when a successor is generated, insert it later.
    #[inline]
    pub fn prefetch(&self, h: StateHash) {
        for (word, _) in self.positions(h) {
            alloc::prefetch(word);
        }
    }

    /// States stored (`New` results); exact when no insert is running.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tally.total(0) as usize
    }

    /// Whether no state has been stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bits in the array (`m`).
    #[must_use]
    pub fn bits(&self) -> usize {
        self.lines.len() * LINE_BITS
    }

    /// Hash functions per state (`k`).
    #[must_use]
    pub fn hashes(&self) -> u32 {
        self.hashes
    }

    /// Bytes of memory: `bits / 8`.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.lines.len() * 64
    }

    /// Bits set, counted by reading the whole array (a scan of `memory_bytes()`; for reports).
    #[must_use]
    pub fn bits_set(&self) -> usize {
        self.lines
            .iter()
            .flat_map(|line| line.0.iter())
            .map(|w| w.load(Relaxed).count_ones() as usize)
            .sum()
    }

    /// The chance that the next new state is missed, at the current fill:
    /// [`omission::bloom_false_positive`] at the states offered so far, estimated from `len()`
    /// by [`omission::bloom_offered`].
    #[must_use]
    pub fn false_positive_rate(&self) -> f64 {
        let (bits, k) = (self.bits() as u64, self.hashes);
        let offered = omission::bloom_offered(self.len() as u64, bits, k);
        if offered.is_finite() {
            omission::bloom_false_positive(offered.round() as u64, bits, k)
        } else {
            1.0
        }
    }

    /// The expected fraction of the distinct states offered so far that were missed (reported
    /// `Present` although new), given that `len()` were stored: [`omission::bloom_miss`] at
    /// `N =` [`omission::bloom_offered`]`(len, bits, k)` states offered. 1 when the array is
    /// saturated.
    ///
    /// It counts only states that reached the array. In a search, everything behind a missed
    /// state is never generated, so the fraction of the *reachable* states missed is at least
    /// this and can be far larger: `1 −` this is an upper estimate of a search's coverage, not
    /// the coverage. Measured on Hanoi-12 in 1 MiB with k = 1 (`tests/coverage.rs`): this
    /// figure is 0.028 (coverage at most 97.2 %), the search covers 86.1 % of the states; with
    /// k = 3 in 128 KiB, 0.023 against a coverage of 35.8 %.
    #[must_use]
    pub fn expected_miss_fraction(&self) -> f64 {
        let (bits, k) = (self.bits() as u64, self.hashes);
        let offered = omission::bloom_offered(self.len() as u64, bits, k);
        if offered.is_finite() {
            omission::bloom_miss(offered.round() as u64, bits, k)
        } else {
            1.0
        }
    }

    /// Writes the array to `w` in the format of [`crate::persist`] (header, the bits as they lie
    /// in memory, a count of set bits and a CRC-32), streaming. See there for a save racing
    /// inserts. Errors: [`Error::Io`] from `w`.
    pub fn save(&self, w: impl Write) -> Result<(), Error> {
        let header = Header {
            kind: Kind::Bitstate,
            lines: self.lines.len(),
            params: [u64::from(self.hashes), self.len() as u64, 0, 0],
        };
        persist::save(w, header, &self.lines, set_bits)
    }

    /// Reads an array that [`save`](Self::save) wrote: its bits, `k` and `len()`. Reads
    /// exactly the saved bytes, no further.
    ///
    /// Errors: as [`crate::FingerprintSet::load`]; also a `k` outside `1..=MAX_HASHES`, or more
    /// states than set bits (each new state sets at least one bit).
    pub fn load(r: impl Read) -> Result<Self, Error> {
        let (header, lines, set) =
            persist::load::<AtomicLine<WORDS>>(r, Kind::Bitstate, HugePages::Advise, set_bits)?;
        let [hashes, stored, reserved @ ..] = header.params;
        if !(1..=u64::from(MAX_HASHES)).contains(&hashes) || stored > set || reserved != [0, 0] {
            return Err(FileError::Invalid(format!(
                "k = {hashes} and {stored} states in {set} set bits (reserved fields {reserved:?})"
            ))
            .into());
        }
        let tally = Tally::new();
        tally.add([stored]);
        Ok(Bitstate {
            lines,
            hashes: hashes as u32,
            tally,
            intent: Intent::new(),
        })
    }

    /// Clears every bit and the count (fresh zero pages when the OS gives them, else in place).
    pub fn clear(&mut self) {
        alloc::clear_lines(&mut self.lines);
        self.tally.reset();
    }
}

/// Set bits of a line.
fn set_bits(words: &[u64; 8]) -> u64 {
    words.iter().map(|w| u64::from(w.count_ones())).sum()
}

impl fmt::Debug for Bitstate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bitstate")
            .field("bits", &self.bits())
            .field("hashes", &self.hashes)
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}
