//! Optional probe/hit/store/replacement counters (cargo feature `stats`).
//!
//! With the feature off, [`Counters`] is a zero-sized type whose methods are empty and inline,
//! so counting costs nothing. With it on, counts go to one of [`STRIPES`] cache-padded stripes
//! chosen per thread: each thread increments its own 128-byte-padded line (two lines, because
//! Intel's adjacent-line prefetcher pulls pairs), so counting never makes two threads fight over
//! a cache line, and reading sums the stripes.

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
/// Stripes: enough that up to 16 threads never share one.
pub(crate) const STRIPES: usize = 16;

#[cfg(feature = "stats")]
mod on {
    use super::{CacheStats, STRIPES};
    use crossbeam_utils::CachePadded;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

    // Plain std atomics even under loom: counters are statistics, not part of the protocol, and
    // tracking them would only multiply loom's interleavings.
    #[derive(Default)]
    struct Stripe {
        probes: AtomicU64,
        hits: AtomicU64,
        stores: AtomicU64,
        replacements: AtomicU64,
    }

    pub(crate) struct Counters(Box<[CachePadded<Stripe>]>);

    fn stripe_of_this_thread() -> usize {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        thread_local! {
            static STRIPE: usize = NEXT.fetch_add(1, Relaxed) % STRIPES;
        }
        STRIPE.with(|s| *s)
    }

    impl Counters {
        pub(crate) fn new() -> Self {
            Counters(
                (0..STRIPES)
                    .map(|_| CachePadded::new(Stripe::default()))
                    .collect(),
            )
        }
        fn mine(&self) -> &Stripe {
            &self.0[stripe_of_this_thread()]
        }
        #[inline]
        pub(crate) fn probe(&self, hit: bool) {
            let s = self.mine();
            s.probes.fetch_add(1, Relaxed);
            if hit {
                s.hits.fetch_add(1, Relaxed);
            }
        }
        #[inline]
        pub(crate) fn store(&self, replaced: bool) {
            let s = self.mine();
            s.stores.fetch_add(1, Relaxed);
            if replaced {
                s.replacements.fetch_add(1, Relaxed);
            }
        }
        pub(crate) fn snapshot(&self) -> Option<CacheStats> {
            let mut total = CacheStats::default();
            for s in self.0.iter() {
                total.probes += s.probes.load(Relaxed);
                total.hits += s.hits.load(Relaxed);
                total.stores += s.stores.load(Relaxed);
                total.replacements += s.replacements.load(Relaxed);
            }
            Some(total)
        }
        pub(crate) fn reset(&self) {
            for s in self.0.iter() {
                for c in [&s.probes, &s.hits, &s.stores, &s.replacements] {
                    c.store(0, Relaxed);
                }
            }
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
