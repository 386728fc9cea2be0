//! The random numbers of a simulation's walks: SplitMix64 (Steele, Lea and Flood, 2014), a
//! 64-bit counter passed through a mixing function. Written here in a few lines so that a
//! walk's choices are the same on every platform and in every version of the crate.

/// SplitMix64's increment: the golden ratio as a 64-bit fraction.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finaliser: a bijection of `u64` that maps 0 to 0.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of walk `index` of a simulation seeded with `seed`. Walk 0's seed is `seed`
/// itself (the mix of 0 is 0), so a run of one walk from a failing walk's seed replays it.
pub fn walk_seed(seed: u64, index: u64) -> u64 {
    seed ^ mix(index)
}

/// One walk's generator.
pub(crate) struct WalkRng {
    state: u64,
}

impl WalkRng {
    /// The generator of the walk whose seed is `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        WalkRng { state: seed }
    }

    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number below `n` (at least 1), each with probability 1/n to within n/2^64 (the
    /// high half of a 128-bit product, Lemire's method without the rejection step).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_outputs_are_splitmix64s() {
        // SplitMix64 from state 0: the reference outputs of its published C code.
        let mut rng = WalkRng::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(walk_seed(77, 0), 77);
        assert_ne!(walk_seed(77, 1), walk_seed(77, 2));
    }

    #[test]
    fn below_stays_below_and_reaches_every_value() {
        let mut rng = WalkRng::new(5);
        let mut seen = [0u32; 7];
        for _ in 0..7_000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
    }
}
