//! What `Bitstate::expected_miss_fraction` estimates, checked against exact counts on a state
//! space of known size: the Towers of Hanoi (3^n states), searched breadth-first with the
//! bitstate array as the visited store, at several sizes and hash counts.
//!
//! The figure is the expected fraction of the distinct states *offered* to the array that it
//! took for seen; it matches the measured fraction. It is not the fraction of the *reachable*
//! states missed: the successors of a missed state are never generated, so the coverage of a
//! search (stored / reachable) is at most `1 −` the figure, and can be far lower.

use searchcache::omission::bloom_miss;
use searchcache::{Bitstate, Size, StateHash};
use std::collections::{HashSet, VecDeque};

/// Hanoi with `discs` discs: disc `d`'s peg in bits `2d..2d+2`.
fn moves(discs: u32, state: u32, out: &mut Vec<u32>) {
    out.clear();
    // The smallest disc on each peg (discs are numbered small to large), or none.
    let mut top = [u32::MAX; 3];
    for d in (0..discs).rev() {
        top[(state >> (2 * d) & 3) as usize] = d;
    }
    for from in 0..3 {
        for to in 0..3 {
            if from != to && top[from] < top[to] {
                let d = top[from];
                out.push(state & !(3 << (2 * d)) | (to as u32) << (2 * d));
            }
        }
    }
}

/// A breadth-first search of Hanoi-`discs` from every disc on peg 0, with `seen` as the
/// visited store: (states stored, distinct states offered, distinct states reachable).
fn search(discs: u32, seen: Option<&Bitstate>) -> (u64, u64, u64) {
    let mut offered = HashSet::new();
    let mut queue = VecDeque::from([0u32]);
    let mut exact = HashSet::from([0u32]);
    let mut stored = 1;
    offered.insert(0u32);
    if let Some(seen) = seen {
        assert!(seen.insert(StateHash::of(&0u32)).is_new());
    }
    let mut out = Vec::new();
    while let Some(state) = queue.pop_front() {
        moves(discs, state, &mut out);
        for &next in &out {
            let new = match seen {
                Some(seen) => {
                    offered.insert(next);
                    seen.insert(StateHash::of(&next)).is_new()
                }
                None => exact.insert(next),
            };
            if new {
                stored += 1;
                queue.push_back(next);
            }
        }
    }
    (stored, offered.len() as u64, 3u64.pow(discs))
}

#[test]
fn an_exact_search_of_hanoi_finds_3_to_the_n_states() {
    for discs in [1, 2, 5, 10] {
        let (stored, _, reachable) = search(discs, None);
        assert_eq!(stored, reachable, "Hanoi-{discs}");
    }
}

/// One bitstate search: the measured fractions against the array's estimates.
struct Run {
    discs: u32,
    bytes: usize,
    k: u32,
    stored: u64,
    offered: u64,
    reachable: u64,
    estimate: f64,
}

fn run(discs: u32, bytes: usize, k: u32) -> Run {
    let seen = Bitstate::new(Size::Bytes(bytes), k).unwrap();
    let (stored, offered, reachable) = search(discs, Some(&seen));
    assert_eq!(seen.len() as u64, stored);
    Run {
        discs,
        bytes,
        k,
        stored,
        offered,
        reachable,
        estimate: seen.expected_miss_fraction(),
    }
}

#[test]
fn expected_miss_fraction_is_the_fraction_of_offered_states_missed_not_of_reachable_ones() {
    println!(
        "| Hanoi | bytes | k | bits/state | offered missed | estimate | coverage | 1 − estimate |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut far_below = 0;
    for (discs, bytes, k) in [
        (12, 1 << 20, 1),
        (12, 1 << 20, 3),
        (12, 1 << 18, 2),
        (12, 1 << 17, 3),
        (12, 1 << 22, 3),
        (10, 1 << 14, 1),
        (10, 1 << 13, 3),
        (10, 1 << 16, 2),
    ] {
        let r = run(discs, bytes, k);
        let offered_missed = (r.offered - r.stored) as f64 / r.offered as f64;
        let coverage = r.stored as f64 / r.reachable as f64;
        println!(
            "| {} | {} | {} | {:.1} | {offered_missed:.5} | {:.5} | {coverage:.5} | {:.5} |",
            r.discs,
            r.bytes,
            r.k,
            (r.bytes * 8) as f64 / r.stored as f64,
            r.estimate,
            1.0 - r.estimate
        );
        // The estimate is of the offered states' misses: within 5 % plus 4 standard deviations
        // of the count (the Bloom formula at the offered count, which the array infers).
        let sigma = (r.estimate / r.offered as f64).sqrt();
        let tolerance = 0.05 * r.estimate + 4.0 * sigma;
        assert!(
            (offered_missed - r.estimate).abs() <= tolerance,
            "Hanoi-{discs}, {bytes} B, k = {k}: offered missed {offered_missed}, estimate {}",
            r.estimate
        );
        let formula = bloom_miss(r.offered, (bytes * 8) as u64, k);
        assert!((offered_missed - formula).abs() <= tolerance + 0.05 * formula);
        // Coverage of the reachable states is at most 1 − the estimate (up to the same noise).
        assert!(
            coverage <= 1.0 - r.estimate + tolerance,
            "Hanoi-{discs}, {bytes} B, k = {k}: coverage {coverage} above 1 − {}",
            r.estimate
        );
        if coverage < 1.0 - 2.0 * r.estimate - tolerance {
            far_below += 1;
        }
    }
    // The case, Hanoi-12 in 1 MiB with k = 1: here the estimate implies 97.2 %
    // coverage, and the search covers 86.1 % (the issue's own Hanoi encoding: 97.6 % and 75.0 %).
    let r = run(12, 1 << 20, 1);
    let coverage = r.stored as f64 / r.reachable as f64;
    assert!(
        1.0 - r.estimate > 0.97 && coverage < 0.87,
        "{} {coverage}",
        r.estimate
    );
    // And that gap is the rule on Hanoi, not the exception.
    assert!(far_below >= 4, "{far_below}");
}

#[test]
fn a_sparse_array_misses_nothing() {
    // Hanoi-10 (59,049 states) in 4 MiB (568 bits per state), k = 3: the chance of any miss is
    // about 59,049 × (3/568)^3 ≈ 0.009; this one run stores every state.
    let r = run(10, 4 << 20, 3);
    assert_eq!(r.stored, r.reachable);
    assert!(r.estimate < 1e-6, "{}", r.estimate);
}
