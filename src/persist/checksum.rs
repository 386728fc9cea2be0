//! The CRC-32 wrappers: a writer that appends the checksum of what passed through it, and a
//! reader that checks it. The table files use them, and so may a caller for data of its own.

use crate::error::{Error, FileError};
use std::io::{self, Read, Write};

/// `read_exact`, with a short input reported as [`FileError::Truncated`].
pub(crate) fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), Error> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => FileError::Truncated.into(),
        _ => Error::from(e),
    })
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
    pub(crate) inner: R,
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

    /// Reads the stored CRC-32 and compares it with what was read, naming `part` if it differs.
    pub(crate) fn finish_part(&mut self, part: &'static str) -> Result<(), Error> {
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
