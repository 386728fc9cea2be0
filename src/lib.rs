//! Lockless, fixed-size hash tables for search: the transposition table of a chess engine, the
//! bound cache of an IDA* solver, and the visited-state store of a model checker, written once.
//!
//! [`SearchCache<V>`] maps 64-bit keys to small values ([`Pack64`], 56 bits) in 64-byte buckets of
//! four entries. Any number of threads probe and store through `&self` with relaxed atomics and
//! no locks; each entry is two words, `tag(key) ^ data` and `data`, so an entry torn by a racing
//! write fails its key check and reads as a miss. The table forgets entries to make room, evicting the
//! one worth least (`depth − 8 · age`, age in search generations).
//!
//! [`DenseCache<V>`] is the same table in the dense layout: eight one-word entries per line
//! (a 16-bit key check, the generation, 41 bits of value), twice the entries per MiB, no torn
//! entry at all, and a documented false-hit rate of about `8 · 2^-16` per probe of an absent
//! key in a full line. Its docs say when to pick which.
//!
//! [`ClusterCache<V>`] is the same table in Stockfish's shape: six 10-byte entries per line (a
//! 64-bit data word with all 56 value bits, and a 16-bit check tied to the data, so that a torn
//! entry fails it but about once in 2^16), 1.5 times the entries per MiB, a documented false-hit
//! rate of about `6 · 2^-16` per probe of an absent key in a full line.
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
//!   torn pair whose words happen to vouch for the probed key: about 2^-64 per torn read, because
//!   the check word holds a multiplicative tag of the key, which moves the key a torn pair vouches
//!   for out of the writer's bucket but for 1 time in `buckets()` (the argument is in
//!   `src/bucket.rs`; a unit test checks that rate on constructed torn pairs, for both [`Keys`]
//!   modes). With random keys a false hit costs a 64-bit match: ≈ 4 · 2^-64 per probe.
//! * **Lossy.** Entries can vanish: evicted by other keys, overwritten by racing stores, or
//!   dropped by the value's own merge rule. Use it as a cache, never as a set of record.
//! * **Empty slots never match**, not even key 0 with an all-zero value: the table keeps a bit
//!   of the data word that is set in every written entry.
//! * **`hashfull`** is the permille of the first 1,000 entries written in this generation.
//! * **Memory**: 16 bytes per entry, 65,536 entries per MiB, nothing per entry beyond that.
//!   Tables of 2 MiB and more are mapped lazily from the OS and asked for huge pages.
//! * **Errors, not aborts**: building a table with a zero, overflowing or unavailable size
//!   returns an [`Error`], never a panic or an abort. Memory is committed as it is first
//!   written, so writing more of a table than the machine has is the OS's matter (on Linux the
//!   OOM killer), not an error the crate can see ([`Error`] has the details).
//! * **Files**: `save` and `load` of every table and set ([`persist`]) stream a versioned,
//!   checksummed dump; a bad file is an [`Error`], never a panic or a silently wrong table.
//!
//! # What the crate exports
//!
//! The root has what a program uses: the table ([`SearchCache`], its dense siblings
//! [`DenseCache`] and [`ClusterCache`], [`Pack64`], [`Options`],
//! [`Keys`], [`Slots`], [`HugePages`], [`Size`], [`CacheStats`]), the visited-state stores
//! ([`FingerprintSet`], [`CompactSet`], [`VisitedSet`] and its [`Signature`] widths,
//! [`VisitedMap`] with a few lockless bits per state, [`Bitstate`] with [`DEFAULT_HASHES`],
//! [`StateHash`], [`Inserted`], [`Full`]), [`Error`],
//! and the helpers [`mix64`] and [`prefetch`]. Modules: [`omission`] (the bounds to print
//! after a run), [`persist`] (the file format, its errors and the checksum wrappers), and
//! [`consts`] (the layouts' numbers: payload bits, wide and dense, the dense tag's bits,
//! bucket and entry sizes, the sets' load and walk bounds, the bitstate's hash limit, `MIB`, the portable hash's name, the format version),
//! for code that sizes tables or reports on them.
//!
//! # Loom
//!
//! Built with `RUSTFLAGS="--cfg loom"` (the convention of tokio and concurrent-queue) or
//! `--cfg searchcache_loom` (this crate alone), every atomic in the crate is loom's and every
//! table is allocated with `AtomicU64::new`, so tables and sets work inside `loom::model`: in
//! this crate's tests and in yours. A downstream crate needs loom only under the same cfg:
//!
//! ```toml
//! [dependencies]
//! searchcache = "0.1"
//!
//! [target.'cfg(loom)'.dependencies]
//! loom = "0.7"
//!
//! [lints.rust]
//! unexpected_cfgs = { level = "warn", check-cfg = ["cfg(loom)"] }
//! ```
//!
//! and its model, run with `RUSTFLAGS="--cfg loom" cargo test --release`:
//!
//! ```ignore
//! #![cfg(loom)]
//! use loom::{cell::UnsafeCell, sync::Arc, thread};
//! use searchcache::{FingerprintSet, Inserted, Size, StateHash};
//!
//! #[test]
//! fn a_found_state_publishes_what_its_inserter_wrote() {
//!     loom::model(|| {
//!         let set = Arc::new(FingerprintSet::new(Size::Entries(8)).unwrap());
//!         let payload = Arc::new(UnsafeCell::new(0u32));
//!         let state = StateHash::from_u64(7);
//!         let writer = {
//!             let (set, payload) = (set.clone(), payload.clone());
//!             thread::spawn(move || {
//!                 payload.with_mut(|p| unsafe { *p = 42 });
//!                 assert_eq!(set.insert(state), Ok(Inserted::New));
//!             })
//!         };
//!         if set.contains(state) {
//!             // Ordered after the write by the insert's CAS: no "Causality violation".
//!             assert_eq!(payload.with(|p| unsafe { *p }), 42);
//!         }
//!         writer.join().unwrap();
//!     });
//! }
//! ```
//!
//! That is `tests/downstream-loom` in this crate's repository, with more models (racing
//! writers that tear an entry, which loom reaches; a probe with no `yield_now` before it, for
//! which loom explores more than one execution), run by its CI.
//!
//! No `yield_now()` is needed before a first probe. Loom's DPOR keeps one last access per
//! atomic, and a store scans its bucket (an insert its line) before it writes, so the writer's
//! own load of a word replaces a reader's earlier load of it as the last access, and loom never
//! sees that the read and the later write conflict (loom issues #166 and #392; the downstream
//! tests show it on a bare loom `AtomicU64`: a load, then another thread's load and store, is
//! explored in exactly 1 execution). A model whose main thread probed before its writers ran
//! explored exactly one execution for that reason. Under loom every table therefore has one
//! more atomic that each operation touches first, loaded by reads and stored by writes: the
//! writer's store to it precedes all its loads, so loom sees the conflict with the reader and
//! backtracks to run the writer first, and explores the word-level races from there (more
//! executions than before, so loom runs take longer).
//! Relaxed accesses to an atomic nothing else uses order nothing, and outside loom it does not
//! exist. Your own atomics beside the table can still meet loom's limitation.

