//! The search driver: iterative deepening with aspiration windows (each failed window reported
//! as a `lowerbound`/`upperbound` line), MultiPV, the `info` lines, and Lazy SMP (every thread
//! searches the same root and they share only the transposition table and the stop flag; the
//! main thread decides the move). A timer thread stops all threads at the hard deadline, so the
//! clock holds whatever `Threads` is. The tree search itself is in `worker.rs`; what a search is
//! asked and answers (`Task`, `Limits`, `Shared`, `Outcome`) in `task.rs`, which both use.

mod task;
mod worker;

pub use task::{legal_moves, Limits, Outcome, Shared, Task, MAX_DEPTH};

use crate::info::{pv_string, uci_score};
use crate::say;
use crate::time::soft_scale;
use crate::tt::{legal_move, Bound, MATE, MATE_BOUND};
use cozy_chess::{Board, Move};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use worker::{Worker, INFINITY};

/// Stack of helper threads: 128 plies of recursion need well under 1 MiB.
const HELPER_STACK_BYTES: usize = 16 << 20;
/// First aspiration half-window, centipawns; doubled after each failure.
const ASPIRATION_WINDOW: i32 = 25;
/// How often the timer thread looks at the clock.
const TIMER_TICK: Duration = Duration::from_millis(1);

/// One principal variation of the root and its score.
#[derive(Clone, Debug)]
struct RootLine {
    score: i32,
    pv: Vec<Move>,
}

/// Runs `threads` search threads on `task`; once the main thread has stopped (and, for
/// `infinite`, once `stop` has come) hands its result to `decided` at once, then stops and joins
/// the helpers and returns the result. `decided` runs before the join so that `bestmove` does
/// not wait for descheduled helpers to notice the stop flag (on a loaded machine that took tens
/// of milliseconds and lost games on time at 1+0.01).
pub fn search(task: &Task, threads: usize, decided: impl FnOnce(&Outcome)) -> Outcome {
    task.tt.new_generation();
    let all = legal_moves(&task.root);
    let restricted = !task.root_moves.is_empty() && task.root_moves.len() < all.len();
    let root_moves = if task.root_moves.is_empty() {
        all
    } else {
        task.root_moves.clone()
    };
    std::thread::scope(|scope| {
        if task.limits.deadlines.is_timed() {
            // Without the timer a thread's clock checks wait for the CPU like everything else
            // (256 threads on 2 cores overran a 100 ms clock by 1.9 s). If it cannot start, the
            // main thread's own checks remain.
            let _ = std::thread::Builder::new().spawn_scoped(scope, || watch_clock(task));
        }
        // Helpers start from a thread of their own, so the main thread searches at once: on
        // loaded cores, spawning 255 helpers before searching once starved the main thread for
        // 1.9 s of a 1 s clock.
        let helper_moves = root_moves.clone();
        let spawner = std::thread::Builder::new();
        let _ = (threads > 1).then(|| {
            spawner.spawn_scoped(scope, move || {
                for id in 1..threads {
                    if task.shared.stop.load(Relaxed) {
                        break;
                    }
                    let helper = std::thread::Builder::new().stack_size(HELPER_STACK_BYTES);
                    let moves = helper_moves.clone();
                    // A helper that cannot start only costs speed; the main thread searches
                    // regardless.
                    let _ = helper.spawn_scoped(scope, move || {
                        let mut worker = Worker::new(task, id, moves);
                        worker.root_restricted = restricted;
                        worker.iterate()
                    });
                }
            })
        });
        let mut main = Worker::new(task, 0, root_moves.clone());
        main.root_restricted = restricted;
        let mut outcome = main.iterate();
        while (task.limits.infinite || task.shared.pondering.load(Relaxed))
            && !task.shared.stop.load(Relaxed)
        {
            std::thread::sleep(TIMER_TICK);
        }
        task.shared.stop.store(true, Relaxed);
        if outcome.ponder.is_none() {
            outcome.ponder = outcome.best.and_then(|best| expected_reply(task, best));
        }
        decided(&outcome);
        outcome
    })
}

/// The table's move in the position after `best`, if it is legal there.
fn expected_reply(task: &Task, best: Move) -> Option<Move> {
    let mut child = task.root.clone();
    child.play_unchecked(best);
    legal_move(&task.tt.probe(child.hash())?, &child)
}

/// The timer thread: sets the stop flag at the hard deadline (not while pondering), and ends
/// when the search does.
fn watch_clock(task: &Task) {
    while !task.shared.stop.load(Relaxed) {
        if task.limits.deadlines.hard_expired() && !task.shared.pondering.load(Relaxed) {
            task.shared.stop.store(true, Relaxed);
            return;
        }
        std::thread::sleep(TIMER_TICK);
    }
}

