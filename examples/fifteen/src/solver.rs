//! Solving a list of instances: the heuristics and the table they need, made once; then one
//! instance at a time with every thread on its tree (`parallel.rs`), or whole instances on each
//! thread at once, results handed back in the order of the list.

use crate::board::{Board, Packing};
use crate::compact_pdb::{Bytes, CompactPdb, Nibbles, PARTITION_6666, PARTITION_78};
use crate::config::{Config, HeuristicKind, Parallel, PdbLayout};
use crate::cycles::MoveAutomaton;
use crate::heuristic::{Heuristic, LinearConflict, Manhattan};
use crate::ida::{self, BoundTable, Control, Interrupted, Pruning, Solution};
use crate::instance::{Instance, Puzzle};
use crate::parallel;
use crate::pdb::{PatternDb, PARTITION_663};
use crate::regions::Grid;
use searchcache::{HugePages, Options, Size};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Tables up to this size ask for huge pages; bigger ones get 4 KiB pages, so that a search
/// that writes few entries into a big table commits 4 KiB per entry, not 2 MiB (a 16,000 MiB
/// table solving Korf's #9 would otherwise commit most of its 16 GB).
pub const HUGE_PAGE_TABLE_MAX_MIB: usize = 1024;

/// The heuristics a list of instances needs, and the table.
pub struct Solver {
    choice: Option<HeuristicKind>,
    md: [Option<Manhattan>; 6],
    lc: [Option<LinearConflict>; 5],
    pdb663: Option<PatternDb>,
    pdb78: Option<CompactPdb<Nibbles>>,
    pdb6666: Option<CompactPdb<Nibbles>>,
    pdb78_bytes: Option<CompactPdb<Bytes>>,
    /// The transposition table, if any.
    pub table: Option<BoundTable>,
    /// Which instances use it: all (`Some(true)`), or all but pdb78's (`None`).
    table_choice: Option<bool>,
    /// `--table-slack`.
    pub slack: u32,
    /// The short-cycle automaton per board side, where one is asked for.
    cycles: [Option<MoveAutomaton>; 6],
}

/// One solved instance.
#[derive(Debug)]
pub struct Solved {
    /// The solution and its counters, or where the search was when interrupted.
    pub solution: Result<Solution, Interrupted>,
    /// Wall time of the solve.
    pub time: Duration,
}

/// The heuristic an instance uses: the chosen one, else pdb6666 on 5×5, pdb78 on 4×4 and lc
/// on smaller boards.
pub fn kind_of(choice: Option<HeuristicKind>, board: &Puzzle) -> HeuristicKind {
    choice.unwrap_or(match board.side() {
        5 => HeuristicKind::Pdb6666,
        4 => HeuristicKind::Pdb78,
        _ => HeuristicKind::Lc,
    })
}

