//! `Tally<N>`: `N` exact-when-quiet counters that many threads bump without sharing a cache line.
//!
//! A visited set counts every new state and a table (with the `stats` feature) every probe; one
//! shared `fetch_add` per operation would bounce a single cache line between all cores. Each
//! thread instead adds to its own stripe, padded to 128 bytes (`CachePadded`: Intel's
//! adjacent-line prefetcher pulls lines in pairs), and a read sums the stripes. The sum is exact
//! once the threads have stopped; while they run it is some value between the counts at the
//! start and at the end of the read.
//!
//! Plain std atomics even under loom: the totals are statistics, not part of any protocol, and
//! tracking them would only multiply loom's interleavings.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Stripes: 16 threads never share one; beyond, threads share stripes round-robin.
const STRIPES: usize = 16;

/// `N` running totals, striped per thread.
pub(crate) struct Tally<const N: usize>(Box<[CachePadded<[AtomicU64; N]>]>);

/// This thread's stripe, assigned round-robin on first use.
fn stripe_of_this_thread() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static STRIPE: usize = NEXT.fetch_add(1, Relaxed) % STRIPES;
    }
    STRIPE.with(|s| *s)
}

impl<const N: usize> Tally<N> {
    pub(crate) fn new() -> Self {
        Tally(
            (0..STRIPES)
                .map(|_| CachePadded::new(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
        )
    }

    /// Adds `amounts[i]` to total `i` (zeros cost nothing).
    #[inline]
    pub(crate) fn add(&self, amounts: [u64; N]) {
        let stripe = &self.0[stripe_of_this_thread()];
        for (counter, amount) in stripe.iter().zip(amounts) {
            if amount != 0 {
                counter.fetch_add(amount, Relaxed);
            }
        }
    }

    /// Total `i`.
    pub(crate) fn total(&self, i: usize) -> u64 {
        self.0.iter().map(|s| s[i].load(Relaxed)).sum()
    }

    /// Every total back to zero.
    pub(crate) fn reset(&self) {
        for counter in self.0.iter().flat_map(|s| s.iter()) {
            counter.store(0, Relaxed);
        }
    }
}
