//! `SearchCache`: the lockless, bucketed, generation-aged transposition table.

use crate::alloc::{self, Region};
use crate::bucket::{tag, Bucket, Slot, ENTRIES};
use crate::error::Error;
use crate::mix::{mix_head, mix_tail, scale};
use crate::options::{FromOptions, Keys, Options, Placement};
use crate::pack::{
    age, decode, encode, generation_of, restamp, Fits, Pack64, GENERATION_MASK, OCCUPIED,
};
use crate::persist::{self, TableHeader};
use crate::size::Size;
use crate::stats::{CacheStats, Counters};
use crate::sync::{AtomicU8, Intent, Ordering::Relaxed};
use crate::victim::victim;
use std::fmt;
use std::hint::select_unpredictable;
use std::io::{Read, Write};
use std::marker::PhantomData;
use std::ops::Range;

/// Bytes per entry: two 64-bit words.
pub const ENTRY_BYTES: usize = 16;

/// Bytes per bucket: one cache line of [`ENTRIES_PER_BUCKET`] entries.
pub const BUCKET_BYTES: usize = 64;

/// Entries per bucket.
pub const ENTRIES_PER_BUCKET: usize = ENTRIES;

/// Buckets sampled by [`SearchCache::hashfull`]: 250 buckets are 1,000 entries, so the count
/// is directly the permille, as UCI's `hashfull` wants, and the sample costs 250 line reads.
const HASHFULL_SAMPLE_BUCKETS: usize = 250;

/// Tables of this many bytes and more are cleared by all of rayon's threads: below it, waking
/// the pool costs more than the ~1 ms one core needs for 16 MiB.
#[cfg_attr(any(loom, searchcache_loom), allow(dead_code))]
const PARALLEL_CLEAR_BYTES: usize = 16 << 20;

/// A fixed-size, lossy, lockless hash table from 64-bit keys to [`Pack64`] values, shared by
/// reference between any number of threads.
///
/// Every operation takes `&self` and none takes a lock. The table never grows: it forgets
/// entries to make room, choosing by the value's [`depth`](Pack64::depth) and its age in
/// generations. Only [`resize`](SearchCache::resize) needs `&mut self`, so no search can be
/// running while the memory is swapped.
///
/// # Guarantees
///
/// * A probe returns a value that some `store` wrote for that very key, or `None`: never a
///   value stored for another key, and never a mix of two stores. The only exception is a true
///   64-bit key collision (two positions with the same key, which the table cannot tell apart)
///   or a torn read whose words happen to vouch for the probed key: about 2^-64 per torn read,
///   because the check word holds a multiplicative tag of the key that moves the key a torn
///   pair vouches for out of the writer's bucket but for about 1 time in [`buckets`](Self::buckets)
///   (`src/bucket.rs`; the same with [`Keys::Random`], for random keys). With random keys, a
///   false hit needs a 64-bit match: about 4 · 2^-64 per probe.
/// * A stored value may be lost at any time: evicted by a store of another key to the same
///   bucket, overwritten by a racing store, or dropped by the value's own
///   [`merge`](Pack64::merge). A probe right after a store in the same thread finds it unless
///   something else happened to the bucket in between.
/// * An empty slot never matches, whatever the key (0 included) and whatever the value packs to.
///
/// # Memory
///
/// 16 bytes per entry, 64 per bucket: 65,536 entries per MiB; a table of `n` buckets takes
/// `64 n` bytes plus a few hundred for the struct. Tables of 2 MiB and more are mapped lazily
/// from the OS: memory is committed page by page as entries are first written (with huge pages,
/// 2 MiB at a time, so a big table used sparsely becomes resident sooner than with 4 KiB pages).
///
/// # Example
///
/// ```
/// use searchcache::{SearchCache, Size};
///
/// let table: SearchCache<u32> = SearchCache::new(Size::Mib(1))?;
/// table.store(0xDEAD_BEEF, 42);
/// assert_eq!(table.probe(0xDEAD_BEEF), Some(42));
/// assert_eq!(table.probe(7), None);
/// # Ok::<(), searchcache::Error>(())
/// ```
pub struct SearchCache<V: Pack64, P: Placement = FromOptions> {
    buckets: Region<Bucket>,
    generation: AtomicU8,
    /// `P`'s fixed choices in place of the given ones.
    options: Options,
    placement: PhantomData<fn() -> P>,
    counters: Counters,
    /// Tells loom what each operation will do (`sync::Intent`); nothing outside loom.
    intent: Intent,
    _values: PhantomData<fn(V) -> V>,
}

