//! `--local N`: N processes of this binary on 127.0.0.1, one combined report.
//!
//! The launcher takes N free loopback ports, writes them to a hostfile in the temporary
//! directory, and starts N copies of itself with the same flags plus `--processes N --process I
//! --hostfile F`. Their stderr is forwarded line by line, prefixed with the process; every
//! process prints the same report, and the launcher prints process 0's. The children are killed
//! if the launcher stops early (its guard's drop), and none of them waits forever on another:
//! an unreachable, lost or silent peer ends each with an error. Once one process has ended with
//! an error, the others get [`SURVIVOR_GRACE`] to end by themselves (they see it go within
//! the library's lost-peer grace, 2 s); one still running then (a stopped process, or one still
//! connecting to the failed one) is killed and named.
//!
//! The children run in their own process group, so that a Ctrl-C in a terminal reaches the
//! launcher only, which passes one SIGTERM on: a second signal to a child would end it at once,
//! without its report.

use crate::exit::{EXIT_ERROR, EXIT_USAGE};
use crate::launcher_watch::LAUNCHER_PIPE_ENV;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the other processes may run on after one ended with an error.
pub const SURVIVOR_GRACE: Duration = Duration::from_secs(10);

/// The children, killed and reaped on drop unless they have been waited for.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            if let Ok(None) = child.try_wait() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// The hostfile, removed on drop.
struct Hostfile(PathBuf);

impl Drop for Hostfile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// `n` loopback addresses whose ports the OS handed out just now (then released for the
/// children to bind: another program could take one in between, and that run then fails with
/// "cannot listen", never a wrong result).
pub fn free_loopback_addresses(n: usize) -> std::io::Result<Vec<String>> {
    let listeners = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()?;
    listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.to_string()))
        .collect()
}

/// `argv` without its `--local N` (or `--local=N`).
fn without_local(argv: &[OsString]) -> Vec<OsString> {
    let mut rest = Vec::with_capacity(argv.len());
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        if arg == "--local" {
            it.next();
        } else if !arg.to_string_lossy().starts_with("--local=") {
            rest.push(arg.clone());
        }
    }
    rest
}

/// Starts `processes` copies of this binary with `argv` (the launcher's own arguments) and
/// prints process 0's report to `out`. Returns process 0's exit status when every process
/// agrees, else [`EXIT_ERROR`] (each process's errors are on stderr, prefixed).
///
/// `stop` (the launcher's SIGINT/SIGTERM flag) is passed on: once it is set, every child still
/// running gets SIGTERM (with `kill`), stops at its next level and prints its interrupted
/// report. (A Ctrl-C in a terminal reaches the children directly too: they share its process
/// group.)
pub fn launch(
    processes: usize,
    argv: &[OsString],
    stop: Option<&AtomicBool>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let fail = |err: &mut dyn Write, (status, message): (i32, String)| {
        let _ = writeln!(err, "error: --local: {message}");
        status
    };
    let hostfile = match write_hostfile(processes) {
        Ok(hostfile) => hostfile,
        Err(failure) => return fail(err, failure),
    };
    let mut running = match start(processes, argv, &hostfile) {
        Ok(running) => running,
        Err(failure) => return fail(err, failure),
    };
    let statuses = wait_all(&mut running.children, stop, err);
    let reports: Vec<Vec<u8>> = running
        .readers
        .into_iter()
        .map(|r| r.join().unwrap_or_default())
        .collect();
    for forwarder in running.forwarders {
        let _ = forwarder.join();
    }
    let _ = out.write_all(reports.first().map_or(&[][..], Vec::as_slice));
    let _ = out.flush();
    if statuses.iter().all(|&s| s == statuses[0]) {
        statuses[0]
    } else {
        let listed: Vec<String> = statuses
            .iter()
            .enumerate()
            .map(|(i, s)| format!("process {i}: {s}"))
            .collect();
        let message = format!(
            "the processes ended differently (exit status {})",
            listed.join(", ")
        );
        fail(err, (EXIT_ERROR, message))
    }
}

/// A failure of the launcher: its exit status and message.
type Failure = (i32, String);

