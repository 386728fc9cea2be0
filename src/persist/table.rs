//! A [`SearchCache`](crate::SearchCache)'s file: its four header parameters
//! (`[Pack64::BITS, options, generation, Pack64::AGE_WEIGHT]`), the options' encoding, and the
//! count of occupied entries the trailer holds; the same for a
//! [`DenseCache`](crate::DenseCache), whose lines are eight one-word entries. The lines
//! themselves go through [`format`](super::format) like every other kind's lines.

use crate::alloc::{HugePages, Region, Words};
use crate::error::{Error, FileError};
use crate::options::{Keys, Options, Slots};
use crate::pack::{GENERATION_MASK, OCCUPIED};
use crate::persist::format::{self, Header, Kind};
use std::io::{Read, Write};

/// What a table's header says beyond its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TableHeader {
    /// The value type's `Pack64::BITS`.
    pub(crate) bits: u32,
    /// The value type's `Pack64::AGE_WEIGHT`.
    pub(crate) age_weight: i32,
    /// The options the table was built with.
    pub(crate) options: Options,
    /// The generation, `0..128`.
    pub(crate) generation: u8,
}

/// Writes a table's header, its lines (`kind`: `SearchCache`'s buckets or `DenseCache`'s
/// lines) and the trailer.
pub(crate) fn save_table<T: Words>(
    w: impl Write,
    kind: Kind,
    table: TableHeader,
    lines: &[T],
) -> Result<(), Error> {
    let header = Header {
        kind,
        lines: lines.len(),
        params: [
            u64::from(table.bits),
            encode_options(table.options),
            u64::from(table.generation),
            table.age_weight as u64,
        ],
    };
    format::save(w, header, lines, counter(kind))
}

/// Reads a table of `kind` saved for a value type of `bits` and `age_weight`: its header and
/// lines.
/// Another `BITS` or `AGE_WEIGHT`, options this build does not know or a generation out of
/// range are [`FileError::Invalid`].
pub(crate) fn load_table<T: Words>(
    r: impl Read,
    kind: Kind,
    bits: u32,
    age_weight: i32,
) -> Result<(TableHeader, Region<T>), Error> {
    let (header, buckets, _) = format::load::<T>(r, kind, HugePages::Advise, counter(kind))?;
    let [saved_bits, encoded, generation, weight] = header.params;
    let mut options = None;
    if saved_bits == u64::from(bits) && weight == age_weight as u64 {
        options = decode_options(encoded);
    }
    let options = options.filter(|_| generation <= u64::from(GENERATION_MASK));
    let options = options.ok_or_else(|| {
        FileError::Invalid(format!(
            "a table of {saved_bits}-bit values with age weight {weight} (options {encoded:#x}, \
             generation {generation}); this type has {bits} bits and age weight {age_weight}"
        ))
    })?;
    let table = TableHeader {
        bits,
        age_weight,
        options,
        generation: generation as u8,
    };
    Ok((table, buckets))
}

/// How a line of `kind` counts its occupied entries.
fn counter(kind: Kind) -> fn(&[u64; 8]) -> u64 {
    match kind {
        Kind::DenseCache => occupied_dense_entries,
        Kind::ClusterCache => crate::cluster_line::occupied,
        _ => occupied_entries,
    }
}

/// Occupied entries of a dense line (words with a non-zero tag).
fn occupied_dense_entries(words: &[u64; 8]) -> u64 {
    words
        .iter()
        .filter(|&&w| crate::dense_word::tag_of(w) != 0)
        .count() as u64
}

/// Occupied entries of a bucket's words (data words with `OCCUPIED`).
fn occupied_entries(words: &[u64; 8]) -> u64 {
    words
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&d| d & OCCUPIED != 0)
        .count() as u64
}

/// `slots | keys << 8 | huge pages << 16`, each 0 for the default (the module docs of
/// [`crate::persist`]).
fn encode_options(o: Options) -> u64 {
    let slots = match o.slots {
        Slots::Bucket => 0,
        Slots::Single => 1,
        Slots::Half => 2,
    };
    let keys = u64::from(o.keys == Keys::Random);
    let pages = u64::from(o.huge_pages == HugePages::Never);
    slots | keys << 8 | pages << 16
}

/// The inverse of [`encode_options`]; `None` for a value it never gives.
fn decode_options(v: u64) -> Option<Options> {
    let pick = |shift: u32| match v >> shift & 0xff {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    };
    if v >> 24 != 0 {
        return None;
    }
    let slots = match v & 0xff {
        0 => Slots::Bucket,
        1 => Slots::Single,
        2 => Slots::Half,
        _ => return None,
    };
    let (keys, pages) = (pick(8)?, pick(16)?);
    Some(Options {
        slots,
        keys: if keys { Keys::Random } else { Keys::Any },
        huge_pages: if pages {
            HugePages::Never
        } else {
            HugePages::Advise
        },
    })
}