impl<V: Pack64> SearchCache<V> {
    /// A table of `size` with the default [`Options`].
    ///
    /// Errors: a size below one bucket (64 bytes, 4 entries), a size that overflows the address
    /// space, or memory the OS refuses. Never panics or aborts.
    pub fn new(size: Size) -> Result<Self, Error> {
        Self::with_options(size, Options::default())
    }

    /// A table of `size` built as `options` say.
    ///
    /// Errors: as [`new`](SearchCache::new).
    pub fn with_options(size: Size, options: Options) -> Result<Self, Error> {
        Self::with_placement(size, options)
    }

    /// Reads a table that [`save`](Self::save) wrote for a value type with the same `BITS`
    /// and `AGE_WEIGHT` (what else the bits mean the file cannot tell: load into the type that
    /// saved them). The table gets the saved options and generation. Reads exactly the saved
    /// bytes, no further.
    ///
    /// Errors: as [`crate::FingerprintSet::load`]; also another `BITS` or `AGE_WEIGHT`, or
    /// options this build does not know.
    pub fn load(r: impl Read) -> Result<Self, Error> {
        Self::load_placed(r)
    }
}

impl<V: Pack64, P: Placement> SearchCache<V, P> {
    /// A table of `size` built as `options` say, with `P`'s fixed choices in place of their
    /// own ([`Placement`]). Errors: as [`new`](SearchCache::new).
    pub fn with_placement(size: Size, options: Options) -> Result<Self, Error> {
        let () = Fits::<V>::CHECK;
        let lines = size.lines(BUCKET_BYTES, ENTRIES)?;
        let options = options.placed::<P>();
        Ok(SearchCache {
            buckets: Region::zeroed(lines, options.huge_pages)?,
            generation: AtomicU8::new(0),
            options,
            placement: PhantomData,
            counters: Counters::new(),
            intent: Intent::new(),
            _values: PhantomData,
        })
    }

    /// [`load`](SearchCache::load) for a table whose type fixes `Keys` or `Slots`
    /// ([`Placement`]): a file saved with other choices is
    /// [`FileError::Invalid`](crate::persist::FileError::Invalid).
    pub fn load_placed(r: impl Read) -> Result<Self, Error> {
        let () = Fits::<V>::CHECK;
        let (header, buckets) =
            persist::load_table(r, persist::Kind::SearchCache, V::BITS, V::AGE_WEIGHT)?;
        Ok(SearchCache {
            buckets,
            generation: AtomicU8::new(header.generation),
            options: header.options.fit::<P>()?,
            placement: PhantomData,
            counters: Counters::new(),
            intent: Intent::new(),
            _values: PhantomData,
        })
    }

    /// Replaces the table with an empty one of `size`. The new memory is allocated before the old
    /// is released (peak use is both), so on error the old table is kept, entries and all.
    pub fn resize(&mut self, size: Size) -> Result<(), Error> {
        let mut fresh = Self::with_placement(size, self.options)?;
        fresh.generation = AtomicU8::new(self.generation());
        *self = fresh;
        Ok(())
    }

    /// The key as the table uses it: mixed, unless the caller said its keys are random.
    #[inline(always)]
    fn mixed(&self, key: u64) -> u64 {
        self.keyed(key).0
    }

    /// The key as the table uses it (its high bits choose the bucket) and the tag its entries
    /// are checked against (`bucket.rs`): with `Keys::Any`, `mix64(key)` and the mixer's
    /// state before its last multiplication; with `Keys::Random`, the key and `key × TAG`.
    #[inline(always)]
    fn keyed(&self, key: u64) -> (u64, u64) {
        keyed(self.options.keys_of::<P>(), key)
    }

    /// `at` of the bucket of `key`, of which of its entries the key may use
    /// (`Slots::place`), and of the tag they are checked against.
    #[inline(always)]
    fn locate<'a, R>(&'a self, key: u64, at: impl FnOnce(&'a Bucket, Range<usize>, u64) -> R) -> R {
        let (mixed, tag) = self.keyed(key);
        self.options.slots_of::<P>().place::<ENTRIES, _, _>(
            |parts| self.buckets.at_scaled(mixed, parts),
            |bucket, entries| at(bucket, entries, tag),
        )
    }

