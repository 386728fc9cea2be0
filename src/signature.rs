//! `Signature`: what a [`VisitedSet`](crate::VisitedSet) keeps of a state, and the cache line
//! that holds it.
//!
//! Hash compaction (Stern & Dill 1995) stores only a `b`-bit signature per state, in the slot
//! its index chose. Two widths are offered, both on 64-byte lines like [`crate::SearchCache`]:
//!
//! | `S`   | bits | slots per line | bytes per state |
//! |-------|------|----------------|-----------------|
//! | `u64` | 64   | 8              | 8               |
//! | `u32` | 32   | 16             | 4               |
//!
//! # The empty signature
//!
//! An all-zero slot means "empty", so no state may have signature 0. A state whose computed
//! signature is 0 gets [`Signature::ZERO_STAND_IN`] instead: that one value is then twice as
//! likely as any other, so two random states share a signature with probability
//! `(2^b + 2) / 2^(2b)` instead of `2^-b`, a relative cost of `2^(1-b)` (`5 · 10^-10` at 32 bits,
//! nothing measurable at 64): the table gives up far less than one bit.

use crate::alloc::AtomicLine;
use crate::sync::Ordering::{AcqRel, Acquire};
use std::fmt::Debug;
use std::hash::Hash;

/// A line of the set: eight 64-bit words, each holding one `u64` signature or two `u32` ones
/// (the low half is the even slot). One atomic type for both widths keeps loom and the
/// allocator to a single line type; a 32-bit slot is claimed by a CAS on its whole word.
pub(crate) type Line = AtomicLine<WORDS>;

/// Words per line.
const WORDS: usize = 8;

/// A signature width for [`VisitedSet`](crate::VisitedSet): `u64` (8 bytes per state, 8 per
/// 64-byte line) or `u32` (4 bytes per state, 16 per line). Sealed: no other type implements it.
///
/// A signature is taken from the 64-bit mixed signature hash: all of it for `u64`, its low 32
/// bits for `u32` (the line index comes from the *high* bits of the mixed index hash, so when a
/// caller passes one 64-bit key as both, the two still use different bits). A signature is never
/// 0: see the module docs on [`ZERO_STAND_IN`](Signature::ZERO_STAND_IN).
pub trait Signature: private::Sealed + Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Bits per signature: the `b` of the omission bounds in [`crate::omission`].
    const BITS: u32;
    /// Signatures per 64-byte line.
    const PER_LINE: usize = 512 / Self::BITS as usize;
    /// The signature used for a state whose signature bits are all zero (zero means "empty").
    const ZERO_STAND_IN: Self;

    /// The signature of a state whose mixed signature hash is `mixed`: never zero.
    fn from_mixed(mixed: u64) -> Self;

    /// The signature as a `u64` (zero-extended).
    fn to_u64(self) -> u64;
}

mod private {
    /// Seals [`super::Signature`]: the set's layout is the crate's business.
    pub trait Sealed {}
    impl Sealed for u64 {}
    impl Sealed for u32 {}
}

