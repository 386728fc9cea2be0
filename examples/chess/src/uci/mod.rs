//! The UCI front end: parses commands, owns the position, the options and the table, and runs
//! each search on its own thread so `stop`, `isready` and `quit` are answered while it thinks.
//!
//! Every malformed line is answered with `info string error: …` and otherwise ignored; the engine
//! keeps its previous state (a `position` command with an illegal FEN or move changes nothing).

mod options;

use crate::bench::{bench, BenchResult, DEFAULT_DEPTH};
use crate::eval_cache::EvalCache;
use crate::go::{parse_go, DEFAULT_THINK_MS};
use crate::info::uci_move;
use crate::memory::MemoryTexts;
use crate::perft::{perft, perft_cached, perft_table};
use crate::position::parse_position;
use crate::say;
use crate::search::{search, Limits, Shared, Task, MAX_DEPTH};
use crate::text::{parse_in_range, truncate};
use crate::time::Deadlines;
use crate::tt::{TableConfig, TranspositionTable, TtLayout};
use cozy_chess::Board;
use searchcache::Slots;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

pub(crate) const DEFAULT_HASH_MIB: usize = 16;
/// `EvalHash`, MiB: the evaluation cache (0 = off). On by default: it paid in games and in
/// nodes per second (BENCHMARKS.md, "Chess engine: the evaluation cache").
pub(crate) const DEFAULT_EVAL_HASH_MIB: usize = 1;
/// The evaluation cache's largest size: far beyond what a cache of evals needs (1 MiB holds
/// 65,536), so the memory goes to the transposition table, and `ucinewgame` (which clears and
/// commits the cache on the UCI thread) stays well under a second.
pub(crate) const MAX_EVAL_HASH_MIB: usize = 256;
/// Stockfish's maximum (32 TiB): anything the machine cannot give fails with an error message.
pub(crate) const MAX_HASH_MIB: usize = 1 << 25;
/// Most threads `Threads` and `bench` accept.
pub const MAX_THREADS: usize = 256;
pub(crate) const DEFAULT_OVERHEAD_MS: u64 = 50;
pub(crate) const MAX_OVERHEAD_MS: u64 = 5000;
/// Most principal variations `MultiPV` reports (more than any position has legal moves).
pub(crate) const MAX_MULTIPV: usize = 500;
/// `Contempt` is at most a pawn either way: more would trade real advantages for avoiding a
/// draw.
pub(crate) const MAX_CONTEMPT: i32 = 100;
/// The default `Contempt`, in centipawns.
pub(crate) const DEFAULT_CONTEMPT: i32 = 0;
const DEFAULT_PERFT_TT_MIB: usize = 64;
/// Deepest `perft` the commands accept.
pub const MAX_PERFT_DEPTH: u32 = 20;
/// Tables this large or larger are cleared and committed (prefaulted) on a thread of their own,
/// so that `isready` is answered at once (8,000 MiB took 25 s on the UCI thread); smaller ones
/// on the UCI thread, in well under a second.
const BACKGROUND_PREFAULT_MIB: usize = 64;
/// Search threads recurse up to 128 plies of main search plus quiescence; 16 MiB of stack is
/// far more than that needs and costs nothing until touched.
const SEARCH_STACK_BYTES: usize = 16 << 20;

/// An error answer, printed as `info string error: …`.
pub(crate) type Reply = Result<(), String>;

/// The running search, if any.
struct Running {
    handle: JoinHandle<()>,
    shared: Arc<Shared>,
    infinite: bool,
}

