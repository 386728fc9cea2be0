//! `DenseCache`: the transposition table in the dense layout, eight one-word entries per line.

use crate::alloc;
use crate::dense_line::{self, choose, held, Choice, Line, DENSE_ENTRIES};
use crate::dense_word::{decode, encode, generation_of, restamp, tag16, tag_of, FitsDense};
use crate::line_table::{line_table_api, LineTable};
use crate::options::{FromOptions, Placement};
use crate::pack::{age, Pack64};
use crate::sync::{AtomicU64, Ordering::Relaxed};
use std::marker::PhantomData;

/// Lines sampled by `hashfull`: 125 lines are 1,000 entries.
const HASHFULL_SAMPLE_LINES: usize = 125;

/// A fixed-size, lossy, lockless hash table like [`SearchCache`](crate::SearchCache), in the
/// dense layout: eight entries of one 64-bit word per 64-byte line (a 16-bit key check, the
/// generation and 41 bits of value), twice the wide table's entries per MiB.
///
/// # When to pick it
///
/// Pick it when the table is under pressure (small `Hash`, long searches, many threads) and
/// the value fits in 41 bits: it keeps twice the entries in the same memory. Pick
/// [`SearchCache`](crate::SearchCache) when values need up to 56 bits, or when a false hit is
/// costly (the wide table checks 64 key bits, this one 16). BENCHMARKS.md, "Dense layout",
/// has the measurements.
///
/// Why a sibling type and not an option: the payload width is a property of the type, so a
/// value too wide for this layout is refused where the table is built, at compile time, and
/// the wide table's code and its guarantees stay exactly as they were. Both types take the
/// same [`Options`](crate::Options), [`Size`](crate::Size) and
/// [`Pack64`] values and have the same methods.
///
/// An engine that knows its keys are Zobrist hashes and wants Stockfish's 32-byte clusters
/// fixes [`Keys::Random`](crate::Keys::Random) and [`Slots::Half`](crate::Slots::Half) in the
/// type, `DenseCache<V, P>` with a [`Placement`](crate::Placement) `P`, built by
/// [`with_placement`](Self::with_placement): the probe then tests no option (0.94-1.05× a
/// hand-written Stockfish-style table's time at 1 GiB, where reading the options costs
/// 1.13-1.17×: BENCHMARKS.md, "The tag in the low bits").
///
/// # Guarantees
///
/// * **No torn entries.** Every entry is one atomic word, written by one store and read by one
///   load: a probe sees a whole word some store wrote. Racing stores can lose one another's
///   write, as in the wide table, but never mix two.
/// * **False hits, exactly.** A probe returns the value of the first entry of its line (of its
///   half, with [`Slots::Half`](crate::Slots::Half); its slot, with
///   [`Slots::Single`](crate::Slots::Single)) whose 16-bit tag equals the key's. The tag is the low 16
///   bits of the table's key (`mix64(key)`, or the key with [`Keys::Random`](crate::Keys::Random)), 0 counting as
///   1; the line comes from the high bits. So a probe of a key that is not stored returns
///   another key's value when a stored key of its line has the same tag: for random keys and
///   `e` occupied entries where the key may live, with probability `1 − (1 − p)^e ≤ e · p`, where
///   `p = (2^16 + 2) / 2^32 ≈ 2^-16` is the chance that two random keys share a tag (0 and 1
///   both give tag 1). A full line (`e = 8`) gives about `8 · 2^-16 ≈ 1.22 · 10^-4` per probe
///   of an absent key; [`Slots::Half`](crate::Slots::Half), `e = 4`, about `4 · 2^-16`;
///   [`Slots::Single`](crate::Slots::Single), `e = 1`, about `2^-16`. A test measures each.
///   Callers check what they read (a chess engine checks the move for legality).
/// * **Lossy**, **depth − `AGE_WEIGHT` · age** replacement, [`merge`](Pack64::merge),
///   generations modulo 128, `clear`, `prefault`, huge pages, `save`/`load` and errors instead
///   of aborts: as [`SearchCache`](crate::SearchCache).
/// * An empty entry never matches: a written word's tag is never 0.
/// * **`hashfull`** is the permille of the first 1,000 entries (125 lines) written in this
///   generation.
///
/// # Memory
///
/// 8 bytes per entry, 131,072 entries per MiB.
///
/// # Example
///
/// ```
/// use searchcache::{DenseCache, Size};
///
/// let table: DenseCache<u32> = DenseCache::new(Size::Mib(1))?;
/// assert_eq!(table.capacity(), 131_072);
/// table.store(0xDEAD_BEEF, 42);
/// assert_eq!(table.probe(0xDEAD_BEEF), Some(42));
/// # Ok::<(), searchcache::Error>(())
/// ```
///
/// A value wider than 41 bits does not compile:
///
/// ```compile_fail
/// use searchcache::{DenseCache, Pack64, Size};
///
/// #[derive(Clone, Copy)]
/// struct Wide(u64);
/// impl Pack64 for Wide {
///     const BITS: u32 = 42;
///     fn pack(self) -> u64 { self.0 }
///     fn unpack(bits: u64) -> Self { Wide(bits) }
/// }
/// let t = DenseCache::<Wide>::new(Size::Mib(1)); // error: evaluation of constant failed
/// ```
pub struct DenseCache<V: Pack64, P: Placement = FromOptions> {
    table: LineTable<Line, DENSE_ENTRIES, P>,
    _values: PhantomData<fn(V) -> V>,
}

