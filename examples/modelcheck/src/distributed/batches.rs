//! The container builder of the successors' exchange: it cuts each destination's successors
//! into messages of [`BATCH`] records instead of timely's default of 8 KiB of records in memory
//! (`timely::container::buffer::BUFFER_SIZE_BYTES`: 204 successors of 40 bytes for 8-byte
//! states).
//!
//! Why: every message to another process is one more wake-up of timely's send thread (it
//! parks when its queue is empty), one more write and read on the socket and one more header;
//! a message of 4,096 successors (64 KiB on the wire for 8-byte states) costs those once per 4,096
//! instead of once per 204. A level's last, partial batch goes out when the level's epoch
//! closes ([`ContainerBuilder::finish`]), so the search waits for nothing longer.

use std::collections::VecDeque;
use timely::container::{ContainerBuilder, LengthPreservingContainerBuilder, PushInto};

/// Records per message of the successors' exchange.
pub const BATCH: usize = 4096;

/// Chunks pushed records into `Vec`s of [`BATCH`] records, in order (see the module
/// documentation); `finish` also yields the last, shorter one.
pub struct Batches<T> {
    /// The batch being filled.
    current: Vec<T>,
    /// Full batches not yet extracted, oldest first.
    full: VecDeque<Vec<T>>,
    /// The batch handed out last, whose allocation the next batch reuses once it is empty.
    out: Option<Vec<T>>,
}

impl<T> Default for Batches<T> {
    fn default() -> Self {
        Batches {
            current: Vec::new(),
            full: VecDeque::new(),
            out: None,
        }
    }
}

impl<T> PushInto<T> for Batches<T> {
    #[inline]
    fn push_into(&mut self, item: T) {
        if self.current.capacity() == 0 {
            // Reuse the allocation timely handed back (it cleared it, or took it and left an
            // empty `Vec`), else allocate a batch's worth once.
            self.current = self.out.take().unwrap_or_default();
            self.current.clear();
            self.current.reserve(BATCH);
        }
        self.current.push(item);
        if self.current.len() >= BATCH {
            self.full.push_back(std::mem::take(&mut self.current));
        }
    }
}

impl<T> ContainerBuilder for Batches<T> {
    type Container = Vec<T>;

    #[inline]
    fn extract(&mut self) -> Option<&mut Vec<T>> {
        self.out = Some(self.full.pop_front()?);
        self.out.as_mut()
    }

    #[inline]
    fn finish(&mut self) -> Option<&mut Vec<T>> {
        if !self.current.is_empty() {
            self.full.push_back(std::mem::take(&mut self.current));
        }
        self.extract()
    }
}

/// Every pushed record comes out exactly once, in one of the batches.
impl<T> LengthPreservingContainerBuilder for Batches<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drains everything the builder has ready (`extract`) or, with `finish`, everything.
    fn drain(builder: &mut Batches<u32>, finish: bool) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        loop {
            let next = if finish {
                builder.finish()
            } else {
                builder.extract()
            };
            let Some(batch) = next else { break };
            out.push(std::mem::take(batch));
        }
        out
    }

    #[test]
    fn batches_are_full_in_order_and_finish_yields_the_rest() {
        let mut builder = Batches::default();
        let n = 2 * BATCH as u32 + 5;
        for i in 0..n {
            builder.push_into(i);
        }
        let ready = drain(&mut builder, false);
        assert_eq!(ready.len(), 2);
        assert!(ready.iter().all(|b| b.len() == BATCH));
        let rest = drain(&mut builder, true);
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].len(), 5);
        let all: Vec<u32> = ready.into_iter().chain(rest).flatten().collect();
        assert_eq!(all, (0..n).collect::<Vec<_>>());
        assert!(drain(&mut builder, true).is_empty());
    }

    #[test]
    fn a_reused_allocation_starts_empty() {
        let mut builder = Batches::default();
        for i in 0..BATCH as u32 {
            builder.push_into(i);
        }
        // Leave the extracted batch's records in place: the builder must not resend them.
        assert_eq!(builder.extract().map(|b| b.len()), Some(BATCH));
        builder.push_into(7);
        assert_eq!(drain(&mut builder, true), vec![vec![7]]);
    }
}
