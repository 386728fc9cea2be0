//! Printing that survives a closed stdout: `matrix | head -3` ends the run quietly with status
//! 0 instead of panicking in `println!` ("failed printing to stdout: Broken pipe").

use std::fmt;
use std::io::{self, Write};

/// Writes one line to stdout; if stdout is closed (or any write fails), the process exits
/// with status 0: whoever read the output has all it wanted.
pub fn print_line(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if writeln!(out, "{args}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// `println!` that ends the process quietly when stdout is closed (see [`print_line`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::stdout::print_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::stdout::print_line(format_args!($($arg)*))
    };
}
