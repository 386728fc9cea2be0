//! The memory under a table, and the prefetch hint: all of the crate's `unsafe` lives here.
//!
//! Why not `Vec<Bucket>`? A `Vec` of `align(64)` buckets is aligned, but building it writes every
//! byte (`(0..n).map(..).collect()`), so a 16 GiB table costs seconds and 16 GiB of resident memory
//! before the first probe. `alloc_zeroed` with a 64-byte alignment does no better on glibc: above
//! the mmap threshold it still memsets, because it cannot tell that the fresh pages are zero. Tables
//! of [`HUGE_PAGE`] bytes and more therefore come straight from `mmap`: the kernel hands out
//! zero pages lazily, so creation takes microseconds and only touched pages cost memory, and the
//! mapping is trimmed to a 2 MiB boundary and `madvise(MADV_HUGEPAGE)`d before the first touch, so
//! transparent huge pages can back it (one TLB entry then covers 32,768 buckets instead of 64).
//! Smaller tables, and every table off unix, use the global allocator's `alloc_zeroed`.
//!
//! Under loom (`--cfg loom` or `--cfg searchcache_loom`) there is no raw memory at all: loom's atomics are not plain
//! words and must be built with `new`, so the table is an ordinary boxed slice.

/// The size of a transparent huge page on x86-64 and (with 4 KiB base pages) on aarch64.
#[cfg_attr(any(loom, searchcache_loom), allow(dead_code))]
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// Whether a table asks the kernel for transparent huge pages.
///
/// Only Linux acts on this; elsewhere both values behave alike. Huge pages are a request, not a
/// guarantee: with THP in `never` mode, or with memory fragmented, the kernel uses 4 KiB pages.
/// [`crate::SearchCache::huge_page_bytes`] reports what was granted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HugePages {
    /// `madvise(MADV_HUGEPAGE)` tables of 2 MiB and more (the default).
    #[default]
    Advise,
    /// `madvise(MADV_NOHUGEPAGE)`: 4 KiB pages even where THP is `always` (for benchmarking).
    Never,
}

/// A type whose all-zero bit pattern is a valid, "empty" value.
///
/// # Safety
///
/// Zero bytes must be a valid `Self`, equal to [`ZeroInit::empty`], with no drop glue that
/// matters (the memory is released without dropping its elements). Atomic integers and arrays of
/// them qualify.
pub(crate) unsafe trait ZeroInit: Sized + Send + Sync {
    /// The all-zero value, built safely (loom's atomics must be built this way).
    #[cfg_attr(not(any(loom, searchcache_loom)), allow(dead_code))]
    fn empty() -> Self;
}

use crate::sync::AtomicU64;
pub(crate) use region::Region;

#[cfg(not(any(loom, searchcache_loom)))]
mod region {
    use super::{AtomicLine, AtomicU64, HugePages, ZeroInit, HUGE_PAGE};
    use crate::error::Error;
    use crate::mix::{scale, scale_parts};
    use std::alloc::Layout;
    use std::io;
    use std::ptr::NonNull;

    /// `len` zero-initialised `T`s, owned, aligned to `T` (64 bytes for a bucket) and, when mapped,
    /// to 2 MiB.
    pub(crate) struct Region<T: ZeroInit> {
        ptr: NonNull<T>,
        len: usize,
        backing: Backing,
    }

    enum Backing {
        /// An `mmap` of this many bytes starting at `ptr`.
        #[cfg(unix)]
        Mapped { bytes: usize },
        /// A global-allocator block with this layout.
        Heap { layout: Layout },
    }

    // SAFETY: (1) a `Region<T>` owns its `T`s exactly like a `Box<[T]>` does; it may move to and be
    // shared with other threads whenever a boxed slice of `T` could.
    unsafe impl<T: ZeroInit> Send for Region<T> {}
    // SAFETY: see (1).
    unsafe impl<T: ZeroInit> Sync for Region<T> {}

    impl<T: ZeroInit> Region<T> {
        /// `len` zeroed values. Never panics or aborts: allocation failure is an `Err`.
        pub(crate) fn zeroed(len: usize, pages: HugePages) -> Result<Self, Error> {
            let layout = Layout::array::<T>(len).map_err(|e| {
                let bytes = len.saturating_mul(size_of::<T>());
                Error::allocation(bytes, io::Error::new(io::ErrorKind::OutOfMemory, e))
            })?;
            assert!(layout.size() > 0, "tables hold at least one line");
            #[cfg(unix)]
            if layout.size() >= HUGE_PAGE {
                return Self::mapped(len, layout.size(), pages);
            }
            let _ = pages;
            Self::heap(len, layout)
        }

