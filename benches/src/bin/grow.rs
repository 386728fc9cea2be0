//! The cost of `VisitedSet::grow` (issue 26): a 64 MiB `FingerprintSet` holding ~6 M
//! `StateHash::from_u64` keys grown to 128 MiB, timed once, with a check that every key is
//! still a member.
//!
//! ```sh
//! cd benches && cargo run --release --bin grow                  # 64 MiB, 6,000,000 keys, to 128 MiB
//! cargo run --release --bin grow -- 16 1500000                  # MiB, keys (grown to twice the MiB)
//! ```
//!
//! The new table is touched page by page as the move writes it, so the time includes faulting
//! in the new table's pages (as a checker growing between levels would pay).

use searchcache::{mix64, FingerprintSet, Inserted, Size, StateHash};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let mib = args.next().unwrap_or(Ok(64)).expect("MiB: a number");
    let keys = args
        .next()
        .unwrap_or(Ok(6_000_000))
        .expect("keys: a number");
    let mut set = FingerprintSet::new(Size::Mib(mib)).expect("set");
    for i in 0..keys as u64 {
        let inserted = set
            .insert(StateHash::from_u64(mix64(i)))
            .expect("room for the keys");
        assert_eq!(inserted, Inserted::New);
    }
    let load = set.load_factor();
    let start = Instant::now();
    set.grow(Size::Mib(2 * mib)).expect("grow");
    let took = start.elapsed();
    assert_eq!(set.len(), keys);
    assert!((0..keys as u64).all(|i| set.contains(StateHash::from_u64(mix64(i)))));
    println!(
        "grow {mib} MiB ({keys} keys, load {load:.3}) to {} MiB: {:.3} s, {:.1} ns per key",
        2 * mib,
        took.as_secs_f64(),
        took.as_nanos() as f64 / keys as f64
    );
}
