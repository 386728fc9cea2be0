//! The `modelcheck` binary: `cargo run --release -p modelcheck-cli -- 2pc 8 --threads 2`;
//! `--help` lists the flags and the models. See `examples/modelcheck/README.md`.

use modelcheck_cli::{run_until, EXIT_INTERRUPTED};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// SIGINT, SIGTERM and SIGHUP (a closed terminal) set the returned flag: the search stops at
/// its next safe point and the report is printed (a `--local` launcher passes the stop on and
/// removes its hostfile). A second signal, with the flag already set, exits at once.
fn stop_on_signals() -> std::io::Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        // The shutdown hook first: it acts only when an earlier signal set the flag.
        flag::register_conditional_shutdown(signal, EXIT_INTERRUPTED, Arc::clone(&stop))?;
        flag::register(signal, Arc::clone(&stop))?;
    }
    Ok(stop)
}

fn main() {
    let stop = match stop_on_signals() {
        Ok(stop) => Some(stop),
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "warning: no SIGINT/SIGTERM/SIGHUP handler ({e}): a signal ends the run without a report"
            );
            None
        }
    };
    let status = run_until(
        std::env::args_os().skip(1),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
        stop,
    );
    std::process::exit(status);
}