        fn heap(len: usize, layout: Layout) -> Result<Self, Error> {
            // SAFETY: (2) `layout` has a non-zero size (asserted by the caller).
            let raw = unsafe { std::alloc::alloc_zeroed(layout) };
            let ptr = NonNull::new(raw.cast::<T>()).ok_or_else(|| {
                let why = "the global allocator returned null";
                Error::allocation(
                    layout.size(),
                    io::Error::new(io::ErrorKind::OutOfMemory, why),
                )
            })?;
            Ok(Region {
                ptr,
                len,
                backing: Backing::Heap { layout },
            })
        }

        #[cfg(unix)]
        fn mapped(len: usize, bytes: usize, pages: HugePages) -> Result<Self, Error> {
            let fail = |what: &str| {
                let os = io::Error::last_os_error();
                Error::allocation(bytes, io::Error::new(os.kind(), format!("{what}: {os}")))
            };
            // Round up to whole huge pages, and over-map by one so a 2 MiB boundary lies inside.
            let rounded = bytes
                .checked_next_multiple_of(HUGE_PAGE)
                .ok_or_else(|| fail("size"))?;
            let padded = rounded.checked_add(HUGE_PAGE).ok_or_else(|| fail("size"))?;
            // SAFETY: (3) an anonymous private mapping at an address of the kernel's choosing
            // aliases no Rust object; failure is reported as MAP_FAILED and checked below.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    padded,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return Err(fail("mmap"));
            }
            let start = base as usize;
            let aligned = start.next_multiple_of(HUGE_PAGE);
            let head = aligned - start;
            let tail = padded - head - rounded;
            if head > 0 {
                // SAFETY: (4) [base, base + head) lies inside the mapping made above and holds no
                // Rust object; unmapping it trims the mapping to start at `aligned`.
                unsafe { libc::munmap(base, head) };
            }
            if tail > 0 {
                // SAFETY: as (4), for the bytes past the aligned, rounded table.
                unsafe { libc::munmap((aligned + rounded) as *mut libc::c_void, tail) };
            }
            #[cfg(target_os = "linux")]
            {
                let advice = match pages {
                    HugePages::Advise => libc::MADV_HUGEPAGE,
                    HugePages::Never => libc::MADV_NOHUGEPAGE,
                };
                // SAFETY: (5) advice on a range we own; it changes how the kernel backs untouched
                // pages, never their contents. A refusal (THP compiled out) is harmless.
                unsafe { libc::madvise(aligned as *mut libc::c_void, rounded, advice) };
            }
            #[cfg(not(target_os = "linux"))]
            let _ = pages;
            let ptr = NonNull::new(aligned as *mut T).ok_or_else(|| fail("mmap"))?;
            Ok(Region {
                ptr,
                len,
                backing: Backing::Mapped { bytes: rounded },
            })
        }

        /// The first byte of the table, for finding its mapping in `/proc/self/smaps`.
        pub(crate) fn address(&self) -> usize {
            self.ptr.as_ptr() as usize
        }

