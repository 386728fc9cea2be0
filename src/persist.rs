//! Saving and loading tables: a raw, streaming dump of the 64-byte lines behind a checked
//! header, for [`FingerprintSet`](crate::FingerprintSet), [`CompactSet`](crate::CompactSet),
//! [`Bitstate`](crate::Bitstate) and [`SearchCache`](crate::SearchCache) (`save` and `load` on
//! each), and the checksum wrappers a caller can use for data of its own beside them.
//!
//! # Format (version 1)
//!
//! Every integer is little-endian, whatever the machine. A file is a header, a body and a
//! trailer, and nothing after the trailer is read, so a caller may append its own data (a
//! frontier, counters) and read it back after `load` returns.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic: the ASCII bytes `srchcach` |
//! | 8..12 | format version, `u32`: 1 |
//! | 12..16 | kind, `u32`: 1 `FingerprintSet`, 2 `CompactSet`, 3 `Bitstate`, 4 `SearchCache` |
//! | 16..24 | lines, `u64`: 64-byte lines in the body (at least 1) |
//! | 24..56 | four `u64` parameters of the kind (below) |
//! | 56..60 | CRC-32 (ISO-HDLC, as zlib's `crc32`) of bytes 0..56, `u32` |
//! | 60..64 | zero |
//! | body | `lines` × 64 bytes: each line's eight 64-bit words in order, each as a `u64` |
//! | +0..8 | count, `u64`: occupied slots (sets), set bits (`Bitstate`), occupied entries (`SearchCache`) |
//! | +8..12 | CRC-32 of everything before it, header and body included, `u32` |
//! | +12..16 | zero |
//!
//! Parameters: sets `[signature bits, WALK_LINES, signature comparisons, 0]`; `Bitstate`
//! `[hash functions k, states stored, 0, 0]`; `SearchCache` `[Pack64::BITS, options,
//! generation, Pack64::AGE_WEIGHT as u64]`, options being `slots | keys << 8 | huge pages << 16`
//! (`Slots::Bucket` 0, `Single` 1; `Keys::Any` 0, `Random` 1; `HugePages::Advise` 0, `Never` 1).
//! A set's word holds one `u64` signature or two `u32` ones (the even slot in the low half); a
//! table's line is its bucket, `[check, data]` × 4, as `bucket.rs` describes. The body is the
//! table as it lies in memory, so it is only meaningful to this format version: a change to the
//! layout, the mixer or the entry protocol is a new version.
//!
//! # What `load` checks
//!
//! Magic, version, kind (and, for a `SearchCache`, its value's `BITS` and `AGE_WEIGHT`), the
//! header's own CRC before any memory is allocated, then the body's count (recounted while
//! reading) and the CRC of the whole. Any mismatch, a short input or a read error is an
//! [`Error`] ([`Error::File`] or [`Error::Io`]), never a panic and never a table built from bad
//! bytes: the partly loaded table is dropped.
//!
//! # Memory while loading
//!
//! The table is allocated from the header's line count before the body is read (a stream's
//! length is not known in advance), but tables of 2 MiB and more are mapped lazily and the
//! body is copied 64 KiB at a time without touching lines that are all zero: a header claiming
//! a huge table costs address space, not memory, until the input delivers the lines, and a
//! size the OS cannot map is an [`Error::AllocationFailed`]. No second buffer of the table's
//! size is ever needed, for saving or loading.
//!
//! # Saving while others insert
//!
//! `save` takes `&self`, so it can run while other threads use the table; the file is then a
//! snapshot taken line by line, and its count is that of what was written, so it always loads.
//! Of a set, every state inserted before `save` began is in the file; a state whose insert
//! raced the save may be missing, or present where a lookup after loading does not find it (an
//! earlier slot of its walk was saved empty), so that inserting it again reports `New`: a
//! state explored twice, never one omitted. Save between BFS levels, when no insert runs, for
//! an exact copy. A `SearchCache` saved while stores run may hold torn entries, which read as
//! misses after loading, as they would have before.

use crate::alloc::{Region, ZeroInit};
use crate::size::{Error, Size};
use crate::sync::{AtomicU64, Ordering::Relaxed};
use std::fmt;
use std::io::{self, Read, Write};

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The first eight bytes of every file.
const MAGIC: [u8; 8] = *b"srchcach";

/// Header bytes.
const HEADER_BYTES: usize = 64;

/// Lines copied per chunk (64 KiB): big enough for few calls, small enough to stay in L2.
const CHUNK_LINES: usize = 1024;

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
        /// The version this build reads ([`FORMAT_VERSION`]).
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
        /// Which part: `header`, `table` or `data` (a [`ChecksumReader`]'s).
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