impl Solver {
    /// Makes what `config`'s instances need: the table (not prefaulted unless asked), the
    /// pattern databases (loaded, or built with a progress bar on stderr and cached). `log`
    /// hears what the databases did. `Err` is a message for the user (exit 2).
    pub fn new(config: &Config, log: &(dyn Fn(String) + Sync)) -> Result<Solver, String> {
        let wants_table = |k: HeuristicKind| match config.table {
            Some(on) => on,
            None => !matches!(k, HeuristicKind::Pdb78 | HeuristicKind::Pdb6666),
        };
        let table = if config
            .instances
            .iter()
            .any(|i| wants_table(kind_of(config.heuristic, &i.board)))
        {
            let pages = if config.hash_mib <= HUGE_PAGE_TABLE_MAX_MIB {
                HugePages::Advise
            } else {
                HugePages::Never
            };
            let table = BoundTable::with_options(
                Size::Mib(config.hash_mib),
                Options::default().huge_pages(pages),
            )
            .map_err(|e| format!("--hash-mib {}: {e}", config.hash_mib))?;
            if config.prefault {
                table.prefault();
            }
            Some(table)
        } else {
            None
        };
        let needs = |k: HeuristicKind| {
            config
                .instances
                .iter()
                .any(|i| kind_of(config.heuristic, &i.board) == k)
        };
        let mut solver = Solver {
            choice: config.heuristic,
            md: Default::default(),
            lc: Default::default(),
            pdb663: None,
            pdb78: None,
            pdb6666: None,
            pdb78_bytes: None,
            table,
            table_choice: config.table,
            slack: config.table_slack,
            cycles: Default::default(),
        };
        for i in &config.instances {
            let side = i.board.side();
            let kind = kind_of(config.heuristic, &i.board);
            if !kind.fits(side) {
                return Err(format!(
                    "{}: --heuristic {} does not work on a {side}×{side} board",
                    i.label,
                    kind.name()
                ));
            }
            match kind {
                HeuristicKind::Md => {
                    solver.md[usize::from(side)].get_or_insert_with(|| Manhattan::new(side));
                }
                HeuristicKind::Lc => {
                    solver.lc[usize::from(side)].get_or_insert_with(|| LinearConflict::new(side));
                }
                _ => {}
            }
            let length = config.cycles[usize::from(side)];
            if length > 0 && solver.cycles[usize::from(side)].is_none() {
                let t0 = Instant::now();
                let automaton = MoveAutomaton::build(side, length);
                log(format!(
                    "short-cycle automaton for {side}x{side}: {} forbidden strings of up to \
                     {length} moves, {} states, built in {:.1} s",
                    automaton.forbidden(),
                    automaton.states(),
                    t0.elapsed().as_secs_f64()
                ));
                solver.cycles[usize::from(side)] = Some(automaton);
            }
        }
        let dir = config.pdb_dir.as_deref();
        if needs(HeuristicKind::Pdb663) {
            let db = PatternDb::load_or_build(&PARTITION_663, dir, log)
                .map_err(|e| format!("pattern databases: {}", e.0))?;
            solver.pdb663 = Some(db);
        }
        if needs(HeuristicKind::Pdb78) {
            let fail = |e: crate::compact_pdb::PdbError| format!("pattern databases: {}", e.0);
            match config.pdb_layout {
                PdbLayout::Nibbles => {
                    let (db, _) =
                        CompactPdb::load_or_build(&PARTITION_78, dir, true, log).map_err(fail)?;
                    solver.pdb78 = Some(db);
                }
                PdbLayout::Bytes => {
                    let (db, _) = CompactPdb::load_or_build_bytes(&PARTITION_78, dir, true, log)
                        .map_err(fail)?;
                    solver.pdb78_bytes = Some(db);
                }
            }
        }
        if needs(HeuristicKind::Pdb6666) {
            let (db, _) =
                CompactPdb::load_or_build_on(Grid::new(5), &PARTITION_6666, dir, true, log)
                    .map_err(|e| format!("pattern databases: {}", e.0))?;
            solver.pdb6666 = Some(db);
        }
        Ok(solver)
    }

    /// What the report's first line calls the heuristic.
    pub fn heuristic_name(&self, layout: PdbLayout) -> String {
        match self.choice {
            None => {
                format!("pdb6666 on 5x5 / pdb78 + reflection ({layout:?}) on 4x4 / lc on smaller")
                    .to_lowercase()
            }
            Some(HeuristicKind::Md) => "md".into(),
            Some(HeuristicKind::Lc) => "lc (md + linear conflict)".into(),
            Some(HeuristicKind::Pdb663) => "pdb663 + reflection".into(),
            Some(HeuristicKind::Pdb78) => format!("pdb78 + reflection ({layout:?})").to_lowercase(),
            Some(HeuristicKind::Pdb6666) => "pdb6666 + reflection".into(),
        }
    }

    /// The table `board`'s search uses, if any.
    pub fn table_for(&self, board: &Puzzle) -> Option<&BoundTable> {
        let kind = kind_of(self.choice, board);
        let pdb = matches!(kind, HeuristicKind::Pdb78 | HeuristicKind::Pdb6666);
        let used = self.table_choice.unwrap_or(!pdb);
        self.table.as_ref().filter(|_| used)
    }

    /// Solves `board` on this thread (`pool: None`, exact IDA* order) or with every thread of
    /// `pool` on its tree.
    pub fn solve(&self, board: Puzzle, pool: Option<&rayon::ThreadPool>) -> Solution {
        match self.solve_with(board, pool, Control::quiet()) {
            Ok(solution) => solution,
            Err(_) => unreachable!("a quiet control is never interrupted"),
        }
    }

