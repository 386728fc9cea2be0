//! The atomics the table is built from: `std`'s normally, `loom`'s under `--cfg loom` or
//! `--cfg searchcache_loom`.
//!
//! Everything racy in the crate goes through these types, so a downstream crate that embeds a
//! `SearchCache` in its own `loom::model` sees every access of ours as a loom-tracked operation.

#[cfg(not(any(loom, searchcache_loom)))]
#[allow(unused_imports)] // AtomicU32: the 32-bit visited set
pub(crate) use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8};

#[cfg(any(loom, searchcache_loom))]
#[allow(unused_imports)]
pub(crate) use loom::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8};

pub(crate) use std::sync::atomic::Ordering;

/// What an operation is about to do to a table, told to loom; nothing outside loom (a
/// zero-sized type whose methods are empty).
///
/// Under loom, one more atomic per table that every operation touches first: readers load it,
/// writers store to it. A writer's own loads of a word (a store scans its bucket, an insert its
/// line, before writing) replace a reader's earlier load as loom's last access to that word, so
/// loom's DPOR never sees the reader's load conflict with the later write and never tries the
/// write first (loom issues #166, #392): a model whose main thread probes before its writers
/// run explored exactly one execution. The writer's store to this atomic comes before any of
/// its loads, so it conflicts with the reader's load of it, and loom backtracks to run the
/// writer first; from there the word-level races are explored as usual. Relaxed accesses to an
/// atomic nobody else uses order nothing, so no behaviour of the table is hidden.
#[derive(Debug, Default)]
pub(crate) struct Intent(#[cfg(any(loom, searchcache_loom))] AtomicU64);

impl Intent {
    pub(crate) fn new() -> Self {
        Intent(
            #[cfg(any(loom, searchcache_loom))]
            AtomicU64::new(0),
        )
    }

    /// Before an operation that only reads.
    #[inline(always)]
    pub(crate) fn read(&self) {
        #[cfg(any(loom, searchcache_loom))]
        let _ = self.0.load(Ordering::Relaxed);
    }

    /// Before an operation that may write.
    #[inline(always)]
    pub(crate) fn write(&self) {
        #[cfg(any(loom, searchcache_loom))]
        self.0.store(0, Ordering::Relaxed);
    }
}
