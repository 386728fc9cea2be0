//! Command line, instance files and Korf's embedded instances: everything a user types, checked
//! with an error that names the problem (never a panic).

use crate::board::{Board, BoardError};
use clap::error::ErrorKind;
use clap::{Parser, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;

/// Korf's 100 instances with their reference counts (see the file's header for the convention).
pub const KORF100: &str = include_str!("korf100.tsv");

/// One of Korf's instances.
#[derive(Clone, Debug)]
pub struct KorfInstance {
    /// 1..=100.
    pub id: usize,
    /// Optimal solution length.
    pub len: u32,
    /// Nodes of plain IDA* with Manhattan distance (the header's convention).
    pub md_nodes: u64,
    /// The same with Manhattan distance + linear conflict.
    pub mdlc_nodes: u64,
    /// The start.
    pub board: Board,
}

/// The embedded table, parsed.
pub fn korf100() -> Vec<KorfInstance> {
    KORF100
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let tiles: Vec<u32> = f
                .get(5)?
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            Some(KorfInstance {
                id: f.first()?.parse().ok()?,
                len: f.get(1)?.parse().ok()?,
                md_nodes: f.get(3)?.parse().ok()?,
                mdlc_nodes: f.get(4)?.parse().ok()?,
                board: Board::from_tiles(&tiles).ok()?,
            })
        })
        .collect()
}

/// Which heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HeuristicKind {
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
}

impl HeuristicKind {
    /// The name `--heuristic` takes.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Md => "md",
            HeuristicKind::Lc => "lc",
            HeuristicKind::Pdb663 => "pdb663",
            HeuristicKind::Pdb78 => "pdb78",
        }
    }

    /// Whether it needs the 4×4 board.
    pub fn is_pdb(self) -> bool {
        matches!(self, HeuristicKind::Pdb663 | HeuristicKind::Pdb78)
    }
}

/// How threads share a list of instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Parallel {
    /// `instances` for two or more instances, `tree` for one.
    Auto,
    /// Each thread solves whole instances (sequential IDA* each), all sharing the table.
    Instances,
    /// All threads search each instance together (`parallel.rs`).
    Tree,
}

/// How the 7-8 tables are held in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PdbLayout {
    /// Two entries per byte, as cached on disk (289 MB).
    Nibbles,
    /// One entry per byte (577 MB).
    Bytes,
}

/// A puzzle to solve, with a label for the report.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Korf id, `file:line`, or `argv`.
    pub label: String,
    /// The start.
    pub board: Board,
    /// The known optimal length, for Korf's instances.
    pub known_len: Option<u32>,
    /// Korf's node count for the chosen heuristic (md/lc), for Korf's instances.
    pub known_nodes: Option<u64>,
}

/// Everything the command line says.
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
    /// Clear the table between instances (so counts do not depend on the order).
    pub fresh_table: bool,
}

/// What `main` should do.
#[derive(Debug)]
pub enum Command {
    /// Print this (`--help`, `--version`) and exit 0.
    Help(String),
    /// Solve.
    Run(Config),
}

/// The table's default size.
pub const DEFAULT_HASH_MIB: u32 = 256;

/// The largest `--hash-mib`: 1 TiB.
pub const MAX_HASH_MIB: u32 = 1 << 20;

/// Korf ids as `--korf` takes them.
#[derive(Clone, Debug)]
pub struct KorfIds(pub Vec<usize>);

const AFTER_HELP: &str = "\
Goal: 0 1 2 ... (blank top-left). The size is inferred from the tile count: 4 = 2x2, 9 = 3x3,
16 = 4x4 (5x5 boards do not fit the 64-bit table key and are refused).

Pattern databases are built on first use on every core, with a progress bar, and cached with a
checksum (7-8: about a minute on 2 cores, 289 MB on disk); a damaged or partial file is rebuilt.

Every solution is replayed to the goal and checked; Korf's instances are checked against their
known optimal lengths. Exit codes: 0 ok, 1 a check failed, 2 usage or input error. A closed
standard output (fifteen | head) ends the run quietly.";

