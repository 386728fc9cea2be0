//! A bucket: one 64-byte cache line of four entries, and the lockless entry protocol.
//!
//! An entry is two words, `check = key ^ data` and `data`, each written and read with a relaxed
//! atomic access. Nothing orders the two: another thread may see the new `check` with the old
//! `data` (a torn pair). A reader therefore recomputes the key as `check ^ data` and accepts the
//! entry only if that equals the key it looks for; a torn pair yields `k_a ^ d_a ^ d_b`, which is
//! not the probed key unless `k ^ k_a == d_a ^ d_b`, a chance of about 2^-64 for mixed keys
//! (see `mix.rs`). This is Hyatt and Mann's lockless hashing (ICGA Journal 25(1), 2002).
//!
//! Relaxed atomics compile to plain loads and stores on x86-64 and aarch64; they are there so
//! that the race is defined behaviour in Rust, not for ordering. The XOR check is what makes a
//! probe consistent.

use crate::alloc::ZeroInit;
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

#[cfg(not(searchcache_loom))]
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

/// The check word written with `data` for `key`: `key ^ data`, so that the pair vouches for
/// both words at once.
#[cfg(not(searchcache_naive))]
#[inline]
fn check_word(key: u64, data: u64) -> u64 {
    key ^ data
}

/// The key a pair of words vouches for (the inverse of [`check_word`]).
#[cfg(not(searchcache_naive))]
#[inline]
fn key_of(check: u64, data: u64) -> u64 {
    check ^ data
}

// TEST ONLY: `--cfg searchcache_naive` swaps in a deliberately broken protocol (the check word
// is the bare key, so a torn pair of one entry's key and another's data passes), to prove that
// tests/loom.rs and tests/torture.rs detect a broken protocol (.ci/run expects them to fail).
#[cfg(searchcache_naive)]
fn check_word(key: u64, _data: u64) -> u64 {
    key
}

// TEST ONLY: see above.
#[cfg(searchcache_naive)]
fn key_of(check: u64, _data: u64) -> u64 {
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

    /// The key the two words vouch for (0 for an empty slot).
    #[inline]
    pub(crate) fn key(self) -> u64 {
        key_of(self.check, self.data)
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

    /// Writes entry `i`. Two independent stores: a reader may see either, both or neither.
    #[inline]
    pub(crate) fn write(&self, i: usize, key: u64, data: u64) {
        self.words[2 * i].store(check_word(key, data), Relaxed);
        self.words[2 * i + 1].store(data, Relaxed);
    }

    /// Empties every entry. Skips words that are already zero, so clearing a table whose pages
    /// were never touched does not make the kernel back them with memory.
    pub(crate) fn clear(&self) {
        for word in &self.words {
            if word.load(Relaxed) != 0 {
                word.store(0, Relaxed);
            }
        }
    }

    /// Writes to the bucket's page without changing it, so the OS commits the page now: a
    /// compare-and-swap of zero for zero (a locked write even when it fails). Not an add of zero:
    /// LLVM turns an idempotent read-modify-write into a plain load, which commits nothing. Never
    /// clobbers a racing store, unlike writing back a loaded value.
    pub(crate) fn touch(&self) {
        let _ = self.words[0].compare_exchange(0, 0, Relaxed, Relaxed);
    }
}