    /// The bucket `key` lives in, `0..buckets()`: the high bits of `mix64(key) × buckets()`
    /// (of `key × buckets()` with [`Keys::Random`]).
    /// Exposed for tests and for callers that shard work by bucket; never needed to use the table.
    #[must_use]
    pub fn bucket_of(&self, key: u64) -> usize {
        scale(self.mixed(key), self.buckets.len())
    }

    /// The value stored for `key`, or `None`. See the type's Guarantees.
    #[inline]
    #[must_use = "a probe only reads the table: use its answer"]
    pub fn probe(&self, key: u64) -> Option<V> {
        self.intent.read();
        let data = self.locate(key, |bucket, e, tag| held(e, tag, |i| bucket.read(i)).1);
        let found = (data & OCCUPIED != 0).then(|| decode(data));
        self.counters.probe(found.is_some());
        found
    }

    /// [`probe`](Self::probe), and on a hit of an entry written in an earlier generation,
    /// rewrites it (same value) stamped with the current one, as Stockfish refreshes an
    /// entry's generation on every probe hit. An entry that serves a search through probes
    /// alone then stays young: it counts in [`hashfull`](Self::hashfull) and is evicted by its
    /// depth, not by an age it did not earn. Plain `probe` never writes: there, an entry's age
    /// counts from its last `store`.
    ///
    /// The rewrite is a store of the entry's own value, so it races like one: a store of
    /// another key to the same slot at the same moment may be lost, as with any two racing
    /// stores. A hit in the current generation writes nothing.
    #[must_use = "a probe's answer is what it is for"]
    #[inline]
    pub fn probe_refresh(&self, key: u64) -> Option<V> {
        self.intent.write();
        let (bucket, tag, (slot, data)) = self.locate(key, |bucket, e, tag| {
            (bucket, tag, held(e, tag, |i| bucket.read(i)))
        });
        let hit = data & OCCUPIED != 0;
        self.counters.probe(hit);
        if !hit {
            return None;
        }
        let now = self.generation();
        if generation_of(data) != now {
            bucket.write(slot, tag, restamp(data, now));
        }
        Some(decode(data))
    }

    /// Stores `value` for `key`.
    ///
    /// Goes to the entry already holding `key` (where [`Pack64::merge`] decides what is
    /// written), else to an empty entry, else evicts the entry whose
    /// `depth − AGE_WEIGHT · age` is least (the first of equals).
    #[inline]
    pub fn store(&self, key: u64, value: V) {
        self.intent.write();
        let now = self.generation();
        let (bucket, tag, choice) = self.locate(key, |bucket, e, tag| {
            (bucket, tag, choose::<V>(e, tag, now, |i| bucket.read(i)))
        });
        match choice {
            Choice::Held { slot, data } => {
                let old = decode(data);
                if let Some(merged) = value.merge(old, age(now, generation_of(data))) {
                    bucket.write(slot, tag, encode(merged, now));
                }
                self.counters.store(false);
            }
            Choice::Victim { slot, evicts } => {
                bucket.write(slot, tag, encode(value, now));
                self.counters.store(evicts);
            }
        }
    }

