//! Key mixing and bucket indexing.
//!
//! Callers hand the table keys of any quality: Zobrist hashes, but also packed boards or plain
//! counters. Structured keys cluster (a counter's high bits barely move, and the index uses the
//! high bits), and their low bits are not random, which the probe's 2^-64 figure for a torn read
//! assumes of the keys within a bucket. After a bijective mixer both hold for any key set.
//! Because the mixer is a bijection, distinct keys stay distinct: mixing never adds a collision.
//! (The mixer alone does not bound torn reads: a torn pair's key stayed in the writer's bucket
//! until the check word got its tag; see `bucket.rs`.)

/// The SplitMix64 / Stafford "Mix13" finalizer. Each step is invertible (an xor-shift with a
/// non-zero shift, or a multiplication by an odd constant), so the whole map is a bijection on
/// `u64`. It costs a few cycles, next to the ~90 ns cache miss of the probe that follows.
#[inline]
#[must_use]
pub const fn mix64(key: u64) -> u64 {
    mix_tail(mix_head(key))
}

/// The first half of [`mix64`]: up to its last multiplication. A bijection with
/// `mix_head(0) = 0`; the table checks entries against it (the key's tag with `Keys::Any`,
/// see `bucket.rs`), which costs nothing beyond the mix the index needs.
#[inline(always)]
pub(crate) const fn mix_head(key: u64) -> u64 {
    let mut x = key;
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ x >> 27
}

/// The odd multiplier of [`mix_tail`].
pub(crate) const MIX_TAIL_MULTIPLIER: u64 = 0x94d0_49bb_1331_11eb;

/// The rest of [`mix64`]: `mix64(k) = mix_tail(mix_head(k))`. Its high bits are the high bits
/// of `x × MIX_TAIL_MULTIPLIER` (the xor-shift by 31 leaves the top 31 bits alone).
#[inline(always)]
pub(crate) const fn mix_tail(x: u64) -> u64 {
    let x = x.wrapping_mul(MIX_TAIL_MULTIPLIER);
    x ^ x >> 31
}

/// Maps a well-mixed 64-bit value to `0..n` by taking the high 64 bits of `value × n`
/// (Lemire, "A fast alternative to the modulo reduction", 2016): one multiplication, any `n`,
/// and it uses the high bits of the key, leaving the low bits' entropy to the key check.
#[inline]
pub const fn scale(value: u64, n: usize) -> usize {
    ((value as u128 * n as u128) >> 64) as usize
}

/// [`scale`] into `parts` equal parts of each of `n` cells: `(⌊s / parts⌋, s mod parts)` of
/// `s = scale(value, n · parts)`, the cell and which of its parts. The cell is `scale(value, n)`
/// (`⌊⌊k · n · x⌋ / k⌋ = ⌊n · x⌋`), so a key's part lies in the cell its whole-cell placement
/// uses. It is below `n` for every `n ≥ 1` and `parts ≥ 1`, even were `n · parts` to wrap
/// (`s` is then below the wrapped product, which is below `n · parts`): the tables' unchecked
/// line index (`alloc.rs`, SAFETY (10)) rests on that.
#[inline(always)]
pub(crate) const fn scale_parts(value: u64, n: usize, parts: usize) -> (usize, usize) {
    let s = scale(value, n.wrapping_mul(parts));
    (s / parts, s % parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inverse of `mix64`, to prove it is a bijection rather than just assert it.
    fn unmix64(mut x: u64) -> u64 {
        fn inv_xorshift(y: u64, s: u32) -> u64 {
            let mut x = y;
            let mut i = s;
            while i < 64 {
                x = y ^ (x >> s);
                i += s;
            }
            x
        }
        fn inv_odd(a: u64) -> u64 {
            // Newton's iteration for the inverse modulo 2^64.
            let mut inv = a;
            for _ in 0..6 {
                inv = inv.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(inv)));
            }
            inv
        }
        x = inv_xorshift(x, 31);
        x = x.wrapping_mul(inv_odd(0x94d0_49bb_1331_11eb));
        x = inv_xorshift(x, 27);
        x = x.wrapping_mul(inv_odd(0xbf58_476d_1ce4_e5b9));
        inv_xorshift(x, 30)
    }

    #[test]
    fn mixer_is_a_bijection() {
        let mut state = 0x1234_5678_9abc_def0u64;
        for k in (0..10_000u64).chain([0, 1, u64::MAX, 1 << 63]) {
            assert_eq!(unmix64(mix64(k)), k);
            state = mix64(state);
            assert_eq!(unmix64(mix64(state)), state);
        }
    }

    #[test]
    fn scale_stays_in_range() {
        for n in [1usize, 3, 7, 1000, usize::MAX] {
            for v in [0u64, 1, u64::MAX / 2, u64::MAX] {
                assert!(scale(v, n) < n);
            }
        }
        assert_eq!(scale(u64::MAX, 10), 9);
        assert_eq!(scale(0, 10), 0);
    }

    /// The cell is `scale(value, n)` and below `n`, the part below `parts`, for every value;
    /// also where `n · parts` wraps (the unchecked index's SAFETY argument needs that case).
    #[test]
    fn parts_stay_in_their_cell() {
        let values = (0..20_000u64).map(mix64).chain([0, 1, u64::MAX]);
        for (v, n) in values.zip(
            [1usize, 2, 3, 1000, 1 << 40, usize::MAX / 3]
                .into_iter()
                .cycle(),
        ) {
            for parts in [1usize, 2, 6, 8] {
                let (cell, part) = scale_parts(v, n, parts);
                assert!(cell < n && part < parts, "{v} {n} {parts}");
                if n.checked_mul(parts).is_some() {
                    assert_eq!(cell, scale(v, n));
                }
            }
        }
    }
}
