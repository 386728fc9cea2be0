//! A stop request is honoured while a process of a cluster connects to its peers: SIGINT to a
//! process whose peer never comes ends it with status 5 at once, not after `--connect-timeout`.

mod common;

use common::cluster::{finish, modelcheck, process_args, signal, Hostfile, Processes};
use modelcheck_cli::EXIT_INTERRUPTED;
use std::time::{Duration, Instant};

/// Process `process` of two (one that dials its peer, or one that waits for it to dial), its
/// peer never started, `--connect-timeout 120`: SIGINT after a second ends it within 20 s with
/// status 5, saying nothing was searched.
fn interrupted_while_connecting(process: usize) {
    let hosts = Hostfile::new(&format!("interrupt-connect-{process}"), 2);
    let args = process_args(&hosts, process, &["2pc", "3", "--connect-timeout", "120"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut processes = Processes(vec![modelcheck(&args).spawn().expect("start")]);
    std::thread::sleep(Duration::from_secs(1));
    signal(&processes.0[0], "INT");
    let sent = Instant::now();
    let (status, out, err) = finish(&mut processes.0[0], sent + Duration::from_secs(20));
    assert_eq!(status, EXIT_INTERRUPTED, "process {process}: {out}{err}");
    assert!(
        err.contains("interrupted while connecting to the peers"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
}

#[test]
fn a_dialling_process_is_interrupted_at_once() {
    interrupted_while_connecting(1);
}

#[test]
fn an_accepting_process_is_interrupted_at_once() {
    interrupted_while_connecting(0);
}