impl Worker<'_> {
    /// Iterative deepening, each depth searching `multipv` lines (the main thread; helpers one).
    pub(crate) fn iterate(&mut self) -> Outcome {
        let root = self.task.root.clone();
        let all_moves = std::mem::take(&mut self.root_moves);
        if all_moves.is_empty() {
            // Checkmate or stalemate at the root: nothing to search, no PV (Stockfish's answer).
            let score = if root.checkers().is_empty() { 0 } else { -MATE };
            if self.is_main() && self.task.report {
                say!("info depth 0 score {}", uci_score(score));
            }
            return Outcome {
                best: None,
                ponder: None,
                score,
                depth: 0,
                nodes: self.total_nodes(),
            };
        }
        let limits = self.task.limits;
        let wanted = if self.is_main() {
            limits.multipv.clamp(1, all_moves.len())
        } else {
            1
        };
        let narrowed_by_lines = self.root_restricted;
        let max_depth = limits.depth.clamp(1, MAX_DEPTH);
        let mut lines: Vec<RootLine> = Vec::new();
        let mut best = all_moves[0];
        let mut ponder = None;
        let mut completed = 0;
        let mut stable_iterations = 0;
        let mut depth = 1;
        'deepening: while depth <= max_depth {
            // Lazy SMP: odd helpers run one ply ahead, so threads spread over two depths.
            let target = if self.id % 2 == 1 {
                (depth + 1).min(max_depth)
            } else {
                depth
            };
            self.iteration = target;
            self.seldepth = 0;
            let mut found: Vec<RootLine> = Vec::with_capacity(wanted);
            self.root_effort.clear();
            for index in 0..wanted {
                self.root_moves = all_moves
                    .iter()
                    .copied()
                    .filter(|mv| found.iter().all(|line| line.pv[0] != *mv))
                    .collect();
                self.root_restricted = narrowed_by_lines || index > 0;
                self.root_improved = false;
                let previous = lines.get(index).cloned();
                let score = self.aspiration(&root, target, previous.as_ref(), index);
                if self.stopped {
                    if index == 0 && self.root_improved {
                        // A better first move found before the stop is worth playing.
                        best = self.pv[0].first().copied().unwrap_or(best);
                        ponder = self.pv[0].get(1).copied();
                    }
                    break 'deepening;
                }
                let pv = if self.pv[0].is_empty() {
                    vec![self.root_moves[0]]
                } else {
                    self.pv[0].clone()
                };
                found.push(RootLine { score, pv });
            }
            // Later lines searched a narrower root, so an unstable search can rank them higher.
            found.sort_by_key(|line| std::cmp::Reverse(line.score));
            lines = found;
            if completed > 0 && lines[0].pv[0] == best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            best = lines[0].pv[0];
            ponder = lines[0].pv.get(1).copied();
            completed = target;
            if self.is_main() {
                self.report_lines(&root, target, &lines);
                let scale = soft_scale(self.root_share(best), stable_iterations);
                let timed_out = limits.deadlines.soft_expired(scale)
                    || (all_moves.len() == 1 && limits.deadlines.is_timed());
                if timed_out && !self.task.shared.pondering.load(Relaxed) {
                    break;
                }
                if limits
                    .mate
                    .is_some_and(|moves| mates_within(lines[0].score, moves))
                {
                    break;
                }
            }
            depth += 1;
        }
        self.flush_nodes();
        Outcome {
            best: Some(best),
            ponder,
            score: lines.first().map_or(0, |line| line.score),
            depth: completed,
            nodes: self.total_nodes(),
        }
    }

    /// Searches the root with a window around the previous score of this line, widening it
    /// after each failure (reported as a bound).
    fn aspiration(
        &mut self,
        root: &Board,
        depth: i32,
        previous: Option<&RootLine>,
        index: usize,
    ) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = match previous {
            Some(line) if depth >= 5 && line.score.abs() < MATE_BOUND => {
                (line.score - delta, line.score + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                // No move reached alpha: the PV is still the previous one.
                let pv = previous.map_or(&[][..], |line| &line.pv[..]);
                self.report_bound(root, depth, index, score, Bound::Upper, pv);
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                let pv = self.pv[0].clone();
                self.report_bound(root, depth, index, score, Bound::Lower, &pv);
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// The fields every `info` line of an iteration has, up to the score.
    fn info_head(&self, depth: i32, index: usize, score: i32) -> String {
        // A mate cuts the tree short of the nominal depth; GUIs expect seldepth ≥ depth.
        let seldepth = self.seldepth.max(depth as usize);
        format!(
            "info depth {depth} seldepth {seldepth} multipv {} score {}",
            index + 1,
            uci_score(score)
        )
    }

    /// The fields after the score: counters and the PV.
    fn info_tail(&self, root: &Board, pv: &[Move]) -> String {
        let nodes = self.total_nodes();
        let elapsed = self.task.limits.deadlines.elapsed();
        let ms = elapsed.as_millis().max(1) as u64;
        format!(
            "nodes {nodes} nps {} hashfull {} time {} pv {}",
            nodes.saturating_mul(1000) / ms,
            self.task.tt.hashfull(),
            elapsed.as_millis(),
            pv_string(root, pv, self.task.chess960),
        )
    }

    /// The `info` lines of a completed iteration, one per MultiPV line.
    fn report_lines(&self, root: &Board, depth: i32, lines: &[RootLine]) {
        if !self.task.report {
            return;
        }
        for (index, line) in lines.iter().enumerate() {
            say!(
                "{} {}",
                self.info_head(depth, index, line.score),
                self.info_tail(root, &line.pv)
            );
        }
    }

    /// An aspiration failure: the score is only a bound (`lowerbound`: at least this much).
    fn report_bound(
        &self,
        root: &Board,
        depth: i32,
        index: usize,
        score: i32,
        bound: Bound,
        pv: &[Move],
    ) {
        if !(self.task.report && self.is_main()) || pv.is_empty() {
            return;
        }
        let word = if bound == Bound::Lower {
            "lowerbound"
        } else {
            "upperbound"
        };
        say!(
            "{} {word} {}",
            self.info_head(depth, index, score),
            self.info_tail(root, pv)
        );
    }
}

/// Whether `score` is a mate for the side to move in at most `moves` moves.
fn mates_within(score: i32, moves: u32) -> bool {
    score > MATE_BOUND && ((MATE - score + 1) / 2) as u32 <= moves
}
