//! A bucket: one 64-byte cache line of four entries, and the lockless entry protocol.
//!
//! An entry is two words, `check = tag ^ data` and `data`, each written and read with a relaxed
//! atomic access, where `tag` is a bijection of the caller's key with `tag = 0` only for the key
//! whose mix is 0: with `Keys::Any`, the state of [`crate::mix64`] before its last
//! multiplication (`mix_head`; the table's key, `mix64(key)`, is `mix_tail` of it); with
//! `Keys::Random`, `key × TAG` ([`tag`], `TAG` odd). Nothing orders the two words: another
//! thread may see the new `check` with the old `data` (a torn pair). A reader computes the tag
//! once per probe and accepts an entry only if `check ^ data` equals it (Hyatt and Mann's
//! lockless hashing, ICGA Journal 25(1), 2002, with the key tagged).
//!
//! # Why the tag: the torn-read bound
//!
//! A torn pair holds store B's check word and store A's data word (both stores went to this
//! slot, so both keys are in this bucket). It vouches for the tag `t* = t_B ^ δ`,
//! `δ = d_A ^ d_B`, that is for one key `k*`, and a probe of key `k` is a false hit iff
//! `k = k*`. The probe reads this bucket only if `k` lies in it, so the chance per torn read is
//! P(`k*` in this bucket) × P(`k = k*` | both in it) ≈ P(`k*` in this bucket) · 2^-(64 − log2 n)
//! for `n` buckets.
//!
//! Without the tag (`check = key ^ data`, Hyatt and Mann's form), `k* = k_B ^ δ`; the two data
//! words agree in their high bits (occupied bit, generation), and the bucket index is the high
//! bits of the key, so `k*` was *always* in the writer's bucket: 2^-44 per torn read at 64 MiB,
//! 2^-40 at 1 GiB, not the 2^-64 documented.
//!
//! With the tag, `t_B ^ δ = t_B + ε` where `ε` is a sum of `±2^j` over the bits `j` of `δ`, and
//! the table's key that `t*` stands for has the high bits of `(t_B + ε) × M = t_B × M + ε × M`
//! (mod 2^64), where `t_B × M` has the high bits of the writer's own key: with `Keys::Random`,
//! `M = TAG⁻¹`, the golden-ratio constant of Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4), and
//! `t_B × M = k_B`; with `Keys::Any`, `M` is the mixer's last multiplier, and `mix_tail` keeps
//! the high 31 bits of that product as they are. The high bits of `ε × M` are a
//! multiplicative hash of `ε`, and `k*` lands in the writer's bucket only if it is within one
//! bucket's width of zero: about 1/n of the time over data differences (and never when the
//! lowest bit of `δ` is at or above the index's lowest bit, since then `|ε × M| ≥ 2^64/n`).
//! The product is ≈ 1/n · 2^-(64 − log2 n) = 2^-64 per torn read, as documented. "About 1/n"
//! is a statement about the multiplicative hash, not a proof for every data set; the unit test
//! `torn_pairs_vouch_for_keys_outside_the_writers_bucket` (table.rs) constructs 10^5 torn pairs
//! the way the table writes them, for both `Keys` modes and for random and structured values,
//! and checks the count against 1/n (BENCHMARKS.md, "The torn-read tag", has the count
//! without the tag).
//!
//! Why a tag of the key and not a mix of the data word: the tag is computed once per probe from
//! the key, before the line arrives (with `Keys::Any` it is a value the mixer computes anyway;
//! with `Keys::Random` one multiplication), where mixing the data would cost a mix per entry
//! read, four per probe, after the load. The tag is a bijection, so distinct keys keep distinct
//! tags, and an empty entry (both words 0) still vouches only for the key whose mix is 0 (see
//! `table::held`). BENCHMARKS.md has the cost, paired against the untagged protocol.
//!
//! Relaxed atomics compile to plain loads and stores on x86-64 and aarch64; they are there so
//! that the race is defined behaviour in Rust, not for ordering. The XOR check is what makes a
//! probe consistent.

use crate::alloc::{Words, ZeroInit};
use crate::pack::OCCUPIED;
use crate::sync::{AtomicU64, Ordering::Relaxed};

/// Entries per bucket: a 64-byte line holds four 16-byte entries. Four is what one cache miss
/// buys; the other three compares cost a few instructions on a line already in L1.
pub(crate) const ENTRIES: usize = 4;

/// One cache line: `[check0 data0][check1 data1][check2 data2][check3 data3]`.
#[repr(C, align(64))]
pub(crate) struct Bucket {
    words: [AtomicU64; 2 * ENTRIES],
}

