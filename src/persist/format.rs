//! The file layout of the crate's module docs ([`crate::persist`]): the header, the streamed
//! body of 64-byte lines and the trailer, shared by every kind of table.

use crate::alloc::{HugePages, Region, Words};
use crate::error::{Error, FileError};
use crate::persist::checksum::{read_exact, ChecksumReader, ChecksumWriter};
use crate::size::Size;
use std::io::{Read, Write};

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;

/// The first eight bytes of every file.
const MAGIC: [u8; 8] = *b"srchcach";

/// Header bytes.
const HEADER_BYTES: usize = 64;

/// Lines copied per chunk (64 KiB): big enough for few calls, small enough to stay in L2.
const CHUNK_LINES: usize = 1024;

/// The kinds of table a file can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    FingerprintSet = 1,
    CompactSet = 2,
    Bitstate = 3,
    SearchCache = 4,
    DenseCache = 5,
    VisitedMap = 6,
    ClusterCache = 7,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::FingerprintSet => "FingerprintSet",
            Kind::CompactSet => "CompactSet",
            Kind::Bitstate => "Bitstate",
            Kind::SearchCache => "SearchCache",
            Kind::DenseCache => "DenseCache",
            Kind::VisitedMap => "VisitedMap",
            Kind::ClusterCache => "ClusterCache",
        }
    }

    fn from_u32(n: u32) -> Option<Kind> {
        [
            Kind::FingerprintSet,
            Kind::CompactSet,
            Kind::Bitstate,
            Kind::SearchCache,
            Kind::DenseCache,
            Kind::VisitedMap,
            Kind::ClusterCache,
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
            let words = line.load_words();
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
    pages: HugePages,
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
            // Zero words are skipped: the region is zero already, and a page never written
            // is never committed.
            line.store_words(&words);
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