/// fifteen: optimal sliding-tile puzzle solver (IDA* + transposition table + pattern databases)
#[derive(Parser, Debug)]
#[command(name = "fifteen", version, after_help = AFTER_HELP)]
struct Cli {
    /// Korf's instances by id, in the order given, e.g. 1-100 or 5,7,90-100 [default: all 100]
    #[arg(long, value_name = "LIST", value_parser = parse_korf, conflicts_with_all = ["file", "tiles"],
          help_heading = "Instances")]
    korf: Option<KorfIds>,

    /// One instance per line: 4, 9 or 16 numbers (blank 0), '#' starts a comment
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

    /// md | lc | pdb663 (alias pdb) | pdb78 [default: pdb78 on 4x4 (additive 7-8, reflected), lc on smaller boards]
    #[arg(long, value_enum, value_name = "H", hide_possible_values = true)]
    heuristic: Option<HeuristicKind>,

    /// Threads [default: all cores]; 1 = exact sequential IDA*
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// How threads share the instances: whole instances each, or every instance's tree together
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Parallel::Auto)]
    parallel: Parallel,

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
    #[arg(long, value_name = "N", default_value_t = crate::ida::DEFAULT_TABLE_SLACK,
          value_parser = clap::value_parser!(u32).range(0..=255))]
    table_slack: u32,

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
    #[arg(long, value_enum, value_name = "HOW", default_value_t = PdbLayout::Nibbles)]
    pdb_layout: PdbLayout,

    /// Print every solution's moves (the blank's: U L R D)
    #[arg(long)]
    solution: bool,
}

fn parse_korf(spec: &str) -> Result<KorfIds, String> {
    parse_ids(spec).map(KorfIds)
}

/// Parses the arguments (without the program name). `Err` is the message for a usage or input
/// error (the binary prints it and exits 2).
pub fn parse_args<T: Into<OsString> + Clone>(args: &[T]) -> Result<Command, String> {
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
    let instances = if let Some(path) = &cli.file {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        parse_instances(&text, &path.display().to_string())?
    } else if !cli.tiles.is_empty() {
        let board = Board::from_tiles(&cli.tiles).map_err(|e| format!("command line: {e}"))?;
        vec![Instance {
            label: "argv".into(),
            board,
            known_len: None,
            known_nodes: None,
        }]
    } else {
        let ids = cli.korf.map_or_else(|| (1..=100).collect(), |k| k.0);
        let all = korf100();
        ids.iter()
            .map(|&id| {
                let k = &all[id - 1];
                let known_nodes = match cli.heuristic {
                    Some(HeuristicKind::Md) => Some(k.md_nodes),
                    Some(HeuristicKind::Lc) => Some(k.mdlc_nodes),
                    _ => None,
                };
                Instance {
                    label: k.id.to_string(),
                    board: k.board,
                    known_len: Some(k.len),
                    known_nodes,
                }
            })
            .collect()
    };
    if let (Some(h), Some(i)) = (
        cli.heuristic.filter(|h| h.is_pdb()),
        instances.iter().find(|i| i.board.side() != 4),
    ) {
        return Err(format!(
            "{}: --heuristic {} is for the 4×4 board only; use --heuristic md or lc",
            i.label,
            h.name()
        ));
    }
    let threads = cli.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    if cli.fresh_table && cli.parallel == Parallel::Instances && threads > 1 {
        return Err(
            "--fresh-table empties the table between instances, which threads solving \
                    several instances at once cannot do: use --parallel tree or --threads 1"
                .into(),
        );
    }
    let parallel = match cli.parallel {
        Parallel::Auto if instances.len() > 1 && !cli.fresh_table => Parallel::Instances,
        Parallel::Auto => Parallel::Tree,
        p => p,
    };
    Ok(Command::Run(Config {
        instances,
        heuristic: cli.heuristic,
        threads,
        parallel,
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
            Some(cli.pdb_dir.unwrap_or_else(crate::pdb_file::default_dir))
        },
        pdb_layout: cli.pdb_layout,
        fresh_table: cli.fresh_table,
        table_slack: cli.table_slack,
    }))
}

/// Korf ids: comma-separated ids and ranges, each in 1..=100, in the order given.
pub fn parse_ids(spec: &str) -> Result<Vec<usize>, String> {
    let mut ids = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let id = |s: &str| -> Result<usize, String> {
            match s.trim().parse::<usize>() {
                Ok(n) if (1..=100).contains(&n) => Ok(n),
                _ => Err(format!("--korf: '{s}' is not an instance id 1..=100")),
            }
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (id(a)?, id(b)?);
                if a > b {
                    return Err(format!("--korf: range '{part}' runs backwards"));
                }
                ids.extend(a..=b);
            }
            None => ids.push(id(part)?),
        }
    }
    Ok(ids)
}

/// One instance per non-empty line; `#` starts a comment. Errors name `source:line`.
pub fn parse_instances(text: &str, source: &str) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let label = format!("{source}:{}", n + 1);
        let tiles = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u32>()
                    .map_err(|_| format!("{label}: '{t}' is not a tile number"))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        let board = Board::from_tiles(&tiles).map_err(|e: BoardError| format!("{label}: {e}"))?;
        out.push(Instance {
            label,
            board,
            known_len: None,
            known_nodes: None,
        });
    }
    if out.is_empty() {
        return Err(format!("{source}: no instances"));
    }
    Ok(out)
}
