//! Who takes part in a distributed run: the processes' addresses (a hostfile), this process's
//! index, the workers per process, and the connection set-up that checks they all run the same
//! check before timely takes the sockets over.
//!
//! Why a set-up of our own: timely's `create_sockets` retries an unreachable peer forever and
//! prints its progress on stdout. This one has a deadline, names the peer it could not reach,
//! and exchanges one hello per connection (process count, index, workers, and a description of
//! the run) so that processes started with a different N, model, size or mode stop with a usage
//! error. The connected sockets then go to timely's own send and receive threads
//! (`initialize_networking_from_sockets`): every message of the search is timely's.

use super::misconfiguration::Misconfiguration;
use super::wire::Fault;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The most workers in a cluster (processes × workers per process): a trace link names its
/// parent's worker in 16 bits.
pub const MAX_WORKERS: usize = u16::MAX as usize;

/// The default time to reach every peer.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default slots of each worker's filter of successors sent ([`SentFilter`](crate::distributed::SentFilter)):
/// 2^16 slots, 1 MiB.
pub const DEFAULT_SENT_FILTER: usize = 1 << 16;

/// The processes of a run and this process's place among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of every process, in process order.
    pub addresses: Vec<String>,
    /// This process's index into `addresses`.
    pub process: usize,
    /// Timely workers (threads) per process; every process runs the same number.
    pub workers: usize,
    /// How long to wait for every peer to connect and say hello.
    pub connect_timeout: Duration,
    /// Slots of each worker's filter of the successors it placed (sent or inserted), rounded up to a power of two
    /// (0: no filter), at most [`MAX_SENT_FILTER_SLOTS`](crate::distributed::MAX_SENT_FILTER_SLOTS). It changes no result,
    /// only what is sent; the processes may differ in it.
    pub sent_filter: usize,
    /// How long a peer process may send nothing while this one waits for it, before the run
    /// stops with an error that names it (the watchdog).
    pub peer_timeout: Duration,
}

/// Why a distributed run stopped without a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterError {
    /// The command line or hostfile is wrong, or the processes disagree on the run (N, model,
    /// size, mode, workers): a usage error.
    Usage(String),
    /// A peer could not be reached in time, or its connection broke mid-run.
    Peer {
        /// The peer's process index.
        process: usize,
        /// Its address.
        address: String,
        /// What happened.
        what: String,
    },
    /// The cluster is set up wrongly, or a peer disagrees on its shape (process count,
    /// workers, index): a usage error, in numbers.
    Misconfigured(Misconfiguration),
    /// A peer sent nothing for longer than `cluster.peer_timeout` while this process waited
    /// for it (stopped or hung); this process stopped.
    Silent {
        /// The peer's process index.
        process: usize,
        /// Its address.
        address: String,
        /// How long it had been silent.
        silent: Duration,
        /// The peer timeout it exceeded.
        timeout: Duration,
    },
    /// Something else failed (a socket this process could not open, a worker thread).
    Other(String),
    /// The stop flag was set while this process connected to its peers: nothing was searched.
    Interrupted,
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::Usage(message) | ClusterError::Other(message) => f.write_str(message),
            ClusterError::Peer {
                process,
                address,
                what,
            } => write!(f, "process {process} ({address}) {what}"),
            ClusterError::Misconfigured(why) => write!(f, "{why}"),
            ClusterError::Silent {
                process,
                address,
                silent,
                timeout,
            } => write!(
                f,
                "process {process} ({address}) sent nothing for {:.1} s (the peer timeout is {} \
                 s): it is stopped or hung; this process stopped",
                silent.as_secs_f64(),
                timeout.as_secs_f64()
            ),
            ClusterError::Interrupted => f.write_str("interrupted while connecting to the peers"),
        }
    }
}

impl std::error::Error for ClusterError {}

impl From<Misconfiguration> for ClusterError {
    fn from(why: Misconfiguration) -> ClusterError {
        ClusterError::Misconfigured(why)
    }
}

