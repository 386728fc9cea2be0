//! What the tables of one-line buckets (`DenseCache`, `ClusterCache`) share beyond their entry
//! protocol: the lines, the generation, the options, the counters, and every operation that
//! does not look inside an entry. Each table keeps its own line type and entry code.

use crate::alloc::{self, AtomicLine, Region, Words};
use crate::error::Error;
use crate::mix::scale;
use crate::options::{Options, Placement, Slots};
use crate::pack::GENERATION_MASK;
use crate::persist::{self, Kind, TableHeader};
use crate::size::Size;
use crate::stats::{CacheStats, Counters};
use crate::sync::{AtomicU64, AtomicU8, Intent, Ordering::Relaxed};
use std::fmt;
use std::io::{Read, Write};
use std::marker::PhantomData;
use std::ops::Range;

/// Bytes per line: one cache line.
pub(crate) const LINE_BYTES: usize = 64;

/// Tables of this many bytes and more are cleared and prefaulted by rayon's threads (as the
/// wide table's).
#[cfg_attr(any(loom, searchcache_loom), allow(dead_code))]
const PARALLEL_BYTES: usize = 16 << 20;

/// Lines of `ENTRIES` entries each, and the table's state around them; `P` may fix its
/// `Keys` and `Slots` (`options` then holds `P`'s choices).
pub(crate) struct LineTable<L: Words, const ENTRIES: usize, P: Placement> {
    lines: Region<L>,
    generation: AtomicU8,
    options: Options,
    placement: PhantomData<fn() -> P>,
    pub(crate) counters: Counters,
    /// Tells loom what each operation will do (`sync::Intent`); nothing outside loom.
    pub(crate) intent: Intent,
}

impl<L: Words, const ENTRIES: usize, P: Placement> LineTable<L, ENTRIES, P> {
    /// A table of `size`: the lines are allocated zeroed (every entry empty).
    pub(crate) fn new(size: Size, options: Options) -> Result<Self, Error> {
        let lines = size.lines(LINE_BYTES, ENTRIES)?;
        Ok(Self::from_lines(
            Region::zeroed(lines, options.huge_pages)?,
            options.placed::<P>(),
            0,
        ))
    }

    fn from_lines(lines: Region<L>, options: Options, generation: u8) -> Self {
        LineTable {
            lines,
            generation: AtomicU8::new(generation),
            options,
            placement: PhantomData,
            counters: Counters::new(),
            intent: Intent::new(),
        }
    }

    /// An empty table of `size`, keeping the generation and options; the new memory is
    /// allocated before the old is dropped, so on error the old table is kept.
    pub(crate) fn resize(&mut self, size: Size) -> Result<(), Error> {
        let fresh = Self::new(size, self.options)?;
        fresh.generation.store(self.generation(), Relaxed);
        *self = fresh;
        Ok(())
    }

    /// The table's key: `mix64(key)`, or the key itself with [`Keys::Random`](crate::Keys).
    #[inline(always)]
    pub(crate) fn mixed(&self, key: u64) -> u64 {
        self.options.keys_of::<P>().table_key(key)
    }

    /// `at` of the line of `key` (the high bits of its table key), of which of its entries the
    /// key may use (`Slots::place`), and of its table key.
    #[inline(always)]
    pub(crate) fn locate<'a, R>(
        &'a self,
        key: u64,
        at: impl FnOnce(&'a L, Range<usize>, u64) -> R,
    ) -> R {
        let mixed = self.mixed(key);
        self.options.slots_of::<P>().place::<ENTRIES, _, _>(
            |parts| self.lines.at_scaled(mixed, parts),
            |line, entries| at(line, entries, mixed),
        )
    }

    /// The line `key` lives in.
    #[inline(always)]
    pub(crate) fn line(&self, key: u64) -> &L {
        self.lines.at_scaled(self.mixed(key), 1).0
    }

    /// The line `key` lives in, `0..lines()`.
    pub(crate) fn line_of(&self, key: u64) -> usize {
        scale(self.mixed(key), self.lines.len())
    }

    /// Starts a new generation (mod 128).
    pub(crate) fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The current generation, `0..128`.
    pub(crate) fn generation(&self) -> u8 {
        self.generation.load(Relaxed) & GENERATION_MASK
    }

