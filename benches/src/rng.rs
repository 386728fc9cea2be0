//! The random numbers behind every workload: fast enough (one multiply) that the generator is
//! not what the benchmark measures.

/// wyrand (Wang Yi's generator): a 64-bit state stepped by an add, output through one 128-bit
/// multiply. Passes BigCrush/PractRand for the volumes used here; about 1 ns per number.
#[derive(Clone, Debug)]
pub struct WyRand(u64);

impl WyRand {
    /// A generator for `seed` (any value; distinct seeds give independent-looking streams).
    pub fn new(seed: u64) -> Self {
        WyRand(seed ^ 0x2d35_8dcc_aa6c_78a5)
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    }
}

/// `value` mapped to `0..n` by the high half of `value × n` (Lemire): no division.
#[inline(always)]
pub fn below(value: u64, n: u64) -> u64 {
    ((value as u128 * n as u128) >> 64) as u64
}

/// The `i`-th key of a universe: MurmurHash3's 64-bit finaliser of `i`, a bijection, so distinct
/// indices give distinct keys, and the keys look uniformly random, as Zobrist keys and state
/// hashes do (so `SearchCache` may be measured with `Keys::Random` on them). Its constants differ
/// from `searchcache::mix64`'s (SplitMix64), so the table's own mixer does not undo it.
#[inline(always)]
pub fn key_of(i: u64) -> u64 {
    let mut x = i;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ x >> 33
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_spreads() {
        let mut rng = WyRand::new(1);
        let mut seen = [0u32; 10];
        for _ in 0..100_000 {
            let v = below(rng.next_u64(), 10);
            assert!(v < 10);
            seen[v as usize] += 1;
        }
        assert!(
            seen.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{seen:?}"
        );
    }

    #[test]
    fn keys_are_distinct() {
        let keys: std::collections::HashSet<u64> = (0..10_000).map(key_of).collect();
        assert_eq!(keys.len(), 10_000);
    }
}
