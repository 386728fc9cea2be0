//! Checkpoints of a distributed run: every timely worker saves its own part (its visited set,
//! its part of the frontier, its trace links, its counters) at the same BFS level boundary, one
//! file per worker in the `--checkpoint` directory, in the single-process checkpoint's format
//! ([`crate::checkpoint`]: the same header, CRCs and visited storage, with the part's process,
//! N, worker and workers in the header, [`Part`]).
//!
//! # Which level
//!
//! Every decision is taken from the level summaries that every worker broadcasts through
//! timely at the end of a level, so every worker takes the same one: a level is saved when a
//! summary says its process's `--checkpoint-every` has passed, when a summary says its process
//! was asked to stop (SIGINT, SIGTERM: with `--checkpoint`, a stop request lets the level being
//! expanded finish, so that it can be saved whole), or at `--max-depth`. Each worker writes
//! `FILE.tmp`; one more timely round tells every worker whether all of them succeeded; only
//! then is each renamed over its `FILE` (otherwise each removes its `.tmp` and the previous
//! checkpoint stays whole). A crash between two workers' renames can leave parts of two
//! levels: the resumed processes compare their parts' depth and states in their handshake and
//! refuse to start (a usage error naming both).
//!
//! # Files
//!
//! `DIR/process-I-of-N.mcheckpt` for process I of N with one worker each;
//! `DIR/process-I-of-N-worker-J-of-W.mcheckpt` with W workers per process.

use super::messages::Totals;
use super::owned::Links;
use crate::bfs::Options;
use crate::check::Saved;
use crate::checkpoint::{self, unreadable, CheckpointError, Header, Mismatch, Part};
use crate::model::Model;
use crate::reporter::{CheckpointWritten, PartWritten, Reporter, Warning};
use crate::visited::Visited;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The extension of every part's file.
pub const EXTENSION: &str = "mcheckpt";

/// Where and when a distributed run saves its parts, and which ones it resumes.
#[derive(Clone, Debug, Default)]
pub struct DistCheckpoints {
    /// Save every worker's part in this directory (`--checkpoint DIR`; created if missing).
    pub save_to: Option<PathBuf>,
    /// At the first level boundary at least this long after the start or the last checkpoint
    /// on any process (`--checkpoint-every`; zero: every level).
    pub every: Duration,
    /// Resume the parts in this directory (`--resume DIR`), one per worker of the same N and
    /// workers per process.
    pub resume_from: Option<PathBuf>,
}

/// The file name of `part`: `process-I-of-N.mcheckpt`, with `-worker-J-of-W` before the
/// extension when there are several workers per process.
pub fn file_name(part: Part) -> String {
    let mut name = format!("process-{}-of-{}", part.process, part.processes);
    if part.workers > 1 {
        name += &format!("-worker-{}-of-{}", part.worker, part.workers);
    }
    format!("{name}.{EXTENSION}")
}

/// The path of `part`'s file in `dir`.
pub fn part_path(dir: &Path, part: Part) -> PathBuf {
    dir.join(file_name(part))
}

/// The parts of `process` (every one of its `workers`) of a run of `processes`.
pub fn parts_of(process: usize, processes: usize, workers: usize) -> impl Iterator<Item = Part> {
    (0..workers).map(move |worker| Part {
        process: process as u32,
        processes: processes as u32,
        worker: worker as u32,
        workers: workers as u32,
    })
}

/// One worker's part of the search at a level boundary: what [`super::search`] needs to go on.
/// Saved after the level's summaries, so that its frontier is the level just completed; the
/// resumed worker replays that level's summary round from it.
#[derive(Serialize, Deserialize)]
#[serde(bound = "S: Serialize + DeserializeOwned")]
pub struct WorkerProgress<S> {
    /// The level saved (its states are `frontier`).
    pub level: u64,
    /// States of the whole run in levels 0 to `level - 1`.
    pub states_before: u64,
    /// Wall-clock time of the runs so far.
    pub elapsed_nanos: u64,
    /// This worker's totals, this level's states included.
    pub totals: Totals,
    /// The largest part of a level each process held, up to `level`.
    pub process_frontier: Vec<u64>,
    /// Successors for each worker this one dropped (for the looked-up figure at the end).
    pub dropped_for: Vec<u64>,
    /// This worker's trace links of levels 0 to `level`.
    pub log: Vec<Links>,
    /// This worker's part of level `level`, in the order of its links.
    pub frontier: Vec<S>,
}

