//! Command line, instance files and Korf's embedded instances: everything a user types, checked
//! with an error that names the problem (never a panic).

use crate::board::{Board, BoardError};
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// Manhattan distance.
    Md,
    /// Manhattan distance + linear conflict.
    Lc,
    /// Additive 6-6-3 pattern databases (4×4 only).
    Pdb,
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
    /// Heuristic; `None`: PDB on 4×4, linear conflict on smaller boards.
    pub heuristic: Option<HeuristicKind>,
    /// Threads per instance.
    pub threads: usize,
    /// Table size.
    pub hash_mib: usize,
    /// Whether to use the table.
    pub table: bool,
    /// Print each solution's moves.
    pub solution: bool,
    /// Where pattern databases are cached; `None`: do not cache.
    pub pdb_dir: Option<PathBuf>,
    /// Least slack (bound − g − h) of a node that probes or stores.
    pub table_slack: u32,
    /// Clear the table between instances (so counts do not depend on the order).
    pub fresh_table: bool,
}

/// What `main` should do.
#[derive(Debug)]
pub enum Command {
    /// Print the usage.
    Help,
    /// Solve.
    Run(Config),
}

/// The usage text.
pub const USAGE: &str = "\
fifteen: optimal sliding-tile puzzle solver (IDA* + transposition table + pattern databases)

USAGE: fifteen [OPTIONS] [TILES...]

Instances (default: all of Korf's 100):
  --korf LIST        Korf's instances by id: 1-100, 5,7,90-100
  --file F           one instance per line (4, 9 or 16 numbers, blank 0; '#' comments)
  TILES...           one instance on the command line, e.g. 8 puzzle: 1 2 0 3 4 5 6 7 8
  Goal: 0 1 2 ... (blank top-left). Size is inferred: 4 = 2x2, 9 = 3x3, 16 = 4x4.

Options:
  --heuristic H      md | lc | pdb (default: pdb on 4x4 (additive 6-6-3, mirrored), lc otherwise)
  --threads N        threads per instance (default: all cores); 1 = exact sequential IDA*
  --hash-mib N       transposition table size in MiB (default 256)
  --no-table         plain IDA*; with --threads 1 counts nodes as Korf 1985 (korf100.tsv)
  --table-slack N    only nodes with bound - g - h >= N probe and store (default 2;
                     0 probes everywhere: fewest nodes, slower)
  --fresh-table      empty the table before each instance (default: bounds are kept, they stay valid)
  --pdb-dir DIR      pattern-database cache (default $XDG_CACHE_HOME/searchcache or ~/.cache/searchcache)
  --no-pdb-cache     build the pattern databases in memory only
  --solution         print every solution's moves (the blank's: U L R D)
  --help             this text

Every solution is replayed to the goal and checked. Exit codes: 0 ok, 1 a check failed, 2 usage or input error.
";

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut heuristic = None;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut hash_mib = 256;
    let mut table = true;
    let mut solution = false;
    let mut fresh_table = false;
    let mut table_slack = crate::ida::DEFAULT_TABLE_SLACK;
    let mut pdb_dir = Some(crate::pdb::default_dir());
    let mut korf: Option<String> = None;
    let mut file: Option<PathBuf> = None;
    let mut tiles: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let value = args.get(i + 1);
        i += 1;
        match arg {
            "--help" | "-h" => return Ok(Command::Help),
            "--heuristic" => {
                heuristic = Some(match value.map(String::as_str) {
                    Some("md") => HeuristicKind::Md,
                    Some("lc") => HeuristicKind::Lc,
                    Some("pdb") => HeuristicKind::Pdb,
                    Some(v) => return Err(format!("--heuristic: '{v}' is not md, lc or pdb")),
                    None => return Err("--heuristic needs a value: md, lc or pdb".into()),
                });
                i += 1;
            }
            "--threads" => {
                threads = number(arg, value)?;
                if threads == 0 || threads > 1024 {
                    return Err("--threads: give 1..=1024".into());
                }
                i += 1;
            }
            "--hash-mib" => {
                hash_mib = number(arg, value)?;
                if hash_mib == 0 {
                    return Err("--hash-mib: give at least 1 (or --no-table)".into());
                }
                i += 1;
            }
            "--table-slack" => {
                table_slack = number(arg, value)?;
                i += 1;
            }
            "--no-table" => table = false,
            "--fresh-table" => fresh_table = true,
            "--solution" => solution = true,
            "--no-pdb-cache" => pdb_dir = None,
            "--pdb-dir" => {
                pdb_dir = Some(PathBuf::from(value.ok_or("--pdb-dir needs a directory")?));
                i += 1;
            }
            "--korf" => {
                korf = Some(
                    value
                        .ok_or("--korf needs ids, e.g. 1-100 or 3,5,90-100")?
                        .clone(),
                );
                i += 1;
            }
            "--file" => {
                file = Some(PathBuf::from(value.ok_or("--file needs a path")?));
                i += 1;
            }
            flag if flag.starts_with('-') && flag.parse::<i64>().is_err() => {
                return Err(format!("unknown option '{flag}' (see --help)"));
            }
            number => tiles.push(
                number
                    .parse()
                    .map_err(|_| format!("'{number}' is neither an option nor a tile number"))?,
            ),
        }
    }
    let sources =
        usize::from(korf.is_some()) + usize::from(file.is_some()) + usize::from(!tiles.is_empty());
    if sources > 1 {
        return Err("give one of --korf, --file or tiles, not several".into());
    }
    let instances = if let Some(path) = file {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        parse_instances(&text, &path.display().to_string())?
    } else if !tiles.is_empty() {
        let board = Board::from_tiles(&tiles).map_err(|e| format!("command line: {e}"))?;
        vec![Instance {
            label: "argv".into(),
            board,
            known_len: None,
            known_nodes: None,
        }]
    } else {
        let ids = parse_ids(korf.as_deref().unwrap_or("1-100"))?;
        let all = korf100();
        ids.iter()
            .map(|&id| {
                let k = &all[id - 1];
                let known_nodes = match heuristic {
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
    Ok(Command::Run(Config {
        instances,
        heuristic,
        threads,
        hash_mib,
        table,
        solution,
        pdb_dir,
        fresh_table,
        table_slack,
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