impl Cluster {
    /// Processes in the run.
    pub fn processes(&self) -> usize {
        self.addresses.len()
    }

    /// A cluster read from a hostfile: one `host:port` per line, in process order (blank lines
    /// and `#` comments skipped), exactly `processes` of them. Errors (usage): an unreadable
    /// file, a count other than `processes`, a line that is not `host:port`, a repeated
    /// address, `process` not below `processes`, no workers, more than [`MAX_WORKERS`].
    pub fn from_hostfile(
        path: &std::path::Path,
        processes: usize,
        process: usize,
        workers: usize,
    ) -> Result<Cluster, ClusterError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            ClusterError::Usage(format!("cannot read the hostfile {}: {e}", path.display()))
        })?;
        let addresses: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect();
        if addresses.len() != processes {
            return Err(Misconfiguration::HostfileCount {
                path: path.to_path_buf(),
                listed: addresses.len(),
                processes,
            }
            .into());
        }
        let cluster = Cluster {
            addresses,
            process,
            workers,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            sent_filter: DEFAULT_SENT_FILTER,
            peer_timeout: super::watchdog::DEFAULT_PEER_TIMEOUT,
        };
        cluster.validate()?;
        Ok(cluster)
    }

    /// Checks the fields: at least one process, `process` in range, every address `host:port`
    /// and distinct, 1 to [`MAX_WORKERS`] workers in all, a filter of at most
    /// [`MAX_SENT_FILTER_SLOTS`](crate::distributed::MAX_SENT_FILTER_SLOTS) slots.
    pub fn validate(&self) -> Result<(), ClusterError> {
        let usage = |m: String| Err(ClusterError::Usage(m));
        let processes = self.processes();
        if processes == 0 {
            return usage("a cluster needs at least one process".into());
        }
        if self.process >= processes {
            return Err(Misconfiguration::ProcessOutOfRange {
                process: self.process,
                processes,
            }
            .into());
        }
        if self.workers == 0 || processes.saturating_mul(self.workers) > MAX_WORKERS {
            return usage(format!(
                "{processes} processes × {} workers: the workers must number 1 to {MAX_WORKERS}",
                self.workers
            ));
        }
        for (i, address) in self.addresses.iter().enumerate() {
            let port = address.rsplit_once(':').map(|(_, p)| p.parse::<u16>());
            if !matches!(port, Some(Ok(_))) {
                return usage(format!(
                    "hostfile line {} is `{address}`, not host:port",
                    i + 1
                ));
            }
            if self.addresses[..i].contains(address) {
                return usage(format!("the address {address} is listed twice"));
            }
        }
        if self.sent_filter > crate::distributed::sent::MAX_SLOTS {
            return Err(Misconfiguration::SentFilterTooLarge {
                slots: self.sent_filter,
                max: crate::distributed::sent::MAX_SLOTS,
            }
            .into());
        }
        Ok(())
    }

    /// The error of a run this process stopped because of `fault` on its connection to
    /// `process`.
    pub(crate) fn stopped_by(&self, process: usize, fault: Fault) -> ClusterError {
        match fault {
            Fault::Lost(what) => self.peer_error(process, format!("{what}; this process stopped")),
            Fault::Silent { silent, timeout } => ClusterError::Silent {
                process,
                address: self.addresses[process].clone(),
                silent,
                timeout,
            },
        }
    }

    fn peer_error(&self, process: usize, what: String) -> ClusterError {
        ClusterError::Peer {
            process,
            address: self.addresses[process].clone(),
            what,
        }
    }

    /// Connects to every other process (this one dials the lower indexes and accepts the
    /// higher ones, as timely does) and checks each one's hello against `run`. Returns one
    /// stream per process, `None` at this process's own index.
    ///
    /// Errors: a peer not connected within `connect_timeout` ([`ClusterError::Peer`]); a peer
    /// that disagrees on the process count, its index, the workers or `run` (usage); a local
    /// address this process cannot listen on.
    pub fn connect(&self, run: &str) -> Result<Vec<Option<TcpStream>>, ClusterError> {
        self.connect_until(run, None)
    }

    /// [`connect`](Self::connect), given up with [`ClusterError::Interrupted`] within about a
    /// second of `stop` becoming true while a peer is awaited (dialled or accepted), instead of
    /// waiting out `connect_timeout`. A hello exchange already begun is not cut short: it
    /// waits for its peer until the deadline.
    pub fn connect_until(
        &self,
        run: &str,
        stop: Option<&AtomicBool>,
    ) -> Result<Vec<Option<TcpStream>>, ClusterError> {
        self.validate()?;
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let deadline = Instant::now() + self.connect_timeout;
        let me = self.process;
        let hello = Hello {
            magic: MAGIC,
            processes: self.processes() as u32,
            process: me as u32,
            workers: self.workers as u32,
            run: run.to_string(),
        };
        let mut streams: Vec<Option<TcpStream>> = (0..self.processes()).map(|_| None).collect();
        let listener = if me + 1 < self.processes() {
            let listener = TcpListener::bind(&self.addresses[me]).map_err(|e| {
                ClusterError::Other(format!("cannot listen on {}: {e}", self.addresses[me]))
            })?;
            listener
                .set_nonblocking(true)
                .map_err(|e| ClusterError::Other(format!("listener: {e}")))?;
            Some(listener)
        } else {
            None
        };
        for (peer, slot) in streams.iter_mut().enumerate().take(me) {
            let mut stream = self.dial(peer, deadline, &stopped)?;
            let theirs = exchange_hello(&mut stream, &hello, deadline)
                .map_err(|e| self.peer_error(peer, format!("failed the handshake: {e}")))?;
            self.check_hello(&theirs, Some(peer), run)?;
            *slot = Some(stream);
        }
        if let Some(listener) = listener {
            self.accept_higher(&listener, &mut streams, &hello, run, deadline, &stopped)?;
        }
        for stream in streams.iter().flatten() {
            let ok = stream.set_read_timeout(None).and(stream.set_nodelay(true));
            ok.map_err(|e| ClusterError::Other(format!("socket: {e}")))?;
        }
        Ok(streams)
    }

    /// Accepts the processes above this one on `listener` until each has said a matching
    /// hello, the deadline passes or `stopped` says so.
    fn accept_higher(
        &self,
        listener: &TcpListener,
        streams: &mut [Option<TcpStream>],
        hello: &Hello,
        run: &str,
        deadline: Instant,
        stopped: &dyn Fn() -> bool,
    ) -> Result<(), ClusterError> {
        let me = self.process;
        while streams[me + 1..].iter().any(Option::is_none) {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    stream
                        .set_nonblocking(false)
                        .map_err(|e| ClusterError::Other(format!("socket: {e}")))?;
                    // A stranger's connection fails its hello and is dropped; the
                    // processes of the run keep being awaited.
                    let Ok(theirs) = exchange_hello(&mut stream, hello, deadline) else {
                        continue;
                    };
                    self.check_hello(&theirs, None, run)?;
                    let peer = theirs.process as usize;
                    if peer <= me || streams[peer].is_some() {
                        return Err(Misconfiguration::SameProcess { peer }.into());
                    }
                    streams[peer] = Some(stream);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if stopped() {
                        return Err(ClusterError::Interrupted);
                    }
                    if Instant::now() >= deadline {
                        let missing = (me + 1..self.processes())
                            .find(|&p| streams[p].is_none())
                            .unwrap_or(me);
                        return Err(self.peer_error(
                            missing,
                            format!(
                                "did not connect within {} s",
                                self.connect_timeout.as_secs_f64()
                            ),
                        ));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(ClusterError::Other(format!("accept: {e}"))),
            }
        }
        Ok(())
    }

    /// Dials `peer` until it answers, the deadline passes or `stopped` says so.
    fn dial(
        &self,
        peer: usize,
        deadline: Instant,
        stopped: &dyn Fn() -> bool,
    ) -> Result<TcpStream, ClusterError> {
        let address = &self.addresses[peer];
        let mut last = String::from("no address");
        loop {
            let targets: Vec<SocketAddr> = match address.to_socket_addrs() {
                Ok(t) => t.collect(),
                Err(e) => {
                    last = e.to_string();
                    Vec::new()
                }
            };
            for target in targets {
                // At most a second an attempt, so that a stop request is seen.
                let left = deadline.saturating_duration_since(Instant::now());
                let left = left.clamp(Duration::from_millis(1), Duration::from_secs(1));
                match TcpStream::connect_timeout(&target, left) {
                    Ok(stream) => return Ok(stream),
                    Err(e) => last = e.to_string(),
                }
            }
            if stopped() {
                return Err(ClusterError::Interrupted);
            }
            if Instant::now() >= deadline {
                return Err(self.peer_error(
                    peer,
                    format!(
                        "could not be reached within {} s ({last})",
                        self.connect_timeout.as_secs_f64()
                    ),
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether a peer's hello matches this process's (and, when dialled, the index dialled).
    fn check_hello(
        &self,
        theirs: &Hello,
        dialled: Option<usize>,
        run: &str,
    ) -> Result<(), ClusterError> {
        let peer = theirs.process as usize;
        let usage = |m: String| Err(ClusterError::Usage(m));
        if theirs.processes as usize != self.processes() {
            return Err(Misconfiguration::ProcessCount {
                peer,
                theirs: theirs.processes as usize,
                ours: self.processes(),
            }
            .into());
        }
        if let Some(dialled) = dialled {
            if peer != dialled {
                return usage(format!(
                    "{} answered as process {peer}, but the hostfile lists it as process \
                     {dialled}",
                    self.addresses[dialled]
                ));
            }
        }
        if theirs.workers as usize != self.workers {
            return Err(Misconfiguration::Workers {
                peer,
                theirs: theirs.workers as usize,
                ours: self.workers,
            }
            .into());
        }
        if theirs.run != run {
            return usage(format!(
                "process {peer} checks `{}`, this one `{run}`: every process needs the same \
                 model, size and flags",
                theirs.run
            ));
        }
        Ok(())
    }
}

/// The first 8 bytes of every hello: a stranger's connection (or another program) fails here.
const MAGIC: [u8; 8] = *b"mcdist01";

/// The longest hello accepted (a run description is a line).
const MAX_HELLO: u32 = 64 << 10;

/// What each side of a connection says first.
#[derive(Serialize, Deserialize, Debug)]
struct Hello {
    magic: [u8; 8],
    processes: u32,
    process: u32,
    workers: u32,
    run: String,
}

/// Writes our hello and reads theirs, both before `deadline`.
fn exchange_hello(
    stream: &mut TcpStream,
    ours: &Hello,
    deadline: Instant,
) -> Result<Hello, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    stream
        .set_read_timeout(Some(left.max(Duration::from_millis(10))))
        .map_err(|e| e.to_string())?;
    let bytes = bincode::serialize(ours).map_err(|e| e.to_string())?;
    stream
        .write_all(&(bytes.len() as u32).to_le_bytes())
        .and_then(|()| stream.write_all(&bytes))
        .map_err(|e| format!("cannot send the hello: {e}"))?;
    let mut length = [0u8; 4];
    stream
        .read_exact(&mut length)
        .map_err(|e| format!("no hello received: {e}"))?;
    let length = u32::from_le_bytes(length);
    if length > MAX_HELLO {
        return Err(format!(
            "a hello of {length} bytes: not a modelcheck process"
        ));
    }
    let mut bytes = vec![0u8; length as usize];
    stream
        .read_exact(&mut bytes)
        .map_err(|e| format!("a short hello: {e}"))?;
    let theirs: Hello =
        bincode::deserialize(&bytes).map_err(|e| format!("an unreadable hello: {e}"))?;
    if theirs.magic != MAGIC {
        return Err("not a modelcheck process (or another version)".into());
    }
    Ok(theirs)
}