/// Checks that `dir` can hold checkpoints (creating it), before the search starts.
pub fn check_save_dir(dir: &Path, part: Part) -> Result<(), CheckpointError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        CheckpointError::Unwritable(format!(
            "cannot write checkpoints to {}: {e}",
            dir.display()
        ))
    })?;
    checkpoint::check_writable(&part_path(dir, part))
}

/// The other runs' parts in `dir` (file names of this format, not of this run), for an error.
fn other_parts(dir: &Path, processes: usize, workers: usize) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let ours: Vec<String> = (0..processes)
        .flat_map(|p| parts_of(p, processes, workers))
        .map(file_name)
        .collect();
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("process-") && n.ends_with(&format!(".{EXTENSION}")))
        .filter(|n| !ours.contains(n))
        .collect();
    names.sort();
    names
}

/// Reads and checks the headers of the parts of `processes` (each of `processes` processes
/// when `None`) in `dir`: each one present, naming the part its file name names, and all of
/// one level. Returns the first one's header (mode and options for the run's defaults).
///
/// Errors: a missing part ([`CheckpointError::Mismatch`] when `dir` holds the parts of another
/// N or workers, which it names; else [`CheckpointError::Unreadable`]), a header that cannot be
/// read, parts of different levels or runs (a mismatch).
pub fn read_headers(
    dir: &Path,
    processes: usize,
    only: Option<usize>,
    workers: usize,
) -> Result<Header, CheckpointError> {
    let which: Vec<usize> = match only {
        Some(p) => vec![p],
        None => (0..processes).collect(),
    };
    let mut first: Option<(PathBuf, Header)> = None;
    for part in which
        .into_iter()
        .flat_map(|p| parts_of(p, processes, workers))
    {
        let path = part_path(dir, part);
        if !path.exists() {
            let others = other_parts(dir, processes, workers);
            let why = format!(
                "{} has no {} (the part of {part} of a run of {processes} processes x {workers} \
                 workers)",
                dir.display(),
                file_name(part)
            );
            return Err(if others.is_empty() {
                CheckpointError::Unreadable(format!("cannot resume: {why}"))
            } else {
                CheckpointError::Mismatch {
                    context: "cannot resume".into(),
                    why: Mismatch::OtherShape {
                        missing: why,
                        found: others,
                    },
                }
            });
        }
        let header = checkpoint::read_header(&path)?;
        if header.part != Some(part) {
            let saved = header
                .part
                .map_or("a single-process run".into(), |p| p.to_string());
            return Err(CheckpointError::Mismatch {
                context: format!("cannot resume from {}", path.display()),
                why: Mismatch::Other(format!("it is the part of {saved}, not of {part}")),
            });
        }
        match &first {
            None => first = Some((path, header)),
            Some((first_path, h)) => {
                let same_run = Header {
                    part: h.part,
                    ..header.clone()
                } == *h;
                if !same_run {
                    return Err(CheckpointError::Mismatch {
                        context: "cannot resume".into(),
                        why: Mismatch::Other(format!(
                            "{} (depth {}, {} states, {}) and {} (depth {}, {} \
                         states, {}) are parts of different checkpoints",
                            first_path.display(),
                            h.depth,
                            h.states,
                            h.model,
                            path.display(),
                            header.depth,
                            header.states,
                            header.model
                        )),
                    });
                }
            }
        }
    }
    first.map(|(_, header)| header).ok_or_else(|| {
        CheckpointError::Unreadable(format!("cannot resume from {}: no parts", dir.display()))
    })
}

