//! A multi-threaded UCI chess engine whose transposition table is a `searchcache::SearchCache`.
//!
//! The `chess` binary speaks UCI (`cargo run --release -p chess`, see `examples/chess/README.md`);
//! this library is the engine behind it, for programs that drive it in-process: [`uci::Engine`]
//! answers UCI lines, [`search`] drives the search (its tree search is private), [`eval`] is the
//! static evaluation, [`eval_cache`] its cache (the engine's second table), [`tt`] the table entry, [`perft`] the move-count checks, and [`tuning`] the
//! Texel tuning of the evaluation's [`weights`] (`examples/texel.rs`). Developer commands:
//! `bench [depth] [threads]`, `perft N`, `perft-tt N [MiB]`, `d`; `chess bench` and `chess perft`
//! on the command line.
//!
//! Imports run one way: the UCI front end uses the search, which uses the evaluation, the move
//! ordering and the table; `tuning` uses the search and the evaluation, and nothing uses it.

pub mod bench;
pub mod correction;
pub mod draws;
pub mod eval;
pub mod eval_cache;
pub mod go;
pub mod info;
pub mod memory;
pub mod ordering;
pub mod output;
pub mod perft;
pub mod position;
pub mod search;
pub mod see;
pub mod text;
pub mod time;
#[cfg(feature = "trace")]
pub mod trace;
pub mod tt;
pub mod tt_dense;
pub mod tt_entry;
pub mod tuning;
pub mod uci;
pub mod weights;