    /// Permille of the entries of the first `sample_lines` lines (all, when fewer) for which
    /// `current(line, i)` holds.
    pub(crate) fn hashfull(
        &self,
        sample_lines: usize,
        current: impl Fn(&L, usize) -> bool,
    ) -> usize {
        self.intent.read();
        let sample = &self.lines[..self.lines.len().min(sample_lines)];
        let count = sample
            .iter()
            .flat_map(|line| (0..ENTRIES).filter(|&i| current(line, i)))
            .count();
        count * 1000 / (sample.len() * ENTRIES)
    }

    /// Empties every line (mapped tables give their pages back; others run `clear_line` on
    /// each line).
    pub(crate) fn clear(&self, clear_line: impl Fn(&L) + Sync + Send) {
        self.intent.write();
        if !self.lines.release_pages() {
            self.for_each_chunk(1, |chunk| chunk.iter().for_each(&clear_line));
        }
    }

    /// Runs `touch` on the first line of each 4 KiB page.
    pub(crate) fn prefault(&self, touch: impl Fn(&L) + Sync + Send) {
        const LINES_PER_PAGE: usize = 4096 / LINE_BYTES;
        self.for_each_chunk(LINES_PER_PAGE, |chunk| touch(&chunk[0]));
    }

    /// Runs `work` on each run of `unit` lines: on rayon's pool for big tables.
    fn for_each_chunk(&self, unit: usize, work: impl Fn(&[L]) + Sync + Send) {
        #[cfg(not(any(loom, searchcache_loom)))]
        if self.memory_bytes() >= PARALLEL_BYTES {
            use rayon::prelude::*;
            self.lines
                .par_chunks(16_384)
                .for_each(|chunk| chunk.chunks(unit).for_each(&work));
            return;
        }
        self.lines.chunks(unit).for_each(work);
    }

    /// Entries when full.
    pub(crate) fn capacity(&self) -> usize {
        self.lines.len() * ENTRIES
    }

    /// The number of lines.
    pub(crate) fn lines(&self) -> usize {
        self.lines.len()
    }

