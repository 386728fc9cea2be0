//! The command line: clap's parser, and the checks that need the flags' names. The library
//! ([`fifteen::config::Config`]) knows no clap; this turns arguments into its plain data.

use clap::error::ErrorKind;
use clap::{Parser, ValueEnum};
use fifteen::config::{
    Config, HeuristicKind, Parallel, PdbLayout, DEFAULT_CYCLES, DEFAULT_HASH_MIB, MAX_CYCLES,
    MAX_HASH_MIB,
};
use fifteen::ida::DEFAULT_TABLE_SLACK;
use fifteen::instance::{parse_instances, Instance, Puzzle};
use fifteen::korf::{korf24_instances, korf_instances, parse_ids, parse_ids_upto};
use fifteen::pdb_file::default_dir;
use std::ffi::OsString;
use std::path::PathBuf;

/// Which heuristic (`--heuristic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HeuristicKindArg {
    /// Manhattan distance.
    Md,
    /// Manhattan distance + linear conflict.
    Lc,
    /// Additive 6-6-3 pattern databases, max'd with the reflection (4×4 only; 48 MiB).
    #[value(name = "pdb663", alias = "pdb")]
    Pdb663,
    /// Additive 7-8 pattern databases, max'd with the reflection (4×4 only; 289 MB, built once
    /// in about a minute and cached).
    #[value(name = "pdb78")]
    Pdb78,
    /// Additive 6-6-6-6 pattern databases, max'd with the reflection (5×5 only; 255 MB, built
    /// once and cached).
    #[value(name = "pdb6666")]
    Pdb6666,
}

/// How threads share a list of instances (`--parallel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ParallelArg {
    /// `instances` for two or more instances, `tree` for one.
    Auto,
    /// Each thread solves whole instances (sequential IDA* each), all sharing the table.
    Instances,
    /// All threads search each instance together (`parallel.rs`).
    Tree,
}

/// How the 7-8 tables are held in memory (`--pdb-layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PdbLayoutArg {
    /// Two entries per byte, as cached on disk (289 MB).
    Nibbles,
    /// One entry per byte (577 MB).
    Bytes,
}

impl From<HeuristicKindArg> for HeuristicKind {
    fn from(h: HeuristicKindArg) -> Self {
        match h {
            HeuristicKindArg::Md => HeuristicKind::Md,
            HeuristicKindArg::Lc => HeuristicKind::Lc,
            HeuristicKindArg::Pdb663 => HeuristicKind::Pdb663,
            HeuristicKindArg::Pdb78 => HeuristicKind::Pdb78,
            HeuristicKindArg::Pdb6666 => HeuristicKind::Pdb6666,
        }
    }
}

impl From<ParallelArg> for Parallel {
    fn from(p: ParallelArg) -> Self {
        match p {
            ParallelArg::Auto => Parallel::Auto,
            ParallelArg::Instances => Parallel::Instances,
            ParallelArg::Tree => Parallel::Tree,
        }
    }
}

impl From<PdbLayoutArg> for PdbLayout {
    fn from(l: PdbLayoutArg) -> Self {
        match l {
            PdbLayoutArg::Nibbles => PdbLayout::Nibbles,
            PdbLayoutArg::Bytes => PdbLayout::Bytes,
        }
    }
}

/// What `main` should do.
#[derive(Debug)]
pub(crate) enum Command {
    /// Print this (`--help`, `--version`) and exit 0.
    Help(String),
    /// Solve.
    Run(Config),
}

/// Korf ids as `--korf` takes them.
#[derive(Clone, Debug)]
struct KorfIds(Vec<usize>);

const AFTER_HELP: &str = "\
Goal: 0 1 2 ... (blank top-left). The size is inferred from the tile count: 4 = 2x2, 9 = 3x3,
16 = 4x4, 25 = 5x5 (the 24-puzzle: 6-6-6-6 pattern databases, 255 MB, built on first use).
A 24-puzzle board on the command line: fifteen --threads 1 17 1 20 9 16 2 22 ... (25 numbers).
Each IDA* iteration of a 5x5 board is reported on stderr (--iterations for smaller ones).
Ctrl-C prints the bound proven so far and the nodes searched, and exits 5.

