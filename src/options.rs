//! How a [`SearchCache`](crate::SearchCache) is built beyond its size: where a key may live,
//! whether keys are mixed, and whether to ask for huge pages.

use crate::alloc::HugePages;
use crate::mix::scale;
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
    /// Calls `at` with where the table key `mixed` may live in a table of `buckets` buckets
    /// of `ENTRIES` entries each: its bucket, `⌊mixed · buckets / 2^64⌋` for every variant (so
    /// `Single` and `Half` stay in the bucket `Bucket` uses: `⌊⌊k · n · x⌋ / k⌋ = ⌊n · x⌋`),
    /// and the entries of it the key may use. Each variant calls `at` from its own arm, with a
    /// constant range (`Bucket`) or one of constant length (`Half`, `Single`): each inlined
    /// copy of the caller's scan then has its loop fully unrolled and no bounds check (~15
    /// instructions less per operation than a scan over a range known only at run time).
    #[inline(always)]
    pub(crate) fn place<const ENTRIES: usize, R>(
        self,
        mixed: u64,
        buckets: usize,
        at: impl FnOnce(usize, Range<usize>) -> R,
    ) -> R {
        match self {
            Slots::Bucket => at(scale(mixed, buckets), 0..ENTRIES),
            Slots::Half => {
                let half = scale(mixed, buckets * 2);
                let start = half % 2 * (ENTRIES / 2);
                at(half / 2, start..start + ENTRIES / 2)
            }
            Slots::Single => {
                let slot = scale(mixed, buckets * ENTRIES);
                let i = slot % ENTRIES;
                at(slot / ENTRIES, i..i + 1)
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
        let half = |key: u64| Slots::Half.place::<8, _>(key, 1, |b, e| (b, e));
        assert_eq!(half(1 << 63), (0, 4..8));
        assert_eq!(half((1 << 63) - 1), (0, 0..4));
    }

    fn check<const ENTRIES: usize>(key: u64, n: usize) {
        let place = |slots: Slots| slots.place::<ENTRIES, _>(key, n, |b, e| (b, e));
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
