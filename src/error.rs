//! Why building, saving or loading a table can fail: the crate's one error type and the
//! file errors it carries. A leaf: it knows the sizes a user asks for and nothing else.

use crate::size::Size;
use std::fmt;
use std::io;
use std::sync::Arc;

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
    File(FileError),
    /// [`VisitedSet::grow`](crate::VisitedSet::grow) refused: see [`GrowRefused`]. The set
    /// is unchanged.
    Grow(GrowRefused),
    /// A [`VisitedMap`](crate::VisitedMap) was asked for a payload width outside `1..=max`.
    PayloadBits {
        /// What was asked for.
        bits: u32,
        /// The widest payload there is.
        max: u32,
    },
}

/// Why [`VisitedSet::grow`](crate::VisitedSet::grow) refused to grow a non-empty set. In
/// every case the set is left exactly as it was.
///
/// A slot keeps only the state's signature; its line came from the independent index hash and
/// a walk of up to [`crate::consts::WALK_LINES`] lines. So a stored state's line in a larger
/// table can be computed only where the signature *is* the index: a
/// [`FingerprintSet`](crate::FingerprintSet) whose every state came from
/// [`StateHash::from_u64`](crate::StateHash::from_u64) (index equal to signature).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GrowRefused {
    /// The new size has no more lines than the set has now (growing never shrinks, and a
    /// size equal to the current one is refused rather than taken as a no-op).
    NotLarger {
        /// 64-byte lines the set has.
        lines: usize,
        /// 64-byte lines the size asked for.
        asked: usize,
    },
    /// A [`CompactSet`](crate::CompactSet) keeps the low 32 bits of the mixed signature; its
    /// line came from the high bits of the mixed index, which no slot keeps (with
    /// `from_u64` keys, the slot and its line give at most 32 + log2(lines) of the 64 bits
    /// needed, less the walk's up to 10 bits of displacement).
    CompactSignatures,
    /// Some state was inserted with `index != signature` (e.g. [`StateHash::of`](
    /// crate::StateHash::of) or [`StateHash::portable`](crate::StateHash::portable)): its line
    /// came from bits no slot keeps. Also the case for a set loaded from a file that does not
    /// record that every state was keyed.
    IndependentIndex,
    /// A stored state found no free slot within its walk in the new table (possible in
    /// principle, never seen: the new table is larger and so less loaded).
    Full,
}

impl fmt::Display for GrowRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrowRefused::NotLarger { lines, asked } => write!(
                f,
                "cannot grow a set of {lines} lines to {asked} lines: the new size must be larger"
            ),
            GrowRefused::CompactSignatures => write!(
                f,
                "a CompactSet cannot grow: its 32-bit slots do not keep the index bits that \
                 place a state in a larger table; build a larger set and search again"
            ),
            GrowRefused::IndependentIndex => write!(
                f,
                "this set cannot grow: some state was inserted with an index hash other than its \
                 signature, and no slot keeps the index bits; only a FingerprintSet of \
                 StateHash::from_u64 keys can grow"
            ),
            GrowRefused::Full => write!(
                f,
                "growing found no free slot for a stored state in the new table; the set is \
                 unchanged: grow to a larger size"
            ),
        }
    }
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
            (Grow(a), Grow(b)) => a == b,
            (PayloadBits { bits, max }, PayloadBits { bits: b, max: m }) => bits == b && max == m,
            _ => false,
        }
    }
}

impl Eq for Error {}

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
            Error::Grow(e) => write!(f, "{e}"),
            Error::PayloadBits { bits, max } => write!(
                f,
                "a payload of {bits} bits per state: a visited map carries 1 to {max}"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::AllocationFailed { source, .. } => Some(&**source),
            Error::Io(e) => Some(&**e),
            Error::File(e) => Some(e),
            Error::Grow(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(Arc::new(e))
    }
}

/// Why a file is not a loadable table.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileError {
    /// The first eight bytes are not `srchcach`: not a file of this crate.
    NotATable,
    /// A format version this build does not read.
    Version {
        /// The file's version.
        found: u32,
        /// The version this build reads ([`crate::consts::FORMAT_VERSION`]).
        supported: u32,
    },
    /// A table of another kind, e.g. a `CompactSet` given to `FingerprintSet::load`.
    Kind {
        /// What the file holds (`unknown kind N` for a number no kind has).
        found: String,
        /// What the caller asked to load.
        expected: &'static str,
    },
    /// The input ended before the table did.
    Truncated,
    /// A checksum does not match: the bytes were changed after they were saved.
    Checksum {
        /// Which part: `header`, `table` or `data` (a
        /// [`ChecksumReader`](crate::persist::ChecksumReader)'s).
        part: &'static str,
    },
    /// A field the checksum vouches for does not fit what is being loaded: a line count of
    /// zero or beyond the address space, another value type's `BITS`, unknown options, a
    /// count that disagrees with the body.
    Invalid(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotATable => write!(f, "not a searchcache file (bad magic)"),
            FileError::Version { found, supported } => write!(
                f,
                "format version {found}; this build reads version {supported}"
            ),
            FileError::Kind { found, expected } => {
                write!(f, "the file holds a {found}, not a {expected}")
            }
            FileError::Truncated => write!(f, "the input ends before the table does"),
            FileError::Checksum { part } => write!(f, "the {part} checksum does not match"),
            FileError::Invalid(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for FileError {}

impl std::error::Error for GrowRefused {}

impl From<FileError> for Error {
    fn from(e: FileError) -> Self {
        Error::File(e)
    }
}
