//! Page-size advice for the hand-written table's memory (`handwritten.rs`), so that it runs on
//! the pages the crate's tables run on: 2 MiB where asked, as Stockfish asks for them, or
//! 4 KiB. The suite's one `unsafe` block: a system call on memory this process owns.

/// Advises the kernel to back the pages of `memory` (an allocation not yet touched, so that
/// the first touch faults in pages of the advised size) with 2 MiB pages if `huge`, else with
/// 4 KiB pages. Only whole 4 KiB pages inside `memory` are advised; the kernel gives 2 MiB
/// pages to the 2 MiB-aligned runs inside those. Advice the kernel refuses is ignored: the
/// table then runs on whatever pages it gets (`dense` prints the process's huge pages after
/// each table's fill).
pub fn advise<T>(memory: &mut [T], huge: bool) {
    const PAGE: usize = 4096;
    let begin = memory.as_mut_ptr() as usize;
    let end = begin + std::mem::size_of_val(memory);
    let first = begin.next_multiple_of(PAGE);
    let last = end / PAGE * PAGE;
    if last <= first {
        return;
    }
    let advice = if huge {
        libc::MADV_HUGEPAGE
    } else {
        libc::MADV_NOHUGEPAGE
    };
    #[allow(unsafe_code)]
    // SAFETY: `first..last` lies inside `memory`, which `&mut` gives this function alone, and
    // is page-aligned as madvise requires. MADV_HUGEPAGE and MADV_NOHUGEPAGE change only how
    // the kernel backs the pages, never their contents, so no Rust value is changed.
    unsafe {
        libc::madvise(first as *mut libc::c_void, last - first, advice);
    }
}

/// `n` values from `make`, in a `Vec` whose memory was advised (`advise`) before its first
/// touch: how the hand-written tables allocate. Errors, not an abort, when the memory cannot
/// be had.
pub fn advised_vec<T>(n: usize, huge: bool, make: impl Fn() -> T) -> Result<Vec<T>, String> {
    let mut values = Vec::new();
    values
        .try_reserve_exact(n)
        .map_err(|e| format!("{n} values of {} bytes: {e}", std::mem::size_of::<T>()))?;
    advise(values.spare_capacity_mut(), huge);
    values.extend((0..n).map(|_| make()));
    Ok(values)
}
