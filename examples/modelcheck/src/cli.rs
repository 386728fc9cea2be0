//! The command line: flags, the run, and the report printed after it.

use crate::bfs::{Options, Schedule, Verdict};
use crate::model::Model;
use crate::models::{with_model, WithModel, CATALOGUE};
use crate::visited::Mode;
use crate::{check, Report};
use std::io::Write;

/// Exit status: the search finished (or hit `--max-depth`) without finding an error.
pub const EXIT_OK: i32 = 0;
/// Exit status: a counterexample was found and printed.
pub const EXIT_COUNTEREXAMPLE: i32 = 1;
/// Exit status: bad command line.
pub const EXIT_USAGE: i32 = 2;
/// Exit status: the search could not finish (full table, trace error).
pub const EXIT_ERROR: i32 = 3;

/// A parsed command line.
#[derive(Clone, Debug)]
pub struct Args {
    /// The model's name.
    pub model: String,
    /// The model's size.
    pub size: usize,
    /// The search and storage settings.
    pub options: Options,
}

/// The usage text: flags, then every model.
pub fn usage() -> String {
    let mut text = String::from(
        "usage: modelcheck <model> [N] [flags]\n\n\
         Explicit-state model checker: parallel breadth-first search storing visited states as\n\
         hash-compacted signatures. Stops at the first invariant violation or deadlock and\n\
         prints a shortest trace.\n\n\
         flags:\n\
         \x20 --threads T        worker threads (default: all cores)\n\
         \x20 --memory MiB       visited storage size (default 256); a full table stops the\n\
         \x20                    search with the size it needs (exact mode: a cap)\n\
         \x20 --mode M           fp64: 64-bit fingerprints, 8 B/slot (default)\n\
         \x20                    fp32: 32-bit compacted signatures, 4 B/slot\n\
         \x20                    bitstate: SPIN supertrace, 3 bits/state, may miss states\n\
         \x20                    exact: full states in a hash set (no omission)\n\
         \x20 --exact            same as --mode exact\n\
         \x20 --max-depth D      do not expand states deeper than D\n\
         \x20 --no-deadlock      do not stop at states without successors\n\
         \x20 --schedule S       chunks (atomic cursor, default) or steal (rayon work-stealing)\n\
         \x20 --quiet            no progress lines\n\
         \x20 --help             this text\n\n\
         exit status: 0 no error found, 1 counterexample printed, 2 usage error, 3 could not finish\n\n\
         models (N defaults in brackets):\n",
    );
    for (name, default, about) in CATALOGUE {
        text.push_str(&format!("  {name} [{default}]\n"));
        for line in about.lines() {
            text.push_str(&format!("      {}\n", line.trim()));
        }
    }
    text
}

fn number(flag: &str, value: Option<&String>) -> Result<usize, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value
        .parse::<usize>()
        .map_err(|_| format!("{flag} takes a non-negative integer, got `{value}`"))
}

/// Parses the arguments after the program name. `Ok(None)`: `--help`.
pub fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut positional = Vec::new();
    let mut config = Options {
        progress: true,
        ..Options::default()
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--help" | "-h" => return Ok(None),
            "--threads" => {
                config.threads = number(arg, it.next())?;
                if config.threads == 0 || config.threads > 1024 {
                    return Err("--threads takes 1 to 1024".into());
                }
            }
            "--memory" => {
                let memory_mib = number(arg, it.next())?;
                if memory_mib == 0 {
                    return Err("--memory takes at least 1 (MiB)".into());
                }
                config.memory_bytes = memory_mib.saturating_mul(1 << 20);
            }
            "--max-depth" => config.max_depth = Some(number(arg, it.next())?),
            "--mode" => {
                let name = it.next().ok_or("--mode needs a value")?;
                config.mode = Mode::parse(name).ok_or_else(|| {
                    format!("--mode takes fp64, fp32, bitstate or exact, got `{name}`")
                })?;
            }
            "--exact" => config.mode = Mode::Exact,
            "--schedule" => {
                config.schedule = match it.next().map(String::as_str) {
                    Some("chunks") => Schedule::Chunks,
                    Some("steal") => Schedule::Steal,
                    other => {
                        return Err(format!(
                            "--schedule takes chunks or steal, got `{}`",
                            other.unwrap_or("")
                        ))
                    }
                }
            }
            "--quiet" => config.progress = false,
            "--no-deadlock" => config.deadlock = false,
            flag if flag.starts_with('-') => return Err(format!("unknown flag `{flag}`")),
            _ => positional.push(arg.clone()),
        }
    }
    let model = positional.first().ok_or("no model given")?.clone();
    let default = CATALOGUE
        .iter()
        .find(|(name, _, _)| *name == model)
        .map(|(_, n, _)| *n)
        .ok_or_else(|| format!("unknown model `{model}`"))?;
    let size = match positional.get(1) {
        Some(n) => n
            .parse()
            .map_err(|_| format!("the model size must be a number, got `{n}`"))?,
        None => default,
    };
    if positional.len() > 2 {
        return Err(format!("unexpected argument `{}`", positional[2]));
    }
    Ok(Some(Args {
        model,
        size,
        options: config,
    }))
}

