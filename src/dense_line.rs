//! A dense line: eight one-word entries in one 64-byte cache line, the one load and one store
//! of the entry protocol, and the scans of a key's entries (the words of its line, its half or
//! its slot, as `LineTable::locate_words` gives them): the probe's, and the store's choice.
//!
//! Each entry is one `AtomicU64` read with one relaxed load and written with one relaxed store,
//! so a reader sees a whole word that some store wrote (or zero): there is no torn pair, and
//! no check word to make one harmless. Two stores racing for one entry leave one of their two
//! words; two stores of one key racing for two empty entries leave the key twice, and a probe
//! takes the first (both are values stored for that key).

use crate::alloc::AtomicLine;
use crate::dense_word::{decode, generation_of, holds_tag};
use crate::pack::Pack64;
use crate::sync::{AtomicU64, Ordering::Relaxed};
use crate::victim::worth;
use std::hint::select_unpredictable;

/// Entries per dense line.
pub(crate) const DENSE_ENTRIES: usize = 8;

/// Eight entries, one word each.
pub(crate) type Line = AtomicLine<DENSE_ENTRIES>;

// One cache line of eight words: an entry is one word, never two.
#[cfg(not(any(loom, searchcache_loom)))]
const _: () = assert!(size_of::<Line>() == 64 && align_of::<Line>() == 64);

/// Entry `i` of `entries` (a line's words, or a key's part of them): one load.
#[inline(always)]
pub(crate) fn read(entries: &[AtomicU64], i: usize) -> u64 {
    entries[i].load(Relaxed)
}

/// Writes entry `i`: one store, so a reader sees the old word or the new one.
#[cfg(not(searchcache_naive))]
#[inline(always)]
pub(crate) fn write(entries: &[AtomicU64], i: usize, word: u64) {
    entries[i].store(word, Relaxed);
}

// TEST ONLY: `--cfg searchcache_naive` splits the write in two stores, the new tag over the
// old value first, so that a reader can see one key's tag on another's value; tests/loom.rs
// and tests/torture.rs must catch it (.ci/run expects them to fail).
#[cfg(searchcache_naive)]
pub(crate) fn write(entries: &[AtomicU64], i: usize, word: u64) {
    use crate::dense_word::TAG_FIELD;
    let old = entries[i].load(Relaxed);
    entries[i].store(word & TAG_FIELD | old & !TAG_FIELD, Relaxed);
    entries[i].store(word, Relaxed);
}

/// The first entry of `entries` whose tag is `tag`, and its word (0 if none: `tag` is never
/// 0, so an empty word never matches). Branch-free on table memory, as the wide table's scan
/// (`table::held`) and for the same reason; scanning backwards keeps the first match.
#[inline(always)]
pub(crate) fn held(entries: &[AtomicU64], tag: u64) -> (usize, u64) {
    let (mut at, mut found) = (0, 0);
    for i in (0..entries.len()).rev() {
        let word = read(entries, i);
        let holds = holds_tag(word, tag);
        at = select_unpredictable(holds, i, at);
        found = select_unpredictable(holds, word, found);
    }
    (at, found)
}

/// Where a store goes.
pub(crate) enum Choice {
    /// The entry holding the key, and its word.
    Held { slot: usize, word: u64 },
    /// No entry holds the key: the entry to overwrite, and whether it was occupied.
    Victim { slot: usize, evicts: bool },
}

/// The store's choice from one read of each entry: the first entry holding `tag`, else the
/// first empty entry, else the first of the entries whose `depth − AGE_WEIGHT · age` is
/// least (the rule of `victim`, ranked by its `worth`). The held entry is found with an exit at
/// the first match, not `held`'s selects: nothing waits on a store's result, and eight selects
/// kept every word live in registers (BENCHMARKS.md, "Stores, an exit at the first match").
/// The least is then found forwards with a strict `<` (the first of equals, as `victim`'s
/// backward `<=` finds it): `victim` itself, with the eight words live, kept its running least
/// on the stack and took 1.50-1.58× the wide table's store time, this scan 1.31-1.38×
/// (BENCHMARKS.md, "The tag in the low bits").
#[inline(always)]
pub(crate) fn choose<V: Pack64>(entries: &[AtomicU64], tag: u64, now: u8) -> Choice {
    let mut words = [0u64; DENSE_ENTRIES];
    let all = 0..entries.len().min(DENSE_ENTRIES);
    for i in all.clone() {
        words[i] = read(entries, i);
    }
    if let Some(slot) = all.clone().find(|&i| holds_tag(words[i], tag)) {
        return Choice::Held {
            slot,
            word: words[slot],
        };
    }
    let (mut slot, mut least) = (0, i64::MAX);
    for i in all {
        let word = words[i];
        let rank = worth(
            (word != 0).then(|| (decode::<V>(word), generation_of(word))),
            now,
        );
        let lower = rank < least;
        slot = select_unpredictable(lower, i, slot);
        least = select_unpredictable(lower, rank, least);
    }
    Choice::Victim {
        slot,
        evicts: least != i64::MIN,
    }
}