impl From<FileError> for Error {
    fn from(e: FileError) -> Self {
        Error::File(e)
    }
}

/// The kinds of table a file can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    FingerprintSet = 1,
    CompactSet = 2,
    Bitstate = 3,
    SearchCache = 4,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::FingerprintSet => "FingerprintSet",
            Kind::CompactSet => "CompactSet",
            Kind::Bitstate => "Bitstate",
            Kind::SearchCache => "SearchCache",
        }
    }

    fn from_u32(n: u32) -> Option<Kind> {
        [
            Kind::FingerprintSet,
            Kind::CompactSet,
            Kind::Bitstate,
            Kind::SearchCache,
        ]
        .into_iter()
        .find(|&k| k as u32 == n)
    }
}

/// What a header says beyond the magic and the version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) kind: Kind,
    pub(crate) lines: usize,
    pub(crate) params: [u64; 4],
}

impl Header {
    fn to_bytes(self) -> [u8; HEADER_BYTES] {
        let mut b = [0u8; HEADER_BYTES];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        b[12..16].copy_from_slice(&(self.kind as u32).to_le_bytes());
        b[16..24].copy_from_slice(&(self.lines as u64).to_le_bytes());
        for (i, p) in self.params.iter().enumerate() {
            b[24 + 8 * i..32 + 8 * i].copy_from_slice(&p.to_le_bytes());
        }
        let crc = crc32fast::hash(&b[..56]);
        b[56..60].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Parses and checks a header for a table of kind `expected`.
    fn parse(b: &[u8; HEADER_BYTES], expected: Kind) -> Result<Header, FileError> {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        if b[0..8] != MAGIC {
            return Err(FileError::NotATable);
        }
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(FileError::Version {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        if u32_at(56) != crc32fast::hash(&b[..56]) || u32_at(60) != 0 {
            return Err(FileError::Checksum { part: "header" });
        }
        let kind = Kind::from_u32(u32_at(12)).ok_or_else(|| FileError::Kind {
            found: format!("unknown kind {}", u32_at(12)),
            expected: expected.name(),
        })?;
        if kind != expected {
            return Err(FileError::Kind {
                found: kind.name().into(),
                expected: expected.name(),
            });
        }
        let lines = u64_at(16);
        let fits = usize::try_from(lines)
            .ok()
            .filter(|&n| n > 0 && Size::Bytes(n.saturating_mul(64)).lines(64, 1) == Ok(n));
        let lines = fits.ok_or_else(|| {
            FileError::Invalid(format!(
                "{lines} lines: not a table this machine can address"
            ))
        })?;
        Ok(Header {
            kind,
            lines,
            params: [u64_at(24), u64_at(32), u64_at(40), u64_at(48)],
        })
    }
}

/// A 64-byte line of eight atomic words: a bucket, a set's line, a bitstate line.
pub(crate) trait Words: ZeroInit {
    fn words(&self) -> &[AtomicU64; 8];
}

/// Writes `header`, the lines and the trailer, whose count is the sum of `count` over the
/// lines as they were written.
pub(crate) fn save<T: Words>(
    w: impl Write,
    header: Header,
    lines: &[T],
    count: impl Fn(&[u64; 8]) -> u64,
) -> Result<(), Error> {
    let mut w = ChecksumWriter::new(w);
    w.write_all(&header.to_bytes())?;
    let mut buffer = vec![0u8; CHUNK_LINES * 64];
    let mut total = 0u64;
    for chunk in lines.chunks(CHUNK_LINES) {
        for (line, bytes) in chunk.iter().zip(buffer.chunks_exact_mut(64)) {
            let words: [u64; 8] = std::array::from_fn(|i| line.words()[i].load(Relaxed));
            total += count(&words);
            for (word, out) in words.iter().zip(bytes.chunks_exact_mut(8)) {
                out.copy_from_slice(&word.to_le_bytes());
            }
        }
        w.write_all(&buffer[..chunk.len() * 64])?;
    }
    w.write_all(&total.to_le_bytes())?;
    w.finish()?.write_all(&0u32.to_le_bytes())?;
    Ok(())
}

/// Reads a table of kind `expected`: its header, a freshly allocated region holding the body,
/// and the body's count (checked against the trailer, as is the CRC).
pub(crate) fn load<T: Words>(
    r: impl Read,
    expected: Kind,
    pages: crate::HugePages,
    count: impl Fn(&[u64; 8]) -> u64,
) -> Result<(Header, Region<T>, u64), Error> {
    let mut r = ChecksumReader::new(r);
    let mut bytes = [0u8; HEADER_BYTES];
    // The magic first, so that a short file of something else is "not a table".
    read_exact(&mut r, &mut bytes[..8])?;
    if bytes[..8] != MAGIC {
        return Err(FileError::NotATable.into());
    }
    read_exact(&mut r, &mut bytes[8..])?;
    let header = Header::parse(&bytes, expected)?;
    let region = Region::<T>::zeroed(header.lines, pages)?;
    let mut buffer = vec![0u8; CHUNK_LINES * 64];
    let mut total = 0u64;
    for chunk in region.chunks(CHUNK_LINES) {
        let bytes = &mut buffer[..chunk.len() * 64];
        read_exact(&mut r, bytes)?;
        for (line, bytes) in chunk.iter().zip(bytes.chunks_exact(64)) {
            let words: [u64; 8] = std::array::from_fn(|i| {
                u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]))
            });
            total += count(&words);
            for (atomic, &word) in line.words().iter().zip(&words) {
                // Zero words are skipped: the region is zero already, and a page never
                // written is never committed.
                if word != 0 {
                    atomic.store(word, Relaxed);
                }
            }
        }
    }
    let mut trailer = [0u8; 8];
    read_exact(&mut r, &mut trailer)?;
    r.finish_part("table")?;
    let mut pad = [0u8; 4];
    read_exact(&mut r.inner, &mut pad)?;
    if u64::from_le_bytes(trailer) != total || pad != [0; 4] {
        return Err(FileError::Invalid(format!(
            "the trailer counts {}, the body holds {total}",
            u64::from_le_bytes(trailer)
        ))
        .into());
    }
    Ok((header, region, total))
}

