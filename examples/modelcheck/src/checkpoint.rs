//! Checkpoints: a search saved at a BFS level boundary, and resumed from it.
//!
//! # File format (version 3)
//!
//! Integers are little-endian; the header and the progress are each a frame (their length,
//! then the value in postcard: serde, varint integers; see `frame.rs`), and so is the exact
//! mode's visited storage. Version 2 (bincode 1, fixed-width integers) is refused as an older
//! format.
//!
//! | part | what |
//! |---|---|
//! | magic | the 8 bytes `mcheckpt` |
//! | version | `u32`: [`FORMAT_VERSION`] |
//! | header | [`Header`]: checker version, model (name and size), mode, `--memory`, k, deadlock flag, depth, states, and for a distributed run's part its process, N, worker and workers ([`Part`]); then its CRC-32 |
//! | progress | the counters, the trace log of every level, the frontier (the full states of the deepest level); then their CRC-32 (a distributed part: its worker's own, [`crate::distributed::checkpoint`]) |
//! | visited | fp64, fp32, bitstate: the crate's own format ([`searchcache::persist`], versioned, checksummed); exact: the count and every state |
//! | trailer | the CRC-32 of every byte before it |
//!
//! The header is read and checked first (its own CRC, then the model, size, mode and options
//! against the run's), so a checkpoint of another model is a clear error before anything large
//! is read. A truncated or corrupted file, another format version or a file that is no
//! checkpoint is an [`CheckpointError::Unreadable`], never a panic and never a wrong search.
//!
//! # Writing
//!
//! Between two levels, with every worker idle, the file is written to `PATH.tmp`, flushed and
//! `fsync`ed, renamed over `PATH`, and the directory is `fsync`ed: a crash at any moment leaves
//! the previous checkpoint or the new one, whole.

use crate::bfs::{self, AtLevel, Boundary, Options, Outcome, Resume, Stats, Verdict};
use crate::check::{settle, Report, Saved};
use crate::frame::{self, FrameError};
use crate::model::Model;
use crate::reporter::{CheckpointWritten, Reporter, Warning};
use crate::trace::TraceLog;
use crate::visited::{Mode, Visited};
use searchcache::persist::{ChecksumReader, ChecksumWriter};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first bytes of every checkpoint.
const MAGIC: [u8; 8] = *b"mcheckpt";

/// The checkpoint format this build writes and reads.
pub const FORMAT_VERSION: u32 = 3;

/// The last format whose parts were bincode 1: refused as an older format.
const LAST_BINCODE_VERSION: u32 = 2;

/// The checker's version, in every header: a checkpoint resumes only in the same version.
pub const CHECKER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a checkpoint is of: compared with the run that resumes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The version of the checker that wrote it (this package's version).
    pub checker_version: String,
    /// [`Model::name`], which names the size too (`2pc(rms=8)`).
    pub model: String,
    /// [`Mode::name`].
    pub mode: String,
    /// [`Options::memory_bytes`].
    pub memory_bytes: u64,
    /// [`Options::hashes`].
    pub hashes: u32,
    /// [`Options::deadlock`].
    pub deadlock: bool,
    /// The deepest level saved.
    pub depth: u64,
    /// States of levels 0 to `depth`.
    pub states: u64,
    /// Which part of a distributed run this file is; `None` for a single-process run.
    pub part: Option<Part>,
    /// The hash the saved set's positions (and a distributed run's owners) come from:
    /// `state_hash_name` of `part` and the mode. A build with another hash must not resume it.
    pub state_hash: String,
}

/// The state hash a run places its states by: a distributed run's
/// [`searchcache::consts::PORTABLE_HASH`] (the same on every machine and build); for a single
/// process with a growing fp64 set ([`Options::grow`]), [`GROWING_HASH`]; for any other single
/// process, `StateHash::of` (ahash under the crate's fixed keys).
pub fn state_hash_name(part: Option<Part>, mode: Mode, grow: bool) -> String {
    match (part, mode) {
        (Some(_), _) => searchcache::consts::PORTABLE_HASH.into(),
        (None, Mode::Fp64) if grow => GROWING_HASH.into(),
        (None, _) => "ahash".into(),
    }
}

