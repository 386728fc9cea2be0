//! A hand-written table in the crate's dense layout (issue 29): eight one-word entries per
//! 64-byte line, each a 16-bit tag in the low bits (the key's low 16 bits, 0 counting as 1;
//! the line comes from the high bits), a 7-bit generation and 41 bits of value on top, written
//! plainly: no options and no generic machinery beyond `Pack64`. Beside `DenseCache` it separates what the crate's
//! code costs from what the layout costs: the same entries, scanned the same way, in the code
//! an engine author would write for them.
//!
//! The probe scans all eight entries branch-free (conditional moves), the faster of the two
//! scans an author would try (an exit at the first match mispredicts on most hits; BENCHMARKS.md
//! measured both). The replacement rule is the crate's: the entry holding the key's tag (the
//! value's `merge` decides), else an empty one, else the least `depth − 8 · age`.

use searchcache::Pack64;
use std::hint::select_unpredictable;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

const ENTRIES: usize = 8;
/// The generation's place: above the 16-bit tag.
const GENERATION_SHIFT: u32 = 16;
/// The payload's place: the top 41 bits.
const PAYLOAD_SHIFT: u32 = 23;
const GENERATION_MASK: u8 = 127;

/// The hand-written dense table: `[AtomicU64; 8]` lines, relaxed loads and stores.
pub struct HandDense<V> {
    lines: Vec<[AtomicU64; ENTRIES]>,
    generation: AtomicU8,
    _values: std::marker::PhantomData<fn(V) -> V>,
}

impl<V: Pack64> HandDense<V> {
    /// A table of `bytes` (at least one line) on 2 MiB pages if `huge`, else on 4 KiB pages;
    /// an error when the memory cannot be had.
    pub fn new(bytes: usize, huge: bool) -> Result<Self, String> {
        let n = (bytes / 64).max(1);
        Ok(HandDense {
            lines: crate::pages::advised_vec(n, huge, Default::default)?,
            generation: AtomicU8::new(0),
            _values: std::marker::PhantomData,
        })
    }

    /// Entries when full: eight per line.
    pub fn capacity(&self) -> usize {
        ENTRIES * self.lines.len()
    }

    #[inline(always)]
    fn line(&self, key: u64) -> (&[AtomicU64; ENTRIES], u64) {
        let i = ((u128::from(key) * self.lines.len() as u128) >> 64) as usize;
        (&self.lines[i], (key & 0xffff).max(1))
    }

    /// The value of the last entry of `key`'s line with `key`'s tag, or `None`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<V> {
        let (line, tag) = self.line(key);
        let mut found = 0;
        for entry in line {
            let word = entry.load(Relaxed);
            found = select_unpredictable(word as u16 == tag as u16, word, found);
        }
        (found != 0).then(|| V::unpack(found >> PAYLOAD_SHIFT))
    }

    /// Stores `value` for `key` by the crate's replacement rule.
    #[inline]
    pub fn store(&self, key: u64, value: V) {
        let (line, tag) = self.line(key);
        let now = self.generation.load(Relaxed) & GENERATION_MASK;
        let words: [u64; ENTRIES] = std::array::from_fn(|i| line[i].load(Relaxed));
        let (slot, to_write) = match words.iter().position(|&w| w as u16 == tag as u16) {
            Some(i) => {
                match value.merge(V::unpack(words[i] >> PAYLOAD_SHIFT), age(now, words[i])) {
                    Some(merged) => (i, merged),
                    None => return,
                }
            }
            None => (victim::<V>(&words, now), value),
        };
        let word = to_write.pack() << PAYLOAD_SHIFT | u64::from(now) << GENERATION_SHIFT | tag;
        line[slot].store(word, Relaxed);
    }

    /// Starts a new search: entries written before age by one.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Empties every entry.
    pub fn clear(&self) {
        self.lines
            .iter()
            .flatten()
            .for_each(|w| w.store(0, Relaxed));
    }
}

fn age(now: u8, word: u64) -> u8 {
    now.wrapping_sub((word >> GENERATION_SHIFT) as u8 & GENERATION_MASK) & GENERATION_MASK
}

/// The first empty entry, else the first of least `depth − AGE_WEIGHT · age`.
fn victim<V: Pack64>(words: &[u64; ENTRIES], now: u8) -> usize {
    let worth = |w: u64| {
        if w == 0 {
            i64::MIN
        } else {
            let depth = V::unpack(w >> PAYLOAD_SHIFT).depth();
            i64::from(depth) - i64::from(V::AGE_WEIGHT) * i64::from(age(now, w))
        }
    };
    (0..ENTRIES).min_by_key(|&i| worth(words[i])).unwrap_or(0)
}
