//! Value types the targets store: the library's own `Pack64` impls, and stand-ins for the
//! examples' entries (a chess transposition entry and an IDA* bound), defined here because the
//! examples are binaries, not library types. Each is read from fuzzer bytes as any valid value.

use crate::input::Input;
use searchcache::Pack64;
use std::fmt::Debug;

/// A `Pack64` value the targets can draw from fuzzer bytes and compare.
pub trait FuzzValue: Pack64 + PartialEq + Debug {
    /// Any valid value (one that `pack` must round-trip).
    fn read(input: &mut Input) -> Self;
}

impl FuzzValue for u8 {
    fn read(input: &mut Input) -> Self {
        input.u8()
    }
}
impl FuzzValue for u16 {
    fn read(input: &mut Input) -> Self {
        input.u16()
    }
}
impl FuzzValue for u32 {
    fn read(input: &mut Input) -> Self {
        input.u32()
    }
}
impl FuzzValue for i8 {
    fn read(input: &mut Input) -> Self {
        input.u8() as i8
    }
}
impl FuzzValue for i16 {
    fn read(input: &mut Input) -> Self {
        input.u16() as i16
    }
}
impl FuzzValue for i32 {
    fn read(input: &mut Input) -> Self {
        input.u32() as i32
    }
}
impl FuzzValue for bool {
    fn read(input: &mut Input) -> Self {
        input.u8() & 1 == 1
    }
}
impl FuzzValue for () {
    fn read(_: &mut Input) -> Self {}
}

/// Bound kinds of a chess entry (2 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No bound (a stored static evaluation only).
    None,
    /// The score is an upper bound (fail low).
    Upper,
    /// The score is a lower bound (fail high).
    Lower,
    /// The score is exact (a PV node).
    Exact,
}

/// A chess transposition entry as engines keep it: 43 bits. Its policy is the one issue 2
/// describes: don't overwrite a much deeper entry of this search unless the new one is exact,
/// and keep the old best move when the new entry has none. Depth can be negative (quiescence)
/// and two raw depths stand for `i32::MIN`/`i32::MAX`, to reach the table's saturating
/// arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessEntry {
    /// Raw depth byte (see [`ChessEntry::plies`]).
    pub depth: u8,
    /// Bound kind.
    pub bound: Bound,
    /// Best move (0: none).
    pub mv: u16,
    /// Score.
    pub score: i16,
    /// Whether the node was on the principal variation.
    pub pv: bool,
}

impl ChessEntry {
    /// Depth in plies: the raw byte as a signed number, with 127 and -128 standing for
    /// `i32::MAX` and `i32::MIN`.
    pub fn plies(&self) -> i32 {
        match self.depth as i8 {
            127 => i32::MAX,
            -128 => i32::MIN,
            d => d.into(),
        }
    }
}

impl Pack64 for ChessEntry {
    const BITS: u32 = 43;
    fn pack(self) -> u64 {
        u64::from(self.depth)
            | (self.bound as u64) << 8
            | u64::from(self.mv) << 10
            | u64::from(self.score as u16) << 26
            | u64::from(self.pv) << 42
    }
    fn unpack(bits: u64) -> Self {
        ChessEntry {
            depth: bits as u8,
            bound: [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact]
                [(bits >> 8) as usize & 3],
            mv: (bits >> 10) as u16,
            score: (bits >> 26) as u16 as i16,
            pv: bits >> 42 & 1 == 1,
        }
    }
    fn depth(&self) -> i32 {
        self.plies()
    }
    fn merge(self, old: Self, age: u8) -> Option<Self> {
        if age == 0 && self.bound != Bound::Exact && old.plies() > self.plies().saturating_add(4) {
            return None;
        }
        let mv = if self.mv == 0 { old.mv } else { self.mv };
        Some(ChessEntry { mv, ..self })
    }
}

impl FuzzValue for ChessEntry {
    fn read(input: &mut Input) -> Self {
        ChessEntry {
            depth: input.u8(),
            bound: [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact]
                [usize::from(input.u8() & 3)],
            mv: if input.u8() & 1 == 0 { 0 } else { input.u16() },
            score: input.u16() as i16,
            pv: input.u8() & 1 == 1,
        }
    }
}

/// An IDA* entry: an admissible lower bound on the cost to go, which only ever grows (merge by
/// max), worth its bound, and a search-iteration byte. Ages slowly (`AGE_WEIGHT` 1): bounds stay
/// valid across iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdaBound {
    /// Lower bound on the remaining cost.
    pub bound: u16,
    /// The iteration that proved it.
    pub iteration: u8,
}

impl Pack64 for IdaBound {
    const BITS: u32 = 24;
    const AGE_WEIGHT: i32 = 1;
    fn pack(self) -> u64 {
        u64::from(self.bound) | u64::from(self.iteration) << 16
    }
    fn unpack(bits: u64) -> Self {
        IdaBound {
            bound: bits as u16,
            iteration: (bits >> 16) as u8,
        }
    }
    fn depth(&self) -> i32 {
        self.bound.into()
    }
    fn merge(self, old: Self, _age: u8) -> Option<Self> {
        if old.bound >= self.bound {
            None
        } else {
            Some(self)
        }
    }
}

impl FuzzValue for IdaBound {
    fn read(input: &mut Input) -> Self {
        IdaBound {
            bound: input.u16(),
            iteration: input.u8(),
        }
    }
}
