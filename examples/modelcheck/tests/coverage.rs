//! The storage's estimates against exact counts, on the checker's own models: bitstate at
//! several sizes and k, fp32 and fp64. What must hold:
//!
//! * a partial search never counts more states than there are;
//! * the coverage never exceeds [`Storage::coverage_at_most`] (up to the count's noise);
//! * a run whose omission bound is small is complete: over many independently hashed runs,
//!   the incomplete ones are no more frequent than the bounds say.
//!
//! `cargo test --release -p modelcheck --test modelcheck_tests coverage:: -- --nocapture`
//! prints the table that BENCHMARKS.md records; `MODELCHECK_LONG=1` adds 2PC-8,
//! philosophers-16 and the 15-puzzle.

use modelcheck::models::{philosophers::Philosophers, puzzle::Puzzle, two_phase::TwoPhase};
use modelcheck::{check, Invariant, Mode, Model, Options, Storage, Verdict};

/// Runs `model` in `mode` with `bytes` of storage and `k` hash functions on one thread
/// (deterministic); returns the states counted and the storage's figures.
fn run<M: Model>(model: &M, mode: Mode, bytes: usize, k: u32) -> (u64, Storage) {
    let options = Options {
        threads: 1,
        mode,
        memory_bytes: bytes,
        hashes: k,
        deadlock: false,
        ..Options::default()
    };
    let report = check(model, &options);
    assert!(
        matches!(report.verdict, Verdict::Complete),
        "{} {mode:?} {bytes} B: the search did not run to its end",
        model.name()
    );
    (
        report.stats.states,
        report.storage.expect("storage was built"),
    )
}

/// The exact state count, by the exact mode.
fn exact<M: Model>(model: &M) -> u64 {
    let (states, storage) = run(model, Mode::Exact, 256 << 20, 3);
    assert!(!storage.partial());
    states
}

/// One row of the table, checked.
#[derive(Default)]
struct Tally {
    rows: usize,
    /// Rows with an omission bound at most 0.01 (all must be complete).
    small_bound: usize,
    /// Rows whose coverage is 10 points or more below the upper estimate (the estimate is no
    /// coverage).
    far_below: usize,
}

fn check_row<M: Model>(model: &M, reachable: u64, mode: Mode, bytes: usize, k: u32, t: &mut Tally) {
    let (states, storage) = run(model, mode, bytes, k);
    let coverage = states as f64 / reachable as f64;
    let bound = storage.omission.value;
    let at_most = storage.coverage_at_most();
    println!(
        "| {} | {reachable} | {} | {bytes} | {} | {:.2} | {:.4} | {states} | {coverage:.6} | {} | {bound:.2e} |",
        model.name(),
        mode.name(),
        storage.hashes.map_or("-".into(), |k| k.to_string()),
        storage.hash_factor(),
        storage.fill,
        at_most.map_or("-".into(), |c| format!("{c:.6}")),
    );
    let what = format!("{} {} {bytes} B k = {k}", model.name(), mode.name());
    assert!(
        states <= reachable,
        "{what}: {states} states of {reachable}"
    );
    let partial = mode != Mode::Fp64 || bound > modelcheck::NEGLIGIBLE_OMISSION;
    assert_eq!(storage.partial(), partial, "{what}");
    if let (Some(at_most), Some(missed)) = (at_most, storage.reached_missed) {
        // The count of missed states among those reached is about Poisson: 4 sigma of it.
        let noise = 4.0 * (missed / states as f64).sqrt() + 0.05 * missed;
        assert!(
            coverage <= at_most + noise,
            "{what}: coverage {coverage} above the upper estimate {at_most}"
        );
        if coverage < at_most - 0.1 {
            t.far_below += 1;
        }
    }
    if bound <= 0.01 {
        assert_eq!(
            states, reachable,
            "{what}: a bound of {bound:e}, yet a state was missed"
        );
        t.small_bound += 1;
    }
    t.rows += 1;
}

/// Bitstate rows for every size and k.
fn grid<M: Model>(model: &M, reachable: u64, sizes: &[usize], ks: &[u32], t: &mut Tally) {
    for &bytes in sizes {
        for &k in ks {
            check_row(model, reachable, Mode::Bitstate, bytes, k, t);
        }
    }
}

const HEADER: &str = "| model | states | mode | bytes | k | hash factor | fill | states found | coverage | coverage at most | P(missed any) <= |\n|---|---|---|---|---|---|---|---|---|---|---|";