/// The state hash of a growing fp64 set: one 64-bit ahash per state under fixed seeds
/// (`growing.rs`).
pub const GROWING_HASH: &str = "ahash-64";

/// The part of a distributed run's checkpoint that one timely worker wrote: its process among
/// the run's, and the worker among the process's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// The process's index, 0 to `processes - 1`.
    pub process: u32,
    /// Processes in the run (N).
    pub processes: u32,
    /// The worker's index in its process, 0 to `workers - 1`.
    pub worker: u32,
    /// Timely workers per process.
    pub workers: u32,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "process {} of {}", self.process, self.processes)?;
        if self.workers > 1 {
            write!(f, ", worker {} of {}", self.worker, self.workers)?;
        }
        Ok(())
    }
}

impl Header {
    /// The header of a checkpoint of `model` checked with `options`, at `depth` after `states`
    /// states; `part` for a distributed run's part.
    pub fn new<M: Model>(
        model: &M,
        options: &Options,
        depth: u64,
        states: u64,
        part: Option<Part>,
    ) -> Header {
        Header {
            checker_version: CHECKER_VERSION.into(),
            model: model.name(),
            mode: options.mode.name().into(),
            memory_bytes: options.memory_bytes as u64,
            hashes: options.hashes,
            deadlock: options.deadlock,
            depth,
            states,
            part,
            state_hash: state_hash_name(part, options.mode, options.grow),
        }
    }

    /// The storage mode the header names.
    pub fn mode(&self) -> Option<Mode> {
        [Mode::Fp64, Mode::Fp32, Mode::Bitstate, Mode::Exact]
            .into_iter()
            .find(|m| m.name() == self.mode)
    }

    /// Why a run of `model` with `options` (as part `part` of a distributed run, or `None`)
    /// cannot resume this checkpoint, if it cannot.
    pub fn mismatch<M: Model>(
        &self,
        model: &M,
        options: &Options,
        part: Option<Part>,
    ) -> Option<Mismatch> {
        if self.part != part {
            return Some(match (self.part, part) {
                (Some(saved), None) => Mismatch::DistributedPart {
                    processes: saved.processes,
                    part: saved.to_string(),
                },
                (None, Some(_)) => Mismatch::SingleProcess,
                (saved, wanted) => Mismatch::Other(format!(
                    "it is the part of {}; this is {}",
                    saved.map_or_else(String::new, |p| p.to_string()),
                    wanted.map_or_else(String::new, |p| p.to_string())
                )),
            });
        }
        // The saved mode's hash, so that a run in another mode hears of the mode instead.
        let hash = state_hash_name(part, self.mode().unwrap_or(options.mode), options.grow);
        if self.state_hash != hash {
            let saved_grows = self.state_hash == GROWING_HASH;
            return Some(Mismatch::Other(match (saved_grows, hash == GROWING_HASH) {
                (true, false) => "its fp64 set grows (one 64-bit hash per state); this run asks \
                                  for a table of fixed size"
                    .into(),
                (false, true) if self.state_hash == "ahash" => "its fp64 set is a table of \
                                                                 fixed size; this run asks for \
                                                                 one that grows"
                    .into(),
                _ => format!(
                    "its states are placed by the {} hash; this build places them by {hash}",
                    self.state_hash
                ),
            }));
        }
        let name = model.name();
        if self.model != name {
            return Some(Mismatch::Other(format!(
                "it is of {}; this run checks {name}",
                self.model
            )));
        }
        self.options_mismatch(options)
    }

    /// Why `options` differ from those this checkpoint was made with, if they do.
    fn options_mismatch(&self, options: &Options) -> Option<Mismatch> {
        if self.mode != options.mode.name() {
            return Some(Mismatch::Mode {
                saved: self.mode.clone(),
                wanted: options.mode,
            });
        }
        if self.memory_bytes != options.memory_bytes as u64 {
            return Some(Mismatch::Memory {
                saved: self.memory_bytes,
                wanted: options.memory_bytes as u64,
            });
        }
        if options.mode == Mode::Bitstate && self.hashes != options.hashes {
            return Some(Mismatch::Hashes {
                saved: self.hashes,
                wanted: options.hashes,
            });
        }
        if self.deadlock != options.deadlock {
            return Some(Mismatch::Deadlock {
                saved: self.deadlock,
                wanted: options.deadlock,
            });
        }
        None
    }
}

