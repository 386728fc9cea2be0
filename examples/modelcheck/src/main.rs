//! The `modelcheck` binary: `cargo run --release -p modelcheck -- 2pc 8 --threads 2`; `--help`
//! lists the flags and the models. See `examples/modelcheck/README.md`.

use modelcheck::cli;

fn main() {
    let args: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let Ok(args) = args else {
        eprintln!("error: arguments must be UTF-8\n\n{}", cli::usage());
        std::process::exit(cli::EXIT_USAGE);
    };
    let mut stdout = std::io::stdout().lock();
    let status = cli::run(&args, &mut stdout);
    drop(stdout);
    std::process::exit(status);
}
