//! The omission bounds against values computed independently: by hand (exact fractions) and by
//! direct summation of the defining formulas.

use searchcache::omission::{
    birthday, bloom_false_positive, bloom_miss, bloom_offered, stern_dill, tlc_optimistic,
    uniform_hashing_comparisons,
};

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}

/// H(x), summed.
fn harmonic(x: u64) -> f64 {
    (1..=x).rev().map(|i| 1.0 / i as f64).sum()
}

/// Stern–Dill's E as written in the paper: (m+1)(H(m+1) − H(m−n+1)) − n.
fn e_by_harmonics(n: u64, m: u64) -> f64 {
    (m + 1) as f64 * (harmonic(m + 1) - harmonic(m - n + 1)) - n as f64
}

#[test]
fn stern_dill_by_hand() {
    // n = 3, m = 4: E = 0/5 + 1/4 + 2/3 = 11/12; with b = 1, 11/24.
    assert!(close(uniform_hashing_comparisons(3, 4), 11.0 / 12.0, 1e-15));
    assert!(close(stern_dill(3, 4, 1), 11.0 / 24.0, 1e-15));
    // The harmonic form gives the same: 5 · (H5 − H2) − 3 = 5 · (137/60 − 3/2) − 3 = 11/12.
    assert!(close(e_by_harmonics(3, 4), 11.0 / 12.0, 1e-14));
    // n = m = 2: E = 0 + 1/2; b = 4: 1/32.
    assert!(close(stern_dill(2, 2, 4), 1.0 / 32.0, 1e-15));
    assert_eq!(stern_dill(0, 10, 8), 0.0);
    assert_eq!(stern_dill(1, 10, 8), 0.0);
}

#[test]
fn stern_dill_matches_the_paper_formula() {
    for (n, m) in [(10, 100), (1000, 1000), (5000, 1 << 16), (60_000, 65_536)] {
        let e = e_by_harmonics(n, m);
        assert!(
            close(uniform_hashing_comparisons(n, m), e, 1e-9),
            "n {n} m {m}: {} vs {e}",
            uniform_hashing_comparisons(n, m)
        );
        assert!(close(stern_dill(n, m, 32), e / 2f64.powi(32), 1e-9));
    }
}

/// Beyond 2^20 states the function switches to the asymptotic harmonic series: check it
/// against the direct sum Σ i/(m+1−i), at low load, at high load, and full.
#[test]
fn stern_dill_large_n_matches_direct_summation() {
    for (n, m) in [
        ((1 << 20) + 5, 1u64 << 32),
        ((1 << 20) + 5, (1 << 21) + 3),
        ((1 << 20) + 5, (1 << 20) + 5),
        ((1 << 20) + 5, (1 << 20) + 900),
    ] {
        let direct: f64 = (0..n).map(|i| i as f64 / (m + 1 - i) as f64).sum();
        let got = uniform_hashing_comparisons(n, m);
        assert!(close(got, direct, 1e-9), "n {n} m {m}: {got} vs {direct}");
    }
    // Bounds clamp to 1 and impossible tables are 1.
    assert_eq!(stern_dill(1 << 21, 1 << 21, 8), 1.0);
    assert_eq!(stern_dill(11, 10, 64), 1.0);
}

#[test]
fn stern_dill_large_tables_are_n_squared_over_2m() {
    // At low load E ≈ n²/(2m): 10^6 states in 2^40 slots, 64 bits.
    let (n, m) = (1e6, 2f64.powi(40));
    let approx = n * n / (2.0 * m) / 2f64.powi(64);
    assert!(close(stern_dill(1_000_000, 1 << 40, 64), approx, 1e-5));
}

#[test]
fn birthday_by_hand() {
    // 2^16 values of 32 bits: 65536 · 65535 / 2 / 2^32 = 65535 / 131072.
    assert!(close(birthday(1 << 16, 32), 65535.0 / 131072.0, 1e-15));
    // 10^6 states, 64 bits: 10^6 (10^6 − 1) / 2^65.
    assert!(close(
        birthday(1_000_000, 64),
        999_999e6 / 36_893_488_147_419_103_232.0,
        1e-12
    ));
    assert_eq!(birthday(0, 8), 0.0);
    assert_eq!(birthday(1, 8), 0.0);
    assert_eq!(birthday(1000, 8), 1.0);
}

#[test]
fn tlc_optimistic_by_hand() {
    // 10^6 distinct, 5 · 10^6 generated: 10^6 · 4 · 10^6 / 2^64 = 4 · 10^12 / 18446744073709551616.
    assert!(close(
        tlc_optimistic(1_000_000, 5_000_000),
        4e12 / 18_446_744_073_709_551_616.0,
        1e-12
    ));
    assert_eq!(tlc_optimistic(10, 10), 0.0);
    assert_eq!(tlc_optimistic(10, 3), 0.0);
}

