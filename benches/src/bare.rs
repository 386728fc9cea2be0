//! The machine's limit: what the same loop costs with the table taken out.
//!
//! * Independent random reads: one 8-byte load from a random 64-byte line of a buffer the size of
//!   the table, results summed, so nothing orders the loads and the core overlaps as many misses
//!   as it can. This is the floor under any probe of a table that costs one line per lookup.
//! * The same, prefetched in batches: prefetch a batch's lines, then load them.
//! * The bare read of the key after the table's mixer ([`MixedRead`]): what mixing costs, the
//!   step between a bare read and a probe.
//! * Dependent pointer chasing: each load's value is the next address, so misses cannot overlap;
//!   this is the memory latency one probe would see alone.
//!
//! The buffer is an anonymous mapping, 2 MiB aligned, asked for huge pages or refused them, and
//! written once before timing so every page is backed.

use crate::contender::Contender;
use crate::rng::{below, WyRand};
use crate::run::{timed, Counts, Outcome};
use memmap2::{Advice, MmapMut};
use searchcache::{mix64, prefetch};
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

const HUGE_PAGE: usize = 2 << 20;
const WORDS_PER_LINE: usize = 8;
/// Lines visited by the pointer chase: enough (64 MiB of distinct lines at most) that the chain
/// never fits in cache for large buffers; smaller buffers chase through all their lines.
const CHASE_STOPS: usize = 1 << 20;
/// Loads per look at the stop flag.
const CHUNK: usize = 1024;

/// A buffer of random-access lines.
pub struct Buffer {
    map: MmapMut,
    offset: usize,
    lines: usize,
    /// A line on the pointer chain.
    chain_start: usize,
}

impl Buffer {
    /// A buffer of `bytes` (rounded down to lines, at least one), with or without transparent
    /// huge pages, every page written, and a pointer chain for [`Buffer::chase`] threaded
    /// through it.
    pub fn new(bytes: usize, huge_pages: bool) -> std::io::Result<Buffer> {
        let lines = (bytes / 64).max(1);
        let map = MmapMut::map_anon(lines * 64 + HUGE_PAGE)?;
        #[cfg(target_os = "linux")]
        map.advise(if huge_pages {
            Advice::HugePage
        } else {
            Advice::NoHugePage
        })?;
        #[cfg(not(target_os = "linux"))]
        let _ = (huge_pages, Advice::Normal);
        let start = map.as_ptr() as usize;
        let offset = start.next_multiple_of(HUGE_PAGE) - start;
        let mut buffer = Buffer {
            map,
            offset,
            lines,
            chain_start: 0,
        };
        buffer.words_mut().fill(1);
        buffer.chain_start = buffer.thread_chain();
        Ok(buffer)
    }

    fn words(&self) -> &[u64] {
        bytemuck::cast_slice(&self.map[self.offset..self.offset + self.lines * 64])
    }

    fn words_mut(&mut self) -> &mut [u64] {
        bytemuck::cast_slice_mut(&mut self.map[self.offset..self.offset + self.lines * 64])
    }

    /// Bytes.
    pub fn bytes(&self) -> usize {
        self.lines * 64
    }

    /// Links up to [`CHASE_STOPS`] lines, one per equal stretch of the buffer at a random place
    /// in it, into one cycle in random order (Sattolo's shuffle): a chase touches lines spread
    /// over the whole buffer, never in a pattern a prefetcher could follow. Returns a line on it.
    fn thread_chain(&mut self) -> usize {
        let stops = self.lines.min(CHASE_STOPS);
        let stretch = self.lines / stops;
        let mut rng = WyRand::new(0xc4a5e);
        let lines: Vec<usize> = (0..stops)
            .map(|j| j * stretch + below(rng.next_u64(), stretch as u64) as usize)
            .collect();
        let mut order: Vec<usize> = (0..stops).collect();
        for i in (1..stops).rev() {
            order.swap(i, below(rng.next_u64(), i as u64) as usize);
        }
        let words = self.words_mut();
        for i in 0..stops {
            let (from, to) = (lines[order[i]], lines[order[(i + 1) % stops]]);
            words[from * WORDS_PER_LINE] = to as u64;
        }
        lines[order[0]]
    }

