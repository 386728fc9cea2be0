//! An explicit-state model checker whose visited states are searchcache's compacted signatures.
//!
//! `cargo run --release --example modelcheck -- 2pc 8 --threads 2` — `--help` lists the flags and
//! the models. See `examples/modelcheck/README.md`.

mod bfs;
mod cli;
mod model;
mod models;
mod trace;
mod visited;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut stdout = std::io::stdout().lock();
    let status = cli::run(&args, &mut stdout);
    drop(stdout);
    std::process::exit(status);
}
