//! How likely a probabilistic state store is to have missed part of the state space: the figures
//! a model checker prints after a run.
//!
//! A hash-compaction set ([`crate::VisitedSet`]) keeps only a `b`-bit signature per state, so a
//! new state whose signature equals a stored one *in the slots it is compared with* is taken for
//! that state and never explored: an **omission**. A bitstate array ([`crate::Bitstate`]) misses
//! a new state when all of its `k` bits are already set. Neither reports a wrong state; both can
//! silently skip part of the graph, so a checker must say how likely that was.
//!
//! | function | what it bounds | source |
//! |----------|----------------|--------|
//! | [`stern_dill`] | P(any omission), index and signature independent, uniform hashing | Stern & Dill 1995 |
//! | [`birthday`] | P(any two of `n` states share a `b`-bit hash) | birthday / union bound |
//! | [`tlc_optimistic`] | TLC's "optimistic" fingerprint-collision figure | TLC (TLA+ tools) |
//! | [`bloom_false_positive`] | P(the next new state is missed) after `n` stored, bitstate | Bloom 1970 |
//! | [`bloom_miss`] | expected fraction of `n` offered states missed, bitstate | Holzmann 1998 |
//! | [`bloom_offered`] | states offered for `n` to be stored, bitstate | (inverts the above) |
//!
//! ```
//! use searchcache::{omission, FingerprintSet, StateHash};
//!
//! let seen = FingerprintSet::with_expected_states(100_000)?;
//! let mut generated = 0u64;
//! for s in 0..100_000u64 {
//!     generated += 2; // each state reached twice
//!     seen.insert(StateHash::of(&s)).unwrap();
//! }
//! let n = seen.len() as u64;
//! println!("P(omission) <= {:.1e} (this run's comparisons)", seen.omission_probability());
//! println!("Stern-Dill, uniform hashing: {:.1e}", omission::stern_dill(n, seen.capacity() as u64, 64));
//! println!("TLC optimistic: {:.1e}", omission::tlc_optimistic(n, generated));
//! assert!(seen.omission_probability() < 1e-9);
//! # Ok::<(), searchcache::Error>(())
//! ```
//!
//! All return probabilities or fractions in `[0, 1]` (bounds above 1 are clamped to 1) and never
//! panic: degenerate inputs (no slots, no bits, more states than slots) give 1.
//!
//! # Sources
//!
//! * Ulrich Stern, David L. Dill, *Improved Probabilistic Verification by Hash Compaction*,
//!   CHARME 1995, LNCS 987, pp. 206–224. Theorem: with `n` states inserted into a table of `m`
//!   slots by uniform (ordered) hashing, `b`-bit signatures independent of the index, the
//!   probability of any omission is at most `E / 2^b`, where
//!   `E = (m+1)·(H(m+1) − H(m−n+1)) − n = Σ_{i<n} i/(m+1−i)` is the expected number of signature
//!   comparisons with stored states during the `n` insertions (`H` the harmonic numbers).
//! * The birthday bound: `n` uniformly random `b`-bit values are pairwise distinct except with
//!   probability at most `n(n−1)/2 · 2^-b ≤ n²/2^(b+1)` (union bound over the pairs). It applies
//!   whenever the index is not independent of the signature, e.g. a 64-bit fingerprint set.
//! * TLC, the TLA+ model checker, prints after a run "calculated (optimistic): val =
//!   n·(g−n)/2^64" for `n` distinct states found and `g` states generated: it counts each of
//!   the `g − n` regenerated states as one chance in `2^64 / n` of matching a wrong fingerprint.
//!   It is *not* a bound (hence "optimistic"); it is offered for users who compare with TLC.
//! * Burton H. Bloom, *Space/Time Trade-offs in Hash Coding with Allowable Errors*, CACM 13(7),
//!   1970; Gerard J. Holzmann, *An Analysis of Bitstate Hashing*, Formal Methods in System
//!   Design 13, 1998 (SPIN's supertrace, and the coverage estimate built on the Bloom formula).

/// `2^-bits` as an `f64` (exact for any `bits` below 1075).
fn two_to_minus(bits: u32) -> f64 {
    0.5f64.powi(bits.min(1100) as i32)
}

