//! Replays the fuzz targets' committed seed corpus (`fuzz/corpus/<target>/`) through the same
//! target code that `cargo fuzz` runs (this package's library), without libFuzzer, plus a few
//! thousand pseudo-random inputs per target, so `cargo test --workspace` exercises every target.

use searchcache_fuzz::{differential, load, map_vs_hashmap, pack_round_trip, set_vs_hashset};

use std::path::Path;

/// Runs `target` on every file of `fuzz/corpus/<name>/`; returns how many there were.
fn replay(name: &str, target: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let outcome = std::panic::catch_unwind(|| target(&data));
        assert!(outcome.is_ok(), "{name}: {} fails", file.display());
    }
    files.len()
}

/// Runs `target` on `count` pseudo-random inputs of up to 512 bytes (a fixed seed: the same
/// inputs every run).
fn random_inputs(target: fn(&[u8]), count: usize) {
    let mut state = 0x5eed_u64;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        searchcache::mix64(state)
    };
    for _ in 0..count {
        let len = (next() % 512) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        target(&data);
    }
}

#[test]
fn differential_corpus() {
    assert!(replay("differential", differential::run) > 0);
    random_inputs(differential::run, 3000);
}

/// The dense layout's differential run on the same inputs (the shape byte means the same).
#[test]
fn dense_differential_corpus() {
    assert!(replay("differential", differential::run_dense) > 0);
    random_inputs(differential::run_dense, 3000);
}

/// The cluster layout's differential run on the same inputs (the shape byte means the same).
#[test]
fn cluster_differential_corpus() {
    assert!(replay("differential", differential::run_cluster) > 0);
    random_inputs(differential::run_cluster, 3000);
}

#[test]
fn pack_round_trip_corpus() {
    assert!(replay("pack_round_trip", pack_round_trip::run) > 0);
    random_inputs(pack_round_trip::run, 3000);
}

#[test]
fn set_vs_hashset_corpus() {
    assert!(replay("set_vs_hashset", set_vs_hashset::run) > 0);
    random_inputs(set_vs_hashset::run, 3000);
}

#[test]
fn map_vs_hashmap_corpus() {
    assert!(replay("map_vs_hashmap", map_vs_hashmap::run) > 0);
    random_inputs(map_vs_hashmap::run, 3000);
}

#[test]
fn load_corpus() {
    assert!(replay("load", load::run) > 0);
    random_inputs(load::run, 3000);
}

/// The seeds `load::seeds` builds (valid tables of every kind, truncations, bit flips) pass
/// the target, and each is in the committed corpus, byte for byte: a change to the file format
/// shows here, and `cargo test -p searchcache-fuzz -- --ignored` rewrites them.
#[test]
fn load_seeds_pass_and_are_committed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/load");
    for (name, bytes) in load::seeds() {
        load::run(&bytes);
        let committed = std::fs::read(dir.join(&name)).unwrap_or_default();
        assert!(committed == bytes, "corpus/load/{name} is missing or stale");
    }
}

/// Writes `load::seeds` to `corpus/load/` (run when the format changes, then commit them).
#[test]
#[ignore]
fn write_load_seeds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/load");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in load::seeds() {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}
