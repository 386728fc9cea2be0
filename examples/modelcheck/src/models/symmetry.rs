//! What the built-in models with interchangeable processes share: the size of a symmetry
//! class under every permutation of the processes.

/// How many distinct arrangements `values` (one per process) has under every permutation of
/// the processes: n! over the factorial of each value's multiplicity. Exact up to 20
/// processes (20! fits a `u64`); the built-in models have at most 15.
pub fn permutations_of(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    let mut size = 1u64;
    let mut run = 0u64;
    for i in 0..values.len() {
        run = if i > 0 && values[i] == values[i - 1] {
            run + 1
        } else {
            1
        };
        // Multiply by (i + 1) and divide by the run so far: every partial product is the
        // multinomial of the prefix, a whole number.
        size = size * (i as u64 + 1) / run;
    }
    size
}

/// What the built-in models' symmetry tests share: a check of a symmetric run's class counts
/// against an independent count.
#[cfg(test)]
pub(crate) mod testing {
    use crate::bfs::{Options, Verdict};
    use crate::check::check;
    use crate::model::Model;
    use crate::visited::Mode;
    use std::collections::HashSet;
    use std::hash::Hash;

    /// Every permutation of `0..n`, by inserting `n − 1` into each place of those of `n − 1`.
    pub(crate) fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut all = Vec::new();
        for shorter in permutations(n - 1) {
            for place in 0..n {
                let mut p = shorter.clone();
                p.insert(place, n - 1);
                all.push(p);
            }
        }
        all
    }

    /// The states of levels 0 to `depth`, by a plain breadth-first search of this function's
    /// own.
    fn states_to_depth<M: Model>(model: &M, depth: usize) -> HashSet<M::State> {
        let mut seen: HashSet<M::State> = model.initial_states().into_iter().collect();
        let mut level: Vec<M::State> = seen.iter().cloned().collect();
        let mut out = Vec::new();
        for _ in 0..depth {
            let mut next = Vec::new();
            for s in &level {
                out.clear();
                model.successors(s, &mut out);
                next.extend(
                    out.drain(..)
                        .map(|(_, t)| t)
                        .filter(|t| seen.insert(t.clone())),
                );
            }
            level = next;
        }
        seen
    }

    /// Checks `model` in exact mode without and with symmetry: the same verdict and depth; the
    /// classes stored are the distinct `class_of` the plain run's states (enumerated again
    /// here), and the states they stand for are the plain run's.
    pub(crate) fn assert_classes<M: Model, K: Hash + Eq>(
        model: &M,
        class_of: impl Fn(&M::State) -> K,
    ) {
        let options = Options {
            threads: 2,
            mode: Mode::Exact,
            memory_bytes: 64 << 20,
            ..Options::default()
        };
        let plain = check(model, &options);
        let reduced = check(
            model,
            &Options {
                symmetry: true,
                ..options
            },
        );
        let outcome = |v: &Verdict<M>| match v {
            Verdict::Complete => Some(0),
            Verdict::Counterexample(t) => Some(t.steps.len() + 1),
            _ => None,
        };
        assert!(outcome(&plain.verdict).is_some());
        assert_eq!(outcome(&plain.verdict), outcome(&reduced.verdict));
        assert_eq!(plain.stats.depth, reduced.stats.depth);
        let states = states_to_depth(model, plain.stats.depth);
        assert_eq!(states.len() as u64, plain.stats.states);
        let classes: HashSet<K> = states.iter().map(class_of).collect();
        assert_eq!(
            classes.len() as u64,
            reduced.stats.states,
            "{}",
            model.name()
        );
        assert!(reduced.stats.states < plain.stats.states);
        assert_eq!(reduced.stats.represented, Some(plain.stats.states));
    }
}

#[cfg(test)]
mod tests {
    use super::permutations_of;

    #[test]
    fn a_multiset_has_n_factorial_over_its_multiplicities_arrangements() {
        assert_eq!(permutations_of(&mut []), 1);
        assert_eq!(permutations_of(&mut [7]), 1);
        assert_eq!(permutations_of(&mut [1, 2, 3]), 6);
        assert_eq!(permutations_of(&mut [2, 1, 2]), 3);
        assert_eq!(permutations_of(&mut [0, 0, 1, 1]), 6);
        assert_eq!(permutations_of(&mut [5; 9]), 1);
        assert_eq!(permutations_of(&mut [3, 0, 3, 1, 3]), 20);
        assert_eq!(
            permutations_of(&mut (0..15).collect::<Vec<_>>()),
            1_307_674_368_000
        );
    }

    #[test]
    fn there_are_n_factorial_distinct_permutations() {
        let all = super::testing::permutations(4);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!((all.len(), distinct.len()), (24, 24));
        assert!(all.iter().all(|p| p.iter().copied().max() == Some(3)));
    }
}
