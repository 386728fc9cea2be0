//! The UCI front end: parses commands, owns the position, the options and the table, and runs
//! each search on its own thread so `stop`, `isready` and `quit` are answered while it thinks.
//!
//! Every malformed line is answered with `info string error: …` and otherwise ignored; the engine
//! keeps its previous state (a `position` command with an illegal FEN or move changes nothing).

use crate::bench::{bench, DEFAULT_DEPTH};
use crate::perft::{perft, perft_cached, perft_table};
use crate::search::{search, Limits, Shared, Task, MAX_DEPTH};
use crate::time::{Clock, Deadlines};
use crate::tt::{TableConfig, TranspositionTable};
use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{Board, Color};
use searchcache::Slots;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

const DEFAULT_HASH_MIB: usize = 16;
/// Stockfish's maximum (32 TiB): anything the machine cannot give fails with an error message.
const MAX_HASH_MIB: usize = 1 << 25;
const MAX_THREADS: usize = 256;
const DEFAULT_OVERHEAD_MS: u64 = 50;
const MAX_OVERHEAD_MS: u64 = 5000;
const DEFAULT_PERFT_TT_MIB: usize = 64;
/// Search threads recurse up to 128 plies of main search plus quiescence; 16 MiB of stack is
/// far more than that needs and costs nothing until touched.
const SEARCH_STACK_BYTES: usize = 16 << 20;

/// An error answer, printed as `info string error: …`.
type Reply = Result<(), String>;

/// The running search, if any.
struct Running {
    handle: JoinHandle<()>,
    shared: Arc<Shared>,
    infinite: bool,
}

/// The engine's state between commands.
pub struct Engine {
    board: Board,
    /// Keys of the positions before `board`, for repetition detection.
    history: Vec<u64>,
    tt: Arc<TranspositionTable>,
    threads: usize,
    overhead_ms: u64,
    running: Option<Running>,
}

impl Engine {
    /// A fresh engine with the default options. Errors when even the default table cannot be
    /// allocated.
    pub fn new() -> Result<Self, String> {
        let tt = TranspositionTable::new(TableConfig {
            mib: DEFAULT_HASH_MIB,
            slots: Slots::Bucket,
            huge_pages: true,
        })?;
        Ok(Engine {
            board: Board::default(),
            history: Vec::new(),
            tt: Arc::new(tt),
            threads: 1,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            running: None,
        })
    }

    /// Handles one input line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        let reply = match command {
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                println!("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.finish_search(true);
                self.tt.clear();
                Ok(())
            }
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                if let Some(running) = &self.running {
                    running
                        .shared
                        .stop
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(())
            }
            "ponderhit" => {
                // The opponent played the expected move: the search goes on, now on the clock.
                if let Some(running) = &self.running {
                    running
                        .shared
                        .pondering
                        .store(false, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(())
            }
            "setoption" => self.set_option(args),
            "quit" => {
                self.finish_search(true);
                return false;
            }
            "bench" => self.bench(args),
            "perft" => self.perft(args, false),
            "perft-tt" => self.perft(args, true),
            "d" => {
                println!("info string fen {}", self.board);
                Ok(())
            }
            "debug" | "register" => Ok(()),
            _ => Err(format!("unknown command '{}'", truncate(command))),
        };
        if let Err(message) = reply {
            println!("info string error: {message}");
        }
        true
    }

    /// End of input: let a bounded search finish (so `echo 'go depth 8' | chess` answers),
    /// stop an infinite one.
    pub fn end_of_input(&mut self) {
        let endless = self.running.as_ref().is_some_and(|r| {
            r.infinite
                || r.shared
                    .pondering
                    .load(std::sync::atomic::Ordering::Relaxed)
        });
        self.finish_search(endless);
    }

    fn identify(&self) {
        println!("id name searchcache-chess {}", env!("CARGO_PKG_VERSION"));
        println!("id author the searchcache authors");
        println!("option name Hash type spin default {DEFAULT_HASH_MIB} min 0 max {MAX_HASH_MIB}");
        println!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
        println!("option name Clear Hash type button");
        println!("option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}");
        println!("option name TTSlots type combo default Bucket var Bucket var Single");
        println!("option name TTPrefetch type check default true");
        println!("option name TTRefresh type check default false");
        println!("option name HugePages type check default true");
        println!("option name Ponder type check default false");
        println!("uciok");
    }

