//! Reads fuzzer bytes as a stream of small numbers; an exhausted stream reads as zeros, so every
//! byte string is a valid input.

/// A cursor over the fuzzer's bytes.
pub struct Input<'a> {
    bytes: &'a [u8],
}

impl<'a> Input<'a> {
    /// A cursor at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Input { bytes }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The next byte, or 0.
    pub fn u8(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    /// The next `N` bytes, zero-padded.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        for b in &mut out {
            *b = self.u8();
        }
        out
    }

    /// The next 2 bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.array())
    }

    /// The next 4 bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }

    /// The next 8 bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }

    /// A key: usually one of a few structured keys (small integers and 15-puzzle boards one
    /// move apart), so tiny tables see the same keys again and fight over buckets; sometimes an
    /// arbitrary 64-bit key.
    pub fn key(&mut self) -> u64 {
        const BOARDS: [u64; 4] = [
            0x1234_5678_9abc_def0,
            0x1234_5678_9abc_de0f,
            0x1234_5678_9abc_0def,
            0x1234_5678_9ab0_cdef,
        ];
        match self.u8() {
            b @ 0..=11 => u64::from(b),
            b @ 12..=15 => BOARDS[usize::from(b - 12)],
            16 => u64::MAX,
            17 => self.u64(),
            b => u64::from(b % 18),
        }
    }
}
