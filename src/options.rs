//! How a [`SearchCache`](crate::SearchCache) is built beyond its size: where a key may live,
//! whether keys are mixed, and whether to ask for huge pages.

use crate::alloc::HugePages;

/// Where a key may live.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Slots {
    /// Any of the four entries of its bucket (the default): a store evicts the one worth least.
    #[default]
    Bucket,
    /// One fixed entry per key, always replaced by the policy's verdict alone: the classic
    /// single-slot table, kept to measure what buckets buy (one key's slot is always one of the
    /// entries of the bucket it would use with [`Slots::Bucket`]).
    Single,
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

    /// Buckets of four (default) or a single slot per key.
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
