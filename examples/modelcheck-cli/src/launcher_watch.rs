//! A `--local` process notices that its launcher is gone (killed with SIGKILL, or its terminal
//! closed) and stops, instead of searching on as an orphan.
//!
//! The launcher gives each process a pipe as its stdin and never writes to it; the process
//! knows it was started so from [`LAUNCHER_PIPE_ENV`]. A thread blocks reading the pipe; the
//! read ends (end of file) only when every copy of the launcher's end is closed, which the
//! kernel does when the launcher dies, however it dies. The thread then sets the run's stop
//! flag (the one SIGINT sets), removes the hostfile (the launcher cannot), and ends the process
//! with [`EXIT_ERROR`] and a message if it is still running [`LAUNCHER_GONE_GRACE`] later.
//! Safe Rust only: no `prctl(PR_SET_PDEATHSIG)`.

use crate::exit::EXIT_ERROR;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The environment variable the launcher sets (to `1`) on the processes it starts: their
/// stdin is its pipe. Internal to `--local`; not a user setting.
pub const LAUNCHER_PIPE_ENV: &str = "MODELCHECK_LAUNCHER_PIPE";

/// How long a process whose launcher is gone may take to stop at a safe point before it ends
/// itself.
pub const LAUNCHER_GONE_GRACE: Duration = Duration::from_secs(5);

/// Whether this process was started by a `--local` launcher (its stdin is the launcher's pipe).
pub fn started_by_launcher() -> bool {
    std::env::var_os(LAUNCHER_PIPE_ENV).is_some_and(|v| v == "1")
}

/// Starts the thread that waits for the launcher's pipe to close, then sets `stop`, removes
/// `hostfile` (a missing one is fine) and, after [`LAUNCHER_GONE_GRACE`], exits.
pub fn watch(stop: Arc<AtomicBool>, hostfile: Option<PathBuf>) {
    let spawned = std::thread::Builder::new()
        .name("launcher-watch".into())
        .spawn(move || {
            wait_for_end_of_file();
            stop.store(true, Ordering::Relaxed);
            if let Some(path) = hostfile {
                let _ = std::fs::remove_file(path);
            }
            std::thread::sleep(LAUNCHER_GONE_GRACE);
            let _ = writeln!(
                std::io::stderr(),
                "error: the --local launcher is gone and this process did not stop within {} s: \
                 ended",
                LAUNCHER_GONE_GRACE.as_secs()
            );
            std::process::exit(EXIT_ERROR);
        });
    if let Err(e) = spawned {
        let _ = writeln!(
            std::io::stderr(),
            "warning: cannot watch the --local launcher ({e}): this process runs on if it dies"
        );
    }
}

/// Reads stdin (never written to) until it ends or fails.
fn wait_for_end_of_file() {
    let mut stdin = std::io::stdin().lock();
    let mut buffer = [0u8; 64];
    loop {
        match stdin.read(&mut buffer) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}
