//! What the process holds, from `/proc` (Linux; `None` elsewhere).

/// Resident bytes of this process (`/proc/self/statm`, pages of 4 KiB).
pub fn resident_bytes() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    pages.checked_mul(4096)
}

/// Bytes of this process backed by transparent huge pages (`AnonHugePages` of
/// `/proc/self/smaps_rollup`).
pub fn huge_page_bytes() -> Option<usize> {
    let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    let line = rollup.lines().find(|l| l.starts_with("AnonHugePages:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The transparent-huge-page mode, as `/sys/kernel/mm/transparent_hugepage/enabled` shows it
/// (the bracketed word), or "unknown".
pub fn thp_mode() -> String {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .ok()
        .and_then(|s| {
            let (_, rest) = s.split_once('[')?;
            Some(rest.split_once(']')?.0.to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
