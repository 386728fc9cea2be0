//! The checker's one 64-bit state hash, with fixed seeds: the same hash in every run of a
//! build, so that a checkpoint's states are found where a resumed run looks for them. The
//! growing fingerprint set and the exact set both key states by it.

/// The fixed seeds. (Not ahash's own constants: `with_seeds` XORs those in, and they would
/// cancel to zero keys.)
const SEEDS: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

/// A hasher of states with the fixed seeds.
pub fn fixed_state_hasher() -> ahash::RandomState {
    let [a, b, c, d] = SEEDS;
    ahash::RandomState::with_seeds(a, b, c, d)
}