        /// Empties a mapped region by giving its pages back to the OS: every element reads as
        /// zero afterwards, the memory is released at once, and the next write to each page
        /// faults in a fresh zero page (the region stays mapped, with its huge-page advice).
        /// Microseconds where writing zeros would take seconds per GiB. `false`, with nothing
        /// done, for a heap region, off Linux (other systems' `MADV_DONTNEED` may keep the
        /// contents), or if the kernel refuses: the caller then zeroes the elements itself.
        pub(crate) fn release_pages(&self) -> bool {
            #[cfg(target_os = "linux")]
            if let Backing::Mapped { bytes } = self.backing {
                // SAFETY: (9) the range is exactly the private anonymous mapping `mapped` kept,
                // owned by `self`. MADV_DONTNEED keeps it mapped (references into it stay
                // valid) and makes every byte read as zero, a valid `T` by `ZeroInit`'s
                // contract. `ZeroInit` types are atomics, read and written only atomically: a
                // thread racing this sees each word's old value or zero, as if another thread
                // had stored zero into it.
                let done =
                    unsafe { libc::madvise(self.ptr.as_ptr().cast(), bytes, libc::MADV_DONTNEED) };
                return done == 0;
            }
            false
        }
    }

    impl<T: ZeroInit> Region<T> {
        /// The element `scale_parts(x, len, parts)` names, and which of its `parts` (see
        /// `mix::scale_parts`): a table's line for a key, without a bounds check. The check
        /// cannot fail, and it was 2 of a dense probe's ~80 instructions (BENCHMARKS.md,
        /// "Options fixed by the type").
        #[inline(always)]
        pub(crate) fn at_scaled(&self, x: u64, parts: usize) -> (&T, usize) {
            let (i, part) = scale_parts(x, self.len, parts);
            let items: &[T] = self;
            // SAFETY: (10) `i < len`: `zeroed` makes every `Region` with `len ≥ 1` (it asserts a
            // non-zero size), and `scale_parts` returns a cell below `len` for any `len ≥ 1`,
            // `parts ≥ 1` and `x` (its doc and test).
            (unsafe { items.get_unchecked(i) }, part)
        }
    }

    impl<const N: usize> Region<AtomicLine<N>> {
        /// The `K` words that `at_scaled(x, N / K)` names (its line's words `part · K ..
        /// part · K + K`), addressed as group `scale(x, len · N / K)` of the lines' words seen
        /// as one array of `K`-word groups: `base + 8K · group`. From the line and the part,
        /// LLVM computes `base + 64 · line + 8K · part` (four instructions more per dense
        /// probe with `Slots::Half`; BENCHMARKS.md, "The tag in the low bits").
        #[inline(always)]
        pub(crate) fn group_scaled<const K: usize>(&self, x: u64) -> &[AtomicU64; K] {
            const {
                assert!(K > 0 && N.is_multiple_of(K));
                assert!(size_of::<AtomicLine<N>>() == N * size_of::<AtomicU64>());
            }
            // No wrap: the region's `len · N` words are addressable memory.
            let group = scale(x, self.len * (N / K));
            // SAFETY: (11) `AtomicLine<N>` is `repr(C)` around `[AtomicU64; N]` with no padding
            // (asserted above), so the region is `len · N` `AtomicU64`s in a row, and `K`
            // divides `N`: group `g` is words `g·K .. g·K + K`, inside line `g / (N/K)`.
            // `scale(x, m) < m` for every `m ≥ 1` (`len ≥ 1`, as in (10)), so the offset stays
            // inside the region's allocation.
            let words = unsafe { self.ptr.cast::<[AtomicU64; K]>().add(group) };
            // SAFETY: (11) those words are initialised atomics aligned for `AtomicU64` (the
            // line's alignment is 64), shared references to them may alias the lines' own, and
            // the borrow of `self` keeps the memory alive.
            unsafe { words.as_ref() }
        }
    }

    impl<T: ZeroInit> std::ops::Deref for Region<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            // SAFETY: (6) `ptr` points to `len` initialised `T`s (zero bytes are a valid `T` by
            // `ZeroInit`'s contract), aligned for `T`, owned by `self` and alive until drop.
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
        }
    }

    impl<T: ZeroInit> Drop for Region<T> {
        fn drop(&mut self) {
            match self.backing {
                #[cfg(unix)]
                Backing::Mapped { bytes } => {
                    // SAFETY: (7) exactly the range `mapped` kept; no reference into it outlives
                    // `self`, and `ZeroInit` types need no drop.
                    unsafe { libc::munmap(self.ptr.as_ptr().cast(), bytes) };
                }
                Backing::Heap { layout } => {
                    // SAFETY: allocated by `alloc_zeroed` with this very layout; see (7).
                    unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
                }
            }
        }
    }
}

#[cfg(any(loom, searchcache_loom))]
mod region {
    use super::{AtomicLine, AtomicU64, HugePages, ZeroInit};
    use crate::error::Error;
    use crate::mix::scale_parts;
    use std::io;

    /// Under loom: a boxed slice of loom atomics.
    pub(crate) struct Region<T: ZeroInit>(Box<[T]>);

    impl<T: ZeroInit> Region<T> {
        pub(crate) fn zeroed(len: usize, _pages: HugePages) -> Result<Self, Error> {
            let mut items = Vec::new();
            items.try_reserve_exact(len).map_err(|e| {
                let bytes = len.saturating_mul(size_of::<T>());
                Error::allocation(bytes, io::Error::new(io::ErrorKind::OutOfMemory, e))
            })?;
            items.extend((0..len).map(|_| T::empty()));
            Ok(Region(items.into_boxed_slice()))
        }

        pub(crate) fn address(&self) -> usize {
            self.0.as_ptr() as usize
        }

        /// Nothing to give back under loom: the caller zeroes the atomics.
        pub(crate) fn release_pages(&self) -> bool {
            false
        }
    }

    impl<T: ZeroInit> Region<T> {
        /// As the other `Region`'s, with the bounds check kept.
        pub(crate) fn at_scaled(&self, x: u64, parts: usize) -> (&T, usize) {
            let (i, part) = scale_parts(x, self.0.len(), parts);
            (&self.0[i], part)
        }
    }

    impl<const N: usize> Region<AtomicLine<N>> {
        /// As the other `Region`'s, from the line and the part, with bounds checks.
        pub(crate) fn group_scaled<const K: usize>(&self, x: u64) -> &[AtomicU64; K] {
            let (line, part) = scale_parts(x, self.0.len(), N / K);
            let words = &self.0[line].0[part * K..][..K];
            words.try_into().expect("K divides N")
        }
    }

    impl<T: ZeroInit> std::ops::Deref for Region<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            &self.0
        }
    }
}

