//! A cluster line: six Stockfish-style entries in one 64-byte cache line, and their protocol.
//!
//! ```text
//!  bytes 0..48   data[0..6]:   six 64-bit data words, the wide table's (`pack.rs`):
//!                              occupied bit, 7-bit generation, 56 payload bits
//!  bytes 48..60  check[0..6]:  six 16-bit check words, `tag ^ fold(data)`
//!  bytes 60..64  two 16-bit words, always zero
//! ```
//!
//! An entry is ten bytes, as Stockfish's (a 16-bit key check and 64 bits of data), written
//! with two relaxed stores (data, then check) and read with two relaxed loads. Nothing orders
//! the two: a reader may see the check of one store with the data of another (a torn pair).
//! The check depends on the data, as the wide layout's XOR check does, so a torn pair passes
//! for the probed key only when the two data words fold to the same 16 bits, or the keys'
//! tags make up for the difference; `cluster.rs` states the rate.
//!
//! `tag` is the dense layout's 16-bit tag of the table's key (`dense_word::tag16`: its low 16
//! bits, 0 read as 1, the index using the high bits). `fold(0) = 0`, so an empty entry (both
//! words 0) vouches for tag 0, which no key has: an empty entry never matches.

use crate::alloc::{Words, ZeroInit};
use crate::dense_line::Choice;
use crate::pack::{decode, generation_of, Pack64, OCCUPIED};
use crate::sync::{AtomicU16, AtomicU64, Ordering::Relaxed};
use crate::victim::victim;
use std::hint::select_unpredictable;
use std::ops::Range;

/// Entries per cluster line: six.
#[cfg(not(searchcache_loom))]
pub(crate) const CLUSTER_ENTRIES: usize = 6;

/// Entries per cluster line in this crate's own loom models (`--cfg searchcache_loom`, not a
/// downstream crate's `--cfg loom`): three, so that each scan is 6 loom atomics and not 12.
/// The models explore as many executions either way (loads of entries no other thread writes
/// add none), but each execution costs less: 11.6 s against 16.7-23.2 s for the same 207,381
/// executions of `cluster_same_key_writers` (BENCHMARKS.md, "The cluster layout").
/// Nothing of the protocol depends on the width: an entry is its own two words, written and
/// read alone; a scan looks at each entry once, in order; the store's choice is the shared
/// victim rule over what it read. Three is the fewest entries in which every model still has
/// its cases: the entry two writers fight over, an entry holding another key that must stay
/// (and whose check a torn pair could pass for), and two entries of equal worth (the first of
/// equals).
#[cfg(searchcache_loom)]
pub(crate) const CLUSTER_ENTRIES: usize = 3;

/// Check words in a line: six used (three under `searchcache_loom`), the rest always zero, so
/// that the line is 64 bytes of atomics.
const CHECK_WORDS: usize = 8;

/// Six data words, then eight 16-bit check words (the last two unused).
#[repr(C, align(64))]
pub(crate) struct ClusterLine {
    data: [AtomicU64; CLUSTER_ENTRIES],
    checks: [AtomicU16; CHECK_WORDS],
}

#[cfg(not(any(loom, searchcache_loom)))]
const _: () = assert!(size_of::<ClusterLine>() == 64 && align_of::<ClusterLine>() == 64);

// SAFETY: a cluster line is `AtomicU64`s and `AtomicU16`s, for which zero bytes are the valid
// value `new(0)`; it has no drop glue.
unsafe impl ZeroInit for ClusterLine {
    fn empty() -> Self {
        ClusterLine {
            data: std::array::from_fn(|_| AtomicU64::new(0)),
            checks: std::array::from_fn(|_| AtomicU16::new(0)),
        }
    }
}

/// The multiplier of [`fold`]: odd, the golden-ratio constant of Fibonacci hashing.
#[cfg_attr(searchcache_naive, allow(dead_code))]
const FOLD: u64 = 0x9e37_79b9_7f4a_7c15;

/// 16 bits of `data` that depend on every one of its bits: the top 16 bits of `data × FOLD`.
/// Two data words that differ only at or above bit 48 always fold apart (their products
/// differ only there); others fold alike about once in 2^16. `fold(0) = 0`.
#[cfg_attr(searchcache_naive, allow(dead_code))]
#[inline(always)]
pub(crate) fn fold(data: u64) -> u64 {
    data.wrapping_mul(FOLD) >> 48
}

/// The check word written with `data` for a key of tag `tag`.
#[cfg(not(searchcache_naive))]
#[inline(always)]
pub(crate) fn check_of(tag: u64, data: u64) -> u64 {
    tag ^ fold(data)
}

