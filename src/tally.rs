//! `Tally`: exact-when-quiet counters that many threads bump without sharing a cache line.
//!
//! A visited set counts every new state; one shared `fetch_add` per insert would bounce a single
//! cache line between all inserting cores. Each thread instead adds to its own stripe, padded to
//! 128 bytes (`CachePadded`: Intel's adjacent-line prefetcher pulls lines in pairs), and a read
//! sums the stripes. The sum is exact once the threads have stopped; while they run it is some
//! value between the counts at the start and at the end of the read.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Stripes: 16 threads never share one; beyond, threads share stripes round-robin.
const STRIPES: usize = 16;

/// Two running totals, `count` and `weight` (a visited set's states and signature comparisons).
// Plain std atomics even under loom: the totals are statistics, not part of the set's protocol.
pub(crate) struct Tally(Box<[CachePadded<Stripe>]>);

#[derive(Default)]
struct Stripe {
    count: AtomicU64,
    weight: AtomicU64,
}

/// This thread's stripe, assigned round-robin on first use.
fn stripe_of_this_thread() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static STRIPE: usize = NEXT.fetch_add(1, Relaxed) % STRIPES;
    }
    STRIPE.with(|s| *s)
}

impl Tally {
    pub(crate) fn new() -> Self {
        Tally((0..STRIPES).map(|_| CachePadded::default()).collect())
    }

    /// Adds one to `count` and `weight` to `weight`.
    #[inline]
    pub(crate) fn add(&self, weight: u64) {
        let stripe = &self.0[stripe_of_this_thread()];
        stripe.count.fetch_add(1, Relaxed);
        if weight != 0 {
            stripe.weight.fetch_add(weight, Relaxed);
        }
    }

    /// The total count.
    pub(crate) fn count(&self) -> u64 {
        self.0.iter().map(|s| s.count.load(Relaxed)).sum()
    }

    /// The total weight.
    pub(crate) fn weight(&self) -> u64 {
        self.0.iter().map(|s| s.weight.load(Relaxed)).sum()
    }

    /// Both back to zero.
    pub(crate) fn reset(&mut self) {
        for s in self.0.iter() {
            s.count.store(0, Relaxed);
            s.weight.store(0, Relaxed);
        }
    }
}