#[test]
fn bloom_false_positive_by_hand() {
    // 1000 states, 8000 bits, k = 3: (1 − e^(−3/8))^3.
    let expected = (1.0 - (-0.375f64).exp()).powi(3);
    assert!(close(bloom_false_positive(1000, 8000, 3), expected, 1e-12));
    assert_eq!(bloom_false_positive(0, 8000, 3), 0.0);
    assert_eq!(bloom_false_positive(5, 0, 3), 1.0);
    assert_eq!(bloom_false_positive(5, 100, 0), 1.0);
}

/// Σ_{i<n} f(i) / n, f(i) = (1 − e^(−ki/m))^k, summed term by term.
fn miss_by_summation(n: u64, m: u64, k: u32) -> f64 {
    let missed: f64 = (0..n)
        .map(|i| (1.0 - (-(k as f64) * i as f64 / m as f64).exp()).powi(k as i32))
        .sum();
    missed / n as f64
}

#[test]
fn bloom_miss_matches_direct_summation() {
    for (n, m, k) in [
        (1000, 8000, 3),
        (50_000, 1 << 20, 2),
        (200_000, 1 << 21, 3),
        (1_000_000, 1 << 23, 3),
        (1_000_000, 1 << 22, 5),
        (300_000, 1 << 20, 1),
        (1_000_000, 1 << 20, 2), // heavily loaded: U > 0.95, the other branch
        (100_000, 1 << 22, 32),  // many hashes, tiny miss rate
    ] {
        let got = bloom_miss(n, m, k);
        let want = miss_by_summation(n, m, k);
        assert!(close(got, want, 1e-6), "n {n} m {m} k {k}: {got} vs {want}");
    }
    assert_eq!(bloom_miss(0, 100, 3), 0.0);
    assert_eq!(bloom_miss(10, 0, 3), 1.0);
    assert!(bloom_miss(100_000, 512, 3) > 0.99);
}

#[test]
fn bloom_miss_by_hand() {
    // k = 1, n = m: ∫_0^m (1 − e^(−i/m)) di = m/e, so the fraction is 1/e (less f(n)/2n).
    let m = 1_000_000;
    assert!(close(bloom_miss(m, m, 1), (-1f64).exp(), 1e-6));
}

#[test]
fn bloom_offered_inverts_the_miss_count() {
    for (stored, m, k) in [
        (900_000u64, 1u64 << 23, 3),
        (500_000, 1 << 21, 2),
        (10, 1 << 20, 3),
    ] {
        let offered = bloom_offered(stored, m, k);
        let missed = offered * bloom_miss(offered.round() as u64, m, k);
        assert!(
            close(offered - missed, stored as f64, 1e-6),
            "{stored}: {offered}"
        );
        assert!(offered >= stored as f64);
    }
    assert_eq!(bloom_offered(0, 1 << 20, 3), 0.0);
    assert!(bloom_offered(1_000_000, 512, 3).is_infinite());
}

/// Extreme arguments (a CLI may pass anything) give a probability in [0, 1] or infinity where
/// documented, never a panic.
#[test]
fn extreme_arguments_do_not_panic() {
    let huge = [0u64, 1, 2, u64::MAX / 2, u64::MAX - 1, u64::MAX];
    for &n in &huge {
        for &m in &huge {
            let p = stern_dill(n, m, 64);
            assert!((0.0..=1.0).contains(&p), "stern_dill({n}, {m}) = {p}");
            if n > m {
                assert!(uniform_hashing_comparisons(n, m).is_infinite());
            }
            for k in [0, 1, 3, 64, u32::MAX] {
                let f = bloom_false_positive(n, m, k);
                assert!(
                    (0.0..=1.0).contains(&f),
                    "bloom_false_positive({n}, {m}, {k})"
                );
                if n < 1 << 40 {
                    let miss = bloom_miss(n, m, k);
                    assert!(
                        (0.0..=1.0).contains(&miss),
                        "bloom_miss({n}, {m}, {k}) = {miss}"
                    );
                    assert!(bloom_offered(n, m, k) >= n as f64 || n == 0);
                }
            }
        }
        for bits in [0, 1, 32, 64, 1000, u32::MAX] {
            assert!((0.0..=1.0).contains(&birthday(n, bits)));
            assert!((0.0..=1.0).contains(&stern_dill(n / 2, n, bits)));
        }
        assert!((0.0..=1.0).contains(&tlc_optimistic(n, u64::MAX)));
    }
}
