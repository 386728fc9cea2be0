//! The table entry in the dense layout (`TTLayout dense`): [`TtEntry`] without its static
//! evaluation, in the 41 bits a `searchcache::DenseCache` entry holds.
//!
//! Payload layout (40 bits):
//!
//! ```text
//!  39 38 | 37 ...... 31 | 30 ...... 15 | 14 ........ 0
//!  bound | depth + 8 (7)| score (i16)  | move: from 6, to 6, promotion 3
//! ```
//!
//! The evaluation (16 bits) does not fit beside the 16-bit key check and the generation, so a
//! dense entry reads back with `eval` = [`NO_EVAL`] and the search evaluates the position
//! itself ([`TtEntry::stored_eval`]). Everything else, and the replacement rules, are the wide
//! entry's: a dense entry is a wide entry with the eval bits dropped.

use crate::tt_entry::{TtEntry, NO_EVAL};
use searchcache::Pack64;

/// Bits of the wide payload below the eval (move 15 + score 16).
const LOW_BITS: u32 = 31;

/// Where the eval starts in the wide payload, and its width.
const EVAL_SHIFT: u32 = 31;
const EVAL_BITS: u32 = 16;

/// A [`TtEntry`] as the dense table stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenseEntry(pub TtEntry);

impl Pack64 for DenseEntry {
    const BITS: u32 = TtEntry::BITS - EVAL_BITS;

    fn pack(self) -> u64 {
        let wide = self.0.pack();
        let low = wide & ((1 << LOW_BITS) - 1);
        low | (wide >> (EVAL_SHIFT + EVAL_BITS)) << LOW_BITS
    }

    fn unpack(bits: u64) -> Self {
        let low = bits & ((1 << LOW_BITS) - 1);
        let high = bits >> LOW_BITS;
        let eval = u64::from(NO_EVAL as u16);
        let wide = low | eval << EVAL_SHIFT | high << (EVAL_SHIFT + EVAL_BITS);
        DenseEntry(TtEntry::unpack(wide))
    }

    fn depth(&self) -> i32 {
        self.0.depth()
    }

    fn merge(self, old: Self, age: u8) -> Option<Self> {
        self.0.merge(old.0, age).map(DenseEntry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt_entry::{pack_move, unpack_move, Bound};

    #[test]
    fn a_dense_entry_is_the_wide_entry_without_its_eval() {
        let mv = unpack_move(pack_move(Some(cozy_chess::Move {
            from: cozy_chess::Square::E7,
            to: cozy_chess::Square::E8,
            promotion: Some(cozy_chess::Piece::Knight),
        })));
        for (score, depth, bound) in [
            (-32_000i16, -8i8, Bound::Upper),
            (31_990, 119, Bound::Exact),
            (0, 0, Bound::Lower),
        ] {
            let entry = TtEntry {
                mv,
                score,
                eval: 123,
                depth,
                bound,
            };
            let back = DenseEntry::unpack(DenseEntry(entry).pack()).0;
            assert_eq!(
                back,
                TtEntry {
                    eval: NO_EVAL,
                    ..entry
                }
            );
            assert_eq!(back.stored_eval(), None);
            assert!(DenseEntry(entry).pack() < 1 << DenseEntry::BITS);
        }
        assert_eq!(DenseEntry::BITS, 40);
    }
}
