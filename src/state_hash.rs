//! `StateHash`: the two independent 64-bit hashes a [`VisitedSet`](crate::VisitedSet) or a
//! [`Bitstate`](crate::Bitstate) needs per state, from any `T: Hash`, from bytes with a portable
//! documented hash, or from your own 128 or 64 bits.

use crate::mix::mix64;
use std::hash::Hash;

/// Two 64-bit hashes of one state: `index` chooses where the state goes, `signature` is what is
/// stored there (hash compaction).
///
/// The omission bounds in [`crate::omission`] assume that the two are independent: when one is
/// a function of the other, the index's bits say nothing the signature does not, and the
/// birthday bound on the signature alone ([`crate::omission::birthday`]) is what holds.
///
/// Any 64 bits are accepted: the set and the bitstate array pass both through the bijective
/// [`crate::mix64`] first, so counters and packed states spread evenly too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateHash {
    /// Chooses the line (and, in a bitstate array, the first bit).
    pub index: u64,
    /// What the set stores (all 64 bits, or the low 32 after mixing).
    pub signature: u64,
}

/// The fixed ahash keys of [`StateHash::of`]: the index's and the signature's hashers differ in
/// every key, so the two hashes are independent. SplitMix64 outputs of 1..=8, not a secret (the
/// keys are fixed so that a run is reproducible). Not π: ahash XORs the caller's keys with its
/// own π-digit constants, so π keys would cancel to an all-zero, degenerate hasher.
const INDEX_SEEDS: [u64; 4] = [mix64(1), mix64(2), mix64(3), mix64(4)];
const SIGNATURE_SEEDS: [u64; 4] = [mix64(5), mix64(6), mix64(7), mix64(8)];

/// Folded into the index before [`StateHash::owner`] mixes it, so that the owner's bits are
/// not the bits of `mix64(index)` the sets use (a SplitMix64-style odd constant; any fixed
/// non-zero value would do).
const OWNER_SALT: u64 = 0x2545_f491_4f6c_dd1d;

/// The name of [`StateHash::portable`]'s function, for a handshake or a file header that must
/// refuse hashes of another definition: `"xxh3-128"`.
pub const PORTABLE_HASH: &str = "xxh3-128";

impl StateHash {
    /// Hashes any `T: Hash` with ahash under two fixed sets of keys, one for the index and one
    /// for the signature (so the state is hashed twice).
    ///
    /// Fixed keys make a run reproducible: the same binary on the same machine gives the same
    /// hashes every run. They are **not portable**: ahash promises nothing across its versions,
    /// and its output depends on the CPU features the binary was compiled for (AES or not), and
    /// `Hash` implementations themselves depend on the platform (`usize` width, endianness). Use
    /// [`StateHash::portable`] on a byte encoding when hashes must agree across machines.
    #[inline]
    #[must_use]
    pub fn of<T: Hash + ?Sized>(state: &T) -> Self {
        let [a, b, c, d] = INDEX_SEEDS;
        let index = ahash::RandomState::with_seeds(a, b, c, d).hash_one(state);
        let [a, b, c, d] = SIGNATURE_SEEDS;
        let signature = ahash::RandomState::with_seeds(a, b, c, d).hash_one(state);
        StateHash { index, signature }
    }

    /// A portable hash of `bytes`, identical on every machine, compiler and version of this
    /// crate ([`PORTABLE_HASH`] names it; a change would be a breaking release): XXH3-128 with
    /// seed 0 and the default secret, as the xxHash specification defines it
    /// (github.com/Cyan4973/xxHash, `doc/xxhash_spec.md`; computed by the `xxhash-rust` crate).
    ///
    /// Exact definition, so another implementation can match it: let `(high64, low64)` be the
    /// reference `XXH3_128bits(bytes, len)`; then `index = high64` and `signature = low64`,
    /// which is [`StateHash::from_u128`] of `high64 << 64 | low64` (the canonical 16-byte digest,
    /// `XXH128_canonicalFromHash`, is `high64` then `low64`, each big-endian).
    ///
    /// XXH3 is not a keyed PRF (an adversary can make collisions): the sets and
    /// [`StateHash::owner`] need halves that spread independently on the states a model makes.
    /// Tests check that every bit of each half is set in about half of the hashes of 10,000
    /// small integers' encodings, and that one owner's states spread over a set's lines and
    /// signature bits.
    #[inline]
    #[must_use]
    pub fn portable(bytes: &[u8]) -> Self {
        Self::from_u128(xxhash_rust::xxh3::xxh3_128(bytes))
    }