Pattern databases are built on first use on every core, with a progress bar, and cached with a
checksum (7-8: about a minute on 2 cores, 289 MB on disk); a damaged or partial file is rebuilt.

Every solution is replayed to the goal and checked; Korf's instances are checked against their
known optimal lengths. Exit codes: 0 ok, 1 a check failed, 2 usage or input error, 5 Ctrl-C. A closed
standard output (fifteen | head) ends the run quietly.";

/// fifteen: optimal sliding-tile puzzle solver (IDA* + transposition table + pattern databases)
#[derive(Parser, Debug)]
#[command(name = "fifteen", version, after_help = AFTER_HELP)]
struct Cli {
    /// Korf's instances by id, in the order given, e.g. 1-100 or 5,7,90-100 [default: all 100]
    #[arg(long, value_name = "LIST", value_parser = parse_korf, conflicts_with_all = ["file", "tiles", "korf24"],
          help_heading = "Instances")]
    korf: Option<KorfIds>,

    /// Korf and Taylor's ten 24-puzzle instances by id (1-10), e.g. 2,6,8
    #[arg(long, value_name = "LIST", value_parser = parse_korf24, conflicts_with_all = ["file", "tiles"],
          help_heading = "Instances")]
    korf24: Option<KorfIds>,

    /// The boards' side: a check on the boards given; with none, 5 solves Korf and Taylor's ten
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=5),
          help_heading = "Instances")]
    size: Option<u8>,

    /// Print each IDA* iteration on stderr (bound, nodes, nodes/s, elapsed, next estimate)
    /// [default: on for 5x5 boards]
    #[arg(long)]
    iterations: bool,

    /// One instance per line: 4, 9, 16 or 25 numbers (blank 0), or korf24.tsv's lines (id,
    /// optimal length, Manhattan distance, board; tab-separated); '#' starts a comment
    #[arg(
        long,
        value_name = "PATH",
        conflicts_with = "tiles",
        help_heading = "Instances"
    )]
    file: Option<PathBuf>,

    /// One instance on the command line, row-major, e.g. the 8-puzzle 1 2 0 3 4 5 6 7 8
    #[arg(
        value_name = "TILES",
        allow_negative_numbers = true,
        help_heading = "Instances"
    )]
    tiles: Vec<u32>,

    /// md | lc | pdb663 (alias pdb) | pdb78 | pdb6666 [default: pdb6666 on 5x5, pdb78 on 4x4 (additive, reflected), lc on smaller boards]
    #[arg(long, value_enum, value_name = "H", hide_possible_values = true)]
    heuristic: Option<HeuristicKindArg>,

    /// Threads [default: all cores]; 1 = exact sequential IDA*
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// How threads share the instances: whole instances each, or every instance's tree together
    #[arg(long, value_enum, value_name = "HOW", default_value_t = ParallelArg::Auto)]
    parallel: ParallelArg,

    /// Transposition table size in MiB
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_HASH_MIB,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_HASH_MIB)))]
    hash_mib: u32,

    /// Use the transposition table with every heuristic [default: with all but pdb78, where it
    /// saves 11% of the nodes but costs more time than that]
    #[arg(long)]
    table: bool,

    /// Plain IDA* without a table; with --threads 1, node counts are Korf 1985's (korf100.tsv)
    #[arg(long, conflicts_with_all = ["table", "hash_mib", "table_slack", "fresh_table", "prefault"])]
    no_table: bool,

    /// Only nodes with bound - g - h >= N probe and store (0: everywhere, fewest nodes)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TABLE_SLACK,
          value_parser = clap::value_parser!(u32).range(0..=255))]
    table_slack: u32,

    /// Short-cycle automaton: do not search a string of up to N moves that reaches the board a
    /// shorter or earlier string reaches where that one is legal too (0: off; 1 and 2: only the
    /// move back) [default: 14 on 5x5, 0 on smaller]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u8).range(0..=i64::from(MAX_CYCLES)))]
    cycles: Option<u8>,

    /// Empty the table before each instance (default: bounds are kept; they stay valid)
    #[arg(long)]
    fresh_table: bool,

    /// Commit the whole table's memory (in parallel) before the first instance, so that no
    /// instance's time includes page faults [default: pages are committed as the search writes them]
    #[arg(long)]
    prefault: bool,

    /// Pattern-database cache [default: $XDG_CACHE_HOME/searchcache or ~/.cache/searchcache]
    #[arg(long, value_name = "DIR", conflicts_with = "no_pdb_cache")]
    pdb_dir: Option<PathBuf>,

    /// Build the pattern databases in memory only
    #[arg(long)]
    no_pdb_cache: bool,

    /// How the 7-8 tables are held in memory
    #[arg(long, value_enum, value_name = "HOW", default_value_t = PdbLayoutArg::Nibbles)]
    pdb_layout: PdbLayoutArg,

    /// Print every solution's moves (the blank's: U L R D)
    #[arg(long)]
    solution: bool,
}

