//! The cost-per-state promises of the search, counted: every generated state is hashed exactly
//! once (the one 64-bit hash serves the visited set, fp64 or exact, and the exact set never
//! hashes again), and a state is cloned only when it is new to the exact set (the search moves
//! new states into the next level; it does not clone them). A state type counts its own
//! `Hash::hash` and `Clone::clone` calls; removing the hash reuse or adding a clone on the hot
//! path changes the counts.

use modelcheck::{check, Mode, Model, Options, Verdict};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

static HASHES: AtomicU64 = AtomicU64::new(0);
static CLONES: AtomicU64 = AtomicU64::new(0);
/// The counters are global: one test counts at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A cell of a grid, which counts how often it is hashed and cloned. It owns memory, as the
/// states the promise is for do (a state that needs no drop is copied where it would move:
/// `Successors` says so).
#[derive(PartialEq, Eq, Debug)]
struct Cell {
    x: u32,
    y: u32,
    _owns: Box<u8>,
}

impl Cell {
    fn at(x: u32, y: u32) -> Self {
        Cell {
            x,
            y,
            _owns: Box::new(0),
        }
    }
}

impl Hash for Cell {
    fn hash<H: Hasher>(&self, state: &mut H) {
        HASHES.fetch_add(1, Ordering::Relaxed);
        (self.x, self.y).hash(state);
    }
}

impl Clone for Cell {
    fn clone(&self) -> Self {
        CLONES.fetch_add(1, Ordering::Relaxed);
        Cell {
            x: self.x,
            y: self.y,
            _owns: Box::new(0),
        }
    }
}

#[derive(Clone, Copy)]
enum Step {
    Right,
    Up,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::Right => "right",
            Step::Up => "up",
        })
    }
}

/// Walks right and up on a `side` × `side` grid: `side²` states, `2·side·(side − 1)`
/// transitions, every state but the corner reached twice or more.
struct Grid {
    side: u32,
}

impl Model for Grid {
    type State = Cell;
    type Action = Step;
    fn name(&self) -> String {
        format!("grid({})", self.side)
    }
    fn initial_states(&self) -> Vec<Cell> {
        vec![Cell::at(0, 0)]
    }
    fn successors(&self, s: &Cell, out: &mut Vec<(Step, Cell)>) {
        if s.x + 1 < self.side {
            out.push((Step::Right, Cell::at(s.x + 1, s.y)));
        }
        if s.y + 1 < self.side {
            out.push((Step::Up, Cell::at(s.x, s.y + 1)));
        }
    }
    fn deadlock_is_error(&self) -> bool {
        false
    }
}

/// Hashes and clones of one complete run.
fn counts(mode: Mode, threads: usize) -> (u64, u64, u64, u64) {
    let options = Options {
        threads,
        mode,
        memory_bytes: 64 << 20,
        ..Options::default()
    };
    HASHES.store(0, Ordering::Relaxed);
    CLONES.store(0, Ordering::Relaxed);
    let report = check(&Grid { side: 120 }, &options);
    assert!(
        matches!(report.verdict, Verdict::Complete),
        "{mode:?}: the search did not complete"
    );
    let (states, transitions) = (report.stats.states, report.stats.transitions);
    assert_eq!(states, 120 * 120);
    assert_eq!(transitions, 2 * 120 * 119);
    let hashes = HASHES.load(Ordering::Relaxed);
    (states, transitions, hashes, CLONES.load(Ordering::Relaxed))
}

#[test]
fn every_generated_state_is_hashed_once_and_only_new_ones_are_cloned_into_the_exact_set() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for threads in [1, 2] {
        let (states, transitions, hashes, clones) = counts(Mode::Exact, threads);
        // The initial state and each transition's target: one hash each.
        assert_eq!(hashes, 1 + transitions, "exact, {threads} threads: hashes");
        assert_eq!(
            clones, states,
            "exact, {threads} threads: one clone per new state"
        );
    }
}

#[test]
fn the_fingerprint_modes_hash_each_generated_state_once_and_clone_none() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for threads in [1, 2] {
        let (_, transitions, hashes, clones) = counts(Mode::Fp64, threads);
        assert_eq!(hashes, 1 + transitions, "fp64, {threads} threads: hashes");
        assert_eq!(clones, 0, "fp64, {threads} threads: clones");
    }
}
