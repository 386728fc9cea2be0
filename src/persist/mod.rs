//! Saving and loading tables: a raw, streaming dump of the 64-byte lines behind a checked
//! header, for [`FingerprintSet`](crate::FingerprintSet), [`CompactSet`](crate::CompactSet),
//! [`Bitstate`](crate::Bitstate), [`VisitedMap`](crate::VisitedMap) and
//! [`SearchCache`](crate::SearchCache) (`save` and `load` on each), and the checksum wrappers a caller can use for data of its own beside them.
//!
//! # Format (version 2)
//!
//! Every integer is little-endian, whatever the machine. A file is a header, a body and a
//! trailer, and nothing after the trailer is read, so a caller may append its own data (a
//! frontier, counters) and read it back after `load` returns.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic: the ASCII bytes `srchcach` |
//! | 8..12 | format version, `u32`: 2 |
//! | 12..16 | kind, `u32`: 1 `FingerprintSet`, 2 `CompactSet`, 3 `Bitstate`, 4 `SearchCache`, 5 `DenseCache`, 6 `VisitedMap`, 7 `ClusterCache` |
//! | 16..24 | lines, `u64`: 64-byte lines in the body (at least 1) |
//! | 24..56 | four `u64` parameters of the kind (below) |
//! | 56..60 | CRC-32 (ISO-HDLC, as zlib's `crc32`) of bytes 0..56, `u32` |
//! | 60..64 | zero |
//! | body | `lines` × 64 bytes: each line's eight 64-bit words in order, each as a `u64` |
//! | +0..8 | count, `u64`: occupied slots (sets), set bits (`Bitstate`), occupied entries (`SearchCache`) |
//! | +8..12 | CRC-32 of everything before it, header and body included, `u32` |
//! | +12..16 | zero |
//!
//! Parameters: sets `[signature bits, WALK_LINES, signature comparisons, keyed]`, keyed being 1
//! when the set holds states and every one was inserted with `index == signature` (so that
//! `grow` can move it), else 0 (1 on an empty set is refused); `Bitstate`
//! `[hash functions k, states stored, 0, 0]`; `VisitedMap` `[payload bits, WALK_LINES, signature
//! comparisons, 0]`, each word a slot, signature above the payload; `SearchCache`, `DenseCache` and `ClusterCache` `[Pack64::BITS, options,
//! generation, Pack64::AGE_WEIGHT as u64]`, options being `slots | keys << 8 | huge pages << 16`
//! (`Slots::Bucket` 0, `Single` 1, `Half` 2; `Keys::Any` 0, `Random` 1; `HugePages::Advise` 0, `Never` 1).
//! A set's word holds one `u64` signature or two `u32` ones (the even slot in the low half); a
//! table's line is its bucket, `[check, data]` × 4, as `bucket.rs` describes; a dense
//! table's line is eight one-word entries, `payload << 23 | generation << 16 | tag`
//! (`dense_word.rs`), counted occupied when the tag is not zero; a cluster table's line is six
//! data words (the bucket's data word), then its six 16-bit checks and two zero ones packed
//! four to a word, the first in the low bits (`cluster_line.rs`), counted occupied by the data
//! word's top bit. The body is the
//! table as it lies in memory, so it is only meaningful to this format version: a change to the
//! layout, the mixer or the entry protocol is a new version. Version 1 (to 2026-12-07) held
//! the dense entry's tag in its top 16 bits; a version 1 file is refused
//! ([`FileError::Version`]).
//!
//! # What `load` checks
//!
//! Magic, version, kind (and, for a `SearchCache`, its value's `BITS` and `AGE_WEIGHT`; for
//! every kind, that the parameters written as 0 are 0), the header's own CRC before any memory
//! is allocated, then the body's count (recounted while reading) and the CRC of the whole. Any
//! mismatch, a short input or a read error is an [`Error`](crate::Error)
//! ([`Error::File`](crate::Error::File) or [`Error::Io`](crate::Error::Io)), never a panic and
//! never a table built from bad bytes: the partly loaded table is dropped. A table that loads
//! saves back to the very bytes it was read from (the `load` fuzz target checks it).
//!
//! # Memory while loading
//!
//! The table is allocated from the header's line count before the body is read (a stream's
//! length is not known in advance), but tables of 2 MiB and more are mapped lazily and the
//! body is copied 64 KiB at a time without touching lines that are all zero: a header claiming
//! a huge table costs address space, not memory, until the input delivers the lines, and a
//! size the OS cannot map is an
//! [`Error::AllocationFailed`](crate::Error::AllocationFailed). No second buffer of the
//! table's size is ever needed, for saving or loading.
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
mod checksum;
mod format;
mod table;

pub use crate::error::FileError;
pub use checksum::{ChecksumReader, ChecksumWriter};
pub use format::FORMAT_VERSION;

pub(crate) use format::{load, nonzero_slots, save, Header, Kind};
pub(crate) use table::{load_table, save_table, TableHeader};
