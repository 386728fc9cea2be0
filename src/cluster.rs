//! `ClusterCache`: the transposition table in Stockfish's shape, six ten-byte entries per line.

use crate::cluster_line::{self, choose, held, ClusterLine, CLUSTER_ENTRIES};
use crate::dense_line::Choice;
use crate::dense_word::tag16;
use crate::line_table::{line_table_api, LineTable};
use crate::options::{FromOptions, Placement};
use crate::pack::{age, decode, encode, generation_of, restamp, Fits, Pack64, OCCUPIED};
use std::marker::PhantomData;

/// Lines sampled by `hashfull`: 167 lines are 1,002 entries.
const HASHFULL_SAMPLE_LINES: usize = 167;

/// A fixed-size, lossy, lockless hash table like [`SearchCache`](crate::SearchCache), in
/// Stockfish's cluster layout: six entries per 64-byte line, each a 64-bit data word (the
/// wide table's: the generation and the full 56 payload bits, so every value `SearchCache`
/// takes fits) and a 16-bit check, 1.5 times the wide table's entries per MiB.
///
/// # When to pick it
///
/// Pick it over [`SearchCache`](crate::SearchCache) when the table is under pressure (small
/// `Hash`, long searches, many threads) and the caller checks what it reads (a chess engine
/// checks the move for legality): 1.5× the entries, the same 56-bit values. Pick
/// [`DenseCache`](crate::DenseCache) when the value fits 41 bits: 2× the entries and no torn
/// entry at all. Pick `SearchCache` when a false hit is costly: it checks 64 key bits.
/// BENCHMARKS.md, "The cluster layout", has the measurements.
///
/// A sibling type, as `DenseCache`, for the same reasons: the layout is a property of the
/// type, and the other tables' code and guarantees stay as they were. All three take the same
/// [`Options`](crate::Options), [`Size`](crate::Size) and
/// [`Pack64`] values and have the same methods.
///
/// # Guarantees
///
/// * **False hits, stated.** An entry is matched on a 16-bit check: the key's tag (the low 16
///   bits of the table's key, `mix64(key)` or the key itself with [`Keys::Random`](crate::Keys::Random), 0 read as
///   1; the line comes from the high bits) XOR a 16-bit fold of the entry's data word. A
///   probe returns the data of the first entry of its line (of its half, with
///   [`Slots::Half`](crate::Slots::Half); its slot, with
///   [`Slots::Single`](crate::Slots::Single)) that vouches for the key's tag. For a key not in the table, with
///   random keys and `e` occupied entries where the key may live, a false hit has probability
///   `1 − (1 − p)^e ≤ e · p`, `p = (2^16 + 2) / 2^32 ≈ 2^-16`: about `6 · 2^-16 ≈ 9.2 · 10^-5`
///   per probe of an absent key in a full line; [`Slots::Half`](crate::Slots::Half), `e = 3`,
///   about `3 · 2^-16`; [`Slots::Single`](crate::Slots::Single), `e = 1`, about `2^-16`.
///   A test measures each.
/// * **Torn reads.** Data and check are two stores; a reader racing a writer of the same
///   entry may see the check of one store and the data of another. Such a torn pair vouches
///   for the tag `t_B ^ fold(d_B) ^ fold(d_A)` (check of store B, data of store A). A probe
///   of B's key takes A's data only if the two data words fold alike, which happens for about
///   `2^-16` of the pairs of data words, and never when they differ only in the generation
///   (bits 56..63). A probe of any other key of the line takes it with about the same chance
///   as a false hit. So per probe: `e · 2^-16`, plus about `2^-16` per torn read (a torn read
///   needs a store to the same entry at the same moment). Any other torn pair reads as a
///   miss. A test constructs torn pairs and counts them.
///   Callers check what they read (a chess engine checks the move for legality).
/// * **Lossy**, **depth − `AGE_WEIGHT` · age** replacement, [`merge`](Pack64::merge),
///   generations modulo 128, `clear`, `prefault`, huge pages, `save`/`load` and errors instead
///   of aborts: as [`SearchCache`](crate::SearchCache).
/// * An empty entry never matches: it vouches for tag 0, which no key has.
/// * **`hashfull`** is the permille of the first 1,002 entries (167 lines) written in this
///   generation.
///
/// # Memory
///
/// 64 bytes per six entries (10 bytes each, 4 bytes of a line unused): 98,304 entries per
/// MiB, 1.5 times [`SearchCache`](crate::SearchCache)'s 65,536.
///
/// # Example
///
/// ```
/// use searchcache::{ClusterCache, Pack64, Size};
///
/// /// A value of all 56 payload bits: what the wide table takes, and `DenseCache` does not.
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// struct Wide(u64);
/// impl Pack64 for Wide {
///     fn pack(self) -> u64 { self.0 }
///     fn unpack(bits: u64) -> Self { Wide(bits) }
/// }
///
/// let table: ClusterCache<Wide> = ClusterCache::new(Size::Mib(1))?;
/// assert_eq!(table.capacity(), 98_304);
/// table.store(0xDEAD_BEEF, Wide((1 << 56) - 1));
/// assert_eq!(table.probe(0xDEAD_BEEF), Some(Wide((1 << 56) - 1)));
/// # Ok::<(), searchcache::Error>(())
/// ```
pub struct ClusterCache<V: Pack64, P: Placement = FromOptions> {
    table: LineTable<ClusterLine, CLUSTER_ENTRIES, P>,
    _values: PhantomData<fn(V) -> V>,
}

