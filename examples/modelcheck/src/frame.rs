//! How a checkpoint stores a serde value: a frame, its length in bytes (`u64`, little-endian)
//! and then the value in postcard (serde's compact format: varint integers, a documented wire
//! format that is stable across postcard 1.x). The length bounds what a reader takes, so a
//! reader never reads past its frame into the next part, and a corrupted length cannot make it
//! read or allocate more than the file holds.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Take, Write};

/// Bytes buffered between postcard (which reads and writes a byte at a time) and the file.
const BUFFER_BYTES: usize = 64 << 10;

/// Room for one string of a value being read (postcard reads a string whole before it copies
/// it): longer strings are refused as corrupted.
const LONGEST_STRING: usize = 64 << 10;

/// Why a frame cannot be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FrameError {
    /// The input ends before the frame does.
    Truncated,
    /// The frame's bytes are not a value of the type read.
    Corrupted(String),
}

/// Writes `value` as one frame.
pub(crate) fn write<T: Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let length = postcard::serialize_with_flavor(value, postcard::ser_flavors::Size::default())
        .map_err(io::Error::other)?;
    out.write_all(&(length as u64).to_le_bytes())?;
    let mut writer = FrameWriter {
        buffer: BufWriter::with_capacity(BUFFER_BYTES, out),
        error: None,
    };
    if let Err(e) = postcard::to_io(value, &mut writer) {
        return Err(writer.error.take().unwrap_or_else(|| io::Error::other(e)));
    }
    writer.buffer.into_inner().map_err(|e| e.into_error())?;
    Ok(())
}

/// What postcard writes a frame to: a buffer before the file's writer that keeps the first
/// I/O error (postcard reports any as "the serialize buffer is full") and does not pass
/// postcard's flush on (the file's writer flushes once, at the end of the file).
struct FrameWriter<'a> {
    buffer: BufWriter<&'a mut dyn Write>,
    error: Option<io::Error>,
}

impl Write for FrameWriter<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.write(bytes).inspect_err(|e| {
            self.error
                .get_or_insert_with(|| io::Error::new(e.kind(), e.to_string()));
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Reads one frame that [`write`] wrote as a `T`; `limit` bounds its length (the file's).
pub(crate) fn read<T: DeserializeOwned>(input: &mut dyn Read, limit: u64) -> Result<T, FrameError> {
    let mut frame = FrameReader::open(input, limit)?;
    let value = frame.next()?;
    frame.close()?;
    Ok(value)
}

/// The values of one frame, read one after the other (a frame written as a tuple).
pub(crate) struct FrameReader<'a> {
    input: BufReader<Take<&'a mut dyn Read>>,
    scratch: Vec<u8>,
}

impl<'a> FrameReader<'a> {
    /// Reads a frame's length (at most `limit`) and stands before its first value.
    pub(crate) fn open(input: &'a mut dyn Read, limit: u64) -> Result<Self, FrameError> {
        let mut length = [0u8; 8];
        input
            .read_exact(&mut length)
            .map_err(|_| FrameError::Truncated)?;
        let length = u64::from_le_bytes(length);
        if length > limit {
            return Err(FrameError::Truncated);
        }
        Ok(FrameReader {
            input: BufReader::with_capacity(BUFFER_BYTES, input.take(length)),
            scratch: vec![0; LONGEST_STRING],
        })
    }

    /// The next value of the frame.
    pub(crate) fn next<T: DeserializeOwned>(&mut self) -> Result<T, FrameError> {
        match postcard::from_io((&mut self.input, &mut self.scratch[..])) {
            Ok((value, _)) => Ok(value),
            // postcard says this of every read that failed: the frame or the file ended.
            Err(postcard::Error::DeserializeUnexpectedEnd) => Err(FrameError::Truncated),
            Err(e) => Err(FrameError::Corrupted(e.to_string())),
        }
    }

    /// Checks that the values read took the whole frame.
    pub(crate) fn close(mut self) -> Result<(), FrameError> {
        let buffered = self.input.fill_buf().map_or(0, <[u8]>::len) as u64;
        let left = buffered + self.input.get_ref().limit();
        if left > 0 {
            return Err(FrameError::Corrupted(format!(
                "{left} bytes of its frame are left over"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_and_a_cut_or_padded_frame_is_refused() {
        let value = (
            String::from("2pc(rms=3)"),
            vec![1u32, 300, 70_000],
            u64::MAX,
        );
        let mut bytes = Vec::new();
        write(&mut bytes, &value).unwrap();
        // Varints: the three numbers take 1 + 2 + 3 bytes, not 12.
        assert_eq!(bytes.len(), 8 + 11 + 1 + 1 + 2 + 3 + 10);
        let back: (String, Vec<u32>, u64) = read(&mut &bytes[..], 1 << 20).unwrap();
        assert_eq!(back, value);
        for cut in [0, 5, 8, 12, bytes.len() - 1] {
            let got = read::<(String, Vec<u32>, u64)>(&mut &bytes[..cut], 1 << 20);
            assert_eq!(got, Err(FrameError::Truncated), "cut at {cut}");
        }
        // A frame longer than its value, or a length past the limit.
        let mut padded = bytes.clone();
        padded[0] += 1;
        padded.push(0);
        let got = read::<(String, Vec<u32>, u64)>(&mut &padded[..], 1 << 20);
        assert!(matches!(got, Err(FrameError::Corrupted(_))), "{got:?}");
        let got = read::<(String, Vec<u32>, u64)>(&mut &bytes[..], 10);
        assert_eq!(got, Err(FrameError::Truncated));
    }

    /// A writer that takes `room` bytes and then fails as a full disk does.
    struct Disk {
        room: usize,
        flushed: bool,
    }

    impl Write for Disk {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if bytes.len() > self.room {
                return Err(io::Error::from_raw_os_error(27)); // EFBIG
            }
            self.room -= bytes.len();
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            self.flushed = true;
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_says_why_and_a_frame_does_not_flush_the_file() {
        let value = vec![7u64; 1000];
        let mut disk = Disk {
            room: 100,
            flushed: false,
        };
        let e = write(&mut disk, &value).expect_err("no room");
        assert_eq!(e.raw_os_error(), Some(27), "{e}");
        let mut disk = Disk {
            room: 1 << 20,
            flushed: false,
        };
        write(&mut disk, &value).unwrap();
        assert!(!disk.flushed);
    }

    #[test]
    fn a_frame_never_reads_into_the_next() {
        let mut bytes = Vec::new();
        write(&mut bytes, &7u32).unwrap();
        write(&mut bytes, "next").unwrap();
        let mut input = &bytes[..];
        assert_eq!(read::<u32>(&mut input, 100), Ok(7));
        assert_eq!(read::<String>(&mut input, 100), Ok("next".into()));
    }
}
