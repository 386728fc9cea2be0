//! What a run is asked to do, as plain data: the instances, the heuristic, the threads and the
//! table. The binary's command line fills it in; the library never parses arguments.

use crate::instance::Instance;
use std::path::PathBuf;

/// Which heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// Manhattan distance.
    Md,
    /// Manhattan distance + linear conflict.
    Lc,
    /// Additive 6-6-3 pattern databases, max'd with the reflection (4×4 only; 48 MiB).
    Pdb663,
    /// Additive 7-8 pattern databases, max'd with the reflection (4×4 only; 289 MB, built once
    /// in about a minute and cached).
    Pdb78,
    /// Additive 6-6-6-6 pattern databases, max'd with the reflection (5×5 only; 255 MB, built
    /// once and cached).
    Pdb6666,
}

impl HeuristicKind {
    /// The name `--heuristic` takes.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Md => "md",
            HeuristicKind::Lc => "lc",
            HeuristicKind::Pdb663 => "pdb663",
            HeuristicKind::Pdb78 => "pdb78",
            HeuristicKind::Pdb6666 => "pdb6666",
        }
    }

    /// Whether it needs the 4×4 board.
    pub fn is_pdb(self) -> bool {
        matches!(self, HeuristicKind::Pdb663 | HeuristicKind::Pdb78)
    }

    /// Whether it works on a board of `side`: Manhattan on any, linear conflict up to 4×4,
    /// 6-6-3 and 7-8 on 4×4, 6-6-6-6 on 5×5.
    pub fn fits(self, side: u8) -> bool {
        match self {
            HeuristicKind::Md => true,
            HeuristicKind::Lc => side <= 4,
            HeuristicKind::Pdb663 | HeuristicKind::Pdb78 => side == 4,
            HeuristicKind::Pdb6666 => side == 5,
        }
    }
}

/// How threads share a list of instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// `instances` for two or more instances, `tree` for one.
    Auto,
    /// Each thread solves whole instances (sequential IDA* each), all sharing the table.
    Instances,
    /// All threads search each instance together (`parallel.rs`).
    Tree,
}

impl Parallel {
    /// `Auto` made definite: `Instances` for two or more instances (unless the table is
    /// emptied before each, which threads on whole instances cannot do), else `Tree`.
    pub fn resolve(self, instances: usize, fresh_table: bool) -> Parallel {
        match self {
            Parallel::Auto if instances > 1 && !fresh_table => Parallel::Instances,
            Parallel::Auto => Parallel::Tree,
            p => p,
        }
    }
}

/// How the 7-8 tables are held in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdbLayout {
    /// Two entries per byte, as cached on disk (289 MB).
    Nibbles,
    /// One entry per byte (577 MB).
    Bytes,
}

/// Everything a run is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// What to solve.
    pub instances: Vec<Instance>,
    /// Heuristic; `None`: pdb78 on 4×4, linear conflict on smaller boards.
    pub heuristic: Option<HeuristicKind>,
    /// Threads.
    pub threads: usize,
    /// How the threads share the instances (never `Auto`: resolved here).
    pub parallel: Parallel,
    /// Table size.
    pub hash_mib: usize,
    /// `--table` (`Some(true)`), `--no-table` (`Some(false)`), or neither (`None`: every
    /// heuristic but pdb78 uses the table; measured in BENCHMARKS.md, it does not pay with 7-8).
    pub table: Option<bool>,
    /// Commit the whole table's memory before the first instance.
    pub prefault: bool,
    /// Print each solution's moves.
    pub solution: bool,
    /// Where pattern databases are cached; `None`: do not cache.
    pub pdb_dir: Option<PathBuf>,
    /// How the 7-8 tables are held in memory.
    pub pdb_layout: PdbLayout,
    /// Least slack (bound − g − h) of a node that probes or stores.
    pub table_slack: u32,
    /// The short-cycle automaton's longest forbidden string per board side (index 2..=5);
    /// 0: no automaton on that side.
    pub cycles: [usize; 6],
    /// Clear the table between instances (so counts do not depend on the order).
    pub fresh_table: bool,
    /// Print each IDA* iteration (bound, nodes, nodes/s, elapsed, next iteration's estimate)
    /// on stderr.
    pub iterations: bool,
}

/// The short-cycle automaton's longest forbidden string by board side when none is asked for
/// (0: none): measured in BENCHMARKS.md ("duplicate pruning").
pub const DEFAULT_CYCLES: [usize; 6] = [0, 0, 0, 0, 0, 14];

/// The longest forbidden string `--cycles` accepts: the automaton's build time and size grow
/// about 2.5× a move (2-3 s and 65,612 states at 14 on 5×5, 47 s and 4.4 GB at 16).
pub const MAX_CYCLES: u8 = 16;

/// The table's default size.
pub const DEFAULT_HASH_MIB: u32 = 256;

/// The largest `--hash-mib`: 1 TiB.
pub const MAX_HASH_MIB: u32 = 1 << 20;