    /// Starts loading `key`'s bucket into the cache, so that a later `probe` or `store` of it
    /// does not wait for memory. Call it as soon as a child's key is known, before work that does
    /// not need the table (move generation). A hint only: a no-op on targets other than x86-64
    /// and aarch64.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        alloc::prefetch(self.buckets.at_scaled(self.mixed(key), 1).0);
    }

    /// Starts a new generation (a new search): every stored entry becomes one generation older.
    /// Generations count modulo 128.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The current generation, `0..128`.
    #[must_use]
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed) & GENERATION_MASK
    }

    /// Permille of entries written in the current generation, over a sample of the first 250
    /// buckets (1,000 entries; the whole table when smaller), as UCI's `info hashfull` reports.
    /// An estimate: a table whose fill is uneven over its buckets is misjudged accordingly.
    ///
    /// "Written" means stored, or refreshed by [`probe_refresh`](Self::probe_refresh): an entry
    /// that a search only reads with plain [`probe`](Self::probe) keeps the generation of its
    /// last store, so a search served wholly by such hits reports 0 however many entries it
    /// uses.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        self.intent.read();
        let now = self.generation();
        let sample = &self.buckets[..self.buckets.len().min(HASHFULL_SAMPLE_BUCKETS)];
        let current = sample
            .iter()
            .flat_map(|b| (0..ENTRIES).map(move |i| b.read(i)))
            .filter(|slot| slot.is_occupied() && generation_of(slot.data) == now)
            .count();
        current * 1000 / (sample.len() * ENTRIES)
    }

    /// Empties every entry (the generation is kept). Stores that race with `clear` may
    /// survive it.
    ///
    /// On Linux, tables of 2 MiB and more (the mapped ones) give their pages back to the OS
    /// instead of being written: `clear` takes microseconds whatever the size, the memory is
    /// released, and, as on a fresh table, the first store to each page faults it in again
    /// (call [`prefault`](Self::prefault) to commit them all up front). Otherwise every word
    /// is zeroed in place, by rayon's thread pool for tables of 16 MiB and more, skipping
    /// words already zero so that pages never written stay uncommitted.
    pub fn clear(&self) {
        self.intent.write();
        if !self.buckets.release_pages() {
            self.for_each_chunk(1, |chunk| chunk.iter().for_each(Bucket::clear));
        }
    }

    /// Makes the OS back the whole table with memory now, instead of on the first store to each
    /// page. A fresh (or cleared, never-written) table lives on the kernel's shared zero page;
    /// the first store to each page then faults and zeroes it (a whole 2 MiB with huge pages)
    /// on the storing thread, which a search pays as seconds per GiB in its first move. An
    /// engine calls this after building or resizing its table, outside the clock. Safe to call
    /// at any time: it changes no entry (each page gets a compare-and-swap of zero for zero).
    pub fn prefault(&self) {
        // 64 buckets = one 4 KiB page: touch the first bucket of each.
        const BUCKETS_PER_PAGE: usize = 4096 / BUCKET_BYTES;
        self.for_each_chunk(BUCKETS_PER_PAGE, |chunk| chunk[0].touch());
    }

    /// Runs `work` on each run of `unit` consecutive buckets (the last may be shorter): on
    /// rayon's pool for tables of 16 MiB and more, else (and under loom) on this thread.
    fn for_each_chunk(&self, unit: usize, work: impl Fn(&[Bucket]) + Sync + Send) {
        #[cfg(not(any(loom, searchcache_loom)))]
        if self.memory_bytes() >= PARALLEL_CLEAR_BYTES {
            use rayon::prelude::*;
            // 16,384 buckets = 1 MiB per task: big enough to amortise scheduling.
            self.buckets
                .par_chunks(16_384)
                .for_each(|chunk| chunk.chunks(unit).for_each(&work));
            return;
        }
        self.buckets.chunks(unit).for_each(work);
    }

    /// How many entries the table holds when full: 4 per bucket.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES
    }

    /// The number of 64-byte buckets.
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// Bytes of entry memory: `64 × buckets()` (mapped tables round up to 2 MiB in the address
    /// space, but pages never touched cost no memory).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// The options the table was built with.
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Bytes of the table backed by transparent huge pages right now, read from
    /// `/proc/self/smaps` on Linux; `None` elsewhere or when it cannot be read. Pages are
    /// backed on first touch, so a fresh table reports 0.
    #[must_use]
    pub fn huge_page_bytes(&self) -> Option<usize> {
        alloc::huge_page_bytes(self.buckets.address())
    }

    /// Writes the table to `w` in the format of [`crate::persist`] (a header naming the
    /// options, the generation and the value's `BITS` and `AGE_WEIGHT`; the buckets as they
    /// lie in memory; a count of occupied entries; a CRC-32), streaming: no copy of the table is
    /// made. Stores racing the save may leave torn entries in the file, which read as misses.
    /// Errors: [`Error::Io`] from `w`.
    pub fn save(&self, w: impl Write) -> Result<(), Error> {
        let header = TableHeader {
            bits: V::BITS,
            age_weight: V::AGE_WEIGHT,
            options: self.options,
            generation: self.generation(),
        };
        persist::save_table(w, persist::Kind::SearchCache, header, &self.buckets)
    }

    /// The counters, with the `stats` cargo feature; `None` without it.
    #[must_use]
    pub fn stats(&self) -> Option<CacheStats> {
        self.counters.snapshot()
    }

    /// Sets the counters back to zero (nothing to do without the `stats` feature).
    pub fn reset_stats(&self) {
        self.counters.reset();
    }
}