    /// Bytes of entry memory.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.lines.len() * LINE_BYTES
    }

    /// The options the table was built with.
    pub(crate) fn options(&self) -> Options {
        self.options
    }

    /// Bytes on transparent huge pages now (Linux; `None` elsewhere).
    pub(crate) fn huge_page_bytes(&self) -> Option<usize> {
        alloc::huge_page_bytes(self.lines.address())
    }

    /// Writes the table as a file of `kind`, for a value of `bits` and `age_weight`.
    pub(crate) fn save(
        &self,
        w: impl Write,
        kind: Kind,
        bits: u32,
        age_weight: i32,
    ) -> Result<(), Error> {
        let header = TableHeader {
            bits,
            age_weight,
            options: self.options,
            generation: self.generation(),
        };
        persist::save_table(w, kind, header, &self.lines)
    }

    /// Reads a table [`save`](Self::save) wrote with the same `kind`, `bits` and `age_weight`.
    pub(crate) fn load(
        r: impl Read,
        kind: Kind,
        bits: u32,
        age_weight: i32,
    ) -> Result<Self, Error> {
        let (header, lines) = persist::load_table(r, kind, bits, age_weight)?;
        let options = header.options.fit::<P>()?;
        Ok(Self::from_lines(lines, options, header.generation))
    }

    /// The counters, with the `stats` feature.
    pub(crate) fn stats(&self) -> Option<CacheStats> {
        self.counters.snapshot()
    }

    /// Sets the counters back to zero.
    pub(crate) fn reset_stats(&self) {
        self.counters.reset();
    }

    /// The `Debug` output of a table named `name`.
    pub(crate) fn debug(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(name)
            .field("lines", &self.lines.len())
            .field("capacity", &self.capacity())
            .field("generation", &self.generation())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

// Tables of word lines (`DenseCache`): a key's entries as the words they are.
impl<P: Placement> LineTable<AtomicLine<8>, 8, P> {
    /// `at` of the words `key` may use, as [`locate`](Self::locate) places them (the line's
    /// eight, the half's four, the one of `Slots::Single`), and of its table key: the same
    /// entries, addressed in one step (`Region::group_scaled`).
    #[inline(always)]
    pub(crate) fn locate_words<'a, R>(
        &'a self,
        key: u64,
        at: impl FnOnce(&'a [AtomicU64], u64) -> R,
    ) -> R {
        let mixed = self.mixed(key);
        match self.options.slots_of::<P>() {
            Slots::Bucket => at(self.lines.group_scaled::<8>(mixed), mixed),
            Slots::Half => at(self.lines.group_scaled::<4>(mixed), mixed),
            Slots::Single => at(self.lines.group_scaled::<1>(mixed), mixed),
        }
    }
}

/// The public methods in which `DenseCache` and `ClusterCache` differ only by name, written
/// once: construction, sizing, the generation, `prefetch`, `save`/`load`, the counters and
/// `Debug`. Each table's file keeps what looks inside an entry (`probe`, `probe_refresh`,
/// `store`, `hashfull`, `clear`, `prefault`) and its type's documentation.
///
/// `line_table_api!(Table, Line, ENTRIES, "n", Fits, Kind, "k")`: the table type (a struct
/// with parameters `<V, P>` and fields `table: LineTable<Line, ENTRIES, P>` and `_values`), its line type and entry
/// count, the count as the docs write it, the compile-time check that a value fits, and the
/// file kind with its number.
macro_rules! line_table_api {
    ($table:ident, $line:ty, $entries:ident, $n:literal, $fits:ident, $kind:ident, $k:literal) => {
        impl<V: $crate::pack::Pack64> $table<V> {
            /// A table of `size` with the default [`Options`](crate::Options).
            ///
            #[doc = concat!("Errors: a size below one line (64 bytes, ", $n, " entries), a size")]
            /// that overflows the address space, or memory the OS refuses. Never panics or
            /// aborts.
            pub fn new(size: $crate::size::Size) -> Result<Self, $crate::error::Error> {
                Self::with_options(size, $crate::options::Options::default())
            }

            /// A table of `size` built as `options` say. Errors: as [`new`](Self::new).
            pub fn with_options(
                size: $crate::size::Size,
                options: $crate::options::Options,
            ) -> Result<Self, $crate::error::Error> {
                Self::with_placement(size, options)
            }

            /// Reads a table [`save`](Self::save) wrote for a value type of the same `BITS` and
            /// `AGE_WEIGHT`. Errors: as [`SearchCache::load`](crate::SearchCache::load); a file
            /// of another layout is [`crate::persist::FileError::Kind`].
            pub fn load(r: impl std::io::Read) -> Result<Self, $crate::error::Error> {
                Self::load_placed(r)
            }
        }

        impl<V: $crate::pack::Pack64, P: $crate::options::Placement> $table<V, P> {
            /// A table of `size` built as `options` say, with `P`'s fixed choices in place of
            /// their own ([`Placement`](crate::Placement)). Errors: as
            /// [`new`](Self::new).
            pub fn with_placement(
                size: $crate::size::Size,
                options: $crate::options::Options,
            ) -> Result<Self, $crate::error::Error> {
                let () = $fits::<V>::CHECK;
                Ok(Self::wrap($crate::line_table::LineTable::new(
                    size, options,
                )?))
            }

            /// [`load`](Self::load) for a table whose type fixes `Keys` or `Slots`
            /// ([`Placement`](crate::Placement)): a file saved with other choices is
            /// [`crate::persist::FileError::Invalid`].
            pub fn load_placed(r: impl std::io::Read) -> Result<Self, $crate::error::Error> {
                let () = $fits::<V>::CHECK;
                let kind = $crate::persist::Kind::$kind;
                let table = $crate::line_table::LineTable::load(r, kind, V::BITS, V::AGE_WEIGHT)?;
                Ok(Self::wrap(table))
            }

            fn wrap(table: $crate::line_table::LineTable<$line, $entries, P>) -> Self {
                $table {
                    table,
                    _values: std::marker::PhantomData,
                }
            }

            /// Replaces the table with an empty one of `size`, keeping the generation. The new
            /// memory is allocated first, so on error the old table is kept, entries and all.
            pub fn resize(&mut self, size: $crate::size::Size) -> Result<(), $crate::error::Error> {
                self.table.resize(size)
            }

            /// The line `key` lives in, `0..lines()`. Exposed for tests; never needed to use
            /// the table.
            #[must_use]
            pub fn line_of(&self, key: u64) -> usize {
                self.table.line_of(key)
            }

            /// The 16-bit tag `key`'s entries are checked against, `1..=65535`: two keys of
            /// one line with the same tag are one key to the table (the Guarantees' false
            /// hit). Exposed for tests.
            #[must_use]
            pub fn tag_of(&self, key: u64) -> u16 {
                $crate::dense_word::tag16(self.table.mixed(key)) as u16
            }

            /// Starts loading `key`'s line into the cache (a hint, as
            /// [`SearchCache::prefetch`](crate::SearchCache::prefetch)).
            #[inline]
            pub fn prefetch(&self, key: u64) {
                $crate::alloc::prefetch(self.table.line(key));
            }

            /// Starts a new generation: every stored entry becomes one generation older (mod
            /// 128).
            pub fn new_generation(&self) {
                self.table.new_generation();
            }

            /// The current generation, `0..128`.
            #[must_use]
            pub fn generation(&self) -> u8 {
                self.table.generation()
            }

            #[doc = concat!("Entries when full: ", $n, " per line.")]
            #[must_use]
            pub fn capacity(&self) -> usize {
                self.table.capacity()
            }

            /// The number of 64-byte lines.
            #[must_use]
            pub fn lines(&self) -> usize {
                self.table.lines()
            }

            /// Bytes of entry memory: `64 × lines()`.
            #[must_use]
            pub fn memory_bytes(&self) -> usize {
                self.table.memory_bytes()
            }

            /// The options the table was built with (`P`'s fixed choices in place of their own).
            #[must_use]
            pub fn options(&self) -> $crate::options::Options {
                self.table.options()
            }

            /// Bytes of the table on transparent huge pages now (Linux; `None` elsewhere).
            #[must_use]
            pub fn huge_page_bytes(&self) -> Option<usize> {
                self.table.huge_page_bytes()
            }

            /// Writes the table to `w` in the format of [`crate::persist`]
            #[doc = concat!("(kind ", $k, ", `", stringify!($table), "`).")]
            /// Errors: [`Error::Io`](crate::Error::Io) from `w`.
            pub fn save(&self, w: impl std::io::Write) -> Result<(), $crate::error::Error> {
                let kind = $crate::persist::Kind::$kind;
                self.table.save(w, kind, V::BITS, V::AGE_WEIGHT)
            }

            /// The counters, with the `stats` cargo feature; `None` without it.
            #[must_use]
            pub fn stats(&self) -> Option<$crate::stats::CacheStats> {
                self.table.stats()
            }

            /// Sets the counters back to zero.
            pub fn reset_stats(&self) {
                self.table.reset_stats();
            }
        }

        impl<V: $crate::pack::Pack64, P: $crate::options::Placement> std::fmt::Debug
            for $table<V, P>
        {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.table.debug(stringify!($table), f)
            }
        }
    };
}

