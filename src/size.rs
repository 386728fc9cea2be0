//! How big a table is, as a user states it.

use std::fmt;

/// One mebibyte: the unit of an engine's `Hash` option.
pub const MIB: usize = 1 << 20;

/// The size of a table, as a user states it.
///
/// Bytes and MiB round *down* to whole 64-byte cache lines, so a table never exceeds the memory it
/// was given; entries round *up* to whole lines, so a table never holds fewer entries than asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// At most this many bytes of table memory.
    Bytes(usize),
    /// At most this many MiB (2^20 bytes), as a chess engine's `Hash` option.
    Mib(usize),
    /// At least this many entries (slots).
    Entries(usize),
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Size::Bytes(n) => write!(f, "{n} bytes"),
            Size::Mib(n) => write!(f, "{n} MiB"),
            Size::Entries(n) => write!(f, "{n} entries"),
        }
    }
}