    /// The tight loop: independent random reads on `threads` threads, nothing but a generator,
    /// an index and a load per iteration. Shows what the shared measurement loop of
    /// [`crate::run`] adds; the targets compare against [`Buffer`] driven by that loop instead.
    pub fn raw_reads(&self, threads: usize, duration: Duration) -> Outcome {
        let words = self.words();
        let lines = self.lines as u64;
        timed(threads, duration, |t, stop| {
            let mut rng = WyRand::new(0xbead + t as u64);
            let mut sum = 0u64;
            let mut ops = 0u64;
            while !stop.load(Relaxed) {
                for _ in 0..CHUNK {
                    let at = below(rng.next_u64(), lines) as usize * WORDS_PER_LINE;
                    sum = sum.wrapping_add(words[at]);
                }
                ops += CHUNK as u64;
            }
            std::hint::black_box(sum);
            Counts {
                ops,
                ..Counts::default()
            }
        })
    }

    /// Dependent loads along the chain, one thread: the latency of one miss.
    pub fn chase(&self, duration: Duration) -> Outcome {
        let words = self.words();
        let start = self.chain_start;
        timed(1, duration, |_, stop| {
            let mut at = start;
            let mut ops = 0u64;
            while !stop.load(Relaxed) {
                for _ in 0..CHUNK {
                    at = words[at * WORDS_PER_LINE] as usize;
                }
                ops += CHUNK as u64;
            }
            std::hint::black_box(at);
            Counts {
                ops,
                ..Counts::default()
            }
        })
    }
}

/// A bare read as a table operation: the key picks a line (by its high bits, as the table
/// picks a bucket) and one word of it is loaded and tested, so the same measurement loop that
/// drives the tables drives it, and the ratio isolates what a probe adds to one memory read.
impl Contender for Buffer {
    #[inline(always)]
    fn read(&self, key: u64) -> bool {
        self.words()[below(key, self.lines as u64) as usize * WORDS_PER_LINE] != 0
    }
    fn insert(&self, _key: u64, _value: u32) {}
    fn remove(&self, _key: u64) {}
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        prefetch(&self.words()[below(key, self.lines as u64) as usize * WORDS_PER_LINE]);
    }
    fn can_prefetch(&self) -> bool {
        true
    }
}

/// The bare read's key mixed first, with the table's own mixer (`searchcache::mix64`): splits
/// a probe's cost over a bare read into mixing and the bucket's work (see the `targets` runner).
pub struct MixedRead<'a>(pub &'a Buffer);

impl Contender for MixedRead<'_> {
    #[inline(always)]
    fn read(&self, key: u64) -> bool {
        self.0.read(mix64(key))
    }
    fn insert(&self, _key: u64, _value: u32) {}
    fn remove(&self, _key: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_is_one_cycle_through_every_stop() {
        for bytes in [64 * 7, 1 << 20, 3 << 20] {
            let b = Buffer::new(bytes, false).unwrap();
            let stops = b.lines.min(CHASE_STOPS);
            let mut at = b.chain_start;
            let first = at;
            let mut seen = std::collections::HashSet::new();
            for _ in 0..stops {
                assert!(seen.insert(at), "line {at} visited twice");
                at = b.words()[at * WORDS_PER_LINE] as usize;
            }
            assert_eq!(at, first, "the chain closes after {stops} stops");
        }
    }

    #[test]
    fn reads_count() {
        let b = Buffer::new(1 << 20, true).unwrap();
        let out = b.raw_reads(2, Duration::from_millis(10));
        assert!(out.ops > 0 && out.ops.is_multiple_of(CHUNK as u64));
        assert!(
            b.read(12345),
            "every word of the buffer is non-zero but the chain's"
        );
        assert!(b.chase(Duration::from_millis(10)).ops > 0);
    }
}
