//! A multi-threaded UCI chess engine whose transposition table is a `searchcache::SearchCache`.
//!
//! The `chess` binary speaks UCI (`cargo run --release -p chess`, see `examples/chess/README.md`);
//! this library is the engine behind it, for programs that drive it in-process: [`uci::Engine`]
//! answers UCI lines, [`search`] drives the search and `worker` is its tree search, [`tt`] the
//! table entry, [`perft`] the move-count checks, and [`selfplay`], [`features`] and [`tuner`]
//! the Texel tuning of the evaluation's [`weights`] (`examples/texel.rs`). Developer commands:
//! `bench [depth] [threads]`, `perft N`, `perft-tt N [MiB]`, `d`; `chess bench` and `chess perft`
//! on the command line.

pub mod bench;
pub mod correction;
pub mod eval;
pub mod features;
pub mod go;
pub mod info;
mod options;
pub mod ordering;
pub mod output;
pub mod perft;
pub mod position;
pub mod positional;
pub mod search;
pub mod see;
pub mod selfplay;
pub mod text;
pub mod time;
pub mod tt;
pub mod tuner;
pub mod uci;
pub mod weights;
mod worker;
