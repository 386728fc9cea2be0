//! Optimal sliding-tile puzzle solver: IDA* with additive pattern databases, a
//! `searchcache::SearchCache` of lower bounds and cooperating threads.
//!
//! The `fifteen` binary solves Korf's 100 (`cargo run --release -p fifteen`); this library is
//! what it is built from: [`board`] (N×N boards up to 5×5, generic over their packing: a `u64`
//! up to 4×4, a `u128` for the 24-puzzle; moves, parsing), [`heuristic`] (the trait;
//! Manhattan, linear conflict), [`compact_pdb`] (the 7-8 and 6-6-6-6 databases, with
//! [`rank`], [`regions`], [`pdb_build`] and [`pdb_file`]), [`pdb`] (the 6-6-3 databases),
//! [`ida`] (IDA* with the bound table), [`cycles`] (the short-cycle automaton that prunes
//! duplicate paths), [`parallel`] (threads on one instance), [`solver`] (a list of instances,
//! threads on whole instances or on each tree), [`config`] (what a run is asked to do, as
//! plain data), [`instance`] (boards to solve, instance files), [`korf`] (Korf's embedded
//! instances) and [`report`] (the result table). The command line (clap) is the binary's
//! alone (`src/bin/fifteen/cli.rs`): the library never parses arguments.

pub mod board;
pub mod compact_pdb;
pub mod config;
pub mod cycles;
pub mod heuristic;
pub mod ida;
pub mod instance;
pub mod korf;
pub mod parallel;
pub mod pdb;
pub mod pdb_build;
pub mod pdb_file;
pub mod rank;
pub mod regions;
pub mod report;
pub mod solver;
