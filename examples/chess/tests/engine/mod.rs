//! Drives the built `chess` binary over UCI, for the chess integration tests (cargo builds the
//! package's binary for its integration tests: `CARGO_BIN_EXE_chess`).

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single expected answer may take before the test fails (generous: CI shares
/// two cores between several jobs).
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_chess")
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line the engine printed so far.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine.
    pub fn start() -> Engine {
        Self::spawn(Command::new(binary()))
    }

    /// Starts the engine under an address-space limit (`ulimit -v`, KiB), so that large tables
    /// fail to allocate whatever the machine's memory and overcommit policy.
    #[cfg(unix)]
    pub fn start_with_address_limit(kib: u64) -> Engine {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(binary());
        Self::spawn(command)
    }

    fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the chess example");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to the engine");
        self.stdin.flush().expect("flush the engine's stdin");
    }

    /// Sends raw bytes (for garbage that is not UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to the engine");
        self.stdin.flush().expect("flush the engine's stdin");
    }

    /// Reads lines until one satisfies `done`; returns the lines read, that one included.
    /// Fails the test if the engine exits or stays silent for `ANSWER_TIMEOUT`.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut read = Vec::new();
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    let finished = done(&line);
                    read.push(line);
                    if finished {
                        return read;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no expected answer within {ANSWER_TIMEOUT:?}; read so far: {read:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine exited; read so far: {read:#?}")
                }
            }
        }
    }

    /// Sends `isready` and returns everything printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `go …` and returns the lines up to and including `bestmove`.
    pub fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.read_until(|l| l.starts_with("bestmove"))
    }

    /// Sends `quit` and waits for the process to exit; returns whether it exited cleanly.
    pub fn quit(mut self) -> bool {
        self.send("quit");
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value after `key` in an `info` line (`info depth 5 … score mate 3 …`).
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == key)?;
    words.next()
}

/// The `score` of an `info` line: ("cp"|"mate", value).
pub fn score(line: &str) -> Option<(&str, i32)> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|&w| w == "score")?;
    let kind = words.next()?;
    Some((kind, words.next()?.parse().ok()?))
}

/// Whether a line reports a completed iteration: `info depth … score …` with an exact score
/// (not a `currmove` line, not an aspiration window's `lowerbound`/`upperbound`).
pub fn is_iteration(line: &str) -> bool {
    line.starts_with("info depth")
        && line.contains(" score ")
        && !line.contains(" lowerbound")
        && !line.contains(" upperbound")
}

/// The last completed iteration's `info` line of a search.
pub fn last_info(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| is_iteration(l))
        .map(String::as_str)
        .unwrap_or_else(|| panic!("no info depth line in {lines:#?}"))
}

/// The move of a `bestmove` line.
pub fn best_move(lines: &[String]) -> &str {
    let last = lines.last().expect("lines end with bestmove");
    field(last, "bestmove").unwrap_or_else(|| panic!("malformed bestmove line: {last}"))
}
