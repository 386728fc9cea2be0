//! Lockless, fixed-size hash tables for search: the transposition table of a chess engine, the
//! bound cache of an IDA* solver, and the visited-state store of a model checker, written once.
//!
//! [`SearchCache<V>`] maps 64-bit keys to small values ([`Pack64`], 56 bits) in 64-byte buckets of
//! four entries. Any number of threads probe and store through `&self` with relaxed atomics and
//! no locks; each entry is two words, `key ^ data` and `data`, so an entry torn by a racing write
//! fails its key check and reads as a miss. The table forgets entries to make room, evicting the
//! one worth least (`depth − 8 · age`, age in search generations).
//!
//! ```
//! use searchcache::{Pack64, SearchCache, Size};
//!
//! /// What a search remembers about a position.
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! struct Entry { depth: u8, score: i16 }
//!
//! impl Pack64 for Entry {
//!     const BITS: u32 = 24;
//!     fn pack(self) -> u64 { self.depth as u64 | (self.score as u16 as u64) << 8 }
//!     fn unpack(bits: u64) -> Self { Entry { depth: bits as u8, score: (bits >> 8) as u16 as i16 } }
//!     fn depth(&self) -> i32 { self.depth as i32 }
//! }
//!
//! let table = SearchCache::<Entry>::new(Size::Mib(16))?;
//! table.new_generation(); // at the start of every search
//! std::thread::scope(|s| {
//!     for t in 0..2u64 {
//!         let table = &table;
//!         s.spawn(move || {
//!             for key in (t * 1000)..(t * 1000 + 1000) {
//!                 table.store(key, Entry { depth: 5, score: key as i16 });
//!             }
//!         });
//!     }
//! });
//! assert_eq!(table.probe(1500), Some(Entry { depth: 5, score: 1500 }));
//! # Ok::<(), searchcache::Error>(())
//! ```
//!
//! # Guarantees
//!
//! * **Never a wrong value.** A probe returns a value stored for that key, or `None`; never a
//!   value stored for another key, never half of one store and half of another. The residual
//!   risks are a true 64-bit key collision (the caller's hash maps two states to one key) and a
//!   torn pair whose words XOR to the probed key, which the fixed bijective key mixer makes a
//!   2^-64 event. With random keys a false hit costs a 64-bit match: ≈ 4 · 2^-64 per probe.
//! * **Lossy.** Entries can vanish: evicted by other keys, overwritten by racing stores, or
//!   dropped by the value's own merge rule. Use it as a cache, never as a set of record.
//! * **Empty slots never match**, not even key 0 with an all-zero value: the table keeps a bit
//!   of the data word that is set in every written entry.
//! * **`hashfull`** is the permille of the first 1,000 entries written in this generation.
//! * **Memory**: 16 bytes per entry, 65,536 entries per MiB, nothing per entry beyond that.
//!   Tables of 2 MiB and more are mapped lazily from the OS and asked for huge pages.
//! * **Errors, not aborts**: building a table with a zero, overflowing or unavailable size
//!   returns an [`Error`].
//!
//! # Loom
//!
//! Built with `RUSTFLAGS="--cfg searchcache_loom"`, every atomic in the crate is loom's and the
//! table is allocated with `AtomicU64::new`, so a `SearchCache` works inside `loom::model`, in
//! this crate's tests and in yours.
//!
//! # Cargo features
//!
//! * `stats`: probe/hit/store/replacement counters ([`SearchCache::stats`]), striped over
//!   cache-padded lines. Without it the counters compile to nothing.

#![deny(missing_docs)]

mod alloc;
mod bitstate;
mod bucket;
mod mix;
pub mod omission;
mod pack;
mod partition;
mod set;
mod signature;
mod size;
mod state_hash;
mod stats;
mod sync;
mod table;
mod tally;

pub use alloc::{prefetch, HugePages};
pub use bitstate::{Bitstate, DEFAULT_HASHES, MAX_HASHES};
pub use mix::mix64;
pub use pack::{Pack64, PAYLOAD_BITS};
pub use partition::owner;
pub use set::{CompactSet, FingerprintSet, Full, Inserted, VisitedSet, MAX_LOAD, WALK_LINES};
pub use signature::Signature;
pub use size::{Error, Size, MIB};
pub use state_hash::{StateHash, PORTABLE_KEY};
pub use stats::CacheStats;
pub use table::{Keys, Options, SearchCache, Slots, BUCKET_BYTES, ENTRIES_PER_BUCKET, ENTRY_BYTES};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
