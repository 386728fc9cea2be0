//! The `fifteen` binary: with no arguments it solves Korf's 100 random 15-puzzle instances
//! optimally and prints a table. `cargo run --release -p fifteen -- --help` for the options.

use fifteen::board::Board;
use fifteen::heuristic::{Heuristic, LinearConflict, Manhattan};
use fifteen::ida::{self, BoundTable, Solution};
use fifteen::input::{self, Command, Config, HeuristicKind};
use fifteen::{parallel, pdb, report};
use indicatif::{ProgressBar, ProgressStyle};
use searchcache::Size;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match input::parse_args(&args) {
        Ok(Command::Help) => {
            print!("{}", input::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Run(config)) => run(config),
        Err(e) => usage_error(&e),
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}\n(see --help)");
    ExitCode::from(2)
}

/// Solves with one thread (exact IDA* order) or cooperatively on `pool`.
fn solve_with<H: Heuristic>(
    h: &H,
    table: Option<&BoundTable>,
    slack: u32,
    pool: Option<&rayon::ThreadPool>,
    board: Board,
) -> Solution {
    match pool {
        Some(pool) => parallel::solve_parallel(pool, h, table, slack, board),
        None => ida::solve_sequential(h, table, slack, board),
    }
}

fn run(config: Config) -> ExitCode {
    let started = Instant::now();
    let kind_of = |b: &Board| {
        config.heuristic.unwrap_or(if b.side() == 4 {
            HeuristicKind::Pdb
        } else {
            HeuristicKind::Lc
        })
    };
    if let Some(i) = config
        .instances
        .iter()
        .find(|i| kind_of(&i.board) == HeuristicKind::Pdb && i.board.side() != 4)
    {
        return usage_error(&format!(
            "{}: pattern databases are built for the 4×4 board only; use --heuristic md or lc",
            i.label
        ));
    }
    let table = if config.table {
        match BoundTable::new(Size::Mib(config.hash_mib)) {
            Ok(t) => {
                // Commit the pages now, so the first instance's time does not include them.
                t.prefault();
                Some(t)
            }
            Err(e) => return usage_error(&format!("--hash-mib {}: {e}", config.hash_mib)),
        }
    } else {
        None
    };
    let pool = if config.threads > 1 {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
        {
            Ok(p) => Some(p),
            Err(e) => return usage_error(&format!("--threads {}: {e}", config.threads)),
        }
    } else {
        None
    };
    let needs_pdb = config
        .instances
        .iter()
        .any(|i| kind_of(&i.board) == HeuristicKind::Pdb);
    let pdb = if needs_pdb {
        let log = |m: String| eprintln!("{m}");
        match pdb::PatternDb::load_or_build(&pdb::PARTITION_663, config.pdb_dir.as_deref(), &log) {
            Ok(p) => Some(p),
            Err(e) => return usage_error(&format!("pattern databases: {}", e.0)),
        }
    } else {
        None
    };
    let mut md: [Option<Manhattan>; 5] = Default::default();
    let mut lc: [Option<LinearConflict>; 5] = Default::default();
    let heuristic_name = match config.heuristic {
        None => "pdb 6-6-3 (4x4) / lc (smaller)",
        Some(HeuristicKind::Md) => "md",
        Some(HeuristicKind::Lc) => "lc (md + linear conflict)",
        Some(HeuristicKind::Pdb) => "pdb 6-6-3 + mirror",
    };
    println!(
        "heuristic {heuristic_name}, threads {}, table {}, {} instance(s)",
        config.threads,
        if config.table {
            format!("{} MiB", config.hash_mib)
        } else {
            "off".into()
        },
        config.instances.len()
    );
    let reference = !config.table
        && config.threads == 1
        && config.instances.iter().any(|i| i.known_nodes.is_some());
    let width = config
        .instances
        .iter()
        .map(|i| i.label.len())
        .max()
        .unwrap_or(0)
        .max(6);
    println!("{}", report::header(reference, width));
    let bar = if config.instances.len() > 1 {
        let bar = ProgressBar::new(config.instances.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} instances, {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut rows = Vec::new();
    let mut failed = false;
    for instance in &config.instances {
        let board = instance.board;
        let side = usize::from(board.side());
        if let Some(t) = &table {
            if config.fresh_table {
                t.clear();
            }
            t.new_generation();
        }
        let t0 = Instant::now();
        let table = table.as_ref();
        let pool = pool.as_ref();
        let solution = match kind_of(&board) {
            HeuristicKind::Md => solve_with(
                md[side].get_or_insert_with(|| Manhattan::new(board.side())),
                table,
                config.table_slack,
                pool,
                board,
            ),
            HeuristicKind::Lc => solve_with(
                lc[side].get_or_insert_with(|| LinearConflict::new(board.side())),
                table,
                config.table_slack,
                pool,
                board,
            ),
            HeuristicKind::Pdb => match &pdb {
                Some(p) => solve_with(p, table, config.table_slack, pool, board),
                None => unreachable!("built above when any instance needs it"),
            },
        };
        let time = t0.elapsed();
        let row = report::Row {
            label: instance.label.clone(),
            len: solution.moves.len(),
            known_len: instance.known_len,
            nodes: solution.counters.nodes,
            known_nodes: if reference {
                instance.known_nodes
            } else {
                None
            },
            time,
            probes: solution.counters.probes,
            hits: solution.counters.hits,
        };
        let replayed = board.solves(&solution.moves);
        let wrong_len = instance.known_len.is_some_and(|k| k as usize != row.len);
        failed |= !replayed || wrong_len;
        bar.suspend(|| {
            println!("{}", row.line(width));
            if !replayed {
                println!("   FAILED: the solution does not reach the goal when replayed");
            }
            if config.solution {
                let moves: String = solution.moves.iter().map(|d| d.letter()).collect();
                println!("   {board}: {moves}");
            }
        });
        bar.inc(1);
        rows.push(row);
    }
    bar.finish_and_clear();
    println!("{}", report::totals(&rows, started.elapsed(), width));
    if failed {
        println!(
            "FAILED: a solution did not replay to the goal or was not the known optimal length"
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