fn parse_korf(spec: &str) -> Result<KorfIds, String> {
    parse_ids(spec).map(KorfIds)
}

fn parse_korf24(spec: &str) -> Result<KorfIds, String> {
    parse_ids_upto(spec, 10, "--korf24").map(KorfIds)
}

/// Parses the arguments (without the program name). `Err` is the message for a usage or input
/// error (the binary prints it and exits 2).
pub(crate) fn parse_args<T: Into<OsString> + Clone>(args: &[T]) -> Result<Command, String> {
    let argv =
        std::iter::once(OsString::from("fifteen")).chain(args.iter().cloned().map(Into::into));
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    Ok(Command::Help(e.render().to_string()))
                }
                _ => Err(e.render().to_string()),
            }
        }
    };
    let heuristic = cli.heuristic.map(HeuristicKind::from);
    let instances = if let Some(path) = &cli.file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        parse_instances(&text, &path.display().to_string())?
    } else if !cli.tiles.is_empty() {
        let board = Puzzle::from_tiles(&cli.tiles).map_err(|e| format!("command line: {e}"))?;
        vec![Instance {
            label: "argv".into(),
            board,
            known_len: None,
            known_nodes: None,
        }]
    } else if let Some(ids) = cli.korf24 {
        korf24_instances(&ids.0)
    } else if cli.size == Some(5) && cli.korf.is_none() {
        korf24_instances(&(1..=10).collect::<Vec<_>>())
    } else {
        let ids = cli.korf.map_or_else(|| (1..=100).collect(), |k| k.0);
        korf_instances(&ids, heuristic)
    };
    if let (Some(size), Some(i)) = (
        cli.size,
        instances.iter().find(|i| Some(i.board.side()) != cli.size),
    ) {
        return Err(format!(
            "{}: a {}×{} board, not --size {size}",
            i.label,
            i.board.side(),
            i.board.side()
        ));
    }
    if let (Some(h), Some(i)) = (
        heuristic,
        instances
            .iter()
            .find(|i| !heuristic.is_some_and(|h| h.fits(i.board.side()))),
    ) {
        let hint = match i.board.side() {
            5 => "md or pdb6666",
            4 => "md, lc, pdb663 or pdb78",
            _ => "md or lc",
        };
        return Err(format!(
            "{}: --heuristic {} does not work on a {}×{} board; use --heuristic {hint}",
            i.label,
            h.name(),
            i.board.side(),
            i.board.side()
        ));
    }
    let iterations = cli.iterations || instances.iter().all(|i| i.board.side() == 5);
    let threads = cli.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let requested = Parallel::from(cli.parallel);
    if cli.fresh_table && requested == Parallel::Instances && threads > 1 {
        return Err(
            "--fresh-table empties the table between instances, which threads solving \
                    several instances at once cannot do: use --parallel tree or --threads 1"
                .into(),
        );
    }
    Ok(Command::Run(Config {
        parallel: requested.resolve(instances.len(), cli.fresh_table),
        instances,
        heuristic,
        threads,
        hash_mib: cli.hash_mib as usize,
        table: match (cli.table, cli.no_table) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        prefault: cli.prefault,
        solution: cli.solution,
        pdb_dir: if cli.no_pdb_cache {
            None
        } else {
            Some(cli.pdb_dir.unwrap_or_else(default_dir))
        },
        pdb_layout: cli.pdb_layout.into(),
        fresh_table: cli.fresh_table,
        table_slack: cli.table_slack,
        cycles: match cli.cycles {
            Some(n) => [usize::from(n); 6],
            None => DEFAULT_CYCLES,
        },
        iterations,
    }))
}

#[cfg(test)]
mod tests;