/// `read_exact`, with a short input reported as [`FileError::Truncated`].
fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), Error> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => FileError::Truncated.into(),
        _ => Error::from(e),
    })
}

/// Counts the non-zero `bits`-bit slots of a line's words (a set's occupied slots).
pub(crate) fn nonzero_slots(words: &[u64; 8], bits: u32) -> u64 {
    let mask = u64::MAX >> (64 - bits);
    words
        .iter()
        .map(|&w| {
            (0..64 / bits)
                .filter(|i| w >> (i * bits) & mask != 0)
                .count() as u64
        })
        .sum()
}

/// A writer that passes bytes through and keeps their CRC-32; [`finish`](Self::finish) appends
/// it (4 bytes, little-endian). For data a caller saves beside a table, so that
/// [`ChecksumReader`] can tell whether it came back unchanged.
///
/// ```
/// use searchcache::persist::{ChecksumReader, ChecksumWriter};
/// use std::io::{Read, Write};
///
/// let mut w = ChecksumWriter::new(Vec::new());
/// w.write_all(b"frontier: 3 states")?;
/// let bytes = w.finish()?;
///
/// let mut r = ChecksumReader::new(&bytes[..]);
/// let mut text = [0u8; 18];
/// r.read_exact(&mut text)?;
/// r.finish()?; // an Error if the bytes were changed
/// assert_eq!(&text, b"frontier: 3 states");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ChecksumWriter<W: Write> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> ChecksumWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        ChecksumWriter {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// Writes the CRC-32 of everything written so far and returns the inner writer.
    pub fn finish(mut self) -> io::Result<W> {
        let crc = self.crc.clone().finalize();
        self.inner.write_all(&crc.to_le_bytes())?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for ChecksumWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that passes bytes through and keeps their CRC-32; [`finish`](Self::finish) reads
/// the 4 bytes [`ChecksumWriter::finish`] wrote and compares.
#[derive(Debug)]
pub struct ChecksumReader<R: Read> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> ChecksumReader<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        ChecksumReader {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }

    /// Reads the stored CRC-32 and returns the inner reader if it matches what was read;
    /// [`FileError::Checksum`] (`data`) if not, [`FileError::Truncated`] if it is missing.
    pub fn finish(mut self) -> Result<R, Error> {
        self.finish_part("data")?;
        Ok(self.inner)
    }

    fn finish_part(&mut self, part: &'static str) -> Result<(), Error> {
        let computed = self.crc.clone().finalize();
        let mut stored = [0u8; 4];
        read_exact(&mut self.inner, &mut stored)?;
        if u32::from_le_bytes(stored) != computed {
            return Err(FileError::Checksum { part }.into());
        }
        Ok(())
    }
}

impl<R: Read> Read for ChecksumReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}
