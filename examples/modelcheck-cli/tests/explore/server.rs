//! The `modelcheck explore` binary as a child process on a free loopback port, killed when the
//! test drops it.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// The longest the server may take to start or to stop.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// A running explorer.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `modelcheck explore ARGS` and waits for its `explorer: http://ADDR/` line.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_modelcheck"))
            .arg("explore")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("modelcheck starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        let line = lines.recv_timeout(START_TIMEOUT);
        let addr = line.as_deref().ok().and_then(|l| {
            l.strip_prefix("explorer: http://")?
                .strip_suffix('/')?
                .parse()
                .ok()
        });
        match addr {
            Some(addr) => Server { child, addr },
            None => {
                let _ = child.kill();
                panic!("no `explorer: http://ADDR/` line: {line:?}");
            }
        }
    }

    /// The server's threads now, from `/proc/PID/status`.
    pub fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        let line = status.lines().find_map(|l| l.strip_prefix("Threads:"));
        line.and_then(|n| n.trim().parse().ok())
            .expect("a Threads line")
    }

    /// Sends SIGTERM and waits for the exit status.
    pub fn terminate(mut self) -> i32 {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().expect("exited, not killed");
            }
            assert!(Instant::now() < deadline, "the explorer ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
