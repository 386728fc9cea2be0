//! `Pack64`: how a user's value lives in the table's data word, and how it chooses what to keep.
//!
//! The data word of an entry:
//!
//! ```text
//!  63 | 62 ... 56  | 55 ........................................ 0
//!  1  | generation |  payload: your value's bits (PAYLOAD_BITS = 56)
//! ```
//!
//! Bit 63 is set in every written entry, so an occupied entry's data word is never zero and an
//! empty slot (both words zero) can never match any key, key 0 included, whatever the value packs
//! to. The 7-bit generation ages entries across searches.

/// Bits of the data word that belong to the value: 56. The table keeps the top 8.
pub const PAYLOAD_BITS: u32 = 56;

/// Mask of the payload bits.
pub(crate) const PAYLOAD_MASK: u64 = (1 << PAYLOAD_BITS) - 1;

/// Set in every occupied entry's data word.
pub(crate) const OCCUPIED: u64 = 1 << 63;

/// Generations are counted modulo 2^7 = 128: an entry untouched for 128 searches looks new
/// again, which only makes it a little harder to evict (Stockfish lives with 32).
pub(crate) const GENERATION_BITS: u32 = 7;

/// `GENERATION_BITS` ones.
pub(crate) const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;

/// A value that fits in [`PAYLOAD_BITS`] bits and knows how it wants to be replaced.
///
/// Implement [`pack`](Pack64::pack) and [`unpack`](Pack64::unpack) so that
/// `V::unpack(v.pack()) == v` for every value you store, with `pack` using only the low
/// [`BITS`](Pack64::BITS) bits. The table stores those bits verbatim and returns them verbatim;
/// it never interprets them except through the two policy methods below, whose defaults make a
/// plain cache (newest value wins, oldest entry evicted first).
///
/// # Replacement policy
///
/// * [`depth`](Pack64::depth): how expensive the entry was to compute (search depth, subtree
///   size, …). When a store must evict another key, it evicts the entry whose
///   `depth − AGE_WEIGHT · age` is least, where `age` is the number of generations since it was
///   written ([`crate::SearchCache::new_generation`]).
/// * [`merge`](Pack64::merge): what to do when the key being stored is already in the table:
///   write a (possibly combined) value, or keep the old entry untouched.
///
/// # Example: an IDA* lower bound that only ever grows
///
/// ```
/// use searchcache::Pack64;
///
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// struct LowerBound(u16);
///
/// impl Pack64 for LowerBound {
///     const BITS: u32 = 16;
///     fn pack(self) -> u64 { self.0 as u64 }
///     fn unpack(bits: u64) -> Self { LowerBound(bits as u16) }
///     fn depth(&self) -> i32 { self.0 as i32 }
///     fn merge(self, old: Self, _age: u8) -> Option<Self> {
///         // Both are admissible bounds for the same board: the larger one is too.
///         Some(LowerBound(self.0.max(old.0)))
///     }
/// }
/// ```
///
/// # Too many bits is a compile error
///
/// ```compile_fail
/// use searchcache::{Pack64, SearchCache, Size};
///
/// #[derive(Clone, Copy)]
/// struct Wide(u64);
/// impl Pack64 for Wide {
///     const BITS: u32 = 57; // one more than the payload
///     fn pack(self) -> u64 { self.0 }
///     fn unpack(bits: u64) -> Self { Wide(bits) }
/// }
/// let t = SearchCache::<Wide>::new(Size::Mib(1)); // error: evaluation of constant failed
/// ```
pub trait Pack64: Copy {
    /// How many low bits [`pack`](Pack64::pack) uses; at most [`PAYLOAD_BITS`]. A larger value is
    /// a compile-time error where a table of this type is built.
    const BITS: u32 = PAYLOAD_BITS;

    /// Plies of depth one generation of age is worth in the eviction rule; 8 by default
    /// (Stockfish's weighting, kept by most engines since).
    const AGE_WEIGHT: i32 = 8;

    /// Encodes the value in the low [`BITS`](Pack64::BITS) bits. Higher bits must be zero: debug
    /// builds panic on a bit at or above `BITS`; release builds keep only the low `BITS` bits,
    /// so [`unpack`](Pack64::unpack) then receives `pack() & (2^BITS − 1)` (a value claiming 16
    /// bits that packs 56 comes back with 16; one claiming 56 that packs 64 loses the top 8).
    /// Either way the table's own 8 bits stay intact.
    #[must_use]
    fn pack(self) -> u64;

    /// Decodes what [`pack`](Pack64::pack) wrote. Receives exactly the bits `pack` returned, when
    /// those fit in [`BITS`](Pack64::BITS).
    #[must_use]
    fn unpack(bits: u64) -> Self;

    /// The depth-like worth of keeping this entry; higher survives longer. Default 0, so among
    /// entries of equal depth the oldest is evicted first.
    ///
    /// Age counts generations since the entry was last written: by a store, or by
    /// [`SearchCache::probe_refresh`](crate::SearchCache::probe_refresh) on a hit. An entry
    /// read only with plain [`probe`](crate::SearchCache::probe) ages by one generation per
    /// search however often it is hit, and its worth falls by `AGE_WEIGHT` each time.
    #[inline]
    fn depth(&self) -> i32 {
        0
    }

