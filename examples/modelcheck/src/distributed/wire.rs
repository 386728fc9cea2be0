//! The sockets timely sends on, counted and watched: bytes each way per process, and the first
//! peer whose connection failed, so that a dead peer is reported by name instead of as timely's
//! internal panic.
//!
//! How a dead peer surfaces: timely's receive thread reads end-of-file (or a reset) and panics
//! with "timely communication error: ..."; the queues it fed are poisoned and the workers panic
//! at their next step. [`Counted`] sees the failed read or write first and records which peer it
//! was; [`quiet_timely_panics`] keeps those expected panics off stderr; the run then turns the
//! failed workers into [`ClusterError::Peer`](super::ClusterError::Peer).

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use timely::communication::allocator::zero_copy::stream::Stream;

/// What one process's sockets carried, and the first fault they saw.
#[derive(Default, Debug)]
pub struct Traffic {
    sent: AtomicU64,
    received: AtomicU64,
    fault: Mutex<Option<(usize, String)>>,
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

    /// The first peer whose connection failed or closed, and how. A clean close at the end of
    /// a run is recorded too: read this only once the run has failed.
    pub fn fault(&self) -> Option<(usize, String)> {
        self.fault.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn record(&self, peer: usize, what: String) {
        self.fault
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert((peer, what));
    }
}

/// A socket to one peer that counts its bytes into a [`Traffic`] and records its failures.
pub struct Counted {
    stream: TcpStream,
    peer: usize,
    traffic: Arc<Traffic>,
}

impl Counted {
    /// Wraps the connected `stream` to process `peer`.
    pub fn new(stream: TcpStream, peer: usize, traffic: Arc<Traffic>) -> Self {
        Counted {
            stream,
            peer,
            traffic,
        }
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.stream.read(buf) {
            Ok(0) if !buf.is_empty() => {
                self.traffic.record(
                    self.peer,
                    "closed its connection (exited or was killed)".into(),
                );
                Ok(0)
            }
            Ok(n) => {
                self.traffic.received.fetch_add(n as u64, Ordering::Relaxed);
                Ok(n)
            }
            Err(e) => {
                self.traffic
                    .record(self.peer, format!("broke its connection: {e}"));
                Err(e)
            }
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
            Err(e) => {
                self.traffic
                    .record(self.peer, format!("stopped accepting data: {e}"));
                Err(e)
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

impl Stream for Counted {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(Counted {
            stream: self.stream.try_clone()?,
            peer: self.peer,
            traffic: Arc::clone(&self.traffic),
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        self.stream.shutdown(how)
    }
}

/// Installs (once per process) a panic hook that drops the messages of the panics a dead peer
/// causes in timely's threads ("timely communication error", poisoned queues, the joins of the
/// threads that had them) and passes every other panic to the hook that was there before.
pub fn quiet_timely_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            let expected = [
                "timely communication error",
                "MergeQueue poisoned",
                "Send thread panic",
                "Recv thread panic",
            ];
            if !expected.iter().any(|e| message.starts_with(e)) {
                previous(info);
            }
        }));
    });
}
