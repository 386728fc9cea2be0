//! The binary's [`Reporter`]: the library's events as today's lines on stderr.

use modelcheck::{CheckpointWritten, Progress, Reporter, Warning};
use std::io::{self, Write};
use std::time::Duration;

/// Prints a line per level once the run has taken more than a second (unless `quiet`), and
/// every checkpoint written and every warning (even when `quiet`). A closed stderr does not
/// stop the search: the lines are a courtesy.
#[derive(Debug, Clone, Copy)]
pub struct StderrReporter {
    /// `--quiet`: no level lines.
    pub quiet: bool,
}

/// Writes `line` to stderr, ignoring a closed one.
fn notice(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "{line}");
}

impl Reporter for StderrReporter {
    fn level(&self, p: &Progress) {
        if self.quiet || p.elapsed <= Duration::from_secs(1) {
            return;
        }
        let secs = p.elapsed.as_secs_f64();
        notice(format_args!(
            "depth {:>3}: {:>12} new, {:>13} states, {secs:>7.1} s, {:>12.0} states/s",
            p.depth,
            p.new_states,
            p.states,
            p.states as f64 / secs
        ));
    }

    fn checkpoint_written(&self, w: &CheckpointWritten<'_>) {
        let (depth, states, path, secs) =
            (w.depth, w.states, w.path.display(), w.took.as_secs_f64());
        match w.part {
            None => notice(format_args!(
                "checkpoint: depth {depth} ({states} states) written to {path} in {secs:.2} s"
            )),
            Some(part) => notice(format_args!(
                "checkpoint: depth {depth} ({states} states; {} of this worker) written to {path} \
                 ({} bytes) in {secs:.2} s",
                part.states, part.bytes
            )),
        }
    }

    fn warning(&self, warning: &Warning<'_>) {
        match *warning {
            Warning::CheckpointNotWritten {
                part: false, error, ..
            } => notice(format_args!("warning: checkpoint not written: {error}")),
            Warning::CheckpointNotWritten { depth, error, .. } => notice(format_args!(
                "warning: checkpoint of depth {depth} not written: {error}"
            )),
            // A warning added to the library later: its own words.
            _ => notice(format_args!("warning: {warning:?}")),
        }
    }
}
