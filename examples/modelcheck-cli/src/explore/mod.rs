//! `modelcheck explore MODEL [N]`: a web page for stepping through a model's states, served by
//! axum on tokio. The library (`modelcheck`) knows nothing of HTTP; this module only needs its
//! [`Model`](modelcheck::Model) and [`check`](modelcheck::check).
//!
//! The files, each using only those listed before it: `path` (a state's path as the URL writes
//! it), `view` (the JSON answers); `check_view` (a check's report as JSON); `explorer` (a model
//! behind a trait object: walk a path, run the check once); `api` (the JSON handlers and their
//! errors); `server` (routes, the embedded `page.html` and `page.js`, the runtime); `args` (the
//! command line); this file.

mod api;
mod args;
mod check_view;
mod explorer;
mod path;
mod server;
mod view;

pub use api::WALKS_AT_ONCE;
pub use args::ExploreArgs;
pub use explorer::{Build, Explorer, ModelExplorer};
pub use path::{StatePath, MAX_PATH_LEN};
pub use server::MAX_BLOCKING_THREADS;
pub use view::{
    ActionView, CheckView, ErrorView, ModelView, PropertyHere, PropertyKind, StateView, TraceView,
};

use crate::exit::{EXIT_ERROR, EXIT_OK};
use clap::Parser;
use modelcheck::models::with_model;
use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Runs `modelcheck explore` with `args` (after the word `explore`): serves until `stop` is
/// set (never, if `None`) and returns 0, or prints a usage error (status 2) or an error
/// (status 3: the port is taken, the address is not this machine's) to `err`.
pub fn explore(
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
    stop: Option<Arc<AtomicBool>>,
) -> i32 {
    let argv = std::iter::once(OsString::from("modelcheck explore")).chain(args.iter().cloned());
    let cli = match ExploreArgs::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let status = e.exit_code();
            let _ = if status == 0 {
                write!(out, "{e}")
            } else {
                write!(err, "{e}")
            };
            return status;
        }
    };
    let build = Build {
        threads: cli
            .threads
            .unwrap_or(modelcheck::Options::default().threads),
        stop: stop.clone(),
    };
    let explorer = match with_model(&cli.model, cli.size(), build) {
        Ok(explorer) => explorer,
        Err(message) => {
            let _ = write!(err, "{}", usage_error(&message));
            return crate::exit::EXIT_USAGE;
        }
    };
    if !cli.ip().is_loopback() {
        let _ = writeln!(
            err,
            "warning: listening on {}: any machine that reaches it can browse the model and \
             run its check",
            cli.ip()
        );
    }
    match server::serve(explorer, SocketAddr::new(cli.ip(), cli.port), out, stop) {
        Ok(()) => EXIT_OK,
        Err(message) => {
            let _ = writeln!(err, "error: {message}");
            EXIT_ERROR
        }
    }
}

/// A usage error found after parsing (a size out of range), in clap's format.
fn usage_error(message: &str) -> String {
    use clap::CommandFactory;
    ExploreArgs::command()
        .error(clap::error::ErrorKind::ValueValidation, message)
        .to_string()
}