    /// Waits for the running search (stopping it first if `stop`), so the table is ours again.
    fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running
                    .shared
                    .stop
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
            if running.handle.join().is_err() {
                println!("info string error: the search thread failed");
            }
        }
    }

    /// The table, exclusively: only between searches.
    fn table_mut(&mut self) -> Result<&mut TranspositionTable, String> {
        self.finish_search(true);
        Arc::get_mut(&mut self.tt).ok_or_else(|| "the table is still in use".to_string())
    }

    fn position(&mut self, args: &[&str]) -> Reply {
        let moves_at = args.iter().position(|&a| a == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let mut board = match setup {
            ["startpos"] => Board::default(),
            ["fen", fields @ ..] => parse_fen(fields)?,
            _ => return Err("expected 'position startpos|fen <FEN> [moves ...]'".into()),
        };
        let mut history = Vec::with_capacity(moves.len());
        for text in moves {
            let mv = parse_uci_move(&board, text)
                .map_err(|_| format!("malformed move '{}' in position", truncate(text)))?;
            history.push(board.hash());
            board
                .try_play(mv)
                .map_err(|_| format!("illegal move '{}' in position {board}", truncate(text)))?;
        }
        self.board = board;
        self.history = history;
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Reply {
        self.finish_search(true);
        let start = Instant::now();
        let mut clock = Clock::default();
        let mut depth = None;
        let mut nodes = None;
        let mut infinite = false;
        let mut root_moves = Vec::new();
        let mut ponder = false;
        let mut errors = Vec::new();
        let white = self.board.side_to_move() == Color::White;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let value = args.get(i + 1).map(|v| v.parse::<i64>());
            let mut number = || match value.clone() {
                Some(Ok(v)) => {
                    i += 1;
                    Some(v.max(0) as u64)
                }
                _ => {
                    errors.push(format!("go {key} needs a number"));
                    None
                }
            };
            match key {
                "depth" => depth = number().map(|d| d.min(MAX_DEPTH as u64) as i32),
                "nodes" => nodes = number(),
                "movetime" => clock.move_time_ms = number(),
                "wtime" | "btime" => {
                    let v = number();
                    if (key == "wtime") == white {
                        clock.time_ms = v;
                    }
                }
                "winc" | "binc" => {
                    let v = number();
                    if (key == "winc") == white {
                        clock.inc_ms = v.unwrap_or(0);
                    }
                }
                "movestogo" => clock.moves_to_go = number(),
                "mate" => depth = number().map(mate_depth),
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    // Every following word that reads as a move; illegal ones are reported and
                    // dropped, and with none left the search considers every move.
                    while let Some(Ok(mv)) = args
                        .get(i + 1)
                        .map(|text| parse_uci_move(&self.board, text))
                    {
                        i += 1;
                        if self.board.is_legal(mv) {
                            root_moves.push(mv);
                        } else {
                            errors.push(format!("searchmoves: '{}' is not legal here", args[i]));
                        }
                    }
                    if root_moves.is_empty() {
                        errors.push("searchmoves: no legal move given; searching all moves".into());
                    }
                }
                other => errors.push(format!("unknown go parameter '{}'", truncate(other))),
            }
            i += 1;
        }
        for e in &errors {
            println!("info string error: {e}");
        }
        let timed = clock.time_ms.is_some() || clock.move_time_ms.is_some();
        // A bare `go` searches until `stop`, as `go infinite` does.
        let infinite = infinite || (!timed && depth.is_none() && nodes.is_none());
        let limits = Limits {
            depth: depth.unwrap_or(MAX_DEPTH),
            nodes,
            deadlines: Deadlines::new(start, &clock, self.overhead_ms),
            infinite,
        };
        let shared = Arc::new(Shared::default());
        shared
            .pondering
            .store(ponder, std::sync::atomic::Ordering::Relaxed);
        let tt = Arc::clone(&self.tt);
        let root = self.board.clone();
        let history = self.history.clone();
        let threads = self.threads;
        let thread_shared = Arc::clone(&shared);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let task = Task {
                    root,
                    history,
                    tt: &tt,
                    shared: &thread_shared,
                    limits,
                    root_moves,
                    report: true,
                };
                search(&task, threads, |outcome| match outcome.best {
                    Some(mv) => println!("bestmove {}", display_uci_move(&task.root, mv)),
                    None => println!("bestmove 0000"),
                });
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running {
            handle,
            shared,
            infinite,
        });
        Ok(())
    }

    fn set_option(&mut self, args: &[&str]) -> Reply {
        let value_at = args.iter().position(|&a| a.eq_ignore_ascii_case("value"));
        let (name, value) = match (args.first(), value_at) {
            (Some(n), Some(v)) if n.eq_ignore_ascii_case("name") => {
                (args[1..v].join(" "), args[v + 1..].join(" "))
            }
            (Some(n), None) if n.eq_ignore_ascii_case("name") => {
                (args[1..].join(" "), String::new())
            }
            _ => return Err("expected 'setoption name <name> [value <value>]'".into()),
        };
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "hash" => {
                let mib = parse_in_range(&value, 0, MAX_HASH_MIB, "Hash")?;
                check_physical_memory(mib)?;
                let table = self.table_mut()?;
                let config = TableConfig {
                    mib,
                    ..table.config()
                };
                table
                    .reconfigure(config)
                    .map_err(|e| format!("Hash {mib}: {e}; keeping the old table"))
            }
            "threads" => {
                self.finish_search(true);
                self.threads = parse_in_range(&value, 1, MAX_THREADS, "Threads")?;
                Ok(())
            }
            "clear hash" => {
                self.finish_search(true);
                self.tt.clear();
                Ok(())
            }
            // The GUI says whether it will send `go ponder`; either way there is nothing to set.
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => Ok(()),
                _ => Err(format!(
                    "Ponder must be true or false, not '{}'",
                    truncate(&value)
                )),
            },
            "move overhead" => {
                self.overhead_ms =
                    parse_in_range(&value, 0, MAX_OVERHEAD_MS as usize, "Move Overhead")? as u64;
                Ok(())
            }
            "ttslots" => {
                let slots = match value.to_ascii_lowercase().as_str() {
                    "bucket" => Slots::Bucket,
                    "single" => Slots::Single,
                    _ => {
                        return Err(format!(
                            "TTSlots must be Bucket or Single, not '{}'",
                            truncate(&value)
                        ))
                    }
                };
                let table = self.table_mut()?;
                let config = TableConfig {
                    slots,
                    ..table.config()
                };
                table
                    .reconfigure(config)
                    .map_err(|e| format!("TTSlots: {e}; keeping the old table"))
            }
            "ttrefresh" => {
                let on = parse_bool(&value, "TTRefresh")?;
                self.table_mut()?.refresh = on;
                Ok(())
            }
            "ttprefetch" => {
                let on = parse_bool(&value, "TTPrefetch")?;
                self.table_mut()?.prefetch = on;
                Ok(())
            }
            "hugepages" => {
                let huge_pages = parse_bool(&value, "HugePages")?;
                let table = self.table_mut()?;
                let config = TableConfig {
                    huge_pages,
                    ..table.config()
                };
                table
                    .reconfigure(config)
                    .map_err(|e| format!("HugePages: {e}; keeping the old table"))
            }
            _ => Err(format!("unknown option '{}'", truncate(&name))),
        }
    }

    fn bench(&mut self, args: &[&str]) -> Reply {
        self.finish_search(true);
        let depth = match args.first() {
            Some(d) => parse_in_range(d, 1, MAX_DEPTH as usize, "bench depth")? as i32,
            None => DEFAULT_DEPTH,
        };
        let threads = match args.get(1) {
            Some(t) => parse_in_range(t, 1, MAX_THREADS, "bench threads")?,
            None => 1,
        };
        let result = bench(&self.tt, depth, threads);
        let ms = result.elapsed.as_millis().max(1) as u64;
        let cpu = result
            .cpu
            .map_or(String::new(), |cpu| format!(" cpu {}", cpu.as_millis()));
        println!(
            "bench depth {depth} threads {threads} nodes {} time {ms} nps {}{cpu}",
            result.nodes,
            result.nodes * 1000 / ms
        );
        if let Some(bytes) = self.tt.huge_page_bytes() {
            println!(
                "info string table memory on huge pages: {} MiB",
                bytes >> 20
            );
        }
        self.tt.clear();
        Ok(())
    }

    fn perft(&mut self, args: &[&str], cached: bool) -> Reply {
        self.finish_search(true);
        let depth = match args.first() {
            Some(d) => parse_in_range(d, 0, 20, "perft depth")? as u32,
            None => return Err("expected 'perft <depth>'".into()),
        };
        let start = Instant::now();
        let total = if cached {
            let mib = match args.get(1) {
                Some(m) => parse_in_range(m, 1, MAX_HASH_MIB, "perft-tt MiB")?,
                None => DEFAULT_PERFT_TT_MIB,
            };
            let table = perft_table(mib).map_err(|e| format!("perft-tt table: {e}"))?;
            perft_cached(&self.board, depth, &table)
        } else {
            let mut total = 0;
            self.board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = self.board.clone();
                    child.play_unchecked(mv);
                    let n = perft(&child, depth.saturating_sub(1));
                    println!("{}: {n}", display_uci_move(&self.board, mv));
                    total += n;
                }
                false
            });
            if depth == 0 {
                1
            } else {
                total
            }
        };
        let ms = start.elapsed().as_millis().max(1) as u64;
        println!("Nodes searched: {total}");
        println!(
            "info string perft depth {depth} nodes {total} time {ms} nps {}",
            total * 1000 / ms
        );
        Ok(())
    }
}