/// Runs the command line `args` (without the program name), writing the report to `out` and
/// progress to stderr. Returns the exit status.
pub fn run(args: &[String], out: &mut dyn Write) -> i32 {
    let parsed = match parse(args) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => {
            let _ = write!(out, "{}", usage());
            return EXIT_OK;
        }
        Err(e) => {
            let _ = writeln!(out, "error: {e}\n\n{}", usage());
            return EXIT_USAGE;
        }
    };
    match with_model(&parsed.model, parsed.size, Run { args: &parsed, out }) {
        Ok(status) => status,
        Err(e) => {
            let _ = writeln!(out, "error: {e}\n\n{}", usage());
            EXIT_USAGE
        }
    }
}

struct Run<'a> {
    args: &'a Args,
    out: &'a mut dyn Write,
}

impl WithModel for Run<'_> {
    type Output = i32;

    fn visit<M: Model>(self, model: M) -> i32 {
        let Run { args, out } = self;
        match report(&model, args, out) {
            Ok(status) => status,
            Err(e) => {
                eprintln!("error: cannot write the report: {e}");
                EXIT_ERROR
            }
        }
    }
}

fn report<M: Model>(model: &M, args: &Args, out: &mut dyn Write) -> std::io::Result<i32> {
    let Report {
        stats,
        verdict,
        storage,
    } = check(model, &args.options);
    let Some(storage) = storage else {
        if let Verdict::Error(e) = &verdict {
            writeln!(out, "error: {e}")?;
        }
        return Ok(EXIT_ERROR);
    };
    let secs = stats.elapsed.as_secs_f64();
    let states = stats.states.max(1) as f64;
    let schedule = match args.options.schedule {
        Schedule::Chunks => "chunks",
        Schedule::Steal => "steal",
    };
    writeln!(out, "model: {}", model.name())?;
    writeln!(
        out,
        "mode: {}, {} threads, schedule {schedule}",
        storage.mode.name(),
        args.options.threads
    )?;
    let (status, result) = match &verdict {
        Verdict::Complete => (
            EXIT_OK,
            "no error: every reachable state visited".to_string(),
        ),
        Verdict::DepthLimit => (
            EXIT_OK,
            format!(
                "no error up to --max-depth {}",
                args.options.max_depth.unwrap_or(0)
            ),
        ),
        Verdict::Counterexample(trace) => (
            EXIT_COUNTEREXAMPLE,
            format!("{:?} after {} steps", trace.failure, trace.steps.len()),
        ),
        Verdict::Full(full) => (EXIT_ERROR, format!("error: {full}")),
        Verdict::Error(e) => (EXIT_ERROR, format!("error: {e}")),
    };
    writeln!(out, "result: {result}")?;
    writeln!(out, "states: {}", stats.states)?;
    writeln!(out, "transitions: {}", stats.transitions)?;
    writeln!(out, "depth: {}", stats.depth)?;
    writeln!(out, "time: {secs:.3} s")?;
    writeln!(out, "states/s: {:.0}", stats.states as f64 / secs.max(1e-9))?;
    writeln!(
        out,
        "visited storage: {} bytes, {:.2} bytes/state ({} bytes/slot)",
        storage.bytes,
        storage.bytes as f64 / states,
        storage.slot_bits as f64 / 8.0
    )?;
    writeln!(
        out,
        "trace log: {} bytes, {:.2} bytes/state",
        stats.trace_bytes,
        stats.trace_bytes as f64 / states
    )?;
    writeln!(
        out,
        "frontier peak: {} bytes (full states of two levels)",
        stats.frontier_peak_bytes
    )?;
    if storage.may_report_new_twice {
        writeln!(out, "racing duplicates dropped: {}", stats.duplicates)?;
    }
    if let Some(load) = storage.load_factor {
        writeln!(out, "load factor: {load:.3}")?;
    }
    let omission = storage.omission;
    writeln!(
        out,
        "omission bound: {:.3e} ({})",
        omission.value, omission.name
    )?;
    if let Some(tlc) = storage.tlc_optimistic {
        writeln!(out, "TLC-style optimistic estimate: {tlc:.3e}")?;
    }
    if let Verdict::Counterexample(trace) = &verdict {
        writeln!(out, "trace (replayed and checked):")?;
        writeln!(
            out,
            "  0: initial            {}",
            model.show(&trace.initial)
        )?;
        for (i, (action, state)) in trace.steps.iter().enumerate() {
            writeln!(
                out,
                "  {}: {:<18} {}",
                i + 1,
                action.to_string(),
                model.show(state)
            )?;
        }
    }
    Ok(status)
}
