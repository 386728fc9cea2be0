//! How a [`SearchCache`](crate::SearchCache) is built beyond its size: where a key may live,
//! whether keys are mixed, and whether to ask for huge pages.

use crate::alloc::HugePages;
use crate::error::{Error, FileError};
use crate::mix::mix64;
use std::ops::Range;

/// Where a key may live.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Slots {
    /// Any of the entries of its bucket (the default; four in `SearchCache`, eight in
    /// `DenseCache`, six in `ClusterCache`): a store evicts the one worth least.
    #[default]
    Bucket,
    /// One fixed entry per key, always replaced by the policy's verdict alone: the classic
    /// single-slot table, kept to measure what buckets buy (one key's slot is always one of the
    /// entries of the bucket it would use with [`Slots::Bucket`]).
    Single,
    /// The half of its bucket that the key chooses: 32 bytes of the 64-byte line, two entries
    /// of `SearchCache`, four of `DenseCache`, three of `ClusterCache` (Stockfish's cluster).
    /// Half the ways: a probe or a store uses only the key's half, a dense or cluster probe of
    /// an absent key meets half the false hits, and the table keeps somewhat fewer keys under
    /// pressure (BENCHMARKS.md, "Half lines": 0.07 points of hit rate at `Hash` 1 MiB on a
    /// chess trace, dense). The key's half lies in the bucket it would use
    /// with [`Slots::Bucket`]: the half is bit `⌊x · 2n / 2^64⌋ mod 2` of the table's key `x`
    /// in a table of `n` buckets, the bucket `⌊x · n / 2^64⌋`.
    Half,
}

impl Slots {
    /// Calls `at` with where a table key may live among buckets of `ENTRIES` entries: its
    /// bucket and the entries of it the key may use. `bucket(parts)` splits each bucket into
    /// `parts` equal parts and gives the key's bucket and part (`mix::scale_parts` of the key:
    /// the bucket is `⌊x · n / 2^64⌋` for every variant, so `Single` and `Half` stay in the
    /// bucket `Bucket` uses). Each variant calls `at` from its own arm, with a constant range
    /// (`Bucket`) or one of constant length (`Half`, `Single`): each inlined copy of the
    /// caller's scan then has its loop fully unrolled and no bounds check (~15 instructions
    /// less per operation than a scan over a range known only at run time).
    #[inline(always)]
    pub(crate) fn place<const ENTRIES: usize, B, R>(
        self,
        bucket: impl FnOnce(usize) -> (B, usize),
        at: impl FnOnce(B, Range<usize>) -> R,
    ) -> R {
        match self {
            Slots::Bucket => at(bucket(1).0, 0..ENTRIES),
            Slots::Half => {
                let (b, half) = bucket(2);
                let start = half * (ENTRIES / 2);
                at(b, start..start + ENTRIES / 2)
            }
            Slots::Single => {
                let (b, i) = bucket(ENTRIES);
                at(b, i..i + 1)
            }
        }
    }
}

/// What the caller's keys are, which decides whether the table mixes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Keys {
    /// Any 64-bit keys (the default): counters, packed boards, hashes. The table passes each
    /// key through [`mix64`](crate::mix64), a fixed bijection, so structured keys spread over
    /// the buckets and the Guarantees hold for every key set.
    #[default]
    Any,
    /// Keys that are already uniformly random 64-bit hashes: Zobrist keys, or
    /// [`StateHash`](crate::StateHash) parts. The table uses them as given and saves the
    /// mixer (about 12 instructions of a probe's 50; BENCHMARKS.md has what that was worth in
    /// time).
    ///
    /// The caller vouches for the randomness. With structured keys (counters, packed states)
    /// the buckets cluster, and the torn-read figure of the Guarantees, which assumes that the
    /// keys within a bucket differ in random low bits, is not covered.
    Random,
}

impl Keys {
    /// The table's key for `key` in the one-line tables (`DenseCache`, `ClusterCache`):
    /// `mix64(key)`, or the key itself with `Random`.
    #[inline(always)]
    pub(crate) fn table_key(self, key: u64) -> u64 {
        match self {
            Keys::Any => mix64(key),
            Keys::Random => key,
        }
    }
}

