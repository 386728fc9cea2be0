//! How many 64-byte lines a [`Size`] buys: the checked conversion every table and set makes
//! before it allocates, and every file header's line count goes through.

use crate::error::Error;
use crate::size::{Size, MIB};

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
