//! Sizes the bench cannot have and cell names it does not know are errors, not panics or
//! aborts: the hand-written tables' constructors (`pages::advised_vec`) and the `dense`
//! binary's `--mib`, `--cells` and `--count`.

use searchcache_bench::handwritten::Stockfish10;
use searchcache_bench::handwritten_dense::HandDense;
use std::process::Command;

#[test]
fn hand_written_tables_refuse_sizes_they_cannot_have() {
    // More bytes than a `Vec` may hold: refused before anything is allocated.
    let dense = HandDense::<u32>::new(usize::MAX, false).err().unwrap();
    let stockfish = Stockfish10::<u32>::new(usize::MAX, false).err().unwrap();
    for message in [dense, stockfish] {
        assert!(
            message.contains("exceeded the collection's maximum"),
            "{message}"
        );
    }
}

/// `dense` run with `args`: it fails with `expected` in its error, and panics nowhere.
fn dense_refuses(args: &[&str], expected: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_dense"))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn dense_refuses_bad_sizes_and_names() {
    dense_refuses(
        &["--mib", "99999999999999", "--cells", "hand"],
        "MiB overflows",
    );
    dense_refuses(&["--cells", "hand,nothing"], "no cell 'nothing'");
    dense_refuses(&["--count", "nothing"], "no cell 'nothing'");
}