// TEST ONLY: `--cfg searchcache_naive` makes the check the bare tag, independent of the data,
// so that a torn pair of one key's check and another's data passes; the cluster models of
// tests/loom.rs must catch it (.ci/run expects every loom model to fail).
#[cfg(searchcache_naive)]
pub(crate) fn check_of(tag: u64, _data: u64) -> u64 {
    tag
}

/// What one read of entry `i` saw: its check and its data word.
#[inline(always)]
pub(crate) fn read(line: &ClusterLine, i: usize) -> (u64, u64) {
    let data = line.data[i].load(Relaxed);
    let check = u64::from(line.checks[i].load(Relaxed));
    (check, data)
}

/// Writes entry `i` for a key of tag `tag`: two independent stores, so a reader may see
/// either, both or neither.
#[inline(always)]
pub(crate) fn write(line: &ClusterLine, i: usize, tag: u64, data: u64) {
    line.data[i].store(data, Relaxed);
    line.checks[i].store(check_of(tag, data) as u16, Relaxed);
}

/// Whether an entry read as `(check, data)` vouches for `tag`.
#[inline(always)]
pub(crate) fn vouches(check: u64, data: u64, tag: u64) -> bool {
    check == check_of(tag, data)
}

/// Empties every entry, skipping zero words (pages never written stay uncommitted).
pub(crate) fn clear(line: &ClusterLine) {
    crate::alloc::clear_words(&line.data);
    for check in &line.checks {
        if check.load(Relaxed) != 0 {
            check.store(0, Relaxed);
        }
    }
}

/// Writes to the line's page without changing it (as `Bucket::touch`).
pub(crate) fn touch(line: &ClusterLine) {
    let _ = line.data[0].compare_exchange(0, 0, Relaxed, Relaxed);
}

/// The first entry of `entries` that vouches for `tag`, and its data word (0 if none).
/// Branch-free on table memory and backwards, as the other layouts' scans (`table::held`).
#[inline(always)]
pub(crate) fn held(
    entries: Range<usize>,
    tag: u64,
    read: impl Fn(usize) -> (u64, u64),
) -> (usize, u64) {
    let (mut at, mut found) = (entries.start, 0);
    for i in entries.rev() {
        let (check, data) = read(i);
        let holds = vouches(check, data, tag);
        at = select_unpredictable(holds, i, at);
        found = select_unpredictable(holds, data, found);
    }
    (at, found)
}

/// The store's choice from one read of each entry, by the rule of the other layouts: the
/// first entry vouching for `tag` (with a written data word), else the first empty entry,
/// else the first of least `depth − AGE_WEIGHT · age` ([`victim`]).
#[inline(always)]
pub(crate) fn choose<V: Pack64>(
    line: &ClusterLine,
    entries: Range<usize>,
    tag: u64,
    now: u8,
) -> Choice {
    let mut seen = [(0u64, 0u64); CLUSTER_ENTRIES];
    for i in entries.clone() {
        seen[i] = read(line, i);
    }
    let (slot, word) = held(entries.clone(), tag, |i| seen[i]);
    if word & OCCUPIED != 0 {
        return Choice::Held { slot, word };
    }
    let (slot, evicts) = victim::<V>(entries, now, |i| {
        let data = seen[i].1;
        (data & OCCUPIED != 0).then(|| (decode(data), generation_of(data)))
    });
    Choice::Victim { slot, evicts }
}

/// A line streams as its six data words, then the eight checks packed four to a word, the
/// first in the low bits: the line's bytes as they lie in memory on a little-endian machine.
impl Words for ClusterLine {
    fn load_words(&self) -> [u64; 8] {
        let mut words = [0; 8];
        for (i, d) in self.data.iter().enumerate() {
            words[i] = d.load(Relaxed);
        }
        for (i, c) in self.checks.iter().enumerate() {
            words[CLUSTER_ENTRIES + i / 4] |= u64::from(c.load(Relaxed)) << (16 * (i % 4));
        }
        words
    }

    fn store_words(&self, words: &[u64; 8]) {
        for (d, &w) in self.data.iter().zip(words) {
            if w != 0 {
                d.store(w, Relaxed);
            }
        }
        for (i, c) in self.checks.iter().enumerate() {
            let part = (words[CLUSTER_ENTRIES + i / 4] >> (16 * (i % 4))) as u16;
            if part != 0 {
                c.store(part, Relaxed);
            }
        }
    }
}