/// The key as the table uses it and the tag of its entries, for `keys` (`SearchCache::keyed`).
#[inline(always)]
fn keyed(keys: Keys, key: u64) -> (u64, u64) {
    match keys {
        Keys::Any => {
            let head = mix_head(key);
            (mix_tail(head), head)
        }
        Keys::Random => (key, tag(key)),
    }
}

/// The first entry of `entries` whose words vouch for `tag` (the key's [`tag`]), and its data
/// word; the data word is without `OCCUPIED` if none does. The probes' scan; a store's
/// `choose` applies the same rule (`Slot::tag`) with an exit at the first match.
///
/// Branch-free on table memory: a mispredicted early exit that waits on a cache miss serialises
/// the misses of consecutive lookups, so every candidate is read and the match selected with
/// `select_unpredictable` (which keeps LLVM from turning it back into a branch), on scalars only
/// (a select of a tuple becomes branches). Scanning backwards keeps the first matching entry
/// when a race left the key in two. Measurements: BENCHMARKS.md, "The hot-path work".
///
/// Entries are matched on the tag alone, not on `OCCUPIED` too (fewer instructions, and at
/// DRAM sizes a probe's time grows with them). An empty entry (both words 0) vouches for tag 0,
/// the key whose mix is 0, so that key alone matches empty entries; the caller tests `OCCUPIED`
/// on the result. That key never reads an empty entry in place of its own: a store takes the
/// first empty entry, entries never become empty again (`clear` aside), so every entry before
/// the key's is occupied. A store racing `clear` can break that, and the cost is a miss, never
/// a wrong value.
#[inline(always)]
fn held(entries: Range<usize>, tag: u64, read: impl Fn(usize) -> Slot) -> (usize, u64) {
    let (mut at, mut data) = (entries.start, 0);
    for i in entries.rev() {
        let slot = read(i);
        let holds = slot.tag() == tag;
        at = select_unpredictable(holds, i, at);
        data = select_unpredictable(holds, slot.data, data);
    }
    (at, data)
}

/// Where a store goes.
enum Choice {
    /// The entry holding the key, and its data word.
    Held { slot: usize, data: u64 },
    /// No entry holds the key: the entry to overwrite, and whether it was occupied.
    Victim { slot: usize, evicts: bool },
}

/// The store's choice from a single read of each entry of `entries`, so that racing writers
/// cannot make the two questions (does an entry hold the key? which entry is worth least?)
/// see different buckets: the first entry holding `tag`, else the first empty entry, else the
/// first of the entries whose `depth − AGE_WEIGHT · age` is least.
///
/// Both scans select with `cmov` like [`held`]; the one branch left, whether the key is held,
/// is there because skipping the victim scan on that path is worth more than its mispredicts
/// (BENCHMARKS.md, "The hot-path work", has the shapes measured).
#[inline(always)]
fn choose<V: Pack64>(
    entries: Range<usize>,
    tag: u64,
    now: u8,
    read: impl Fn(usize) -> Slot,
) -> Choice {
    let mut slots = [Slot { check: 0, data: 0 }; ENTRIES];
    for i in entries.clone() {
        slots[i] = read(i);
    }
    // An exit at the first match, not `held`'s selects: nothing waits on a store's result.
    if let Some(slot) = entries.clone().find(|&i| slots[i].tag() == tag) {
        let data = slots[slot].data;
        if data & OCCUPIED != 0 {
            return Choice::Held { slot, data };
        }
    }
    let (slot, evicts) = victim::<V>(entries, now, |i| {
        let slot = slots[i];
        slot.is_occupied()
            .then(|| (decode(slot.data), generation_of(slot.data)))
    });
    Choice::Victim { slot, evicts }
}

impl<V: Pack64, P: Placement> fmt::Debug for SearchCache<V, P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchCache")
            .field("buckets", &self.buckets.len())
            .field("capacity", &self.capacity())
            .field("generation", &self.generation())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, not(any(loom, searchcache_loom))))]
mod tests {
    use super::*;
    use crate::alloc::ZeroInit;
    use crate::bucket::UNTAG;
    use crate::mix::mix64;
    use crate::pack::{PAYLOAD_BITS, PAYLOAD_MASK};