/// The engine's state between commands.
pub struct Engine {
    pub(crate) board: Board,
    /// Keys of the positions before `board`, for repetition detection.
    history: Vec<u64>,
    pub(crate) tt: Arc<TranspositionTable>,
    /// The evaluation cache (`EvalHash`), the engine's second table.
    pub(crate) evals: Arc<EvalCache>,
    pub(crate) threads: usize,
    pub(crate) overhead_ms: u64,
    pub(crate) multipv: usize,
    /// `UCI_Chess960`: castling moves are written and read as king-takes-rook.
    pub(crate) chess960: bool,
    /// `Contempt`: a draw's worth to the engine's side, negated, in centipawns.
    pub(crate) contempt: i32,
    running: Option<Running>,
    /// The thread clearing and committing a large table's pages, if any (it holds a clone of
    /// `tt`; each such thread first waits for the one before it).
    table_work: Option<JoinHandle<()>>,
    /// Where the memory a table may take is read from (tests give their own texts).
    pub(crate) memory: fn() -> MemoryTexts,
}

impl Engine {
    /// A fresh engine with the default options. Errors when even the default table cannot be
    /// allocated.
    pub fn new() -> Result<Self, String> {
        let tt = TranspositionTable::new(TableConfig {
            mib: DEFAULT_HASH_MIB,
            slots: Slots::Bucket,
            huge_pages: true,
            layout: TtLayout::Wide,
        })?;
        tt.prefault();
        Ok(Engine {
            board: Board::default(),
            history: Vec::new(),
            tt: Arc::new(tt),
            evals: Arc::new(EvalCache::new(DEFAULT_EVAL_HASH_MIB)?),
            threads: 1,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            multipv: 1,
            chess960: false,
            contempt: DEFAULT_CONTEMPT,
            running: None,
            table_work: None,
            memory: MemoryTexts::read,
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
                say!("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.clear_table();
                self.evals.clear();
                Ok(())
            }
            "position" => parse_position(args, self.chess960).map(|position| {
                self.board = position.board;
                self.history = position.history;
            }),
            "go" => self.go(args),
            "stop" => {
                if let Some(running) = &self.running {
                    running.shared.stop.store(true, Relaxed);
                }
                Ok(())
            }
            "ponderhit" => {
                // The opponent played the expected move: the search goes on, now on the clock.
                if let Some(running) = &self.running {
                    running.shared.pondering.store(false, Relaxed);
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
                if self.chess960 {
                    say!("info string fen {:#}", self.board);
                } else {
                    say!("info string fen {}", self.board);
                }
                Ok(())
            }
            "debug" | "register" => Ok(()),
            _ => Err(format!("unknown command '{}'", truncate(command))),
        };
        if let Err(message) = reply {
            say!("info string error: {message}");
        }
        true
    }

    /// Sets the position (no history), as `position fen` does.
    pub fn set_board(&mut self, board: Board) {
        self.finish_search(true);
        self.board = board;
        self.history.clear();
    }

    /// End of input: let a bounded search finish (so `echo 'go depth 8' | chess` answers),
    /// stop an infinite one.
    pub fn end_of_input(&mut self) {
        let endless = self
            .running
            .as_ref()
            .is_some_and(|r| r.infinite || r.shared.pondering.load(Relaxed));
        self.finish_search(endless);
    }

    fn identify(&self) {
        say!("id name searchcache-chess {}", env!("CARGO_PKG_VERSION"));
        say!("id author the searchcache authors");
        say!("option name Hash type spin default {DEFAULT_HASH_MIB} min 0 max {MAX_HASH_MIB}");
        say!("option name EvalHash type spin default {DEFAULT_EVAL_HASH_MIB} min 0 max {MAX_EVAL_HASH_MIB}");
        say!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
        say!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}");
        say!("option name UCI_Chess960 type check default false");
        say!("option name Contempt type spin default {DEFAULT_CONTEMPT} min -{MAX_CONTEMPT} max {MAX_CONTEMPT}");
        say!("option name Clear Hash type button");
        say!("option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}");
        say!("option name TTSlots type combo default Bucket var Bucket var Half var Single");
        say!("option name TTLayout type combo default Wide var Wide var Dense var Cluster");
        say!("option name TTPrefetch type check default true");
        say!("option name TTRefresh type check default false");
        say!("option name HugePages type check default true");
        say!("option name Ponder type check default false");
        say!("uciok");
    }

    /// Waits for the running search (stopping it first if `stop`), so the table is ours again.
    pub(crate) fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.shared.stop.store(true, Relaxed);
            }
            if running.handle.join().is_err() {
                say!("info string error: the search thread failed");
            }
        }
    }

    /// The table, exclusively: only between searches, and once its pages are committed.
    pub(crate) fn table_mut(&mut self) -> Result<&mut TranspositionTable, String> {
        self.finish_search(true);
        self.finish_table_work();
        Arc::get_mut(&mut self.tt).ok_or_else(|| "the table is still in use".to_string())
    }

    /// Waits for the thread clearing and committing the table, if any.
    pub(crate) fn finish_table_work(&mut self) {
        if let Some(work) = self.table_work.take() {
            if work.join().is_err() {
                say!("info string error: preparing the table failed");
            }
        }
    }

    /// Whether a thread is still clearing or committing the table.
    #[must_use]
    pub fn is_preparing_table(&self) -> bool {
        self.table_work.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Empties the table (`ucinewgame`, `Clear Hash`) and commits its pages again: see
    /// [`prepare_table`](Self::prepare_table).
    pub(crate) fn clear_table(&mut self) {
        self.finish_search(true);
        self.prepare_table(true);
    }

    /// Clears the table (`clear`) and commits its pages: on the UCI thread for a small table, on
    /// a thread of its own for a large one, so the UCI thread answers `isready` meanwhile. A
    /// search may start before that thread ends: committing changes no entry, and a clear that
    /// races the search only costs it entries (`SearchCache::clear` is safe against concurrent
    /// stores). A table change and `bench` wait for it.
    pub(crate) fn prepare_table(&mut self, clear: bool) {
        if self.tt.config().mib < BACKGROUND_PREFAULT_MIB {
            self.finish_table_work();
            if clear {
                self.tt.clear_entries();
            }
            self.tt.prefault();
            return;
        }
        let before = self.table_work.take();
        let tt = Arc::clone(&self.tt);
        let spawned = std::thread::Builder::new()
            .name("table".into())
            .spawn(move || {
                // One at a time: two passes over the pages at once only slow each other.
                if let Some(before) = before {
                    let _ = before.join();
                }
                if clear {
                    tt.clear_entries();
                }
                tt.prefault();
            });
        match spawned {
            Ok(work) => self.table_work = Some(work),
            Err(_) => {
                // (The thread before, if any, was handed to the closure and runs on detached.)
                if clear {
                    self.tt.clear_entries();
                }
                self.tt.prefault();
            }
        }
    }

    fn go(&mut self, args: &[&str]) -> Reply {
        self.finish_search(true);
        let start = Instant::now();
        let mut go = parse_go(args, &self.board, self.chess960);
        for e in &go.errors {
            say!("info string error: {e}");
        }
        if !go.is_bounded() && !go.infinite {
            say!("info string no limit for the side to move: thinking {DEFAULT_THINK_MS} ms");
            go.clock.move_time_ms = Some(DEFAULT_THINK_MS);
        }
        let limits = Limits {
            depth: go.max_depth(),
            nodes: go.nodes,
            deadlines: Deadlines::new(start, &go.clock, self.overhead_ms),
            infinite: go.infinite,
            mate: go.mate,
            multipv: self.multipv,
        };
        let shared = Arc::new(Shared::default());
        shared.pondering.store(go.ponder, Relaxed);
        let tt = Arc::clone(&self.tt);
        let evals = Arc::clone(&self.evals);
        let root = self.board.clone();
        let history = self.history.clone();
        let threads = self.threads;
        let chess960 = self.chess960;
        let contempt = self.contempt;
        let thread_shared = Arc::clone(&shared);
        let root_moves = go.search_moves;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let task = Task {
                    root,
                    history,
                    tt: &tt,
                    evals: &evals,
                    shared: &thread_shared,
                    limits,
                    root_moves,
                    report: true,
                    chess960,
                    contempt,
                };
                search(&task, threads, |outcome| {
                    let Some(best) = outcome.best else {
                        say!("bestmove 0000");
                        return;
                    };
                    let text = uci_move(&task.root, best, chess960);
                    match outcome.ponder {
                        Some(reply) => {
                            let mut after = task.root.clone();
                            after.play_unchecked(best);
                            say!(
                                "bestmove {text} ponder {}",
                                uci_move(&after, reply, chess960)
                            );
                        }
                        None => say!("bestmove {text}"),
                    }
                });
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running {
            handle,
            shared,
            infinite: go.infinite,
        });
        Ok(())
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
        self.run_bench(depth, threads);
        Ok(())
    }

    /// `bench`: the fixed positions to `depth`, then the totals, in this engine's form and in
    /// Stockfish's (`Nodes searched  : N`, which testing frameworks read).
    pub fn run_bench(&mut self, depth: i32, threads: usize) -> BenchResult {
        self.finish_search(true);
        // Deterministic node counts: no clear may race the bench's searches.
        self.finish_table_work();
        let result = bench(&self.tt, &self.evals, depth, threads);
        let ms = result.elapsed.as_millis().max(1) as u64;
        let nps = result.nodes.saturating_mul(1000) / ms;
        let cpu = result
            .cpu
            .map_or(String::new(), |cpu| format!(" cpu {}", cpu.as_millis()));
        say!(
            "bench depth {depth} threads {threads} nodes {} time {ms} nps {nps}{cpu}",
            result.nodes
        );
        if let Some(bytes) = self.tt.huge_page_bytes() {
            say!(
                "info string table memory on huge pages: {} MiB",
                bytes >> 20
            );
        }
        if self.evals.is_on() {
            let rate = result.eval_hits as f64 / result.eval_probes.max(1) as f64;
            say!(
                "info string evalcache probes {} hits {} rate {:.3}",
                result.eval_probes,
                result.eval_hits,
                rate
            );
        }
        say!("===========================");
        say!("Total time (ms) : {ms}");
        say!("Nodes searched  : {}", result.nodes);
        say!("Nodes/second    : {nps}");
        self.tt.clear();
        self.evals.clear();
        result
    }

    fn perft(&mut self, args: &[&str], cached: bool) -> Reply {
        self.finish_search(true);
        let depth = match args.first() {
            Some(d) => parse_in_range(d, 0, MAX_PERFT_DEPTH as usize, "perft depth")? as u32,
            None => return Err("expected 'perft <depth>'".into()),
        };
        let mib = match args.get(1) {
            Some(m) if cached => Some(parse_in_range(m, 1, MAX_HASH_MIB, "perft-tt MiB")?),
            _ if cached => Some(DEFAULT_PERFT_TT_MIB),
            _ => None,
        };
        self.run_perft(depth, mib)
    }

    /// `perft`: the move counts of the position to `depth`, divided by first move (plain), or
    /// with subtree counts cached in a table of `cached_mib` MiB; then `Nodes searched: N`.
    pub fn run_perft(&mut self, depth: u32, cached_mib: Option<usize>) -> Reply {
        self.finish_search(true);
        let start = Instant::now();
        let total = if let Some(mib) = cached_mib {
            let table = perft_table(mib).map_err(|e| format!("perft-tt table: {e}"))?;
            perft_cached(&self.board, depth, &table)
        } else {
            let mut total = 0;
            self.board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = self.board.clone();
                    child.play_unchecked(mv);
                    let n = perft(&child, depth.saturating_sub(1));
                    say!("{}: {n}", uci_move(&self.board, mv, self.chess960));
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
        say!("Nodes searched: {total}");
        say!(
            "info string perft depth {depth} nodes {total} time {ms} nps {}",
            total.saturating_mul(1000) / ms
        );
        Ok(())
    }
}
