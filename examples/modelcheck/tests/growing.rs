//! The fp64 set that grows ([`Options::grow`], the default): it starts at 1 MiB, grows between
//! levels and inside a level that outgrows it, counts exactly what a fixed table and the exact
//! mode count, stops at its cap with `Full`, and reports the birthday bound.

use modelcheck::models::two_phase::TwoPhase;
use modelcheck::{check, Mode, Model, Options, Verdict};

/// Ten initial states, ten successors each at level 1, then `fan` successors for each of those
/// 100 at level 2: level 1 grows tenfold, so the boundary makes room for about 1,000 states, and
/// level 2 (100 · `fan` states) outgrows a 1 MiB table (131,072 slots) in its middle.
struct Burst {
    fan: u32,
}

impl Model for Burst {
    type State = (u8, u32);
    type Action = u8;

    fn name(&self) -> String {
        format!("burst({})", self.fan)
    }
    fn initial_states(&self) -> Vec<(u8, u32)> {
        (0..10).map(|i| (0, i)).collect()
    }
    fn successors(&self, &(level, i): &(u8, u32), out: &mut Vec<(u8, (u8, u32))>) {
        match level {
            0 => out.extend((0..10).map(|j| (1, (1, i * 10 + j)))),
            1 => out.extend((0..self.fan).map(|j| (2, (2, i * self.fan + j)))),
            _ => {}
        }
    }
    fn deadlock_is_error(&self) -> bool {
        false
    }
}

fn options(mode: Mode, grow: bool, memory_bytes: usize) -> Options {
    Options {
        threads: 2,
        mode,
        grow,
        memory_bytes,
        ..Options::default()
    }
}

#[test]
fn a_small_model_gets_a_small_table() {
    let report = check(
        &TwoPhase::new(3).unwrap(),
        &options(Mode::Fp64, true, 256 << 20),
    );
    assert!(matches!(report.verdict, Verdict::Complete));
    assert_eq!(report.stats.states, 288);
    let storage = report.storage.unwrap();
    assert_eq!(storage.table_bytes, 1 << 20, "the first table, never grown");
    assert!(storage.omission.name.contains("birthday"));
    // The fixed table is the whole --memory from the start.
    let fixed = check(
        &TwoPhase::new(3).unwrap(),
        &options(Mode::Fp64, false, 256 << 20),
    );
    assert_eq!(fixed.storage.unwrap().table_bytes, 256 << 20);
}

#[test]
fn a_level_wider_than_the_table_grows_it_and_keeps_every_state() {
    let burst = Burst { fan: 4_000 };
    let grown = check(&burst, &options(Mode::Fp64, true, 64 << 20));
    assert!(
        matches!(grown.verdict, Verdict::Complete),
        "{:?}",
        grown.stats
    );
    let exact = check(&burst, &options(Mode::Exact, true, 256 << 20));
    assert_eq!(grown.stats.states, exact.stats.states);
    assert_eq!(grown.stats.states, 10 + 100 + 400_000);
    assert_eq!(grown.stats.transitions, exact.stats.transitions);
    let storage = grown.storage.unwrap();
    assert!(storage.table_bytes > 1 << 20, "{storage:?}");
    assert!(storage.table_bytes <= 64 << 20);
    assert_eq!(storage.stored, 400_110);
}

#[test]
fn growing_stops_at_the_cap_with_full() {
    let burst = Burst { fan: 4_000 };
    let report = check(&burst, &options(Mode::Fp64, true, 2 << 20));
    let Verdict::Full(full) = report.verdict else {
        panic!("400,110 states do not fit in 2 MiB of 8-byte slots at any load")
    };
    assert_eq!(full.memory_bytes, 2 << 20, "the cap was reached");
    assert!(full.bytes_needed() > 2 << 20);
}

#[test]
fn growing_and_fixed_tables_count_the_same_on_2pc_6() {
    let model = TwoPhase::new(6).unwrap();
    let grown = check(&model, &options(Mode::Fp64, true, 256 << 20));
    let fixed = check(&model, &options(Mode::Fp64, false, 256 << 20));
    assert_eq!(grown.stats.states, fixed.stats.states);
    assert_eq!(grown.stats.transitions, fixed.stats.transitions);
    assert_eq!(grown.stats.depth, fixed.stats.depth);
    let (g, f) = (grown.storage.unwrap(), fixed.storage.unwrap());
    assert!(
        g.table_bytes < f.table_bytes,
        "{} {}",
        g.table_bytes,
        f.table_bytes
    );
    assert!(!g.partial() && !f.partial());
}
