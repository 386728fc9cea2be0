//! The `modelcheck` binary: `cargo run --release -p modelcheck -- 2pc 8 --threads 2`; `--help`
//! lists the flags and the models. See `examples/modelcheck/README.md`.

use modelcheck::cli;

fn main() {
    let status = cli::run(
        std::env::args_os().skip(1),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    );
    std::process::exit(status);
}
