//! How big a table is, and why building one can fail.

use std::fmt;
use std::io;
use std::sync::Arc;

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

/// Why a table or set could not be built, saved or loaded.
///
/// Building never panics and never aborts: a size too small, too large for the address space
/// or refused by the OS is one of these, and a table being resized keeps its old memory when
/// this is returned. What building cannot see is memory the OS promised but cannot deliver:
/// tables are committed lazily, page by page as they are first written, so a table larger than
/// the machine's free memory is built, and writing more of it than the machine has is the OS's
/// matter (on Linux, the OOM killer ends the process), not an `Error` this crate can return.
#[derive(Clone, Debug)]
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
    /// A set with room for this many states (at [`crate::consts::MAX_LOAD`]) overflows the
    /// address space.
    TooManyStates {
        /// The states asked for.
        states: usize,
    },
    /// The operating system or the allocator refused the memory.
    AllocationFailed {
        /// How many bytes were requested.
        bytes: usize,
        /// The OS error, or the allocator's (also [`std::error::Error::source`]).
        source: Arc<io::Error>,
    },
    /// Reading or writing a saved table failed (`save` and `load`; the error is also the
    /// [`std::error::Error::source`]).
    Io(Arc<io::Error>),
    /// A saved table is not what `load` expects: see [`crate::persist::FileError`].
    File(crate::persist::FileError),
}

impl Error {
    /// `AllocationFailed` for `bytes`, with `source`.
    pub(crate) fn allocation(bytes: usize, source: io::Error) -> Self {
        Error::AllocationFailed {
            bytes,
            source: Arc::new(source),
        }
    }
}

/// Two I/O errors are taken as equal when their kind and OS error code agree.
fn same_io(a: &io::Error, b: &io::Error) -> bool {
    a.kind() == b.kind() && a.raw_os_error() == b.raw_os_error()
}

impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        use Error::*;
        match (self, other) {
            (
                ZeroSize { size, line_bytes },
                ZeroSize {
                    size: s,
                    line_bytes: l,
                },
            ) => size == s && line_bytes == l,
            (TooLarge { size }, TooLarge { size: s }) => size == s,
            (TooManyStates { states }, TooManyStates { states: s }) => states == s,
            (
                AllocationFailed { bytes, source },
                AllocationFailed {
                    bytes: b,
                    source: s,
                },
            ) => bytes == b && same_io(source, s),
            (Io(a), Io(b)) => same_io(a, b),
            (File(a), File(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Error {}

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
            Error::TooManyStates { states } => write!(
                f,
                "a set with room for {states} states overflows the address space"
            ),
            Error::AllocationFailed { bytes, source } => {
                write!(f, "could not allocate {bytes} bytes for the table: {source}")
            }
            Error::Io(e) => write!(f, "reading or writing a saved table failed: {e}"),
            Error::File(e) => write!(f, "not a loadable table: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::AllocationFailed { source, .. } => Some(&**source),
            Error::Io(e) => Some(&**e),
            Error::File(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(Arc::new(e))
    }
}

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