/// Stern and Dill's bound on the probability that hash compaction omitted any state: `E / 2^b`,
/// `E = (m+1)·(H(m+1) − H(m−n+1)) − n`, for `n` states in `m` slots with `bits`-bit signatures
/// independent of the slot index (see the module docs for the source).
///
/// The bound assumes uniform hashing, where an insertion compares its signature with about
/// `α/(1−α)` stored ones at load `α`. A [`crate::VisitedSet`] compares with every occupied slot
/// of the state's 64-byte line (8 or 16), so at low load it makes more comparisons than that:
/// [`crate::VisitedSet::omission_probability`] uses the comparisons it actually made instead.
/// Returns 1 when `n > m` (no such table) and 0 when `n == 0`.
#[must_use]
pub fn stern_dill(n: u64, m: u64, bits: u32) -> f64 {
    if n > m {
        return 1.0;
    }
    (uniform_hashing_comparisons(n, m) * two_to_minus(bits)).min(1.0)
}

/// Stern and Dill's `E`: the expected number of signature comparisons with stored states while
/// `n` states are inserted into `m` slots by uniform hashing, `Σ_{i<n} i/(m+1−i)`. Infinite when
/// `n > m` (no such table).
#[must_use]
pub fn uniform_hashing_comparisons(n: u64, m: u64) -> f64 {
    if n > m {
        return f64::INFINITY;
    }
    // Up to 2^20 terms the sum itself is exact to rounding and costs about a millisecond;
    // beyond, the harmonic form, whose cancellation costs ~n·2^-52 absolute error, far below E.
    if n <= 1 << 20 {
        return (0..n).map(|i| i as f64 / ((m - i) as f64 + 1.0)).sum();
    }
    let (a, b) = (m.saturating_add(1), m - n + 1);
    ((m as f64 + 1.0) * harmonic_difference(a, b) - n as f64).max(0.0)
}

/// `H(a) − H(b)` for `a >= b >= 1`, accurate when the two are close.
fn harmonic_difference(a: u64, b: u64) -> f64 {
    /// Below this, `H(x)` is summed term by term; above, the asymptotic series is exact to
    /// rounding (its first omitted term is `1/(252 x^6)`, below 10^-20 at x = 1024).
    const SERIES_FROM: u64 = 1 << 10;
    /// `H(x) − ln x − γ` by the asymptotic series.
    fn tail(x: f64) -> f64 {
        let x2 = x * x;
        1.0 / (2.0 * x) - 1.0 / (12.0 * x2) + 1.0 / (120.0 * x2 * x2)
    }
    fn exact(x: u64) -> f64 {
        (1..=x).rev().map(|i| 1.0 / i as f64).sum()
    }
    const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;
    if b >= SERIES_FROM {
        // ln(a/b) as ln(1 + (a−b)/b): no cancellation when a ≈ b.
        ((a - b) as f64 / b as f64).ln_1p() + tail(a as f64) - tail(b as f64)
    } else if a >= SERIES_FROM {
        (a as f64).ln() + EULER_GAMMA + tail(a as f64) - exact(b)
    } else {
        exact(a) - exact(b)
    }
}

/// The birthday bound: the probability that some two of `n` independent uniformly random
/// `bits`-bit hashes are equal is at most `n(n−1)/2 · 2^-bits` (≤ `n²/2^(bits+1)`).
///
/// Applies to a set whose index is derived from the signature (so only the signature's bits
/// count), e.g. a [`crate::FingerprintSet`] fed with [`crate::StateHash::from_u64`]: then this,
/// with `bits = 64`, bounds the chance that two of your states share a key.
#[must_use]
pub fn birthday(n: u64, bits: u32) -> f64 {
    let n = n as f64;
    (n * (n - 1.0).max(0.0) / 2.0 * two_to_minus(bits)).min(1.0)
}

/// TLC's "optimistic" fingerprint-collision figure, `n · (g − n) / 2^64`, for `n` distinct
/// states and `generated` states generated (successors computed, duplicates included).
///
/// Clearly named because it is **not a bound**: TLC prints it as "calculated (optimistic)" next
/// to an empirical figure, and it can understate the true probability. Use [`stern_dill`],
/// [`birthday`] or [`crate::VisitedSet::omission_probability`] for a bound; use this only to
/// compare with TLC's output. Returns 0 when `generated <= n`.
#[must_use]
pub fn tlc_optimistic(n: u64, generated: u64) -> f64 {
    (n as f64 * generated.saturating_sub(n) as f64 * two_to_minus(64)).min(1.0)
}

/// The probability that a bitstate array of `table_bits` bits and `k` hash functions takes a
/// *new* state for one already seen, once `n` distinct states were offered to it (stored or
/// missed; see [`bloom_miss`] for why offered): `(1 − e^(−k·n/m))^k`, the Bloom filter's
/// false-positive rate (`m = table_bits`). `k` above [`BLOOM_MAX_HASHES`] counts as that.
#[must_use]
pub fn bloom_false_positive(n: u64, table_bits: u64, k: u32) -> f64 {
    false_positive_at(n as f64, table_bits, k)
}

