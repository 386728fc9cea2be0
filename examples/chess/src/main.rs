//! The `chess` binary: a UCI engine on stdin and stdout (see `examples/chess/README.md`), or one
//! developer command from the command line (`chess bench`, `chess perft`).
//!
//! A reader thread turns stdin into lines; the main thread answers them, and each search runs on
//! threads of its own, so `stop`, `isready` and `quit` are answered while the engine thinks.

use chess::bench::DEFAULT_DEPTH;
use chess::position::parse_fen;
use chess::search::MAX_DEPTH;
use chess::uci::{self, MAX_PERFT_DEPTH, MAX_THREADS};
use clap::{Parser, Subcommand};
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// A UCI chess engine whose transposition table is a searchcache::SearchCache. Without a
/// command it speaks UCI on stdin and stdout.
#[derive(Parser)]
#[command(version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Searches the 12 bench positions to a fixed depth, each from an empty 16 MiB table, and
    /// prints the node count (Stockfish's form); with one thread the count is deterministic.
    Bench {
        /// Depth of each search.
        #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
        depth: i32,
        /// Search threads.
        #[arg(default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
        threads: u16,
    },
    /// Counts the leaves of the legal move tree to DEPTH, divided by first move.
    Perft {
        /// Plies.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// The position (default: the starting position).
        #[arg(long)]
        fen: Option<String>,
        /// Read the FEN and write castling as Chess960 does (king takes rook; any castling
        /// rights); without it the FEN must be standard chess.
        #[arg(long)]
        chess960: bool,
        /// Cache subtree counts in a table of this many MiB (perft-tt) instead of dividing.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
        cached: Option<u32>,
    },
}

fn main() {
    let cli = Cli::parse();
    let mut engine = match uci::Engine::new() {
        Ok(engine) => engine,
        Err(e) => fail(&format!("cannot start the engine: {e}")),
    };
    match cli.command {
        None => uci_loop(engine),
        Some(Command::Bench { depth, threads }) => {
            engine.run_bench(depth, threads.into());
        }
        Some(Command::Perft {
            depth,
            fen,
            chess960,
            cached,
        }) => {
            if chess960 {
                engine.handle("setoption name UCI_Chess960 value true");
            }
            if let Some(fen) = fen {
                let fields: Vec<&str> = fen.split_whitespace().collect();
                match parse_fen(&fields, chess960) {
                    Ok(board) => engine.set_board(board),
                    Err(e) => usage_error(&e),
                }
            }
            if let Err(e) = engine.run_perft(depth, cached.map(|mib| mib as usize)) {
                fail(&e);
            }
        }
    }
}

/// The UCI loop: stdin lines to the engine until `quit` or the end of input.
fn uci_loop(mut engine: uci::Engine) {
    let (lines, input) = mpsc::channel::<String>();
    // Reads raw bytes, so a line of invalid UTF-8 becomes an error answer rather than the end.
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match stdin.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if lines
                        .send(String::from_utf8_lossy(&buffer).into_owned())
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    for line in input {
        if !engine.handle(&line) {
            return;
        }
    }
    engine.end_of_input();
}

/// A bad argument that clap's types cannot see (a FEN): the usage-error status, 2.
fn usage_error(message: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "error: {message}");
    std::process::exit(2);
}

/// A failure that is not the user's: status 1.
fn fail(message: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "error: {message}");
    std::process::exit(1);
}