    /// Called by a store when the table already holds this key with value `old`, written `age`
    /// generations ago (0: in the current generation). Returns the value to write, or `None` to
    /// leave the old entry as it is. Default: the new value replaces the old.
    #[inline]
    fn merge(self, old: Self, age: u8) -> Option<Self> {
        let _ = (old, age);
        Some(self)
    }
}

/// Compile-time check that `V` fits the payload; referenced wherever a table of `V` is built.
pub(crate) struct Fits<V>(std::marker::PhantomData<V>);

impl<V: Pack64> Fits<V> {
    pub(crate) const CHECK: () = assert!(
        V::BITS <= PAYLOAD_BITS,
        "Pack64::BITS exceeds PAYLOAD_BITS (56): the top 8 bits of an entry belong to the table"
    );
}

/// The data word for `value` written in `generation`.
#[inline]
pub(crate) fn encode<V: Pack64>(value: V, generation: u8) -> u64 {
    let bits = value.pack();
    debug_assert!(
        bits & !payload_mask::<V>() == 0,
        "Pack64::pack returned bits above Pack64::BITS"
    );
    OCCUPIED
        | u64::from(generation & GENERATION_MASK) << PAYLOAD_BITS
        | (bits & payload_mask::<V>())
}

/// An occupied data word with its generation replaced by `generation`.
#[inline]
pub(crate) fn restamp(data: u64, generation: u8) -> u64 {
    let field = u64::from(GENERATION_MASK) << PAYLOAD_BITS;
    data & !field | u64::from(generation & GENERATION_MASK) << PAYLOAD_BITS
}

/// The value of an occupied data word.
#[inline]
pub(crate) fn decode<V: Pack64>(data: u64) -> V {
    V::unpack(data & PAYLOAD_MASK)
}

/// The generation an occupied data word was written in.
#[inline]
pub(crate) fn generation_of(data: u64) -> u8 {
    (data >> PAYLOAD_BITS) as u8 & GENERATION_MASK
}

/// Generations between `written` and `now`, modulo 128.
#[inline]
pub(crate) fn age(now: u8, written: u8) -> u8 {
    now.wrapping_sub(written) & GENERATION_MASK
}

/// The low `V::BITS` bits (`V::BITS <= PAYLOAD_BITS` is checked where a table is built; the
/// `min` keeps the mask inside the payload even so).
#[inline(always)]
const fn payload_mask<V: Pack64>() -> u64 {
    let bits = if V::BITS < PAYLOAD_BITS {
        V::BITS
    } else {
        PAYLOAD_BITS
    };
    (1u64 << bits) - 1
}

macro_rules! pack_unsigned {
    ($($t:ty),*) => {$(
        /// Stored verbatim; the newest value wins, the oldest entry is evicted first.
        impl Pack64 for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn pack(self) -> u64 {
                self as u64
            }
            #[inline]
            fn unpack(bits: u64) -> Self {
                bits as $t
            }
        }
    )*};
}

macro_rules! pack_signed {
    ($($t:ty => $u:ty),*) => {$(
        /// Stored as its two's-complement bits; the newest value wins.
        impl Pack64 for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn pack(self) -> u64 {
                self as $u as u64
            }
            #[inline]
            fn unpack(bits: u64) -> Self {
                bits as $u as $t
            }
        }
    )*};
}

pack_unsigned!(u8, u16, u32);
pack_signed!(i8 => u8, i16 => u16, i32 => u32);

/// One bit; the newest value wins.
impl Pack64 for bool {
    const BITS: u32 = 1;
    #[inline]
    fn pack(self) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn unpack(bits: u64) -> Self {
        bits != 0
    }
}

/// No bits: the table as a lossy set of keys ("seen recently").
impl Pack64 for () {
    const BITS: u32 = 0;
    #[inline]
    fn pack(self) -> u64 {
        0
    }
    #[inline]
    fn unpack(_bits: u64) -> Self {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_words_are_never_zero() {
        assert_ne!(encode((), 0), 0);
        assert_ne!(encode(0u32, 0), 0);
    }

    #[test]
    fn generation_and_payload_round_trip() {
        for generation in [0u8, 1, 63, 126, 127] {
            for v in [0u32, 1, u32::MAX] {
                let d = encode(v, generation);
                assert_eq!(decode::<u32>(d), v);
                assert_eq!(generation_of(d), generation);
            }
        }
        assert_eq!(decode::<i32>(encode(i32::MIN, 5)), i32::MIN);
        assert_eq!(decode::<i16>(encode(-1i16, 5)), -1);
    }

    #[test]
    fn age_wraps() {
        assert_eq!(age(0, 127), 1);
        assert_eq!(age(3, 125), 6);
        assert_eq!(age(5, 5), 0);
    }
}