    /// Splits your own 128-bit hash: `index` is the high 64 bits, `signature` the low 64.
    #[inline]
    #[must_use]
    pub const fn from_u128(hash: u128) -> Self {
        StateHash {
            index: (hash >> 64) as u64,
            signature: hash as u64,
        }
    }

    /// The inverse of [`from_u128`](Self::from_u128).
    #[inline]
    #[must_use]
    pub const fn to_u128(self) -> u128 {
        (self.index as u128) << 64 | self.signature as u128
    }

    /// The owner of this state among `n` processes (or shards), `0..n`: for distributing a
    /// search, where each process keeps the states it owns and sends the others to their
    /// owners. `n = 0` is taken as 1.
    ///
    /// Exact definition, so that every process and every implementation agrees: with
    /// `h = mix64(index ^ OWNER_SALT)` ([`crate::mix64`], `OWNER_SALT = 0x2545_f491_4f6c_dd1d`),
    /// the owner is `⌊h · n / 2^64⌋` (the high 64 bits of the 128-bit product). Portable
    /// whenever the hash is ([`StateHash::portable`]), since it is integer arithmetic only.
    ///
    /// Independent of what the sets use, so that each process's share fills all of its set
    /// and keeps full signature entropy: [`VisitedSet`](crate::VisitedSet) and
    /// [`Bitstate`](crate::Bitstate) take the line (and first bit) from the high bits of
    /// `mix64(index)` and the signature from `mix64(signature)`; the owner is the high bits of
    /// another mix of `index`, unrelated to both for random hashes and, with
    /// [`StateHash::from_u64`] (index and signature equal), still unrelated to either mix. A
    /// test checks that the states of one owner spread uniformly over a set's lines and keep
    /// every signature bit at one half, for `of`, `portable` and `from_u64` hashes.
    #[must_use]
    #[inline]
    pub const fn owner(self, n: usize) -> usize {
        let n = if n == 0 { 1 } else { n };
        ((mix64(self.index ^ OWNER_SALT) as u128 * n as u128) >> 64) as usize
    }