/// Why a good checkpoint does not fit the run that would resume it, in numbers and names (no
/// command-line flag: a front end says which of its options to change).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// The file is one process's part of a distributed run of `processes` processes.
    DistributedPart {
        /// Processes in the run that wrote it.
        processes: u32,
        /// Which part it is, as [`Part`]'s `Display` writes it.
        part: String,
    },
    /// A single-process checkpoint, resumed as a part of a distributed run.
    SingleProcess,
    /// Another storage mode ([`Mode::name`] of the saved one).
    Mode {
        /// The checkpoint's mode.
        saved: String,
        /// This run's mode.
        wanted: Mode,
    },
    /// Another size of visited storage, in bytes.
    Memory {
        /// The checkpoint's.
        saved: u64,
        /// This run's.
        wanted: u64,
    },
    /// Another number of bitstate hash functions.
    Hashes {
        /// The checkpoint's.
        saved: u32,
        /// This run's.
        wanted: u32,
    },
    /// Deadlocks counted as errors (`true`) in one run and not in the other.
    Deadlock {
        /// The checkpoint's.
        saved: bool,
        /// This run's.
        wanted: bool,
    },
    /// A directory without this run's part, holding parts of another cluster shape.
    OtherShape {
        /// The part this run looked for, in words.
        missing: String,
        /// The parts the directory holds, in words.
        found: Vec<String>,
    },
    /// Another model or hash, another part, or parts of two checkpoints, in words.
    Other(String),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted = |deadlock: bool| if deadlock { "counted" } else { "did not count" };
        match self {
            Mismatch::DistributedPart { processes, part } => write!(
                f,
                "it is the part of {part} of a distributed run: resume it on {processes} processes"
            ),
            Mismatch::SingleProcess => {
                f.write_str("it is a single-process checkpoint: resume it on one process")
            }
            Mismatch::Mode { saved, wanted } => {
                write!(
                    f,
                    "it was made in mode {saved}; this run asks for mode {wanted}"
                )
            }
            Mismatch::Memory { saved, wanted } => write!(
                f,
                "it was made with {saved} bytes of visited storage; this run asks for {wanted}"
            ),
            Mismatch::Hashes { saved, wanted } => write!(
                f,
                "it was made with {saved} hash functions; this run asks for {wanted}"
            ),
            Mismatch::Deadlock { saved, wanted } => write!(
                f,
                "it {} deadlocks as errors; this run {} them",
                counted(*saved),
                counted(*wanted)
            ),
            Mismatch::OtherShape { missing, found } => {
                write!(f, "{missing}; it holds {}", found.join(", "))
            }
            Mismatch::Other(why) => f.write_str(why),
        }
    }
}

/// The counters a checkpoint keeps.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Counters {
    states: u64,
    transitions: u64,
    depth: u64,
    duplicates: u64,
    frontier_peak_bytes: u64,
    elapsed_nanos: u64,
}

/// The search's progress at a level boundary.
#[derive(Serialize)]
struct ProgressOut<'a, S> {
    counters: Counters,
    log: &'a TraceLog,
    frontier: &'a [S],
}

#[derive(Deserialize)]
struct ProgressIn<S> {
    counters: Counters,
    log: TraceLog,
    frontier: Vec<S>,
}

