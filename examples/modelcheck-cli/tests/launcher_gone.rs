//! A `--local` launcher that dies leaves no orphans: SIGKILL to it (no handler runs) makes its
//! processes stop by themselves within seconds and remove the hostfile; SIGHUP (a closed
//! terminal) is handled as SIGTERM: the processes' interrupted report, exit 5, no hostfile.

mod common;

use common::cluster::{finish, modelcheck, signal, Processes};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The pids of the children of process `parent`, from /proc.
fn children_of(parent: u32) -> Vec<u32> {
    let mut children = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Some((_, ppid)) = state_and_parent(pid) {
            if ppid == parent {
                children.push(pid);
            }
        }
    }
    children
}

/// A process's state letter and parent pid from /proc/PID/stat (`None`: no such process).
fn state_and_parent(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
    let state = fields.next()?.chars().next()?;
    Some((state, fields.next()?.parse().ok()?))
}

/// Whether `pid` has exited (gone, or a zombie nobody reaped yet).
fn exited(pid: u32) -> bool {
    state_and_parent(pid).is_none_or(|(state, _)| state == 'Z' || state == 'X')
}

/// The `--hostfile` argument of process `pid`.
fn hostfile_of(pid: u32) -> PathBuf {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).expect("cmdline");
    let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
    let at = args
        .iter()
        .position(|a| *a == b"--hostfile")
        .expect("--hostfile");
    PathBuf::from(String::from_utf8_lossy(args[at + 1]).into_owned())
}

/// Workers started by a test, SIGKILLed on drop if still running (the test ends by itself).
struct Workers(Vec<u32>);

impl Drop for Workers {
    fn drop(&mut self) {
        for &pid in &self.0 {
            if !exited(pid) {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
        }
    }
}

/// Starts `2pc 9 --local 2` and waits for its first progress line; returns the launcher, its
/// two workers and their hostfile.
fn start_local() -> (Processes, Workers, PathBuf) {
    let mut launcher = modelcheck(&["2pc", "9", "--local", "2", "--memory", "128"]);
    std::os::unix::process::CommandExt::process_group(&mut launcher, 0);
    let mut processes = Processes(vec![launcher.spawn().expect("start")]);
    let stderr = processes.0[0].stderr.take().expect("piped");
    let mut lines = BufReader::new(stderr).lines();
    let first = lines.next().expect("a progress line").expect("UTF-8");
    assert!(first.contains("depth"), "{first}");
    std::thread::spawn(move || lines.map_while(Result::ok).count());
    let workers = Workers(children_of(processes.0[0].id()));
    assert_eq!(workers.0.len(), 2, "two workers");
    let hostfile = hostfile_of(workers.0[0]);
    assert!(hostfile.exists());
    (processes, workers, hostfile)
}

/// Waits up to 20 s for every worker to exit and the hostfile to go.
fn wait_for_cleanup(workers: &Workers, hostfile: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if workers.0.iter().all(|&pid| exited(pid)) && !hostfile.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let running: Vec<u32> = workers.0.iter().copied().filter(|&p| !exited(p)).collect();
    panic!(
        "20 s after the launcher went: workers still running {running:?}, hostfile left: {}",
        hostfile.exists()
    );
}

#[test]
fn a_killed_launcher_leaves_no_orphan_and_no_hostfile() {
    let (mut processes, workers, hostfile) = start_local();
    processes.0[0].kill().expect("SIGKILL");
    processes.0[0].wait().expect("reaped");
    wait_for_cleanup(&workers, &hostfile);
}

#[test]
fn a_hangup_stops_the_launcher_as_sigterm_does() {
    let (mut processes, workers, hostfile) = start_local();
    signal(&processes.0[0], "HUP");
    let (status, out, err) = finish(
        &mut processes.0[0],
        Instant::now() + Duration::from_secs(60),
    );
    assert_eq!(status, 5, "{out}{err}");
    assert!(
        out.contains("interrupted") && out.contains("cluster: 2 processes"),
        "{out}"
    );
    wait_for_cleanup(&workers, &hostfile);
}