    /// One 64-bit key (a Zobrist hash, TLC-style fingerprint) as both hashes.
    ///
    /// The set mixes the key with a bijection and, in a [`FingerprintSet`](crate::FingerprintSet),
    /// stores all 64 mixed bits: two different keys are never confused, so the set is *exact* on
    /// keys and the only omission is a collision of your keys themselves (the birthday bound on
    /// 64 bits, [`crate::omission::birthday`]). The one exception is forced by counting: 2^64
    /// keys map to 2^64 − 1 non-zero signatures, so key 0 (which mixes to 0, the empty slot)
    /// shares its signature with the one key that mixes to [`crate::Signature::ZERO_STAND_IN`]. A [`CompactSet`](crate::CompactSet) keeps 32 of
    /// the mixed bits, disjoint from the high bits the line index uses.
    #[inline]
    #[must_use]
    pub const fn from_u64(key: u64) -> Self {
        StateHash {
            index: key,
            signature: key,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XXH3-128 digests (canonical form: `high64` then `low64`, big-endian hex) of the message
    /// `00 01 02 ..` (byte `i` is `i mod 256`) of each length, from the reference C library
    /// (libxxhash 0.8.4, through Python's `xxhash` 4.1 package): one length of each of XXH3's
    /// input classes and both ends of most (0, 1-3, 4-8, 9-16, 17-128, 129-240, and the long
    /// loop past 240).
    const REFERENCE: [(usize, &str); 13] = [
        (0, "99aa06d3014798d86001c324468d497f"),
        (1, "a6cd5e9392000f6ac44bdff4074eecdb"),
        (3, "e3b55f57945a17cf5f4299fc161c9cbb"),
        (4, "eb70bf5fc779e9e6a6111d53e80a3db5"),
        (8, "e1e4432a62217fe4cfd50c61c8bb98c1"),
        (9, "16c769d83e4aebce907931979dca3746"),
        (16, "72950631827607e2842812cc870dcae2"),
        (17, "685bc458b37d057fc06e233df7729217"),
        (128, "14792fc3af88dc6c05321a0b64d67b41"),
        (129, "dd5e74ac6b45f54ebc30b63382b09a3b"),
        (240, "65b5be86da5540e7c92b68e16f83bbb6"),
        (241, "1da1cb61bcb8a2a102e8cd95421c6d02"),
        (1024, "83885e853bb6640ca870f92984398d22"),
    ];

    /// `portable` is the reference XXH3-128 with `index` the high and `signature` the low half:
    /// a change of the function or of the split (which would silently change every user's
    /// fingerprints and owners) fails here.
    #[test]
    fn portable_matches_the_reference_vectors() {
        for (len, hex) in REFERENCE {
            let message: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let h = StateHash::portable(&message);
            let index = u64::from_str_radix(&hex[..16], 16).unwrap();
            let signature = u64::from_str_radix(&hex[16..], 16).unwrap();
            assert_eq!((h.index, h.signature), (index, signature), "length {len}");
        }
        let abc = StateHash::portable(b"abc");
        assert_eq!(
            (abc.index, abc.signature),
            (0x06b0_5ab6_733a_6185, 0x78af_5f94_892f_3950)
        );
    }

    /// Both halves of `portable` spread over the 8-byte encodings of small integers (the
    /// model checker's states are such short encodings): distinct, and each bit set in about
    /// half of them.
    #[test]
    fn portable_spreads_both_halves() {
        let hashes: Vec<StateHash> = (0..10_000u64)
            .map(|i| StateHash::portable(&i.to_le_bytes()))
            .collect();
        spread_in_every_bit(&hashes);
    }

    /// Both halves of `of` spread: 10,000 small integers give 10,000 distinct indexes and
    /// signatures (a degenerate key set once made every signature 0).
    #[test]
    fn of_spreads_both_halves() {
        let hashes: Vec<StateHash> = (0..10_000u64).map(|i| StateHash::of(&i)).collect();
        spread_in_every_bit(&hashes);
    }

    /// 10,000 hashes: distinct indexes and signatures, each bit of each set in 45-55 % of them.
    fn spread_in_every_bit(hashes: &[StateHash]) {
        assert_eq!(hashes.len(), 10_000);
        let indexes: std::collections::HashSet<u64> = hashes.iter().map(|h| h.index).collect();
        let signatures: std::collections::HashSet<u64> =
            hashes.iter().map(|h| h.signature).collect();
        assert_eq!(indexes.len(), 10_000);
        assert_eq!(signatures.len(), 10_000);
        for bit in 0..64 {
            let ones = hashes
                .iter()
                .filter(|h| h.signature >> bit & 1 == 1)
                .count();
            assert!((4_500..5_500).contains(&ones), "bit {bit}: {ones}");
            let ones = hashes.iter().filter(|h| h.index >> bit & 1 == 1).count();
            assert!((4_500..5_500).contains(&ones), "bit {bit}: {ones}");
        }
    }

    #[test]
    fn of_is_deterministic_and_halves_differ() {
        let a = StateHash::of(&[1u8, 2, 3]);
        assert_eq!(a, StateHash::of(&[1u8, 2, 3]));
        assert_ne!(a.index, a.signature);
        assert_ne!(a, StateHash::of(&[1u8, 2, 4]));
    }

    #[test]
    fn u128_round_trips() {
        let h = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        let s = StateHash::from_u128(h);
        assert_eq!(s.index, 0x0123_4567_89ab_cdef);
        assert_eq!(s.signature, 0xfedc_ba98_7654_3210);
        assert_eq!(s.to_u128(), h);
    }
}