#[test]
fn estimates_hold_against_exact_counts_at_several_sizes_and_k() {
    println!("{HEADER}");
    let mut tally = Tally::default();
    let two_phase = TwoPhase::new(5).unwrap();
    let philosophers = Philosophers::new(10).unwrap();
    let puzzle = Puzzle::new(3).unwrap();
    let kib = 1 << 10;
    let sizes = [kib, 4 * kib, 16 * kib, 256 * kib, 16 << 20];
    grid(
        &two_phase,
        exact(&two_phase),
        &sizes,
        &[1, 2, 3, 4],
        &mut tally,
    );
    grid(
        &philosophers,
        exact(&philosophers),
        &sizes,
        &[1, 2, 3, 4],
        &mut tally,
    );
    let reachable = exact(&puzzle);
    assert_eq!(reachable, 181_440);
    let sizes = [16 * kib, 64 * kib, 256 * kib, 1 << 20, 64 << 20];
    grid(&puzzle, reachable, &sizes, &[1, 3], &mut tally);
    for (mode, bytes) in [
        (Mode::Fp32, 64 * kib),
        (Mode::Fp32, 1 << 20),
        (Mode::Fp64, 128 * kib),
    ] {
        check_row(&two_phase, 8_832, mode, bytes, 3, &mut tally);
        check_row(&puzzle, reachable, mode, bytes * 32, 3, &mut tally);
    }
    // The grid spans both regimes: runs with a bound small enough to say "complete", and
    // runs whose coverage falls far below the upper estimate (on the protocols, whose states
    // have many parents, it comes close; on the 8-puzzle at high fill it does not).
    assert!(
        tally.small_bound >= 10,
        "{} rows with a small bound",
        tally.small_bound
    );
    assert!(
        tally.far_below >= 2,
        "{} rows far below the estimate",
        tally.far_below
    );
    println!("{} rows", tally.rows);
}

/// A model whose states carry a salt: each salt hashes every state anew, so runs with
/// different salts are independent trials of the same search.
struct Salted<M> {
    inner: M,
    salt: u64,
}

impl<M: Model> Model for Salted<M> {
    type State = (u64, M::State);
    type Action = M::Action;

    fn name(&self) -> String {
        format!("{} salt {}", self.inner.name(), self.salt)
    }
    fn initial_states(&self) -> Vec<Self::State> {
        let salt = self.salt;
        self.inner
            .initial_states()
            .into_iter()
            .map(|s| (salt, s))
            .collect()
    }
    fn successors(&self, (salt, state): &Self::State, out: &mut Vec<(M::Action, Self::State)>) {
        let mut inner = Vec::new();
        self.inner.successors(state, &mut inner);
        out.extend(inner.into_iter().map(|(a, s)| (a, (*salt, s))));
    }
    fn invariants(&self) -> Vec<Invariant<Self::State>> {
        Vec::new()
    }
}

#[test]
fn runs_with_a_small_bound_are_complete_as_often_as_the_bound_says() {
    // 2PC-5 (8,832 states) in bitstate arrays sized so that the bound is about 0.1 to 0.5,
    // 40 salts each: the runs that missed a state number at most the sum of their bounds
    // (plus 3 standard deviations of that count).
    for (bytes, k) in [(100 << 10, 3), (360 << 10, 2), (32 << 20, 1)] {
        let (mut missed_any, mut bound_sum) = (0u32, 0.0);
        for salt in 0..40 {
            let model = Salted {
                inner: TwoPhase::new(5).unwrap(),
                salt,
            };
            let (states, storage) = run(&model, Mode::Bitstate, bytes, k);
            bound_sum += storage.omission.value;
            missed_any += u32::from(states < 8_832);
        }
        println!("{bytes} B, k = {k}: {missed_any} of 40 runs missed a state; bounds sum to {bound_sum:.1}");
        assert!(
            f64::from(missed_any) <= bound_sum + 3.0 * bound_sum.sqrt(),
            "{bytes} B, k = {k}: {missed_any} runs missed a state, the bounds sum to {bound_sum}"
        );
        assert!(
            bound_sum > 1.0 && bound_sum < 40.0,
            "{bound_sum}: a bound in its useful range"
        );
    }
}

#[test]
fn long_estimates_on_2pc_8_philosophers_16_and_the_15_puzzle() {
    if std::env::var_os("MODELCHECK_LONG").is_none() {
        println!("skipped: set MODELCHECK_LONG=1 for 2PC-8, philosophers-16 and the 15-puzzle");
        return;
    }
    println!("{HEADER}");
    let mut tally = Tally::default();
    let two_phase = TwoPhase::new(8).unwrap();
    let philosophers = Philosophers::new(16).unwrap();
    let sizes = [1 << 20, 4 << 20, 64 << 20];
    grid(&two_phase, 1_745_408, &sizes, &[1, 3], &mut tally);
    grid(&philosophers, 1_331_714, &sizes, &[1, 3], &mut tally);
    // 16!/2 states: the bitstate search of 1 MiB saturates after a few million.
    let fifteen = Puzzle::new(4).unwrap();
    check_row(
        &fifteen,
        10_461_394_944_000,
        Mode::Bitstate,
        1 << 20,
        3,
        &mut tally,
    );
}
