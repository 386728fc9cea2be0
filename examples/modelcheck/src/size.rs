//! A byte count as people write sizes: `16M`, `1G`, `3K`.

/// `bytes` in the largest unit, K, M, G or T (powers of 1024), that divides it: `16M` for
/// 16 MiB; a count no unit divides is given in KiB, rounded up (`1K` for 100 bytes).
pub fn size_text(bytes: usize) -> String {
    let unit = ["K", "M", "G", "T"]
        .iter()
        .enumerate()
        .rev()
        .find(|(i, _)| bytes.is_multiple_of(1 << (10 * (i + 1))));
    match unit {
        Some((i, unit)) => format!("{}{unit}", bytes >> (10 * (i + 1))),
        None => format!("{}K", bytes.div_ceil(1 << 10)),
    }
}
