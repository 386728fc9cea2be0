//! The actor models (Paxos, ABD) through the binary: their serde states make a checkpoint that
//! resumes to the whole count, and a `--local` run on 2 processes (states crossing sockets)
//! that counts what one process counts. Every child has a deadline (`common::cluster`).

mod common;

use common::{cluster, field, run};
use modelcheck_cli as cli;
use std::path::Path;

#[test]
fn a_checkpoint_of_paxos_resumes_to_the_whole_count() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("modelcheck-actors");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("paxos-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let p = path.to_str().unwrap();
    let first = [
        "paxos",
        "2",
        "--memory",
        "16",
        "--max-depth",
        "12",
        "--quiet",
    ];
    let (status, out, err) =
        run(&[&first[..], &["--checkpoint", p, "--checkpoint-every", "0"]].concat());
    assert_eq!(status, cli::EXIT_OK, "{out}{err}");
    assert_eq!(field(&out, "states"), 23_402, "{out}");
    let (status, out, err) = run(&["paxos", "2", "--quiet", "--resume", p]);
    assert_eq!(status, cli::EXIT_OK, "{out}{err}");
    assert_eq!(field(&out, "states"), 390_021, "{out}");
    assert_eq!(field(&out, "transitions"), 2_008_484, "{out}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn abd_on_two_local_processes_counts_what_one_counts() {
    for model in [["abd", "1"], ["abd", "2"], ["paxos", "1"]] {
        let (status, one, err) = run(&[&model[..], &["--quiet", "--exact"]].concat());
        assert_eq!(status, cli::EXIT_OK, "{one}{err}");
        let (status, two, err) = cluster::run(&[&model[..], &["--quiet", "--local", "2"]].concat());
        assert_eq!(status, cli::EXIT_OK, "{two}{err}");
        for key in ["states", "transitions"] {
            assert_eq!(field(&one, key), field(&two, key), "{model:?} {key}");
        }
    }
}
