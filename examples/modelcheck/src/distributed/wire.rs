//! The sockets timely sends on, counted and watched: bytes each way per process, and the first
//! peer whose connection failed, so that a dead peer is reported by name and nothing panics.
//!
//! Why the watch: timely's receive and send threads panic on a broken connection ("timely
//! communication error"), which poisons the workers' queues and, while the workers unwind
//! through timely's destructors, can abort the process. [`Counted`] stands between timely and
//! the socket instead: it follows timely's framing (a 48-byte header whose fifth big-endian
//! word is the payload length; a zero length ends the stream), so it tells a clean end from a
//! peer that vanished. On a failure it records the peer in [`Traffic`] and parks the timely
//! thread for good rather than return the error; the search sees [`Traffic::fault`], closes
//! every socket (the other peers then see this process go, uncleanly), drops its dataflow and
//! returns an error that names the peer. Those timely threads stay parked until the process
//! exits.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::stream::Stream;

/// How long a process that lost a peer keeps its own connections open before it leaves.
pub const LOST_PEER_GRACE: Duration = Duration::from_secs(2);

/// What went wrong with the connection to a peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The connection broke (closed without timely's end-of-stream header, reset, or refused a
    /// write): how.
    Lost(String),
    /// Nothing came for `silent`, longer than the peer timeout `timeout` (the watchdog).
    Silent {
        /// How long the peer had been silent.
        silent: Duration,
        /// The peer timeout.
        timeout: Duration,
    },
}

/// What one process's sockets carried, and the first fault they saw.
#[derive(Default, Debug)]
pub struct Traffic {
    sent: AtomicU64,
    received: AtomicU64,
    fault: Mutex<Option<(usize, Fault)>>,
    faulted: AtomicBool,
    sockets: Mutex<Vec<TcpStream>>,
    /// When bytes last came from each peer process (by index; `None`: not yet).
    heard: Mutex<Vec<Option<Instant>>>,
}

impl Traffic {
    /// Bytes written to every peer so far (timely's frames: headers and serialized records).
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Bytes read from every peer so far.
    pub fn received(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }

    /// The first peer whose connection failed (closed without timely's end-of-stream header,
    /// reset, or refused a write), and how.
    pub fn fault(&self) -> Option<(usize, Fault)> {
        if !self.faulted.load(Ordering::Acquire) {
            return None;
        }
        self.fault.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// How long ago bytes last came from process `peer` over its socket, if they ever did.
    pub fn silent_for(&self, peer: usize) -> Option<Duration> {
        let heard = self.heard.lock().unwrap_or_else(|e| e.into_inner());
        heard.get(peer).copied().flatten().map(|at| at.elapsed())
    }

    fn heard_from(&self, peer: usize) {
        let mut heard = self.heard.lock().unwrap_or_else(|e| e.into_inner());
        if heard.len() <= peer {
            heard.resize(peer + 1, None);
        }
        heard[peer] = Some(Instant::now());
    }

    /// Keeps a handle of a socket, for [`close_all`](Self::close_all).
    pub fn keep(&self, socket: TcpStream) {
        self.sockets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(socket);
    }

    /// Shuts every kept socket down both ways: the peers see this process go (their reads end
    /// without timely's end-of-stream header), and this process's timely threads stop.
    ///
    /// After a lost peer it first waits [`LOST_PEER_GRACE`]: the survivors were connected to
    /// the lost process too and see it go within that time, so each of them names the process
    /// that failed rather than this one, which only left because of it.
    pub fn close_all(&self) {
        if self.faulted.load(Ordering::Acquire) {
            std::thread::sleep(LOST_PEER_GRACE);
        }
        for socket in self
            .sockets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }

    /// Records a failure of the connection to `peer` (the first one recorded is kept).
    pub fn record(&self, peer: usize, what: Fault) {
        self.fault
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert((peer, what));
        self.faulted.store(true, Ordering::Release);
    }

    /// Records the failure, then parks the calling timely thread for good.
    fn fail(&self, peer: usize, what: String) -> ! {
        self.record(peer, Fault::Lost(what));
        loop {
            std::thread::park();
        }
    }
}

/// A socket to one peer that counts its bytes into a [`Traffic`] and records its failures.
pub struct Counted {
    stream: TcpStream,
    peer: usize,
    traffic: Arc<Traffic>,
    frames: Frames,
}

/// Where the bytes read so far stand in timely's framing.
struct Frames {
    /// The header being read.
    header: [u8; HEADER_BYTES],
    /// Bytes of `header` read.
    filled: usize,
    /// Payload bytes of the current frame still to come.
    payload: u64,
    /// The zero-length header that ends the stream was read.
    ended: bool,
}

/// Timely's `MessageHeader`: six big-endian `u64`s (channel, source, target lower and upper
/// bounds, payload length, sequence number).
const HEADER_BYTES: usize = 48;

impl Default for Frames {
    fn default() -> Self {
        Frames {
            header: [0; HEADER_BYTES],
            filled: 0,
            payload: 0,
            ended: false,
        }
    }
}

impl Frames {
    fn follow(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.ended {
            if self.payload > 0 {
                let skip = (self.payload.min(bytes.len() as u64)) as usize;
                self.payload -= skip as u64;
                bytes = &bytes[skip..];
                continue;
            }
            let take = (HEADER_BYTES - self.filled).min(bytes.len());
            self.header[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled == HEADER_BYTES {
                self.filled = 0;
                let mut length = [0u8; 8];
                length.copy_from_slice(&self.header[32..40]);
                self.payload = u64::from_be_bytes(length);
                self.ended = self.payload == 0;
            }
        }
    }
}

impl Counted {
    /// Wraps the connected `stream` to process `peer`.
    pub fn new(stream: TcpStream, peer: usize, traffic: Arc<Traffic>) -> Self {
        Counted {
            stream,
            peer,
            traffic,
            frames: Frames::default(),
        }
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.stream.read(buf) {
            Ok(0) if !buf.is_empty() && !self.frames.ended => self.traffic.fail(
                self.peer,
                "closed its connection mid-run (it exited or was killed)".into(),
            ),
            Ok(n) => {
                if n > 0 {
                    self.traffic.heard_from(self.peer);
                }
                self.frames.follow(&buf[..n]);
                self.traffic.received.fetch_add(n as u64, Ordering::Relaxed);
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => self
                .traffic
                .fail(self.peer, format!("broke its connection: {e}")),
        }
    }
}

impl Write for Counted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.stream.write(buf) {
            Ok(n) => {
                self.traffic.sent.fetch_add(n as u64, Ordering::Relaxed);
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => self
                .traffic
                .fail(self.peer, format!("stopped accepting data: {e}")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.stream.flush() {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => self
                .traffic
                .fail(self.peer, format!("stopped accepting data: {e}")),
            other => other,
        }
    }
}

impl Stream for Counted {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(Counted {
            stream: self.stream.try_clone()?,
            peer: self.peer,
            traffic: Arc::clone(&self.traffic),
            frames: Frames::default(),
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.stream.shutdown(how)
    }
}
