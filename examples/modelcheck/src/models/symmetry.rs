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
}
