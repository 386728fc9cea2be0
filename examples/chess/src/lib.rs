//! A multi-threaded UCI chess engine whose transposition table is a `searchcache::SearchCache`.
//!
//! The `chess` binary speaks UCI (`cargo run --release -p chess`, see `examples/chess/README.md`);
//! this library is the engine behind it, for programs that drive it in-process: [`uci::Engine`]
//! answers UCI lines, [`search`] is the search, [`tt`] the table entry, [`perft`] the move-count
//! checks. Developer commands: `bench [depth] [threads]`, `perft N`, `perft-tt N [MiB]`, `d`.

pub mod bench;
pub mod eval;
pub mod ordering;
pub mod perft;
pub mod search;
pub mod time;
pub mod tt;
pub mod uci;