/// A worker's part read back.
pub struct Resumed<S> {
    /// The level's header.
    pub header: Header,
    /// Where its search goes on.
    pub progress: WorkerProgress<S>,
    /// Its visited set.
    pub visited: Visited<S>,
}

/// Reads `part` from `dir` for a run of `model` with `options` (this process's, whose
/// `memory_bytes` its `workers` share): the header against the run first, then every part of
/// the file, then that they agree with each other.
pub fn read_part<M: Model>(
    dir: &Path,
    part: Part,
    model: &M,
    options: &Options,
    peers: usize,
) -> Result<Resumed<M::State>, CheckpointError>
where
    M::State: Serialize + DeserializeOwned,
{
    let path = part_path(dir, part);
    let memory = (options.memory_bytes / part.workers.max(1) as usize).max(1);
    let (header, progress, visited): (Header, WorkerProgress<M::State>, Visited<M::State>) =
        checkpoint::read_file(
            &path,
            |header| header.mismatch(model, options, Some(part)),
            options.mode,
            (memory, false),
            options.hashes,
        )?;
    let p = &progress;
    let frontier_links = p.log.last().map_or(0, |l| l.parent.len());
    let consistent = visited.stored() == p.totals.states
        && p.log.len() as u64 == p.level + 1
        && p.log.iter().all(Links::consistent)
        && frontier_links == p.frontier.len()
        && p.level == header.depth
        && p.process_frontier.len() == part.processes as usize
        && p.dropped_for.len() == peers
        && (p.states_before <= header.states);
    if !consistent {
        return Err(unreadable(
            &path,
            format!(
                "its parts disagree: {} states stored, {} counted; {} levels logged, level {}; \
                 {} frontier states, {} links",
                visited.stored(),
                p.totals.states,
                p.log.len(),
                p.level,
                p.frontier.len(),
                frontier_links
            ),
        ));
    }
    Ok(Resumed {
        header,
        progress,
        visited,
    })
}

/// Writes `progress` and `visited` as `part` to `dir`'s `FILE.tmp`, for [`checkpoint::commit`]
/// once every worker has written its own.
pub fn write_part<M: Model>(
    dir: &Path,
    part: Part,
    model: &M,
    options: &Options,
    states: u64,
    progress: &WorkerProgress<M::State>,
    visited: &Visited<M::State>,
) -> Result<(), String>
where
    M::State: Serialize + DeserializeOwned,
{
    let header = Header::new(model, options, progress.level, states, Some(part));
    checkpoint::write_temporary(&part_path(dir, part), &header, progress, visited)
}

/// Keeps this worker's part of `level` (renames it into place) when every worker wrote its
/// own (`all_written`), else removes it; counts it in `saved` and tells `reporter`.
/// `states`: the run's and this worker's.
#[allow(clippy::too_many_arguments)]
pub fn settle_part(
    dir: &Path,
    part: Part,
    level: usize,
    states: (u64, u64),
    written: Result<(), String>,
    all_written: bool,
    took: Duration,
    saved: &mut Saved,
    reporter: Option<&dyn Reporter>,
) {
    let path = part_path(dir, part);
    let committed = match written {
        Err(e) => Err(e),
        Ok(()) if !all_written => {
            checkpoint::discard(&path);
            Err("another worker's part could not be written (see its process's stderr)".into())
        }
        Ok(()) => checkpoint::commit(&path),
    };
    match committed {
        Ok(()) => {
            saved.written += 1;
            saved.depth = Some(level);
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            if let Some(r) = reporter {
                r.checkpoint_written(&CheckpointWritten {
                    path: &path,
                    depth: level,
                    states: states.0,
                    took,
                    part: Some(PartWritten {
                        states: states.1,
                        bytes,
                    }),
                });
            }
        }
        Err(e) => {
            if let Some(r) = reporter {
                r.warning(&Warning::CheckpointNotWritten {
                    depth: level,
                    part: true,
                    error: &e,
                });
            }
            saved.last_error = Some(e);
        }
    }
}
