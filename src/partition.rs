//! Which of `n` owners (processes, workers, shards) a state belongs to, from its [`StateHash`],
//! for a search that splits its visited states over several sets.

use crate::mix::mix64;
use crate::StateHash;

/// The owner in `0..owners` of the state with hash `hash`: `(low32(mix64(index)) · owners) >> 32`.
///
/// Each owner keeps its own [`VisitedSet`](crate::VisitedSet) or [`Bitstate`](crate::Bitstate),
/// so the owner must be chosen from bits those structures do not use; otherwise every state an
/// owner receives would share its line bits (it would fill `1/owners` of its lines and report
/// `Full` early) or its signature bits (less entropy per stored signature, a larger omission).
///
/// * Lines: a set's line is `⌊mix64(index) · lines / 2^64⌋`, the high bits of the mixed index;
///   the owner reads its low 32 bits. For a power-of-two line count up to 2^32 the two are
///   functions of disjoint bits of one uniformly distributed word, so they are independent; for
///   other counts the low bits move a line by at most one, for a fraction below `lines / 2^32`
///   of the states.
/// * Signatures: the signature is a separate 64-bit hash that the owner never reads, so its bits
///   keep their full entropy within each owner (as independent of the index as the two halves
///   of the [`StateHash`] are).
/// * Bitstate: its first bit is the high bits of `mix64(index)`, and each further bit adds a
///   step from the signature, so within one owner every bit position stays uniform.
///
/// `tests/partition.rs` checks the first two (the lines through a real set, and the signature
/// bits), and that a partition on the line's own bits fails those checks.
///
/// Portable: the result depends on `hash` and `owners` only (a fixed bijection, a multiply and
/// a shift), so with [`StateHash::portable`] processes of different builds, compilers and
/// machines agree on every state's owner. Not promised: anything when `owners` is 0 (the result
/// is then 0, as for one owner) or above 2^32 (owners beyond 2^32 receive nothing).
///
/// ```
/// use searchcache::{owner, StateHash};
///
/// let hash = StateHash::portable(b"some state");
/// let who = owner(hash, 3);
/// assert!(who < 3);
/// assert_eq!(who, owner(StateHash::portable(b"some state"), 3));
/// ```
#[inline]
#[must_use]
pub const fn owner(hash: StateHash, owners: usize) -> usize {
    let low = mix64(hash.index) as u32 as u64;
    let owners = if owners == 0 { 1 } else { owners as u64 };
    ((low as u128 * owners as u128) >> 32) as usize
}