/// A hostfile of `processes` free loopback ports in the temporary directory.
fn write_hostfile(processes: usize) -> Result<Hostfile, Failure> {
    let addresses = free_loopback_addresses(processes)
        .map_err(|e| (EXIT_ERROR, format!("no free loopback port: {e}")))?;
    let path = std::env::temp_dir().join(format!(
        "modelcheck-hosts-{}-{}.txt",
        std::process::id(),
        addresses[0].replace([':', '.'], "_")
    ));
    if let Err(e) = std::fs::write(&path, addresses.join("\n") + "\n") {
        return Err((EXIT_USAGE, format!("cannot write {}: {e}", path.display())));
    }
    Ok(Hostfile(path))
}

/// The children of a launch, with the threads that forward their stderr and read their stdout,
/// and the write ends of their stdin pipes: never written, they close when the launcher ends,
/// however it ends, and each child then stops (`launcher_watch`).
struct Running {
    children: Children,
    stdins: Vec<ChildStdin>,
    forwarders: Vec<JoinHandle<()>>,
    readers: Vec<JoinHandle<Vec<u8>>>,
}

/// Starts the `processes` children with `argv` less its `--local`, in their own process group.
fn start(processes: usize, argv: &[OsString], hostfile: &Hostfile) -> Result<Running, Failure> {
    let exe = std::env::current_exe()
        .map_err(|e| (EXIT_ERROR, format!("cannot find this program: {e}")))?;
    let rest = without_local(argv);
    let mut running = Running {
        children: Children(Vec::with_capacity(processes)),
        stdins: Vec::with_capacity(processes),
        forwarders: Vec::new(),
        readers: Vec::new(),
    };
    for process in 0..processes {
        let mut command = Command::new(&exe);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .args(&rest)
            .arg("--processes")
            .arg(processes.to_string())
            .arg("--process")
            .arg(process.to_string())
            .arg("--hostfile")
            .arg(&hostfile.0)
            .env(LAUNCHER_PIPE_ENV, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| (EXIT_ERROR, format!("cannot start process {process}: {e}")))?;
        running.stdins.extend(child.stdin.take());
        if let Some(stderr) = child.stderr.take() {
            running.forwarders.push(std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    eprintln!("[process {process}] {line}");
                }
            }));
        }
        if let Some(mut stdout) = child.stdout.take() {
            running.readers.push(std::thread::spawn(move || {
                let mut text = Vec::new();
                let _ = stdout.read_to_end(&mut text);
                text
            }));
        }
        running.children.0.push(child);
    }
    Ok(running)
}

/// Waits for every child; returns their exit statuses. One still running [`SURVIVOR_GRACE`]
/// after another failed is killed (and named on `err`); `stop`, once set, is passed on as one
/// SIGTERM to each child still running.
fn wait_all(children: &mut Children, stop: Option<&AtomicBool>, err: &mut dyn Write) -> Vec<i32> {
    let mut statuses: Vec<Option<i32>> = vec![None; children.0.len()];
    let mut forwarded = false;
    let mut failed: Option<(usize, Instant)> = None;
    while statuses.iter().any(Option::is_none) {
        for (i, (child, status)) in children.0.iter_mut().zip(&mut statuses).enumerate() {
            if status.is_none() {
                match child.try_wait() {
                    Ok(Some(s)) => *status = Some(s.code().unwrap_or(EXIT_ERROR)),
                    Ok(None) => {}
                    Err(_) => *status = Some(EXIT_ERROR),
                }
                if matches!(*status, Some(EXIT_ERROR | EXIT_USAGE)) && failed.is_none() {
                    failed = Some((i, Instant::now()));
                }
            }
        }
        if let Some((first, at)) = failed.filter(|(_, at)| at.elapsed() > SURVIVOR_GRACE) {
            for (i, (child, status)) in children.0.iter_mut().zip(&mut statuses).enumerate() {
                if status.is_none() {
                    let _ = child.kill();
                    let _ = child.wait();
                    *status = Some(EXIT_ERROR);
                    let _ = writeln!(
                        err,
                        "error: --local: process {i} was still running {:.0} s after process \
                         {first} failed (stopped or hung): killed",
                        at.elapsed().as_secs_f64()
                    );
                }
            }
        }
        if !forwarded && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            forwarded = true;
            let running: Vec<String> = children
                .0
                .iter()
                .zip(&statuses)
                .filter(|(_, s)| s.is_none())
                .map(|(c, _)| c.id().to_string())
                .collect();
            if !running.is_empty() {
                let _ = Command::new("kill").arg("-TERM").args(&running).status();
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    statuses
        .into_iter()
        .map(|s| s.unwrap_or(EXIT_ERROR))
        .collect()
}
