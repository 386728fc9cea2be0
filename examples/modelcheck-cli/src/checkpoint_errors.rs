//! The library's checkpoint errors in the binary's words: a mismatch names the flag that
//! differs (`--mode`, `--memory`, `--hashes`, `--no-deadlock`, `--local`, `--workers`).

use crate::args::memory_flag;
use modelcheck::{CheckpointError, Mismatch};

/// `error` as the binary says it: a mismatch with the flag behind it; every other error is the
/// library's own text.
pub fn checkpoint_error_text(error: &CheckpointError) -> String {
    match error {
        CheckpointError::Mismatch { context, why } => format!("{context}: {}", mismatch_text(why)),
        other => other.to_string(),
    }
}

/// A mismatch, with the flag that sets what differs.
fn mismatch_text(why: &Mismatch) -> String {
    let with = |deadlock: bool| if deadlock { "without" } else { "with" };
    match why {
        Mismatch::DistributedPart { processes, part } => format!(
            "it is the part of {part} of a distributed run: resume it with --local {processes} \
             (or --processes {processes})"
        ),
        Mismatch::SingleProcess => "it is a single-process checkpoint: resume it without \
                                    --local, --processes or --workers"
            .into(),
        Mismatch::Mode { saved, wanted } => {
            format!("it was made in --mode {saved}; this run asks for --mode {wanted}")
        }
        Mismatch::Memory { saved, wanted } => format!(
            "it was made with --memory {}; this run asks for --memory {}",
            memory_flag(*saved as usize),
            memory_flag(*wanted as usize)
        ),
        Mismatch::Hashes { saved, wanted } => {
            format!("it was made with --hashes {saved}; this run asks for --hashes {wanted}")
        }
        Mismatch::Deadlock { saved, wanted } => format!(
            "it was made {} --no-deadlock; this run is {} it",
            with(*saved),
            with(*wanted)
        ),
        Mismatch::OtherShape { missing, found } => format!(
            "{missing}; it holds {}: resume with the N and --workers they name",
            found.join(", ")
        ),
        other => other.to_string(),
    }
}
