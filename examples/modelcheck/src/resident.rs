//! The process's peak resident memory, for the reports.

/// The process's peak resident memory, from Linux's `/proc/self/status` (`VmHWM`); `None`
/// where that file is missing or unreadable.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
