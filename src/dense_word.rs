//! The dense layout's entry: one 64-bit word, eight to a cache line.
//!
//! ```text
//!  63 ............................. 23 | 22 ...... 16 | 15 ......... 0
//!  payload: your value's bits (41)      | generation   | tag (16, ≠ 0)
//! ```
//!
//! The tag is the low 16 bits of the table's key (the index uses the high bits), with 0 read
//! as 1, so that every written word has a non-zero tag and an empty word (all zero) matches no
//! probe. It sits in the word's low 16 bits so that a probe compares it with one 16-bit
//! compare of the loaded word, no shift (2 instructions less per entry scanned; BENCHMARKS.md,
//! "The tag in the low bits"), and the payload on top comes out with one shift. The entry is
//! one atomic word, written by one store and read by one load: a reader sees a whole word
//! some store wrote, never a mix of two (there is no torn entry to catch). What the 16 bits
//! cost is the false hit: a probe of a key that is not in the table matches a stored key of
//! the same tag in its line (`dense.rs` has the rate).

/// Bits of a dense entry that belong to the value: 41. The low 23 hold the tag and the
/// generation.
pub const DENSE_PAYLOAD_BITS: u32 = 41;

/// Bits of the key check.
pub const TAG_BITS: u32 = 16;

/// Where the generation starts: above the tag.
const GENERATION_SHIFT: u32 = TAG_BITS;

/// Where the payload starts: above the tag and the generation.
const PAYLOAD_SHIFT: u32 = 64 - DENSE_PAYLOAD_BITS;

/// The generation field's mask, in place.
const GENERATION_FIELD: u64 = (crate::pack::GENERATION_MASK as u64) << GENERATION_SHIFT;

/// The tag field's mask, in place.
#[cfg_attr(not(searchcache_naive), allow(dead_code))]
pub(crate) const TAG_FIELD: u64 = (1 << TAG_BITS) - 1;

// The three fields tile the word.
const _: () = assert!(PAYLOAD_SHIFT == GENERATION_SHIFT + crate::pack::GENERATION_BITS);

/// Compile-time check that `V` fits the dense payload; referenced wherever a dense table of
/// `V` is built.
pub(crate) struct FitsDense<V>(std::marker::PhantomData<V>);

impl<V: crate::pack::Pack64> FitsDense<V> {
    pub(crate) const CHECK: () = assert!(
        V::BITS <= DENSE_PAYLOAD_BITS,
        "Pack64::BITS exceeds DENSE_PAYLOAD_BITS (41): the top 23 bits of a dense entry hold \
         its 16-bit tag and its generation; use SearchCache (56 bits) for wider values"
    );
}

/// The tag of a table key (its low 16 bits, 0 read as 1): `1..=65535`, never 0.
#[inline(always)]
pub(crate) fn tag16(key: u64) -> u64 {
    (key & 0xffff).max(1)
}

/// The word for `value` under `tag` (from [`tag16`]), written in `generation`.
#[inline]
pub(crate) fn encode<V: crate::pack::Pack64>(tag: u64, value: V, generation: u8) -> u64 {
    let bits = value.pack();
    let mask = payload_mask::<V>();
    debug_assert!(
        bits & !mask == 0,
        "Pack64::pack returned bits above Pack64::BITS"
    );
    (bits & mask) << PAYLOAD_SHIFT
        | u64::from(generation & crate::pack::GENERATION_MASK) << GENERATION_SHIFT
        | tag
}

/// The tag a word holds: 0 for an empty word.
#[inline(always)]
pub(crate) fn tag_of(word: u64) -> u64 {
    word & TAG_FIELD
}

/// Whether `word` holds `tag` (from [`tag16`]): one 16-bit compare of the word as loaded.
#[inline(always)]
pub(crate) fn holds_tag(word: u64, tag: u64) -> bool {
    word as u16 == tag as u16
}

/// The value of an occupied word.
#[inline]
pub(crate) fn decode<V: crate::pack::Pack64>(word: u64) -> V {
    V::unpack(word >> PAYLOAD_SHIFT)
}

/// The generation an occupied word was written in.
#[inline]
pub(crate) fn generation_of(word: u64) -> u8 {
    (word >> GENERATION_SHIFT) as u8 & crate::pack::GENERATION_MASK
}

/// An occupied word with its generation replaced by `generation`.
#[inline]
pub(crate) fn restamp(word: u64, generation: u8) -> u64 {
    let stamp = u64::from(generation & crate::pack::GENERATION_MASK) << GENERATION_SHIFT;
    word & !GENERATION_FIELD | stamp
}

/// The low `V::BITS` bits, at most the dense payload.
#[inline(always)]
const fn payload_mask<V: crate::pack::Pack64>() -> u64 {
    let bits = if V::BITS < DENSE_PAYLOAD_BITS {
        V::BITS
    } else {
        DENSE_PAYLOAD_BITS
    };
    (1u64 << bits) - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_are_never_zero() {
        for tag in [1u64, 2, 0xffff] {
            for generation in [0u8, 1, 127] {
                for v in [0u32, 1, u32::MAX] {
                    let w = encode(tag, v, generation);
                    assert_ne!(w, 0);
                    assert_eq!(
                        (tag_of(w), generation_of(w), decode::<u32>(w)),
                        (tag, generation, v)
                    );
                    assert_eq!(generation_of(restamp(w, 5)), 5);
                    assert_eq!(decode::<u32>(restamp(w, 5)), v);
                }
            }
        }
        assert_eq!(tag16(0), 1);
        assert_eq!(tag16(0x1_0000), 1);
        assert_eq!(tag16(0xabcd_1234), 0x1234);
        assert_eq!(tag_of(0), 0);
    }
}