    /// Torn pairs built the way the table writes them: store A's data word under store B's
    /// check word, both stores into one slot. The pair vouches for one key, `k*`; a probe can
    /// only be fooled by it if `k*` lies in the writer's bucket, which must happen about 1/n of
    /// the time for `n` buckets (bucket.rs has the argument; BENCHMARKS.md, "The torn-read
    /// tag", what this test counted without the tag).
    ///
    /// Counts are Poisson with mean `λ = N/n`; the bounds are `λ ± 6√λ` (plus 6 above, for
    /// λ ≈ 0). Random values are held to both bounds; structured ones (consecutive, one bit
    /// apart, a generation apart) only to the upper one: for them the multiplicative hash of
    /// the difference often moves `k*` out of the bucket for certain, which is only better.
    #[test]
    fn torn_pairs_vouch_for_keys_outside_the_writers_bucket() {
        const N: u64 = 100_000;
        // Random 64-bit values, a different stream per `seed`.
        let random = |i: u64, seed: u64| mix64(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed);
        // A data word as `encode` writes it: occupied, a generation, 56 payload bits.
        let encode = |payload: u64, generation: u64| {
            OCCUPIED | generation << PAYLOAD_BITS | payload & PAYLOAD_MASK
        };
        for keys in [Keys::Any, Keys::Random] {
            // 64 MiB (the issue's table) and 1,024 buckets (so λ is large enough to see).
            for size in [Size::Mib(64), Size::Entries(4096)] {
                let table =
                    SearchCache::<u32>::with_options(size, Options::default().keys(keys)).unwrap();
                let n = table.buckets();
                let lambda = N as f64 / n as f64;
                let upper = lambda + 6.0 * lambda.sqrt() + 6.0;
                let lower = lambda - 6.0 * lambda.sqrt();
                type Family<'a> = (&'a str, bool, &'a mut dyn FnMut(u64) -> (u64, u64));
                // Random values of 24, 40 and 56 bits (the widths of real entries).
                let mut random_values = |i: u64| {
                    let width = [24, 40, 56][i as usize % 3];
                    let value = |seed| random(i, seed) >> (64 - width);
                    (encode(value(1), 5), encode(value(2), 5))
                };
                let mut consecutive = |i: u64| (encode(i, 5), encode(i + 1, 5));
                let mut one_bit = |i: u64| (encode(i << 8, 5), encode(i << 8 ^ 1 << (i % 56), 5));
                let mut generation = |i: u64| (encode(i, 5), encode(i, 6));
                let families: [Family; 4] = [
                    ("random values", true, &mut random_values),
                    ("consecutive values", false, &mut consecutive),
                    ("values one bit apart", false, &mut one_bit),
                    ("a generation apart", false, &mut generation),
                ];
                for (family, two_sided, values) in families {
                    let mut in_bucket = 0u64;
                    for i in 0..N {
                        let key_b = match keys {
                            Keys::Any => i, // structured keys: the mixer spreads them
                            Keys::Random => random(i, 3),
                        };
                        let (data_a, data_b) = values(i);
                        assert_ne!(data_a, data_b);
                        let (mixed_b, tag_b) = table.keyed(key_b);
                        let slot = Bucket::empty();
                        slot.write(0, tag_b, data_b);
                        let torn = Slot {
                            check: slot.read(0).check,
                            data: data_a,
                        };
                        // The table's key that the torn pair vouches for.
                        let vouched = match keys {
                            Keys::Any => mix_tail(torn.tag()),
                            Keys::Random => torn.tag().wrapping_mul(UNTAG),
                        };
                        assert_ne!(vouched, mixed_b);
                        if scale(vouched, n) == scale(mixed_b, n) {
                            in_bucket += 1;
                        }
                    }
                    let count = in_bucket as f64;
                    assert!(
                        count <= upper && (!two_sided || count >= lower),
                        "{keys:?}, {n} buckets, {family}: {in_bucket} of {N} torn pairs vouch \
                         for a key in the writer's bucket; 1/n gives {lambda:.1} \
                         (bounds {lower:.1}..{upper:.1})"
                    );
                }
            }
        }
    }

    /// The tag is a bijection that keeps 0 at 0 (an empty entry still vouches only for the key
    /// whose mix is 0), and `UNTAG` is its inverse.
    #[test]
    fn the_tag_is_a_bijection_fixing_zero() {
        assert_eq!(tag(0), 0);
        for k in [1u64, 2, 0x9e37_79b9_7f4a_7c15, u64::MAX, 1 << 63] {
            assert_eq!(tag(k).wrapping_mul(UNTAG), k);
            assert_ne!(tag(k), 0);
        }
    }
}