line_table_api!(
    DenseCache,
    Line,
    DENSE_ENTRIES,
    "8",
    FitsDense,
    DenseCache,
    "5"
);

impl<V: Pack64, P: Placement> DenseCache<V, P> {
    /// The first matching entry of `key`'s entries: the entries, its index and its word (0:
    /// none).
    #[inline(always)]
    fn find(&self, key: u64) -> (&[AtomicU64], usize, u64) {
        self.table.locate_words(key, |entries, mixed| {
            let (at, word) = held(entries, tag16(mixed));
            (entries, at, word)
        })
    }

    /// The value stored for `key` (or for a key of the same line and tag), or `None`. See the
    /// type's Guarantees.
    #[inline]
    #[must_use = "a probe only reads the table: use its answer"]
    pub fn probe(&self, key: u64) -> Option<V> {
        self.table.intent.read();
        let (_, _, word) = self.find(key);
        let found = (word != 0).then(|| decode(word));
        self.table.counters.probe(found.is_some());
        found
    }

    /// [`probe`](Self::probe), and on a hit of an entry written in an earlier generation,
    /// rewrites it stamped with the current one (as
    /// [`SearchCache::probe_refresh`](crate::SearchCache::probe_refresh)).
    #[inline]
    #[must_use = "a probe's answer is what it is for"]
    pub fn probe_refresh(&self, key: u64) -> Option<V> {
        self.table.intent.write();
        let (entries, at, word) = self.find(key);
        self.table.counters.probe(word != 0);
        if word == 0 {
            return None;
        }
        let now = self.generation();
        if generation_of(word) != now {
            dense_line::write(entries, at, restamp(word, now));
        }
        Some(decode(word))
    }

    /// Stores `value` for `key`: in the entry holding the key's tag (where [`Pack64::merge`]
    /// decides), else an empty entry, else over the entry of least `depth − AGE_WEIGHT · age`
    /// (the first of equals).
    #[inline]
    pub fn store(&self, key: u64, value: V) {
        self.table.intent.write();
        let now = self.generation();
        let (entries, tag, choice) = self.table.locate_words(key, |entries, mixed| {
            let tag = tag16(mixed);
            (entries, tag, choose::<V>(entries, tag, now))
        });
        match choice {
            Choice::Held { slot, word } => {
                let old = decode(word);
                if let Some(merged) = value.merge(old, age(now, generation_of(word))) {
                    dense_line::write(entries, slot, encode(tag, merged, now));
                }
                self.table.counters.store(false);
            }
            Choice::Victim { slot, evicts } => {
                dense_line::write(entries, slot, encode(tag, value, now));
                self.table.counters.store(evicts);
            }
        }
    }

    /// Permille of entries written (stored or refreshed) in the current generation, over the
    /// first 125 lines (1,000 entries; the whole table when smaller), for UCI's `hashfull`.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        let now = self.generation();
        self.table.hashfull(HASHFULL_SAMPLE_LINES, |line, i| {
            let word = dense_line::read(&line.0, i);
            tag_of(word) != 0 && generation_of(word) == now
        })
    }

    /// Empties every entry, keeping the generation; as
    /// [`SearchCache::clear`](crate::SearchCache::clear) (mapped tables give their pages back).
    pub fn clear(&self) {
        self.table.clear(|line| alloc::clear_words(&line.0));
    }

    /// Makes the OS back the whole table with memory now; changes no entry (as
    /// [`SearchCache::prefault`](crate::SearchCache::prefault)).
    pub fn prefault(&self) {
        self.table.prefault(|line| {
            let _ = line.0[0].compare_exchange(0, 0, Relaxed, Relaxed);
        });
    }
}
