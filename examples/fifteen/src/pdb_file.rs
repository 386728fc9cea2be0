//! Pattern-database cache files: a header naming the format version, the kind of table, its
//! tiles and size, and a checksum of the data, then the data. A file is trusted only when every
//! field matches and the checksum of the data read equals the header's; anything else (a
//! truncated, damaged, foreign or older file) is an error, and the caller rebuilds.
//!
//! Files are written aside (`.NAME.partial-PID`), synced and renamed, so a reader never sees
//! half a file, and a build killed at any point leaves at most a partial file, which no reader
//! opens and the next build of that table removes (when its process is gone).

use rayon::prelude::*;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Bump when the layout or the meaning of an entry changes: old files are then rebuilt.
/// (2: the word-parallel checksum and the kind byte; 1 held 6-6-3 tables only.)
pub const FORMAT_VERSION: u32 = 2;

const MAGIC: &[u8; 8] = b"SCPDB15\0";

/// Bytes hashed per independent chunk of the checksum (hashed in parallel).
const CHUNK: usize = 1 << 20;

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// One byte of distance per placement, placements in lexicographic order of their cells
    /// (the 6-6-3 tables of `pdb.rs`).
    SparseBytes = 1,
    /// Two 4-bit excesses over Manhattan distance per byte, by compact rank (`pdb_build.rs`).
    CompactNibbles = 2,
    /// The same on the 5×5 board (ranks of placements on 25 cells).
    CompactNibbles25 = 3,
}

/// The file name of a table (without the directory).
pub fn file_name(kind: Kind, tiles: &[u8]) -> String {
    let names: Vec<String> = tiles.iter().map(u8::to_string).collect();
    format!(
        "pdb15-v{FORMAT_VERSION}-k{}-{}.bin",
        kind as u8,
        names.join("_")
    )
}

/// A checksum of `data`: 1 MiB chunks hashed in parallel, each as four lanes of 64-bit words
/// through `searchcache::mix64` (a bijection, so changing any one word of a chunk always changes
/// its lane's result), then the chunk results chained in order with the length.
pub fn checksum(data: &[u8]) -> u64 {
    let chunk_sums: Vec<u64> = data.par_chunks(CHUNK).map(chunk_sum).collect();
    chunk_sums
        .iter()
        .fold(searchcache::mix64(data.len() as u64), |h, &c| {
            searchcache::mix64(h ^ c).wrapping_add(c)
        })
}

fn chunk_sum(chunk: &[u8]) -> u64 {
    let mut lanes = [1u64, 2, 3, 4];
    let mut words = chunk.chunks_exact(32);
    for block in &mut words {
        for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            *lane = searchcache::mix64(*lane ^ u64::from_le_bytes(b));
        }
    }
    let mut tail = [0u8; 32];
    let rest = words.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    let mut h = rest.len() as u64;
    for (lane, w) in lanes.iter().zip(tail.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h = searchcache::mix64(h ^ lane ^ u64::from_le_bytes(b));
    }
    h
}

fn header(kind: Kind, tiles: &[u8], len: u64, sum: u64) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.push(kind as u8);
    h.push(tiles.len() as u8);
    h.extend_from_slice(tiles);
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(&sum.to_le_bytes());
    h
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Reads the table of `kind` and `tiles` from `path`: exactly `len` data bytes, or an error
/// (`NotFound` when there is no file, `InvalidData` when it is not a complete, intact table of
/// that kind, version, tiles and size).
pub fn read(path: &Path, kind: Kind, tiles: &[u8], len: usize) -> io::Result<Vec<u8>> {
    let mut file = fs::File::open(path)?;
    let expected = header(kind, tiles, len as u64, 0);
    let mut head = vec![0u8; expected.len()];
    file.read_exact(&mut head)
        .map_err(|_| invalid("truncated header"))?;
    if head[..8] != MAGIC[..] {
        return Err(invalid("not a pattern-database file"));
    }
    if head[8..12] != FORMAT_VERSION.to_le_bytes() {
        return Err(invalid("format version mismatch"));
    }
    let sum_at = expected.len() - 8;
    if head[..sum_at] != expected[..sum_at] {
        return Err(invalid("kind, tiles or size mismatch"));
    }
    let mut data = Vec::new();
    data.try_reserve_exact(len + 1)
        .map_err(|_| invalid("no memory for the table"))?;
    file.take(len as u64 + 1).read_to_end(&mut data)?;
    if data.len() != len {
        return Err(invalid(if data.len() < len {
            "truncated data"
        } else {
            "trailing bytes"
        }));
    }
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&head[sum_at..]);
    if checksum(&data) != u64::from_le_bytes(sum) {
        return Err(invalid("checksum mismatch"));
    }
    Ok(data)
}

/// The prefix of the partial files of `path` (the PID follows).
fn partial_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    format!(".{name}.partial-")
}

/// Writes `data` as the table of `kind` and `tiles` to `path`: written aside, synced, renamed.
pub fn write(path: &Path, kind: Kind, tiles: &[u8], data: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let tmp = dir.join(format!("{}{}", partial_prefix(path), std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(&header(kind, tiles, data.len() as u64, checksum(data)))?;
        file.write_all(data)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Removes the partial files of `path` left by builds whose process is gone (on Linux, where
/// `/proc` tells; elsewhere they stay, harmless: no reader opens them). Returns what it removed.
pub fn remove_stale_partials(path: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let (Some(dir), prefix) = (path.parent(), partial_prefix(path)) else {
        return removed;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return removed;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(&prefix)
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if cfg!(target_os = "linux")
            && pid != std::process::id()
            && !Path::new(&format!("/proc/{pid}")).exists()
            && fs::remove_file(entry.path()).is_ok()
        {
            removed.push(entry.path());
        }
    }
    removed
}

/// Where tables are cached by default: `$XDG_CACHE_HOME/searchcache`, else
/// `$HOME/.cache/searchcache`, else the system's temporary directory.
pub fn default_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("XDG_CACHE_HOME")
        .or_else(|| env("HOME").map(|h| h.join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("searchcache")
}