/// Asks the CPU to start loading the cache line holding the start of `item` into L1, without
/// waiting for it: the safe form of `_mm_prefetch(_MM_HINT_T0)` / `prfm pldl1keep`.
///
/// [`crate::SearchCache::prefetch`] is this applied to a key's bucket; it is public so that code
/// beside a table (a benchmark's bare-read baseline, a caller's own arrays) needs no `unsafe`.
/// A hint only: it never faults, never changes memory, and is a no-op on targets other than
/// x86-64 and aarch64, and under loom.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    let _address = item as *const T;
    #[cfg(all(target_arch = "x86_64", not(any(loom, searchcache_loom))))]
    // SAFETY: (8) a prefetch is a hint: it never faults and never changes memory, and the address
    // comes from a live reference anyway. SSE is part of the x86-64 baseline.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(_address.cast());
    }
    #[cfg(all(target_arch = "aarch64", not(any(loom, searchcache_loom))))]
    // SAFETY: as (8); `prfm` only reads the register holding the address.
    unsafe {
        std::arch::asm!(
            "prfm pldl1keep, [{address}]",
            address = in(reg) _address,
            options(nostack, readonly, preserves_flags)
        );
    }
}

/// Bytes of the mapping that starts at `address` that are backed by transparent huge pages, read
/// from `/proc/self/smaps` (`AnonHugePages`). `None` where that file cannot be read or parsed.
#[cfg(target_os = "linux")]
pub(crate) fn huge_page_bytes(address: usize) -> Option<usize> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = false;
    for line in smaps.lines() {
        let mut fields = line.split_whitespace();
        let first = fields.next().unwrap_or("");
        if let Some((lo, hi)) = first.split_once('-') {
            if let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = (lo..hi).contains(&address);
                continue;
            }
        }
        if inside && first == "AnonHugePages:" {
            let kib: usize = fields.next()?.parse().ok()?;
            return kib.checked_mul(1024);
        }
    }
    None
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn huge_page_bytes(_address: usize) -> Option<usize> {
    None
}

/// One 64-byte cache line of `N` atomic words: the line of the visited set
/// ([`crate::VisitedSet`]) and of the bitstate array ([`crate::Bitstate`]).
#[repr(C, align(64))]
pub(crate) struct AtomicLine<const N: usize>(pub(crate) [AtomicU64; N]);

// SAFETY: an array of `AtomicU64`s, for which zero bytes are the valid value `new(0)`; no drop
// glue.
unsafe impl<const N: usize> ZeroInit for AtomicLine<N> {
    fn empty() -> Self {
        AtomicLine(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// Empties every line of `lines`: fresh zero pages from the OS when it gives them (cheap, and
/// the old pages' memory goes back), else every word zeroed in place. The `clear` of the sets
/// and of the bitstate array.
pub(crate) fn clear_lines<const N: usize>(lines: &mut Region<AtomicLine<N>>) {
    match Region::zeroed(lines.len(), HugePages::Advise) {
        Ok(fresh) => *lines = fresh,
        Err(_) => lines.iter().for_each(|line| clear_words(&line.0)),
    }
}

/// Zeroes `words`, skipping those already zero, so that clearing memory never written does not
/// make the OS commit its pages.
pub(crate) fn clear_words(words: &[AtomicU64]) {
    use crate::sync::Ordering::Relaxed;
    for word in words {
        if word.load(Relaxed) != 0 {
            word.store(0, Relaxed);
        }
    }
}

/// A 64-byte line as the files of [`crate::persist`] stream it: eight 64-bit words, in memory
/// order (a bucket, a set's line, a bitstate line, a cluster line's data words and checks).
pub(crate) trait Words: ZeroInit {
    /// The line's eight words, each read with one relaxed load (or, for a line of smaller
    /// atomics, a word's parts one load each).
    fn load_words(&self) -> [u64; 8];

    /// Writes `words` into a line that is all zero, skipping zero words (and zero parts), so
    /// that a page loaded with nothing is never committed.
    fn store_words(&self, words: &[u64; 8]);
}

impl Words for AtomicLine<8> {
    fn load_words(&self) -> [u64; 8] {
        load_all(&self.0)
    }

    fn store_words(&self, words: &[u64; 8]) {
        store_nonzero(&self.0, words);
    }
}

/// Every word of `atomics`, one relaxed load each.
pub(crate) fn load_all(atomics: &[AtomicU64; 8]) -> [u64; 8] {
    std::array::from_fn(|i| atomics[i].load(crate::sync::Ordering::Relaxed))
}

/// Stores the non-zero words of `words` into `atomics`.
pub(crate) fn store_nonzero(atomics: &[AtomicU64; 8], words: &[u64; 8]) {
    for (atomic, &word) in atomics.iter().zip(words) {
        if word != 0 {
            atomic.store(word, crate::sync::Ordering::Relaxed);
        }
    }
}