macro_rules! signature_width {
    ($int:ty, $stand_in:expr) => {
        impl Signature for $int {
            const BITS: u32 = <$int>::BITS;
            const ZERO_STAND_IN: Self = $stand_in;

            #[inline]
            fn from_mixed(mixed: u64) -> Self {
                // The low bits: `as` truncates.
                match mixed as $int {
                    0 => Self::ZERO_STAND_IN,
                    signature => signature,
                }
            }

            #[inline]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

// The stand-ins are the golden-ratio constants: any fixed non-zero value works.
signature_width!(u64, 0x9e37_79b9_7f4a_7c15);
signature_width!(u32, 0x9e37_79b9);

/// Where slot `i` of a line lives: its word, the shift of its bits, and their mask.
#[inline]
fn place<S: Signature>(i: usize) -> (usize, u32, u64) {
    let per_word = 64 / S::BITS as usize;
    let mask = u64::MAX >> (64 - S::BITS);
    (i / per_word, (i % per_word) as u32 * S::BITS, mask)
}

/// The signature in slot `i` of `line` (0 = empty), read with `Acquire`.
#[inline]
pub(crate) fn load<S: Signature>(line: &Line, i: usize) -> u64 {
    let (word, shift, mask) = place::<S>(i);
    line.0[word].load(Acquire) >> shift & mask
}

/// Writes `signature` (non-zero) into slot `i` of `line` if the slot is empty: `Ok` if it was,
/// else `Err` with what the slot holds.
///
/// A compare-and-swap of the slot's whole word, `AcqRel` on success and `Acquire` on failure, so
/// whoever later reads this signature sees what the writer did before. A CAS that fails only
/// because the *other* half of a shared word changed is retried; that half changes at most once
/// (empty to full), so this loops at most twice.
#[cfg(not(searchcache_naive))]
#[inline]
pub(crate) fn claim<S: Signature>(line: &Line, i: usize, signature: u64) -> Result<(), u64> {
    let (word, shift, mask) = place::<S>(i);
    let word = &line.0[word];
    let mut current = word.load(Acquire);
    loop {
        let held = current >> shift & mask;
        if held != 0 {
            return Err(held);
        }
        match word.compare_exchange(current, current | signature << shift, AcqRel, Acquire) {
            Ok(_) => return Ok(()),
            Err(now) => current = now,
        }
    }
}

// TEST ONLY: `--cfg searchcache_naive` swaps the CAS for a load-then-store, a deliberately
// broken claim that two racing threads can both win (and that can wipe the other half of a
// shared u32 word), to prove that tests/loom.rs and tests/set_torture.rs detect a lost insert
// (.ci/run expects the loom models to fail).
#[cfg(searchcache_naive)]
pub(crate) fn claim<S: Signature>(line: &Line, i: usize, signature: u64) -> Result<(), u64> {
    let (word, shift, mask) = place::<S>(i);
    let word = &line.0[word];
    let current = word.load(Acquire);
    match current >> shift & mask {
        0 => {
            word.store(current | signature << shift, crate::sync::Ordering::Release);
            Ok(())
        }
        held => Err(held),
    }
}

#[cfg(all(test, not(any(loom, searchcache_loom))))]
mod tests {
    use super::*;
    use crate::alloc::ZeroInit;

    #[test]
    fn lines_are_one_cache_line() {
        assert_eq!(size_of::<Line>(), 64);
        assert_eq!(align_of::<Line>(), 64);
        assert_eq!(u64::PER_LINE, 8);
        assert_eq!(u32::PER_LINE, 16);
    }

    #[test]
    fn zero_is_never_a_signature() {
        assert_eq!(u64::from_mixed(0), u64::ZERO_STAND_IN);
        assert_eq!(u32::from_mixed(0), u32::ZERO_STAND_IN);
        // u32 keeps the low half: a value with only high bits set is a zero signature too.
        assert_eq!(u32::from_mixed(0xffff_ffff_0000_0000), u32::ZERO_STAND_IN);
        assert_eq!(u32::from_mixed(0x1234_5678_9abc_def0), 0x9abc_def0);
        assert_eq!(u64::from_mixed(5), 5);
    }

    #[test]
    fn claim_only_fills_empty_slots_and_keeps_the_neighbour() {
        let line = Line::empty();
        // Slots 6 and 7 of a u32 line share word 3.
        assert_eq!(claim::<u32>(&line, 7, 0xaaaa_aaaa), Ok(()));
        assert_eq!(claim::<u32>(&line, 6, 0x5555_5555), Ok(()));
        assert_eq!(claim::<u32>(&line, 7, 9), Err(0xaaaa_aaaa));
        assert_eq!(load::<u32>(&line, 6), 0x5555_5555);
        assert_eq!(load::<u32>(&line, 7), 0xaaaa_aaaa);
        assert_eq!(load::<u32>(&line, 5), 0);
        assert_eq!(claim::<u64>(&line, 0, u64::MAX), Ok(()));
        assert_eq!(load::<u64>(&line, 0), u64::MAX);
        assert_eq!(load::<u64>(&line, 3), 0xaaaa_aaaa_5555_5555);
        crate::alloc::clear_words(&line.0);
        assert_eq!(load::<u32>(&line, 7), 0);
        assert_eq!(load::<u64>(&line, 0), 0);
    }
}