/// Hash counts above this are taken as this many by the Bloom functions (a bitstate array with
/// more hash functions than this has no use; [`crate::Bitstate`] stops at 32).
pub const BLOOM_MAX_HASHES: u32 = 1 << 16;

/// [`bloom_false_positive`] at a real-valued `n`.
fn false_positive_at(n: f64, table_bits: u64, k: u32) -> f64 {
    if table_bits == 0 || k == 0 {
        return 1.0;
    }
    let k = k.min(BLOOM_MAX_HASHES);
    // 1 − e^(−kn/m) as −expm1(−kn/m): exact for small kn/m, where 1 − exp(·) would cancel.
    let filled = -(-(k as f64) * n / table_bits as f64).exp_m1();
    filled.powi(k as i32).min(1.0)
}

/// The expected fraction of `n` distinct states, offered in turn to a bitstate array of
/// `table_bits` bits with `k` hash functions, that it reports as seen (misses): SPIN's
/// supertrace coverage is one minus this.
///
/// After `i` states were offered, a fraction `1 − e^(−k·i/m)` of the bits is set on average
/// (a missed state sets no bit, and a stored one sets more new bits than `k(1−q)` by exactly the
/// factor that makes the average per offered state `k(1−q)`), so state `i` is missed with
/// probability `f(i) = (1 − e^(−k·i/m))^k`. The expected number missed is `Σ_{i<n} f(i)`:
/// computed as `∫_0^n f = (m/k) Σ_{j>k} U^j / j` with `U = 1 − e^(−k·n/m)` (substitute
/// `u = 1 − e^(−k·i/m)`; the series is the tail of `−ln(1−U)`), minus the Euler–Maclaurin end
/// term `f(n)/2`. Relative error far below 10^-6 for `n` above a few hundred.
///
/// This counts states *offered*. A checker knows the states *stored* ([`crate::Bitstate::len`]);
/// [`bloom_offered`] converts. `k` above [`BLOOM_MAX_HASHES`] counts as that. In a model checker a missed state's successors are also never
/// generated, which no formula over the table alone can count.
#[must_use]
pub fn bloom_miss(n: u64, table_bits: u64, k: u32) -> f64 {
    if n == 0 {
        return 0.0;
    }
    (expected_misses(n as f64, table_bits, k) / n as f64).clamp(0.0, 1.0)
}

/// `Σ_{i<n} f(i)` of [`bloom_miss`], for real `n`.
fn expected_misses(n: f64, table_bits: u64, k: u32) -> f64 {
    if table_bits == 0 || k == 0 {
        return n;
    }
    let k = k.min(BLOOM_MAX_HASHES);
    let (m, kf) = (table_bits as f64, k as f64);
    let x = kf * n / m; // −ln(1 − U)
    let u = -(-x).exp_m1();
    // Σ_{j>k} U^j / j: the series while it converges fast (at U < 0.95, 1000 terms reach 10^-22
    // relative); above, −ln(1−U) minus the first k terms, which no longer cancel badly.
    let tail = if u < 0.95 {
        let mut term = u.powi(k as i32);
        let mut sum = 0.0;
        for j in (k + 1)..(k + 1000) {
            term *= u;
            sum += term / j as f64;
            if term <= sum * 1e-18 {
                break;
            }
        }
        sum
    } else {
        let mut power = 1.0;
        let head: f64 = (1..=k)
            .map(|j| {
                power *= u;
                power / j as f64
            })
            .sum();
        x - head
    };
    (m / kf * tail - false_positive_at(n, table_bits, k) / 2.0).max(0.0)
}

/// The expected number of distinct states offered to a bitstate array for `stored` of them to
/// be stored: the `N` with `N − Σ_{i<N} f(i) = stored` (see [`bloom_miss`]). Infinite when the
/// array cannot plausibly store that many (its fill would round to 1).
#[must_use]
pub fn bloom_offered(stored: u64, table_bits: u64, k: u32) -> f64 {
    if stored == 0 {
        return 0.0;
    }
    let target = stored as f64;
    let stored_after = |n: f64| n - expected_misses(n, table_bits, k);
    // Stored(N) is increasing (its slope 1 − f(N) is positive); bracket, then bisect.
    let (mut low, mut high) = (target, target.max(1.0) * 2.0);
    while stored_after(high) < target {
        low = high;
        high *= 2.0;
        if !high.is_finite() || high > 1e30 {
            return f64::INFINITY;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if stored_after(mid) < target {
            low = mid;
        } else {
            high = mid;
        }
        if high - low <= 1e-9 * high {
            break;
        }
    }
    0.5 * (low + high)
}