    /// [`Solver::solve`], reporting each iteration to `control` and stopping when it says.
    pub fn solve_with(
        &self,
        board: Puzzle,
        pool: Option<&rayon::ThreadPool>,
        control: Control<'_>,
    ) -> Result<Solution, Interrupted> {
        let run = Run {
            pruning: Pruning {
                table: self.table_for(&board),
                min_slack: self.slack,
                cycles: self.cycles[usize::from(board.side())].as_ref(),
            },
            pool,
            control,
        };
        let missing = "made by Solver::new for every instance it was given";
        let side = usize::from(board.side());
        match (kind_of(self.choice, &board), board) {
            (HeuristicKind::Md, Puzzle::Small(b)) => {
                run.go(self.md[side].as_ref().expect(missing), b)
            }
            (HeuristicKind::Md, Puzzle::Large(b)) => {
                run.go(self.md[side].as_ref().expect(missing), b)
            }
            (HeuristicKind::Lc, Puzzle::Small(b)) => {
                run.go(self.lc[side].as_ref().expect(missing), b)
            }
            (HeuristicKind::Pdb663, Puzzle::Small(b)) => {
                run.go(self.pdb663.as_ref().expect(missing), b)
            }
            (HeuristicKind::Pdb78, Puzzle::Small(b)) => match (&self.pdb78, &self.pdb78_bytes) {
                (Some(h), _) => run.go(h, b),
                (None, Some(h)) => run.go(h, b),
                (None, None) => panic!("{missing}"),
            },
            (HeuristicKind::Pdb6666, Puzzle::Large(b)) => {
                run.go(self.pdb6666.as_ref().expect(missing), b)
            }
            (kind, _) => panic!(
                "--heuristic {} does not fit the board (checked first)",
                kind.name()
            ),
        }
    }

    fn timed(
        &self,
        board: Puzzle,
        pool: Option<&rayon::ThreadPool>,
        control: Control<'_>,
    ) -> Solved {
        let t0 = Instant::now();
        let solution = self.solve_with(board, pool, control);
        Solved {
            solution,
            time: t0.elapsed(),
        }
    }

    /// Solves every instance with `threads` threads shared as `parallel` says (`Auto` is
    /// `Instances`), handing each result to `report` in the order of `instances`. When
    /// `report` returns `false`, no further instance starts (those already running finish and
    /// are not reported). `fresh_table` empties the table before each instance (not with
    /// `Instances` on several threads: the binary's command line refuses that).
    pub fn solve_all(
        &self,
        instances: &[Instance],
        threads: usize,
        parallel: Parallel,
        fresh_table: bool,
        control: Control<'_>,
        mut report: impl FnMut(usize, Solved) -> bool,
    ) -> Result<(), String> {
        if parallel == Parallel::Tree || fresh_table || threads == 1 {
            let pool = if threads > 1 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
                Some(pool.map_err(|e| format!("--threads {threads}: {e}"))?)
            } else {
                None
            };
            for (i, instance) in instances.iter().enumerate() {
                if let Some(t) = self.table_for(&instance.board) {
                    if fresh_table {
                        t.clear();
                    }
                    t.new_generation();
                }
                if !report(i, self.timed(instance.board, pool.as_ref(), control)) {
                    break;
                }
            }
            return Ok(());
        }
        // Each worker takes the next instance in the list: results come back nearly in order,
        // and a long instance holds up only its own thread.
        let stop = AtomicBool::new(false);
        let taken = AtomicUsize::new(0);
        let (sender, results) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let sender = sender.clone();
                let (stop, taken) = (&stop, &taken);
                scope.spawn(move || loop {
                    let i = taken.fetch_add(1, Relaxed);
                    if i >= instances.len() || stop.load(Relaxed) {
                        return;
                    }
                    if let Some(t) = self.table_for(&instances[i].board) {
                        t.new_generation();
                    }
                    // The receiver is gone only once it has stopped listening.
                    let _ = sender.send((i, self.timed(instances[i].board, None, control)));
                });
            }
            drop(sender);
            let mut waiting = BTreeMap::new();
            let mut next = 0;
            for (i, solved) in results.iter() {
                waiting.insert(i, solved);
                while let Some(solved) = waiting.remove(&next) {
                    if !report(next, solved) {
                        stop.store(true, Relaxed);
                        return;
                    }
                    next += 1;
                }
            }
        });
        Ok(())
    }
}

/// How one instance is searched: its table, slack and automaton, threads and control.
struct Run<'a> {
    pruning: Pruning<'a>,
    pool: Option<&'a rayon::ThreadPool>,
    control: Control<'a>,
}

impl Run<'_> {
    fn go<P: Packing, H: Heuristic<P>>(
        &self,
        h: &H,
        board: Board<P>,
    ) -> Result<Solution, Interrupted> {
        match self.pool {
            Some(pool) => parallel::solve_parallel_with(pool, h, self.pruning, board, self.control),
            None => ida::solve_sequential_with(h, self.pruning, board, self.control),
        }
    }
}