pub(crate) use line_table_api;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::FromOptions;

    /// `locate_words` gives exactly the words `locate` names (the same addresses), for every
    /// `Slots`, line counts that are and are not powers of two, and keys across the range.
    #[test]
    fn words_are_the_entries_locate_names() {
        for lines in [1usize, 2, 3, 7, 64, 1000] {
            for slots in [Slots::Bucket, Slots::Half, Slots::Single] {
                let options = Options::default().slots(slots);
                let size = Size::Bytes(lines * LINE_BYTES);
                let table = LineTable::<AtomicLine<8>, 8, FromOptions>::new(size, options)
                    .expect("a small table");
                let mut key = 0x0123_4567_89ab_cdefu64;
                for k in [0, 1, u64::MAX, 1 << 63, (1 << 63) - 1].into_iter().chain(
                    std::iter::repeat_with(|| {
                        key = crate::mix::mix64(key);
                        key
                    })
                    .take(2000),
                ) {
                    let named: Vec<*const AtomicU64> =
                        table.locate(k, |line, e, _| e.map(|i| &line.0[i] as *const _).collect());
                    let words: Vec<*const AtomicU64> =
                        table.locate_words(k, |w, _| w.iter().map(|a| a as *const _).collect());
                    assert_eq!(named, words, "{lines} lines, {slots:?}, key {k:#x}");
                }
            }
        }
    }
}