/// Occupied entries of a line's words, as [`Words::load_words`] gives them (data words with
/// `OCCUPIED`): the count a file's trailer holds.
pub(crate) fn occupied(words: &[u64; 8]) -> u64 {
    words[..CLUSTER_ENTRIES]
        .iter()
        .filter(|&&d| d & OCCUPIED != 0)
        .count() as u64
}

#[cfg(all(test, not(any(loom, searchcache_loom))))]
mod tests {
    use super::*;
    use crate::dense_word::tag16;
    use crate::mix::mix64;
    use crate::pack::encode;

    /// A value of all 56 payload bits.
    #[derive(Clone, Copy)]
    struct Raw(u64);

    impl Pack64 for Raw {
        fn pack(self) -> u64 {
            self.0
        }
        fn unpack(bits: u64) -> Self {
            Raw(bits)
        }
    }

    /// Torn pairs as a cluster table makes them: store B's check (key b) over store A's data
    /// (another key's, another value). Counts the pairs that vouch for b (a probe of b would
    /// return A's data) and for a third key c of the same line: about `2^-16` of the pairs
    /// (Poisson bounds λ ± 6√λ) for random values, at most that for structured ones (a
    /// counter's neighbours), with generations alike or not.
    #[test]
    fn torn_pairs_pass_about_once_in_2_to_the_16() {
        const PAIRS: u64 = 2_000_000;
        for structured in [false, true] {
            let (mut for_b, mut for_c) = (0u64, 0u64);
            for i in 0..PAIRS {
                let (b, c) = (mix64(3 * i + 1), mix64(3 * i + 2));
                let (va, vb) = if structured {
                    (i & 0xff_ffff, (i & 0xff_ffff) + 1 + (i >> 24 & 7))
                } else {
                    (mix64(i ^ 0x55) >> 8, mix64(i ^ 0xaa) >> 8)
                };
                let (ga, gb) = ((i % 128) as u8, (i / 3 % 128) as u8);
                let (da, db) = (encode(Raw(va), ga), encode(Raw(vb), gb));
                let check_b = check_of(tag16(b), db);
                for_b += u64::from(vouches(check_b, da, tag16(b)));
                for_c += u64::from(vouches(check_b, da, tag16(c)) && tag16(c) != tag16(b));
            }
            let lambda = PAIRS as f64 / 65536.0;
            let bounds = lambda - 6.0 * lambda.sqrt()..=lambda + 6.0 * lambda.sqrt();
            // Structured neighbours fold apart more often than random words (a small
            // difference times FOLD moves the top bits), so for b only the upper bound holds.
            let b_ok = if structured {
                for_b as f64 <= *bounds.end()
            } else {
                bounds.contains(&(for_b as f64))
            };
            assert!(
                b_ok,
                "structured {structured}: {for_b} pairs vouch for b, expected {lambda:.1}"
            );
            assert!(
                bounds.contains(&(for_c as f64)),
                "structured {structured}: {for_c} pairs vouch for c, expected {lambda:.1}"
            );
        }
    }

    /// Data words that differ only in the generation (bits 56..63) always fold apart: a torn
    /// pair of one value written in two generations never passes.
    #[test]
    fn a_generation_alone_always_changes_the_fold() {
        for v in [0u64, 1, 0xdead_beef, (1 << 56) - 1] {
            for g in 0..128u8 {
                for h in (0..128u8).filter(|&h| h != g) {
                    let (dg, dh) = (encode(Raw(v), g), encode(Raw(v), h));
                    assert_ne!(fold(dg), fold(dh), "value {v:#x}, generations {g} {h}");
                }
            }
        }
    }

    /// An empty entry vouches for no key: its check and its data are 0, and no tag is 0.
    #[test]
    fn an_empty_entry_vouches_for_no_tag() {
        let line = ClusterLine::empty();
        for tag in 1..=0xffff {
            assert_eq!(held(0..CLUSTER_ENTRIES, tag, |i| read(&line, i)).1, 0);
        }
    }

    /// A line's words stream out and back to the same line, checks and all.
    #[test]
    fn lines_stream_as_eight_words() {
        let line = ClusterLine::empty();
        for i in 0..CLUSTER_ENTRIES {
            write(&line, i, 0x1000 + i as u64, encode(Raw(i as u64 * 77), 3));
        }
        let words = line.load_words();
        assert_eq!(occupied(&words), 6);
        let copy = ClusterLine::empty();
        copy.store_words(&words);
        for i in 0..CLUSTER_ENTRIES {
            assert_eq!(read(&copy, i), read(&line, i));
        }
        assert_eq!(words[7] >> 32, 0, "the two unused checks stay zero");
    }
}
