//! Helpers of the tests that start processes of a distributed run: children with a deadline,
//! killed when their test ends, and hostfiles of free loopback ports.

use std::io::Read;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const EXIT_OK: i32 = 0;
pub const EXIT_COUNTEREXAMPLE: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_ERROR: i32 = 3;

/// The longest any child may run before its test fails (a hang is a failure, not a wait).
pub const DEADLINE: Duration = Duration::from_secs(120);

/// Children of one test, killed on drop (a failed assertion included).
pub struct Processes(pub Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The binary with `args`, stdin closed and both outputs piped.
pub fn modelcheck(args: &[&str]) -> Command {
    let mut command = super::modelcheck(args);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Waits for `child` until the deadline; returns its status, stdout and stderr.
pub fn finish(child: &mut Child, deadline: Instant) -> (i32, String, String) {
    let mut stdout = child.stdout.take().expect("piped");
    let stderr = child.stderr.take();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut stderr) = stderr {
            let _ = stderr.read_to_string(&mut s);
        }
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code().unwrap_or(-1);
        }
        assert!(
            Instant::now() < deadline,
            "a process did not end in time: a hang"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, out.join().unwrap(), err.join().unwrap())
}

pub fn run(args: &[&str]) -> (i32, String, String) {
    let mut processes = Processes(vec![modelcheck(args).spawn().expect("start")]);
    finish(&mut processes.0[0], Instant::now() + DEADLINE)
}

/// A hostfile of `n` free loopback ports, removed on drop.
pub struct Hostfile {
    pub path: PathBuf,
    pub addresses: Vec<String>,
}

impl Hostfile {
    pub fn new(name: &str, n: usize) -> Hostfile {
        let listeners: Vec<TcpListener> = (0..n)
            .map(|_| TcpListener::bind("127.0.0.1:0").expect("a free port"))
            .collect();
        let addresses: Vec<String> = listeners
            .iter()
            .map(|l| l.local_addr().unwrap().to_string())
            .collect();
        let path = std::env::temp_dir().join(format!(
            "modelcheck-test-{name}-{}-{}.txt",
            std::process::id(),
            addresses[0].replace([':', '.'], "_")
        ));
        std::fs::write(&path, addresses.join("\n") + "\n").expect("hostfile");
        Hostfile { path, addresses }
    }

    pub fn path(&self) -> &str {
        self.path.to_str().expect("UTF-8 path")
    }
}

impl Drop for Hostfile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Sends signal `name` (`INT`, `STOP`, ...) to `child`.
pub fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill");
    assert!(status.success());
}

/// `args` with process `process`'s `--processes N --process I --hostfile F` of `hosts`.
pub fn process_args(hosts: &Hostfile, process: usize, args: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    all.extend([
        "--processes".into(),
        hosts.addresses.len().to_string(),
        "--process".into(),
        process.to_string(),
        "--hostfile".into(),
        hosts.path().into(),
    ]);
    all
}

/// Starts every process of `hosts` with `args` and its `--processes N --process I --hostfile F`.
pub fn start_processes(hosts: &Hostfile, args: &[&str]) -> Processes {
    let mut processes = Processes(Vec::new());
    for process in 0..hosts.addresses.len() {
        let all = process_args(hosts, process, args);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        processes.0.push(modelcheck(&all).spawn().expect("start"));
    }
    processes
}