/// `go mate N`: a mate in N moves needs 2N - 1 plies; search one more.
fn mate_depth(moves: u64) -> i32 {
    (2 * moves.min(MAX_DEPTH as u64) as i32 + 1).min(MAX_DEPTH)
}

/// A FEN from its fields (4 to 6: missing clocks default to "0 1").
fn parse_fen(fields: &[&str]) -> Result<Board, String> {
    if !(4..=6).contains(&fields.len()) {
        return Err(format!("a FEN has 4 to 6 fields, got {}", fields.len()));
    }
    let mut fen: Vec<&str> = fields.to_vec();
    if fen.len() == 4 {
        fen.push("0");
    }
    if fen.len() == 5 {
        fen.push("1");
    }
    let fen = fen.join(" ");
    // cozy-chess is a third-party parser: should it ever panic on some input, that must cost
    // this command, not the engine.
    match std::panic::catch_unwind(|| fen.parse::<Board>()) {
        Ok(parsed) => parsed.map_err(|e| format!("illegal FEN '{}': {e:?}", truncate(&fen))),
        Err(_) => Err(format!("FEN '{}' crashed the parser", truncate(&fen))),
    }
}

/// Refuses a table larger than the machine's memory. With overcommit the kernel may grant such
/// a mapping lazily, and the first `Clear Hash` would then touch every page of it.
fn check_physical_memory(mib: usize) -> Reply {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        });
    match total_kib {
        Some(kib) if mib.saturating_mul(1024) > kib => Err(format!(
            "Hash {mib} MiB exceeds this machine's memory ({} MiB); keeping the old table",
            kib / 1024
        )),
        _ => Ok(()),
    }
}

fn parse_in_range(value: &str, min: usize, max: usize, what: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "{what} must be a number from {min} to {max}, not '{}'",
            truncate(value)
        )),
    }
}

fn parse_bool(value: &str, what: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "{what} must be true or false, not '{}'",
            truncate(value)
        )),
    }
}

/// Echoes of user input are cut to 80 characters (a garbage line may be megabytes).
fn truncate(text: &str) -> &str {
    match text.char_indices().nth(80) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}