#[cfg(not(any(loom, searchcache_loom)))]
const _: () = assert!(size_of::<Bucket>() == 64 && align_of::<Bucket>() == 64);

// SAFETY: a bucket is eight `AtomicU64`s, for which zero bytes are the valid value `new(0)`; it
// has no drop glue.
unsafe impl ZeroInit for Bucket {
    fn empty() -> Self {
        Bucket {
            words: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }
}

/// The odd multiplier of [`tag`]: the inverse modulo 2^64 of the golden-ratio constant
/// [`UNTAG`], so that a torn pair's vouched key moves by a Fibonacci hash of the data difference
/// (module docs).
const TAG: u64 = 0xf1de_83e1_9937_733d;

/// `TAG⁻¹ (mod 2^64)`: ⌊2^64 / φ⌋ rounded to odd, the multiplier of Fibonacci hashing.
#[cfg(all(test, not(any(loom, searchcache_loom))))]
pub(crate) const UNTAG: u64 = 0x9e37_79b9_7f4a_7c15;

/// What an entry for `key` (the table's key: mixed, or the caller's random key) is checked
/// against: `key × TAG`, a bijection with `tag(0) = 0`.
#[inline(always)]
pub(crate) const fn tag(key: u64) -> u64 {
    key.wrapping_mul(TAG)
}

/// The check word written with `data` for a key of tag `tag`: `tag ^ data`, so that the pair
/// vouches for both words at once.
#[cfg(not(searchcache_naive))]
#[inline]
fn check_word(tag: u64, data: u64) -> u64 {
    tag ^ data
}

/// The tag a pair of words vouches for (the inverse of [`check_word`]).
#[cfg(not(searchcache_naive))]
#[inline]
fn tag_of(check: u64, data: u64) -> u64 {
    check ^ data
}

// TEST ONLY: `--cfg searchcache_naive` swaps in a deliberately broken protocol (the check word
// is the bare tag, so a torn pair of one entry's key and another's data passes), to prove that
// tests/loom.rs and tests/torture.rs detect a broken protocol (.ci/run expects them to fail).
#[cfg(searchcache_naive)]
fn check_word(tag: u64, _data: u64) -> u64 {
    tag
}

// TEST ONLY: see above.
#[cfg(searchcache_naive)]
fn tag_of(check: u64, _data: u64) -> u64 {
    check
}

/// What a slot held when it was read: both words, as one thread saw them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(crate) check: u64,
    pub(crate) data: u64,
}

impl Slot {
    /// Whether the slot has ever been written (an empty slot's data word is zero; a written
    /// one always has `OCCUPIED` set).
    #[inline]
    pub(crate) fn is_occupied(self) -> bool {
        self.data & OCCUPIED != 0
    }

    /// The tag the two words vouch for (0 for an empty slot).
    #[inline]
    pub(crate) fn tag(self) -> u64 {
        tag_of(self.check, self.data)
    }
}

impl Bucket {
    /// Reads entry `i` (data word first: an empty slot is recognised without the second load).
    #[inline]
    pub(crate) fn read(&self, i: usize) -> Slot {
        let data = self.words[2 * i + 1].load(Relaxed);
        let check = self.words[2 * i].load(Relaxed);
        Slot { check, data }
    }

    /// Writes entry `i` for the key whose [`tag`] is `tag`. Two independent stores: a reader
    /// may see either, both or neither.
    #[inline]
    pub(crate) fn write(&self, i: usize, tag: u64, data: u64) {
        self.words[2 * i].store(check_word(tag, data), Relaxed);
        self.words[2 * i + 1].store(data, Relaxed);
    }

    /// Empties every entry. Skips words that are already zero, so clearing a table whose pages
    /// were never touched does not make the kernel back them with memory.
    pub(crate) fn clear(&self) {
        crate::alloc::clear_words(&self.words);
    }

    /// Writes to the bucket's page without changing it, so the OS commits the page now: a
    /// compare-and-swap of zero for zero (a locked write even when it fails). Not an add of zero:
    /// LLVM turns an idempotent read-modify-write into a plain load, which commits nothing. Never
    /// clobbers a racing store, unlike writing back a loaded value.
    pub(crate) fn touch(&self) {
        let _ = self.words[0].compare_exchange(0, 0, Relaxed, Relaxed);
    }
}

impl Words for Bucket {
    fn load_words(&self) -> [u64; 8] {
        crate::alloc::load_all(&self.words)
    }

    fn store_words(&self, words: &[u64; 8]) {
        crate::alloc::store_nonzero(&self.words, words);
    }
}
