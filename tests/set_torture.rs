//! Multi-threaded torture test of the visited-state set: 4 threads insert the same states, two
//! upwards and two downwards, into a set sized for them (load 0.9), round after round.
//! Afterwards every state must be present and must have got exactly one `New`: no insert lost,
//! none doubled.
//!
//! `cargo test --release --test set_torture` runs 2^18 inserts per thread and width.
//! `SEARCHCACHE_TORTURE_OPS=100000000 cargo test --release --test set_torture -- --nocapture`
//! runs the long version (at least 10^8 inserts per thread and width).

use searchcache::{mix64, Inserted, Signature, StateHash, VisitedSet};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Barrier;

const THREADS: usize = 4;

/// States per round; every thread inserts all of them.
const STATES: usize = 1 << 16;

/// Inserts per thread when `SEARCHCACHE_TORTURE_OPS` is not set: 4 rounds.
const DEFAULT_OPS: usize = 4 * STATES;

fn ops_per_thread() -> usize {
    match std::env::var("SEARCHCACHE_TORTURE_OPS") {
        Ok(s) => s
            .parse()
            .unwrap_or_else(|_| panic!("SEARCHCACHE_TORTURE_OPS={s:?} is not a number")),
        Err(_) => DEFAULT_OPS,
    }
}

/// `STATES` states of round `round` whose signatures are all distinct at `S`'s width (the set
/// reports a new state with another's signature as `Present`: an omission, which this test is
/// not about). Half are counters (index = signature = a small integer), half hashed.
fn states<S: Signature>(round: usize) -> Vec<StateHash> {
    let mut signatures = HashSet::new();
    let mut out = Vec::with_capacity(STATES);
    let mut i = (round * STATES * 2) as u64;
    while out.len() < STATES {
        let h = if i.is_multiple_of(2) {
            StateHash {
                index: i,
                signature: i,
            }
        } else {
            StateHash::of(&i)
        };
        // The documented signature: the mixed hash, low 32 bits for `u32`, never 0.
        let signature = S::from_mixed(mix64(h.signature));
        if signatures.insert(signature) {
            out.push(h);
        }
        i += 1;
    }
    out
}

/// Returns (inserts, News, lost or doubled states).
fn torture<S: Signature>() -> (usize, usize, usize) {
    let rounds = ops_per_thread().div_ceil(STATES);
    let (mut inserts, mut news, mut wrong) = (0, 0, 0);
    let mut set = VisitedSet::<S>::with_expected_states(STATES).unwrap();
    for round in 0..rounds {
        let states = states::<S>(round);
        let new_count: Vec<AtomicU8> = (0..STATES).map(|_| AtomicU8::new(0)).collect();
        let start = Barrier::new(THREADS);
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (set, states, new_count, start) = (&set, &states, &new_count, &start);
                s.spawn(move || {
                    start.wait();
                    // Threads 0 and 1 walk the states upwards, 2 and 3 downwards: each pair
                    // inserts the same state at the same moment (one CAS must lose), and the
                    // pairs meet halfway.
                    for j in 0..STATES {
                        let k = if t < 2 { j } else { STATES - 1 - j };
                        if set.insert(states[k]).expect("sized for the states") == Inserted::New {
                            new_count[k].fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        inserts += THREADS * STATES;
        for (k, count) in new_count.iter().enumerate() {
            let count = count.load(Relaxed);
            news += usize::from(count);
            if count != 1 || !set.contains(states[k]) {
                wrong += 1;
                if wrong <= 5 {
                    eprintln!("LOST INSERT: {:?} got {count} News", states[k]);
                }
            }
        }
        // `len` counts the News, so it is right exactly when no state was lost or doubled.
        if set.len() != STATES {
            eprintln!("LOST INSERT: round {round}: len {} != {STATES}", set.len());
        }
        set.clear();
    }
    println!(
        "VisitedSet<u{}>: {THREADS} threads, {inserts} inserts, {news} New, {wrong} states lost or doubled",
        S::BITS
    );
    (inserts, news, wrong)
}

fn assert_no_lost_inserts<S: Signature>() {
    let (inserts, news, wrong) = torture::<S>();
    assert_eq!(wrong, 0, "LOST INSERT: {wrong} states lost or doubled");
    assert_eq!(news * THREADS, inserts, "LOST INSERT: News");
}

#[test]
fn fingerprint_set_loses_no_insert() {
    assert_no_lost_inserts::<u64>();
}

#[test]
fn compact_set_loses_no_insert() {
    assert_no_lost_inserts::<u32>();
}
