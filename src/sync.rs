//! The atomics the table is built from: `std`'s normally, `loom`'s under `--cfg loom` or
//! `--cfg searchcache_loom`.
//!
//! Everything racy in the crate goes through these types, so a downstream crate that embeds a
//! `SearchCache` in its own `loom::model` sees every access of ours as a loom-tracked operation.

#[cfg(not(any(loom, searchcache_loom)))]
#[allow(unused_imports)] // AtomicU32: the 32-bit visited set
pub(crate) use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8};

#[cfg(any(loom, searchcache_loom))]
#[allow(unused_imports)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, AtomicU8};

pub(crate) use std::sync::atomic::Ordering;

/// Under loom, a yield at the start of every operation that only reads shared memory (a probe,
/// a lookup), so that loom's first execution runs the other threads' writes before it; nothing
/// otherwise. Why: "Loom" in the crate docs.
#[inline(always)]
pub(crate) fn before_read() {
    #[cfg(any(loom, searchcache_loom))]
    loom::thread::yield_now();
}