line_table_api!(
    ClusterCache,
    ClusterLine,
    CLUSTER_ENTRIES,
    "6",
    Fits,
    ClusterCache,
    "7"
);

impl<V: Pack64, P: Placement> ClusterCache<V, P> {
    /// The first entry of `key`'s line vouching for its tag: line, index, data word (without
    /// `OCCUPIED`: none) and tag.
    #[inline(always)]
    fn find(&self, key: u64) -> (&ClusterLine, usize, u64, u64) {
        self.table.locate(key, |line, e, mixed| {
            let tag = tag16(mixed);
            let (at, data) = held(e, tag, |i| cluster_line::read(line, i));
            (line, at, data, tag)
        })
    }

    /// The value stored for `key` (or for a key of the same line and tag, or a torn pair's:
    /// see the type's Guarantees), or `None`.
    #[inline]
    #[must_use = "a probe only reads the table: use its answer"]
    pub fn probe(&self, key: u64) -> Option<V> {
        self.table.intent.read();
        let (_, _, data, _) = self.find(key);
        let found = (data & OCCUPIED != 0).then(|| decode(data));
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
        let (line, at, data, tag) = self.find(key);
        let hit = data & OCCUPIED != 0;
        self.table.counters.probe(hit);
        if !hit {
            return None;
        }
        let now = self.generation();
        if generation_of(data) != now {
            cluster_line::write(line, at, tag, restamp(data, now));
        }
        Some(decode(data))
    }

    /// Stores `value` for `key`: in the entry vouching for the key's tag (where
    /// [`Pack64::merge`] decides), else an empty entry, else over the entry of least
    /// `depth − AGE_WEIGHT · age` (the first of equals).
    #[inline]
    pub fn store(&self, key: u64, value: V) {
        self.table.intent.write();
        let now = self.generation();
        let (line, tag, choice) = self.table.locate(key, |line, e, mixed| {
            let tag = tag16(mixed);
            (line, tag, choose::<V>(line, e, tag, now))
        });
        match choice {
            Choice::Held { slot, word } => {
                let old = decode(word);
                if let Some(merged) = value.merge(old, age(now, generation_of(word))) {
                    cluster_line::write(line, slot, tag, encode(merged, now));
                }
                self.table.counters.store(false);
            }
            Choice::Victim { slot, evicts } => {
                cluster_line::write(line, slot, tag, encode(value, now));
                self.table.counters.store(evicts);
            }
        }
    }

    /// Permille of entries written (stored or refreshed) in the current generation, over the
    /// first 167 lines (1,002 entries; the whole table when smaller), for UCI's `hashfull`.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        let now = self.generation();
        self.table.hashfull(HASHFULL_SAMPLE_LINES, |line, i| {
            let data = cluster_line::read(line, i).1;
            data & OCCUPIED != 0 && generation_of(data) == now
        })
    }

    /// Empties every entry, keeping the generation; as
    /// [`SearchCache::clear`](crate::SearchCache::clear) (mapped tables give their pages back).
    pub fn clear(&self) {
        self.table.clear(cluster_line::clear);
    }

    /// Makes the OS back the whole table with memory now; changes no entry (as
    /// [`SearchCache::prefault`](crate::SearchCache::prefault)).
    pub fn prefault(&self) {
        self.table.prefault(cluster_line::touch);
    }
}
