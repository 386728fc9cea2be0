//! How big a table is, and why building one can fail.

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

impl Size {
    /// The number of `line_bytes`-sized lines holding `entries_per_line` entries each.
    ///
    /// Errors: [`Error::ZeroSize`] when that is no line at all, [`Error::TooLarge`] when the
    /// byte count overflows `isize` (the most any allocation may hold).
    pub(crate) fn lines(self, line_bytes: usize, entries_per_line: usize) -> Result<usize, Error> {
        let too_large = || Error::TooLarge { size: self };
        let lines = match self {
            Size::Bytes(bytes) => bytes / line_bytes,
            Size::Mib(mib) => mib.checked_mul(MIB).ok_or_else(too_large)? / line_bytes,
            Size::Entries(entries) => entries.div_ceil(entries_per_line),
        };
        if lines == 0 {
            return Err(Error::ZeroSize {
                size: self,
                line_bytes,
            });
        }
        match lines.checked_mul(line_bytes) {
            Some(bytes) if bytes <= isize::MAX as usize => Ok(lines),
            _ => Err(too_large()),
        }
    }
}

/// Why a table could not be built. Building never panics and never aborts: every failure is one
/// of these, and a table being resized keeps its old memory when this is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The size holds not even one cache line.
    ZeroSize {
        /// What was asked for.
        size: Size,
        /// The smallest table there is, in bytes.
        line_bytes: usize,
    },
    /// The size overflows the address space (more than `isize::MAX` bytes).
    TooLarge {
        /// What was asked for.
        size: Size,
    },
    /// The operating system or the allocator refused the memory.
    AllocationFailed {
        /// How many bytes were requested.
        bytes: usize,
        /// The OS error, or the allocator's.
        reason: String,
    },
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ZeroSize { size, line_bytes } => write!(
                f,
                "table size {size} is too small: the smallest table is one {line_bytes}-byte cache line"
            ),
            Error::TooLarge { size } => {
                write!(f, "table size {size} overflows the address space")
            }
            Error::AllocationFailed { bytes, reason } => {
                write!(f, "could not allocate {bytes} bytes for the table: {reason}")
            }
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_to_lines() {
        assert_eq!(Size::Mib(1).lines(64, 4), Ok(16_384));
        assert_eq!(Size::Bytes(127).lines(64, 4), Ok(1));
        assert_eq!(Size::Entries(5).lines(64, 4), Ok(2));
        assert_eq!(Size::Entries(4).lines(64, 4), Ok(1));
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert!(matches!(
            Size::Bytes(63).lines(64, 4),
            Err(Error::ZeroSize { .. })
        ));
        assert!(matches!(
            Size::Entries(0).lines(64, 4),
            Err(Error::ZeroSize { .. })
        ));
        assert!(matches!(
            Size::Mib(0).lines(64, 4),
            Err(Error::ZeroSize { .. })
        ));
        assert!(matches!(
            Size::Mib(usize::MAX).lines(64, 4),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            Size::Entries(usize::MAX).lines(64, 4),
            Err(Error::TooLarge { .. })
        ));
        let msg = Size::Mib(usize::MAX).lines(64, 4).unwrap_err().to_string();
        assert!(msg.contains("overflows"), "{msg}");
    }
}
