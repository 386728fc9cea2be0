//! Optimal sliding-tile puzzle solver: IDA* with a `searchcache::SearchCache` of lower bounds,
//! additive pattern databases and cooperating threads.
//!
//! The `fifteen` binary solves Korf's 100 (`cargo run --release -p fifteen`); this library is
//! what it is built from: [`board`] (any N×N board, moves, parsing), [`heuristic`] (Manhattan,
//! linear conflict), [`pdb`] (additive pattern databases, built and cached), [`ida`] (IDA* with
//! the bound table), [`parallel`] (threads cooperating on one instance), [`input`] (the command
//! line and Korf's embedded instances) and [`report`] (the result table).

pub mod board;
pub mod compact_pdb;
pub mod heuristic;
pub mod ida;
pub mod input;
pub mod parallel;
pub mod pdb;
pub mod pdb_build;
pub mod pdb_file;
pub mod rank;
pub mod regions;
pub mod report;
pub mod solver;
