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

/// The SipHash key of [`StateHash::portable`]: the 16 ASCII bytes `searchcache/v1\0\0`.
pub const PORTABLE_KEY: [u8; 16] = *b"searchcache/v1\0\0";

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
    /// crate (a change would be a breaking release): SipHash-2-4 with 128-bit output
    /// (Aumasson & Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012, and the
    /// reference implementation github.com/veorq/SipHash) under the key [`PORTABLE_KEY`].
    ///
    /// Exact definition, so another implementation can match it: let `out` be the 16 bytes that
    /// the reference `siphash(in, inlen, k, out, 16)` writes for key `k = PORTABLE_KEY`; then
    /// `h = u128::from_le_bytes(out)` and the result is [`StateHash::from_u128(h)`](Self::from_u128):
    /// `signature` is bytes 0..8 of `out` read little-endian, `index` is bytes 8..16.
    ///
    /// SipHash is a keyed PRF, so its two 64-bit output words behave as independent hashes. It
    /// is slower than [`StateHash::of`]: two SipRounds per 8 bytes, eight more per state.
    #[must_use]
    pub fn portable(bytes: &[u8]) -> Self {
        Self::from_u128(siphash_2_4_128(&PORTABLE_KEY, bytes))
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

/// SipHash-2-4 with a 128-bit tag, written from the specification: returns the reference
/// implementation's 16 output bytes as a little-endian `u128`.
pub(crate) fn siphash_2_4_128(key: &[u8; 16], bytes: &[u8]) -> u128 {
    let word = |b: &[u8]| {
        let mut w = [0u8; 8];
        w[..b.len()].copy_from_slice(b);
        u64::from_le_bytes(w)
    };
    let (k0, k1) = (word(&key[..8]), word(&key[8..]));
    let mut sip = Sip {
        v: [
            k0 ^ 0x736f_6d65_7073_6575,
            k1 ^ 0x646f_7261_6e64_6f6d ^ 0xee, // 0xee: the 128-bit output variant
            k0 ^ 0x6c79_6765_6e65_7261,
            k1 ^ 0x7465_6462_7974_6573,
        ],
    };
    let mut blocks = bytes.chunks_exact(8);
    for block in &mut blocks {
        sip.compress(word(block));
    }
    // The last block: the remaining 0..7 bytes, and the length modulo 256 in the top byte.
    sip.compress(word(blocks.remainder()) | (bytes.len() as u64) << 56);
    sip.v[2] ^= 0xee;
    let low = sip.finish();
    sip.v[1] ^= 0xdd;
    let high = sip.finish();
    (high as u128) << 64 | low as u128
}

/// SipHash's four-word state.
struct Sip {
    v: [u64; 4],
}

impl Sip {
    fn round(&mut self) {
        let [mut v0, mut v1, mut v2, mut v3] = self.v;
        v0 = v0.wrapping_add(v1);
        v1 = v1.rotate_left(13) ^ v0;
        v0 = v0.rotate_left(32);
        v2 = v2.wrapping_add(v3);
        v3 = v3.rotate_left(16) ^ v2;
        v0 = v0.wrapping_add(v3);
        v3 = v3.rotate_left(21) ^ v0;
        v2 = v2.wrapping_add(v1);
        v1 = v1.rotate_left(17) ^ v2;
        v2 = v2.rotate_left(32);
        self.v = [v0, v1, v2, v3];
    }

    /// Two compression rounds on one message word.
    fn compress(&mut self, m: u64) {
        self.v[3] ^= m;
        self.round();
        self.round();
        self.v[0] ^= m;
    }

    /// Four finalization rounds, then the xor of the state.
    fn finish(&mut self) -> u64 {
        for _ in 0..4 {
            self.round();
        }
        self.v[0] ^ self.v[1] ^ self.v[2] ^ self.v[3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `vectors_sip128` of the SipHash reference implementation (github.com/veorq/SipHash,
    /// `vectors.h`): the tag of the message `00 01 .. (len-1)` under the key `00 01 .. 0f`, as
    /// the reference writes its 16 output bytes, for every length 0..64 (covers every tail
    /// length and several full blocks).
    const REFERENCE: [&str; 64] = [
        "a3817f04ba25a8e66df67214c7550293",
        "da87c1d86b99af44347659119b22fc45",
        "8177228da4a45dc7fca38bdef60affe4",
        "9c70b60c5267a94e5f33b6b02985ed51",
        "f88164c12d9c8faf7d0f6e7c7bcd5579",
        "1368875980776f8854527a07690e9627",
        "14eeca338b208613485ea0308fd7a15e",
        "a1f1ebbed8dbc153c0b84aa61ff08239",
        "3b62a9ba6258f5610f83e264f31497b4",
        "264499060ad9baabc47f8b02bb6d71ed",
        "00110dc378146956c95447d3f3d0fbba",
        "0151c568386b6677a2b4dc6f81e5dc18",
        "d626b266905ef35882634df68532c125",
        "9869e247e9c08b10d029934fc4b952f7",
        "31fcefac66d7de9c7ec7485fe4494902",
        "5493e99933b0a8117e08ec0f97cfc3d9",
        "6ee2a4ca67b054bbfd3315bf85230577",
        "473d06e8738db89854c066c47ae47740",
        "a426e5e423bf4885294da481feaef723",
        "78017731cf65fab074d5208952512eb1",
        "9e25fc833f2290733e9344a5e83839eb",
        "568e495abe525a218a2214cd3e071d12",
        "4a29b54552d16b9a469c10528eff0aae",
        "c9d184ddd5a9f5e0cf8ce29a9abf691c",
        "2db479ae78bd50d8882a8a178a6132ad",
        "8ece5f042d5e447b5051b9eacb8d8f6f",
        "9c0b53b4b3c307e87eaee08678141f66",
        "abf248af69a6eae4bfd3eb2f129eeb94",
        "0664da1668574b88b935f3027358aef4",
        "aa4b9dc4bf337de90cd4fd3c467c6ab7",
        "ea5c7f471faf6bde2b1ad7d4686d2287",
        "2939b0183223fafc1723de4f52c43d35",
        "7c3956ca5eeafc3e363e9d556546eb68",
        "77c6077146f01c32b6b69d5f4ea9ffcf",
        "37a6986cb8847edf0925f0f1309b54de",
        "a705f0e69da9a8f907241a2e923c8cc8",
        "3dc47d1f29c448461e9e76ed904f6711",
        "0d62bf01e6fc0e1a0d3c4751c5d3692b",
        "8c03468bca7c669ee4fd5e084bbee7b5",
        "528a5bb93baf2c9c4473cce5d0d22bd9",
        "df6a301e95c95dad97ae0cc8c6913bd8",
        "801189902c857f39e73591285e70b6db",
        "e617346ac9c231bb3650ae34ccca0c5b",
        "27d93437efb721aa401821dcec5adf89",
        "89237d9ded9c5e78d8b1c9b166cc7342",
        "4a6d8091bf5e7d651189fa94a250b14c",
        "0e33f96055e7ae893ffc0e3dcf492902",
        "e61c432b720b19d18ec8d84bdc63151b",
        "f7e5aef549f782cf379055a608269b16",
        "438d030fd0b7a54fa837f2ad201a6403",
        "a590d3ee4fbf04e3247e0d27f286423f",
        "5fe2c1a172fe93c4b15cd37caef9f538",
        "2c97325cbd06b36eb2133dd08b3a017c",
        "92c814227a6bca949ff0659f002ad39e",
        "dce850110bd8328cfbd50841d6911d87",
        "67f14984c7da791248e32bb5922583da",
        "1938f2cf72d54ee97e94166fa91d2a36",
        "74481e9646ed49fe0f6224301604698e",
        "57fca5de98a9d6d8006438d0583d8a1d",
        "9fecde1cefdc1cbed4763674d9575359",
        "e3040c00eb28f15366ca73cbd872e740",
        "7697009a6a831dfecca91c5993670f7a",
        "5853542321f567a005d547a4f04759bd",
        "5150d1772f50834a503e069a973fbd7c",
    ];

    fn bytes_of(hex: &str) -> [u8; 16] {
        std::array::from_fn(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
    }

    #[test]
    fn siphash_matches_the_reference_vectors() {
        let key: [u8; 16] = std::array::from_fn(|i| i as u8);
        let message: Vec<u8> = (0..64).collect();
        for (len, hex) in REFERENCE.iter().enumerate() {
            let tag = siphash_2_4_128(&key, &message[..len]).to_le_bytes();
            assert_eq!(tag, bytes_of(hex), "message length {len}");
        }
    }

    /// Fixed vectors of `portable` itself, computed once with this implementation after it
    /// matched all 64 reference vectors above, and reproduced by a separate Python transcription
    /// of the SipHash specification: they pin the key and the index/signature split, so a change
    /// to either (which would silently change every user's fingerprints) fails here.
    #[test]
    fn portable_is_pinned() {
        let empty = StateHash::portable(b"");
        let abc = StateHash::portable(b"abc");
        assert_eq!(
            StateHash::from_u128(siphash_2_4_128(&PORTABLE_KEY, b"abc")),
            abc
        );
        assert_eq!(
            empty.to_u128().to_le_bytes()[..8],
            empty.signature.to_le_bytes()
        );
        assert_eq!(
            (empty.index, empty.signature),
            (PINNED_EMPTY.0, PINNED_EMPTY.1)
        );
        assert_eq!((abc.index, abc.signature), (PINNED_ABC.0, PINNED_ABC.1));
    }

    const PINNED_EMPTY: (u64, u64) = (0xbcaa_c4a5_d20a_11b0, 0xb259_ad20_7355_fda4);
    const PINNED_ABC: (u64, u64) = (0x526a_c496_8c04_033c, 0xdbfe_be80_8564_2013);

    /// Both halves of `of` spread: 10,000 small integers give 10,000 distinct indexes and
    /// signatures (a degenerate key set once made every signature 0).
    #[test]
    fn of_spreads_both_halves() {
        let hashes: Vec<StateHash> = (0..10_000u64).map(|i| StateHash::of(&i)).collect();
        let indexes: std::collections::HashSet<u64> = hashes.iter().map(|h| h.index).collect();
        let signatures: std::collections::HashSet<u64> =
            hashes.iter().map(|h| h.signature).collect();
        assert_eq!(indexes.len(), 10_000);
        assert_eq!(signatures.len(), 10_000);
        // And in every bit: each bit is set in about half of the signatures.
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
