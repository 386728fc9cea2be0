//! Optional probe/hit/store/replacement counters (cargo feature `stats`).
//!
//! With the feature off, `Counters` is a zero-sized type whose methods are empty and inline, so
//! counting costs nothing. With it on, counts go to a per-thread stripe of a `Tally`, so
//! counting never makes two threads fight over a cache line, and reading sums the stripes.

/// A snapshot of a table's counters. Counts are approximate while threads are running (each
/// stripe is read separately) and exact once they have stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Calls to `probe`.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Calls to `store`.
    pub stores: u64,
    /// Stores that evicted an entry holding another key.
    pub replacements: u64,
}

impl CacheStats {
    /// `hits / probes`, or 0 before the first probe.
    #[must_use]
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            self.hits as f64 / self.probes as f64
        }
    }
}

#[cfg(feature = "stats")]
pub(crate) use on::Counters;

#[cfg(not(feature = "stats"))]
pub(crate) use off::Counters;

#[cfg(feature = "stats")]
mod on {
    use super::CacheStats;
    use crate::tally::Tally;

    const PROBES: usize = 0;
    const HITS: usize = 1;
    const STORES: usize = 2;
    const REPLACEMENTS: usize = 3;

    pub(crate) struct Counters(Tally<4>);

    impl Counters {
        pub(crate) fn new() -> Self {
            Counters(Tally::new())
        }
        #[inline]
        pub(crate) fn probe(&self, hit: bool) {
            self.0.add([1, u64::from(hit), 0, 0]);
        }
        #[inline]
        pub(crate) fn store(&self, replaced: bool) {
            self.0.add([0, 0, 1, u64::from(replaced)]);
        }
        pub(crate) fn snapshot(&self) -> Option<CacheStats> {
            Some(CacheStats {
                probes: self.0.total(PROBES),
                hits: self.0.total(HITS),
                stores: self.0.total(STORES),
                replacements: self.0.total(REPLACEMENTS),
            })
        }
        pub(crate) fn reset(&self) {
            self.0.reset();
        }
    }
}
#[cfg(not(feature = "stats"))]
mod off {
    use super::CacheStats;

    pub(crate) struct Counters;

    impl Counters {
        pub(crate) fn new() -> Self {
            Counters
        }
        #[inline(always)]
        pub(crate) fn probe(&self, _hit: bool) {}
        #[inline(always)]
        pub(crate) fn store(&self, _replaced: bool) {}
        pub(crate) fn snapshot(&self) -> Option<CacheStats> {
            None
        }
        pub(crate) fn reset(&self) {}
    }
}