/// Whether a table (`SearchCache`, `DenseCache`, `ClusterCache`: their second type parameter)
/// reads its [`Keys`] and [`Slots`] from its [`Options`] at run time ([`FromOptions`], the
/// default) or has them fixed by its type.
///
/// A fixed choice is a constant in the table's code: a probe then tests neither option (a
/// predictable branch each, but together 8.5 of a dense half-line probe's 78.4 instructions,
/// and a random probe's time follows its instructions: BENCHMARKS.md, "Options fixed by the
/// type"). Fix them where the table's shape is known when the program is written, as in an
/// engine with Zobrist keys:
///
/// ```
/// use searchcache::{DenseCache, Keys, Options, Placement, Size, Slots};
///
/// /// Zobrist keys, each key in half of its line (Stockfish's 32-byte cluster).
/// struct Zobrist;
/// impl Placement for Zobrist {
///     const KEYS: Option<Keys> = Some(Keys::Random);
///     const SLOTS: Option<Slots> = Some(Slots::Half);
/// }
///
/// let table = DenseCache::<u32, Zobrist>::with_placement(Size::Mib(1), Options::default())?;
/// table.store(0x9E37_79B9_7F4A_7C15, 7);
/// assert_eq!(table.probe(0x9E37_79B9_7F4A_7C15), Some(7));
/// // The type's choices replace the Options' own.
/// assert_eq!(table.options(), Options::default().keys(Keys::Random).slots(Slots::Half));
/// # Ok::<(), searchcache::Error>(())
/// ```
///
/// A table with a fixed choice behaves exactly as one built with that choice in its
/// `Options` (a test compares the two operation by operation): `with_placement` builds it (as
/// `HashMap::with_hasher` builds a map of another hasher) and replaces the `Options`' choices
/// with the type's, [`options`](crate::DenseCache::options) reports the type's,
/// `save` writes it, and `load_placed` refuses a file saved with another.
pub trait Placement: Send + Sync + 'static {
    /// `Some`: the table's keys, whatever its `Options` say; `None` (the default): its
    /// `Options`' keys.
    const KEYS: Option<Keys> = None;
    /// `Some`: where keys live, whatever the table's `Options` say; `None` (the default):
    /// its `Options`' slots.
    const SLOTS: Option<Slots> = None;
}

/// The default [`Placement`]: `Keys` and `Slots` as the table's [`Options`] say.
#[derive(Debug)]
pub struct FromOptions;

impl Placement for FromOptions {}

impl Options {
    /// These options with `P`'s fixed choices in place of their own.
    pub(crate) fn placed<P: Placement>(self) -> Self {
        Options {
            keys: P::KEYS.unwrap_or(self.keys),
            slots: P::SLOTS.unwrap_or(self.slots),
            ..self
        }
    }

    /// These options (a loaded file's) when they agree with `P`'s fixed choices; else a
    /// [`FileError::Invalid`] saying which differ.
    pub(crate) fn fit<P: Placement>(self) -> Result<Self, Error> {
        if self.placed::<P>() == self {
            return Ok(self);
        }
        let why = format!(
            "a table saved with {self:?}; this type fixes {:?} keys and {:?} slots",
            P::KEYS,
            P::SLOTS
        );
        Err(Error::File(FileError::Invalid(why)))
    }

    /// The keys, a constant when `P` fixes them.
    #[inline(always)]
    pub(crate) fn keys_of<P: Placement>(self) -> Keys {
        P::KEYS.unwrap_or(self.keys)
    }

    /// The slots, a constant when `P` fixes them.
    #[inline(always)]
    pub(crate) fn slots_of<P: Placement>(self) -> Slots {
        P::SLOTS.unwrap_or(self.slots)
    }
}

/// How a table is built, beyond its size. `Options::default()` is what engines want.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    pub(crate) huge_pages: HugePages,
    pub(crate) slots: Slots,
    pub(crate) keys: Keys,
}

impl Options {
    /// Whether to ask for transparent huge pages (default [`HugePages::Advise`]).
    #[must_use = "Options are built by value: this returns the changed Options"]
    pub fn huge_pages(mut self, huge_pages: HugePages) -> Self {
        self.huge_pages = huge_pages;
        self
    }

    /// Where a key may live: its whole bucket (default), half of it, or a single slot.
    #[must_use = "Options are built by value: this returns the changed Options"]
    pub fn slots(mut self, slots: Slots) -> Self {
        self.slots = slots;
        self
    }

    /// Whether keys are mixed before use (default [`Keys::Any`]: they are).
    #[must_use = "Options are built by value: this returns the changed Options"]
    pub fn keys(mut self, keys: Keys) -> Self {
        self.keys = keys;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mix::{scale, scale_parts};

    /// Every variant places a key in the bucket `Slots::Bucket` uses; a half is half the
    /// entries, the one the next bit of the key names.
    #[test]
    fn every_variant_stays_in_the_keys_bucket() {
        let keys = (0..10_000u64).map(crate::mix::mix64);
        for (key, n) in keys.zip([1usize, 2, 3, 1000, 1 << 20].into_iter().cycle()) {
            check::<4>(key, n);
            check::<6>(key, n);
            check::<8>(key, n);
        }
        // In a one-bucket table the half is the key's top bit.
        let half = |key: u64| place::<8>(Slots::Half, key, 1);
        assert_eq!(half(1 << 63), (0, 4..8));
        assert_eq!(half((1 << 63) - 1), (0, 0..4));
    }

    /// The bucket and entries of `key` in a table of `n` buckets.
    fn place<const ENTRIES: usize>(slots: Slots, key: u64, n: usize) -> (usize, Range<usize>) {
        slots.place::<ENTRIES, _, _>(|parts| scale_parts(key, n, parts), |b, e| (b, e))
    }

    fn check<const ENTRIES: usize>(key: u64, n: usize) {
        let place = |slots: Slots| place::<ENTRIES>(slots, key, n);
        let (bucket, all) = place(Slots::Bucket);
        assert_eq!(all, 0..ENTRIES);
        let (b, one) = place(Slots::Single);
        assert_eq!((b, one.len()), (bucket, 1));
        let (b, half) = place(Slots::Half);
        let upper = scale(key, 2 * n) % 2 == 1;
        assert_eq!(b, bucket);
        assert_eq!(half.start, if upper { ENTRIES / 2 } else { 0 });
        assert_eq!(half.len(), ENTRIES / 2);
    }
}