//! # Cargo features
//!
//! * `stats`: probe/hit/store/replacement counters ([`SearchCache::stats`]), striped over
//!   cache-padded lines. Without it the counters compile to nothing.

#![deny(missing_docs)]

mod alloc;
mod bitstate;
mod bucket;
mod cluster;
mod cluster_line;
mod dense;
mod dense_line;
mod dense_word;
mod error;
mod line_table;
mod lines;
mod mix;
pub mod omission;
mod options;
mod pack;
pub mod persist;
mod rehash;
mod set;
mod signature;
mod size;
mod state_hash;
mod stats;
mod sync;
mod table;
mod tally;
mod victim;
mod visited_map;

pub use alloc::{prefetch, HugePages};
pub use bitstate::{Bitstate, DEFAULT_HASHES};
pub use cluster::ClusterCache;
pub use dense::DenseCache;
pub use error::{Error, GrowRefused};
pub use mix::mix64;
pub use options::{FromOptions, Keys, Options, Placement, Slots};
pub use pack::Pack64;
pub use set::{CompactSet, FingerprintSet, Full, Inserted, VisitedSet};
pub use signature::Signature;
pub use size::Size;
pub use state_hash::StateHash;
pub use stats::CacheStats;
pub use table::SearchCache;
pub use visited_map::VisitedMap;

/// The crate's numbers, for code that sizes tables or reports on them; the types document
/// where each one matters.
pub mod consts {
    pub use crate::bitstate::{DEFAULT_HASHES, MAX_HASHES};
    pub use crate::dense_word::{DENSE_PAYLOAD_BITS, TAG_BITS};
    pub use crate::pack::PAYLOAD_BITS;
    pub use crate::persist::FORMAT_VERSION;
    pub use crate::set::{MAX_LOAD, WALK_LINES};
    pub use crate::size::MIB;
    pub use crate::state_hash::PORTABLE_HASH;
    pub use crate::table::{BUCKET_BYTES, ENTRIES_PER_BUCKET, ENTRY_BYTES};
    pub use crate::visited_map::MAX_PAYLOAD_BITS;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
