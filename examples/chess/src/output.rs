//! Everything the engine prints goes through [`say`] (the [`say!`](crate::say) macro): one
//! line to stdout, flushed. When stdout is gone (the GUI closed its end of the pipe, or
//! `chess bench | head -1`) there is nobody left to answer, so the process ends quietly with
//! status 0 instead of panicking as `println!` does.

use std::io::Write;

/// Writes one line to stdout and flushes it; exits the process (status 0) if stdout is closed
/// or otherwise fails.
pub fn say(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).is_err() || out.write_all(b"\n").is_err() || out.flush().is_err() {
        std::process::exit(0);
    }
}

/// `say!("…", args)`: [`say`] with `format!` arguments.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::say(format_args!($($arg)*))
    };
}