/// Why a checkpoint cannot be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// The file is a good checkpoint of another model, size, mode or options (a usage error):
    /// `context` says which file or directory, `why` what differs.
    Mismatch {
        /// What could not be resumed, e.g. `cannot resume from PATH`.
        context: String,
        /// What differs.
        why: Mismatch,
    },
    /// The file cannot be read as a checkpoint: missing, truncated, corrupted, another format
    /// or checker version, or no checkpoint at all.
    Unreadable(String),
    /// `--checkpoint PATH` cannot be written (a directory is refused before the search).
    Unwritable(String),
    /// The checkpoint to resume is no regular file (a directory, a FIFO, a device): a usage
    /// error, found before the path is opened, so a FIFO never blocks.
    NotAFile(String),
    /// The run asks for what a checkpoint does not record ([`Options::symmetry`]): refused
    /// before the search, a usage error.
    Unsupported(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Mismatch { context, why } => write!(f, "{context}: {why}"),
            CheckpointError::Unreadable(why)
            | CheckpointError::Unwritable(why)
            | CheckpointError::NotAFile(why)
            | CheckpointError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// Where and when to save checkpoints, and which one to resume.
#[derive(Clone, Debug, Default)]
pub struct Checkpoints {
    /// Save checkpoints here (`--checkpoint`).
    pub save_to: Option<PathBuf>,
    /// At the first level boundary at least this long after the start or the last checkpoint
    /// (`--checkpoint-every`; zero: at every level).
    pub every: Duration,
    /// Resume this checkpoint (`--resume`).
    pub resume_from: Option<PathBuf>,
}

/// The file a checkpoint is written to before it is renamed over `path`.
fn temporary(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Checks that `path` can be written (creating and removing its temporary file), so a bad
/// `--checkpoint` fails at the start rather than after the first level.
pub fn check_writable(path: &Path) -> Result<(), CheckpointError> {
    crate::regular_file::refuse_other_kinds(path)
        .map_err(|why| CheckpointError::Unwritable(format!("cannot write checkpoints to {why}")))?;
    let tmp = temporary(path);
    File::create(&tmp)
        .and_then(|_| std::fs::remove_file(&tmp))
        .map_err(|e| {
            CheckpointError::Unwritable(format!(
                "cannot write checkpoints to {}: {e}",
                path.display()
            ))
        })
}

/// Writes the checkpoint of `boundary` (and `visited`) to `path` atomically.
pub fn write<M: Model>(
    path: &Path,
    model: &M,
    options: &Options,
    boundary: &Boundary<'_, M::State>,
    visited: &Visited<M::State>,
) -> Result<(), String>
where
    M::State: Serialize + DeserializeOwned,
{
    let stats = boundary.stats;
    let progress = ProgressOut {
        counters: Counters {
            states: stats.states,
            transitions: stats.transitions,
            depth: stats.depth as u64,
            duplicates: stats.duplicates,
            frontier_peak_bytes: stats.frontier_peak_bytes as u64,
            elapsed_nanos: (stats.elapsed_before + stats.elapsed).as_nanos() as u64,
        },
        log: boundary.log,
        frontier: boundary.frontier,
    };
    let header = Header::new(model, options, stats.depth as u64, stats.states, None);
    write_temporary(path, &header, &progress, visited)?;
    commit(path)
}

/// Writes a checkpoint file (the header, `progress` as its progress part, `visited`) to
/// `PATH.tmp`, flushed and fsynced; [`commit`] then puts it in place. On an error the
/// temporary file is removed and `path` is untouched.
pub fn write_temporary<P, S>(
    path: &Path,
    header: &Header,
    progress: &P,
    visited: &Visited<S>,
) -> Result<(), String>
where
    P: Serialize,
    S: Clone + Eq + std::hash::Hash + Serialize + DeserializeOwned,
{
    let tmp = &temporary(path);
    // The file's parts, in order, flushed and fsynced.
    let write_parts = || -> Result<(), String> {
        let io = |e: io::Error| format!("cannot write {}: {e}", tmp.display());
        let file = File::create(tmp).map_err(io)?;
        let mut out = ChecksumWriter::new(BufWriter::with_capacity(1 << 20, file));
        out.write_all(&MAGIC).map_err(io)?;
        out.write_all(&FORMAT_VERSION.to_le_bytes()).map_err(io)?;
        write_part(&mut out, header).map_err(io)?;
        write_part(&mut out, progress).map_err(io)?;
        visited
            .save(&mut out)
            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        let buffered = out.finish().map_err(io)?;
        let file = buffered.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)
    };
    let written = write_parts();
    if written.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    written
}

/// Renames the file [`write_temporary`] wrote over `path` and fsyncs the directory: a crash
/// at any moment leaves the previous file or the new one, whole.
pub fn commit(path: &Path) -> Result<(), String> {
    let tmp = temporary(path);
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot rename {}: {e}", tmp.display()));
    }
    // The rename is durable once the directory is on disk too.
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Removes the file [`write_temporary`] wrote, when it is not to be committed.
pub fn discard(path: &Path) {
    let _ = std::fs::remove_file(temporary(path));
}

/// `value` as a frame (postcard), then its CRC-32.
fn write_part<T: Serialize>(out: &mut impl Write, value: &T) -> io::Result<()> {
    let mut part = ChecksumWriter::new(out);
    frame::write(&mut part, value)?;
    part.finish()?;
    Ok(())
}

/// A part that [`write_part`] wrote, its CRC-32 checked; `name` for the errors.
fn read_part<T: DeserializeOwned>(
    input: &mut impl Read,
    path: &Path,
    name: &str,
    limit: u64,
) -> Result<T, CheckpointError> {
    let mut part = ChecksumReader::new(input);
    let value = frame::read(&mut part, limit).map_err(|e| decode_error(path, name, e))?;
    part.finish()
        .map_err(|e| unreadable(path, format!("its {name}: {e}")))?;
    Ok(value)
}

/// Reads just the header of the checkpoint at `path` (checked against its CRC), to learn its
/// mode and options before the run is set up.
pub fn read_header(path: &Path) -> Result<Header, CheckpointError> {
    let (mut input, limit) = open(path)?;
    read_prefix(&mut input, path, limit)
}

type Input = ChecksumReader<BufReader<File>>;

/// A [`CheckpointError::Unreadable`] about the checkpoint at `path`.
pub fn unreadable(path: &Path, why: impl fmt::Display) -> CheckpointError {
    CheckpointError::Unreadable(format!("cannot resume from {}: {why}", path.display()))
}

/// A frame's errors, with a short input named as such.
fn decode_error(path: &Path, part: &str, e: FrameError) -> CheckpointError {
    match e {
        FrameError::Truncated => unreadable(path, format!("the file is truncated (in its {part})")),
        FrameError::Corrupted(e) => unreadable(path, format!("its {part} is corrupted ({e})")),
    }
}

fn open(path: &Path) -> Result<(Input, u64), CheckpointError> {
    crate::regular_file::refuse_other_kinds(path)
        .map_err(|why| CheckpointError::NotAFile(format!("cannot resume from {why}")))?;
    let file = File::open(path).map_err(|e| unreadable(path, e))?;
    let limit = file.metadata().map_err(|e| unreadable(path, e))?.len();
    Ok((
        ChecksumReader::new(BufReader::with_capacity(1 << 20, file)),
        limit,
    ))
}

/// The magic, the version and the header, each checked.
fn read_prefix(input: &mut Input, path: &Path, limit: u64) -> Result<Header, CheckpointError> {
    let mut magic = [0u8; 8];
    let mut version = [0u8; 4];
    input
        .read_exact(&mut magic)
        .and_then(|()| input.read_exact(&mut version))
        .map_err(|_| unreadable(path, "not a modelcheck checkpoint (too short)"))?;
    if magic != MAGIC {
        return Err(unreadable(path, "not a modelcheck checkpoint (bad magic)"));
    }
    let version = u32::from_le_bytes(version);
    if version <= LAST_BINCODE_VERSION {
        return Err(unreadable(
            path,
            format!(
                "checkpoint format version {version} is an older format (bincode, before \
                 modelcheck's checkpoints moved to postcard); this checker reads version \
                 {FORMAT_VERSION}: resume it with the modelcheck that wrote it, or start again"
            ),
        ));
    }
    if version != FORMAT_VERSION {
        return Err(unreadable(
            path,
            format!(
                "checkpoint format version {version}; this checker reads version {FORMAT_VERSION}"
            ),
        ));
    }
    let header: Header = read_part(input, path, "header", limit)?;
    if header.checker_version != CHECKER_VERSION {
        return Err(unreadable(
            path,
            format!(
                "written by modelcheck {}; this is modelcheck {CHECKER_VERSION}",
                header.checker_version
            ),
        ));
    }
    Ok(header)
}

/// A checkpoint read back: the storage and where the search resumes.
pub struct Loaded<S> {
    /// The visited storage as saved.
    pub visited: Visited<S>,
    /// The counters, trace log and frontier.
    pub resume: Resume<S>,
}

/// Reads a checkpoint file: its header, checked by `mismatch` (`Some(why)`: a
/// [`CheckpointError::Mismatch`]) before anything large is read, then its progress part as a
/// `P` and its visited storage (`mode`, `memory_bytes` and `hashes` as the run has them;
/// `growing`: a single process's fp64 set, see `Visited::load`), every part against its CRC and
/// the whole file against the trailer's.
pub fn read_file<P, S>(
    path: &Path,
    mismatch: impl FnOnce(&Header) -> Option<Mismatch>,
    mode: Mode,
    memory_bytes: (usize, bool),
    hashes: u32,
) -> Result<(Header, P, Visited<S>), CheckpointError>
where
    P: DeserializeOwned,
    S: Clone + Eq + std::hash::Hash + Serialize + DeserializeOwned,
{
    let (mut input, limit) = open(path)?;
    let header = read_prefix(&mut input, path, limit)?;
    if let Some(why) = mismatch(&header) {
        let context = format!("cannot resume from {}", path.display());
        return Err(CheckpointError::Mismatch { context, why });
    }
    let progress: P = read_part(&mut input, path, "progress", limit)?;
    let visited = Visited::load(mode, memory_bytes, hashes, &mut input, limit)
        .map_err(|e| unreadable(path, format!("its visited storage: {e}")))?;
    input
        .finish()
        .map_err(|e| unreadable(path, format!("the file: {e}")))?;
    Ok((header, progress, visited))
}

/// Reads the checkpoint at `path` for a run of `model` with `options`: every part checked,
/// the header against the run first.
pub fn read<M: Model>(
    path: &Path,
    model: &M,
    options: &Options,
) -> Result<Loaded<M::State>, CheckpointError>
where
    M::State: Serialize + DeserializeOwned,
{
    let (header, progress, visited): (Header, ProgressIn<M::State>, _) = read_file(
        path,
        |header| header.mismatch(model, options, None),
        options.mode,
        (options.memory_bytes, options.grow),
        options.hashes,
    )?;
    let ProgressIn {
        counters: c,
        log,
        frontier,
    } = progress;
    log.check_consistent(frontier.len())
        .map_err(|e| unreadable(path, e))?;
    // The storage holds exactly the states counted (bitstate: and the racing duplicates).
    let expected = c.states
        + if options.mode == Mode::Bitstate {
            c.duplicates
        } else {
            0
        };
    if visited.stored() != expected || log.levels() as u64 != c.depth + 1 || c.depth != header.depth
    {
        return Err(unreadable(
            path,
            format!(
                "its parts disagree: {} states stored, {} counted; {} levels logged, depth {}",
                visited.stored(),
                c.states,
                log.levels(),
                c.depth
            ),
        ));
    }
    Ok(Loaded {
        visited,
        resume: Resume {
            stats: Stats {
                states: c.states,
                transitions: c.transitions,
                depth: c.depth as usize,
                duplicates: c.duplicates,
                frontier_peak_bytes: c.frontier_peak_bytes as usize,
                elapsed: Duration::from_nanos(c.elapsed_nanos),
                ..Stats::default()
            },
            frontier,
            log,
        },
    })
}

/// [`crate::check`] with checkpoints: resumes `checkpoints.resume_from` if given (the
/// resumed run reports the same states, transitions, depth and shortest counterexamples as an
/// uninterrupted one), and saves to `checkpoints.save_to` at level boundaries. A checkpoint
/// that fails to write is reported in [`Report::checkpoints`] and to `options.reporter`; the
/// search goes on, and the previous checkpoint stays whole. With `save_to`, a stop request
/// ([`Options::stop`]) lets the level being expanded finish and saves its boundary whatever
/// `every` says, then the search returns [`Verdict::Interrupted`]: stopping loses no work.
///
/// Errors, before any search: a checkpoint of another model, size, mode or options
/// ([`CheckpointError::Mismatch`]), one that cannot be read, a `save_to` that cannot be
/// written, or [`Options::symmetry`] ([`CheckpointError::Unsupported`]).
///
/// `sometimes` properties: the states that satisfied them before the checkpoint are not
/// saved, so after a resumed run one not found is [`crate::SometimesVerdict::NotFound`], never
/// vacuous, and an example may not be a shortest one.
pub fn check_with_checkpoints<M: Model>(
    model: &M,
    options: &Options,
    checkpoints: &Checkpoints,
) -> Result<Report<M>, CheckpointError>
where
    M::State: Serialize + DeserializeOwned,
{
    if options.symmetry {
        return Err(CheckpointError::Unsupported(
            "checkpoints do not record symmetry reduction: save and resume runs without it".into(),
        ));
    }
    if let Some(path) = &checkpoints.save_to {
        check_writable(path)?;
    }
    let (visited, resume) = match &checkpoints.resume_from {
        Some(path) => {
            let Loaded { visited, resume } = read(path, model, options)?;
            (visited, Some(resume))
        }
        None => match Visited::for_run(
            options.mode,
            (options.memory_bytes, options.grow),
            options.hashes,
        ) {
            Ok(visited) => (visited, None),
            Err(e) => {
                return Ok(Report {
                    stats: Stats::default(),
                    verdict: Verdict::Error(e),
                    storage: None,
                    checkpoints: None,
                    sometimes: Vec::new(),
                })
            }
        },
    };
    let mut saved = Saved {
        path: checkpoints.save_to.clone(),
        ..Saved::default()
    };
    let mut last = Instant::now();
    let reporter: Option<&dyn Reporter> = options.reporter.as_deref();
    let mut at_level = |boundary: Boundary<'_, M::State>| {
        let Some(path) = &checkpoints.save_to else {
            return;
        };
        if !boundary.stopping && last.elapsed() < checkpoints.every {
            return;
        }
        let started = Instant::now();
        match write(path, model, options, &boundary, &visited) {
            Ok(()) => {
                saved.written += 1;
                saved.depth = Some(boundary.stats.depth);
                if let Some(r) = reporter {
                    r.checkpoint_written(&CheckpointWritten {
                        path,
                        depth: boundary.stats.depth,
                        states: boundary.stats.states,
                        took: started.elapsed(),
                        part: None,
                    });
                }
            }
            Err(e) => {
                if let Some(r) = reporter {
                    r.warning(&Warning::CheckpointNotWritten {
                        depth: boundary.stats.depth,
                        part: false,
                        error: &e,
                    });
                }
                saved.last_error = Some(e);
            }
        }
        last = Instant::now();
    };
    // Saving: a stop request finishes the level and saves it before the search returns.
    let hook: Option<&mut AtLevel<'_, M::State>> = match checkpoints.save_to {
        Some(_) => Some(&mut at_level),
        None => None,
    };
    let Outcome {
        stats,
        verdict,
        sometimes,
    } = bfs::search(model, &visited, options, resume, hook);
    let storage = visited.storage(stats.transitions);
    Ok(Report {
        stats,
        verdict,
        sometimes: settle(sometimes, storage.partial()),
        storage: Some(storage),
        checkpoints: checkpoints.save_to.is_some().then_some(saved),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::two_phase::TwoPhase;

    #[test]
    fn a_part_placed_by_another_hash_is_refused() {
        let model = TwoPhase::new(3).unwrap();
        let options = Options::default();
        let part = Some(Part {
            process: 0,
            processes: 2,
            worker: 0,
            workers: 1,
        });
        for part in [None, part] {
            let mut header = Header::new(&model, &options, 4, 100, part);
            assert_eq!(header.mismatch(&model, &options, part), None);
            header.state_hash = "siphash-2-4".into();
            let why = header.mismatch(&model, &options, part).expect("refused");
            assert!(why.to_string().contains("siphash-2-4"), "{why}");
        }
    }
}
