//! A stand-in for `searchcache::VisitedMap` (the lead's, on main soon) with its signatures, over
//! a mutex-guarded `HashMap`: deleted when main's map lands.

use searchcache::{Inserted, Size, StateHash};
use std::collections::HashMap;
use std::sync::Mutex;

/// The stand-in's full-table error.
#[derive(Debug)]
pub(crate) struct Full {
    capacity: usize,
    states: usize,
}

impl Full {
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }
    pub(crate) fn load_factor(&self) -> f64 {
        self.states as f64 / self.capacity.max(1) as f64
    }
}

/// Signature and payload per state.
pub(crate) struct VisitedMap {
    words: Mutex<HashMap<(u64, u64), u32>>,
    capacity: usize,
    payload_bits: u32,
}

impl VisitedMap {
    pub(crate) fn new(size: Size, payload_bits: u32) -> Result<VisitedMap, String> {
        let Size::Bytes(bytes) = size else {
            return Err("stand-in: bytes only".into());
        };
        Ok(VisitedMap {
            words: Mutex::new(HashMap::new()),
            capacity: bytes / 8,
            payload_bits,
        })
    }
    fn mask(&self) -> u32 {
        if self.payload_bits == 32 {
            u32::MAX
        } else {
            (1 << self.payload_bits) - 1
        }
    }
    pub(crate) fn insert(&self, h: StateHash, payload: u32) -> Result<(Inserted, u32), Full> {
        let mut words = self.words.lock().unwrap();
        if let Some(&p) = words.get(&(h.index, h.signature)) {
            return Ok((Inserted::Present, p));
        }
        if words.len() >= self.capacity * 9 / 10 {
            return Err(Full {
                capacity: self.capacity,
                states: words.len(),
            });
        }
        words.insert((h.index, h.signature), payload & self.mask());
        Ok((Inserted::New, payload & self.mask()))
    }
    pub(crate) fn get(&self, h: StateHash) -> Option<u32> {
        self.words
            .lock()
            .unwrap()
            .get(&(h.index, h.signature))
            .copied()
    }
    pub(crate) fn fetch_update(
        &self,
        h: StateHash,
        mut f: impl FnMut(u32) -> Option<u32>,
    ) -> Option<Result<u32, u32>> {
        let mask = self.mask();
        let mut words = self.words.lock().unwrap();
        let slot = words.get_mut(&(h.index, h.signature))?;
        let previous = *slot;
        Some(match f(previous) {
            Some(new) => {
                *slot = new & mask;
                Ok(previous)
            }
            None => Err(previous),
        })
    }
    pub(crate) fn len(&self) -> usize {
        self.words.lock().unwrap().len()
    }
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }
    pub(crate) fn memory_bytes(&self) -> usize {
        self.capacity * 8
    }
    pub(crate) fn omission_probability(&self) -> f64 {
        let n = self.len() as f64;
        (n * n / 2f64.powi(64 - self.payload_bits as i32)).min(1.0)
    }
}
