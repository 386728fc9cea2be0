//! The peer watchdog: a process that stops responding without dying (SIGSTOP, a hang, a
//! machine that froze) ends the run with an error that names it, instead of a wait forever.
//!
//! A waiting worker (its part of a level expanded, or a control round sent) sends a heartbeat
//! through timely's control stream to the first worker of every other process every quarter
//! of the peer timeout (the binary's `--peer-timeout`); a working one sends successors and
//! timely's progress messages. So a
//! healthy peer's socket carries bytes at least every quarter timeout while this process
//! waits for it. When, while waiting, no byte has come from a peer process for the whole
//! timeout, the watchdog records it as the run's fault ([`Traffic::record`]) and the worker
//! stops with it named, as for a peer that died.
//!
//! What it does not tell apart: a peer whose one step takes longer than the timeout without
//! sending anything (256 states' successors, or writing its checkpoint part: the wait after a
//! checkpoint allows four times this process's own write time more) is reported as hung. The
//! timeout must exceed such pauses.

use super::wire::{Fault, Traffic};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The default `--peer-timeout`.
pub const DEFAULT_PEER_TIMEOUT: Duration = Duration::from_secs(60);

/// The watch of one worker over the other processes.
pub struct Watchdog<'a> {
    traffic: &'a Traffic,
    timeout: Duration,
    process: usize,
    processes: usize,
    started: Instant,
    last_beat: Cell<Instant>,
    last_check: Cell<Instant>,
    grace: Cell<Duration>,
}

/// How often a waiting worker looks at its peers' silence (a wait steps far more often).
const CHECK_EVERY: Duration = Duration::from_millis(50);

impl<'a> Watchdog<'a> {
    /// The watch of process `process` of `processes` over its peers, whose sockets `traffic`
    /// counts.
    pub fn new(traffic: &'a Traffic, timeout: Duration, process: usize, processes: usize) -> Self {
        let now = Instant::now();
        Watchdog {
            traffic,
            timeout,
            process,
            processes,
            started: now,
            last_beat: Cell::new(now),
            last_check: Cell::new(now),
            grace: Cell::new(Duration::ZERO),
        }
    }

    /// The other processes, whose first workers get the heartbeats, when one is due now (a
    /// quarter of the timeout after the last); empty otherwise.
    pub fn beat_due(&self) -> Vec<usize> {
        let interval = (self.timeout / 4).max(Duration::from_millis(50));
        if self.processes < 2 || self.last_beat.get().elapsed() < interval {
            return Vec::new();
        }
        self.last_beat.set(Instant::now());
        (0..self.processes).filter(|&p| p != self.process).collect()
    }

    /// Extra time the peers get on top of the timeout (while they write a checkpoint).
    pub fn set_grace(&self, grace: Duration) {
        self.grace.set(grace);
    }

    /// A peer process that has sent nothing for the timeout (and the grace), counted from the
    /// start for one never heard from; it is recorded as the traffic's fault. Looks at most
    /// every 50 ms (`None` in between).
    #[must_use]
    pub fn silent_peer(&self) -> Option<usize> {
        if self.processes < 2 || self.last_check.get().elapsed() < CHECK_EVERY {
            return None;
        }
        self.last_check.set(Instant::now());
        let limit = self.timeout + self.grace.get();
        let since_start = self.started.elapsed();
        for peer in (0..self.processes).filter(|&p| p != self.process) {
            let silent = self
                .traffic
                .silent_for(peer)
                .map_or(since_start, |s| s.min(since_start));
            if silent > limit {
                let timeout = self.timeout;
                self.traffic.record(peer, Fault::Silent { silent, timeout });
                return Some(peer);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sleeps until `at`.
    fn sleep_until(at: Instant) {
        std::thread::sleep(at.saturating_duration_since(Instant::now()));
    }

    /// A peer never heard from (no socket: silent since the start) is not reported while the
    /// timeout has passed but not the grace on top of it, and is reported once both have; it is
    /// recorded as the traffic's fault, named.
    #[test]
    fn the_grace_extends_the_timeout() {
        let traffic = Traffic::default();
        let (timeout, grace) = (Duration::from_millis(200), Duration::from_millis(1500));
        let started = Instant::now();
        let watch = Watchdog::new(&traffic, timeout, 0, 2);
        watch.set_grace(grace);
        sleep_until(started + timeout * 3);
        let early = watch.silent_peer();
        // Only a check that surely came before the limit can say it must be quiet (a loaded
        // machine may oversleep); the watchdog's clock started after `started`.
        if started.elapsed() < timeout + grace {
            assert_eq!(early, None);
            assert!(traffic.fault().is_none());
        }
        sleep_until(started + timeout + grace + Duration::from_millis(100));
        assert_eq!(watch.silent_peer().or(early), Some(1));
        let (peer, what) = traffic.fault().expect("recorded");
        assert_eq!(peer, 1);
        let Fault::Silent { silent, timeout: t } = what else {
            panic!("{what:?}")
        };
        assert_eq!(t, timeout);
        assert!(silent > timeout + grace, "{silent:?}");
    }

    /// Without a grace (and once it is set back to zero) the timeout alone decides.
    #[test]
    fn without_a_grace_the_timeout_decides() {
        let traffic = Traffic::default();
        let timeout = Duration::from_millis(200);
        let started = Instant::now();
        let watch = Watchdog::new(&traffic, timeout, 1, 3);
        watch.set_grace(Duration::from_secs(3600));
        watch.set_grace(Duration::ZERO);
        sleep_until(started + timeout * 2);
        // Process 0 is the first peer of process 1 found silent.
        assert_eq!(watch.silent_peer(), Some(0));
        assert_eq!(traffic.fault().map(|(peer, _)| peer), Some(0));
    }

    /// One process alone watches nobody.
    #[test]
    fn a_single_process_has_no_silent_peer() {
        let traffic = Traffic::default();
        let watch = Watchdog::new(&traffic, Duration::from_millis(1), 0, 1);
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(watch.silent_peer(), None);
        assert!(watch.beat_due().is_empty());
    }
}
