//! Map target: random insert / get / fetch_or / fetch_update / clear / save-and-load sequences
//! on a tiny `VisitedMap` (1-4 lines, a payload of 1 to 32 bits), until and past `Full`,
//! against two models:
//!
//! * a `HashMap` from the states inserted to the payload each should hold: a state once
//!   inserted is found forever (until `clear`) with exactly the payload its updates made, and
//!   `len` counts the `New`s;
//! * a slot-level model written from the documentation, for exact agreement: a state's
//!   signature is the high `64 − p` bits of its mixed signature hash (a stand-in for 0); its
//!   walk scans the slots of its home line and the lines after it, wrapping; an insert stops
//!   at its own signature (`Present`, the payload held) or claims the first empty slot. So two
//!   states that share a signature and a walk are one state to the map: the omission that
//!   hash compaction accepts, which the `HashMap` check skips for such pairs.

use crate::input::Input;
use searchcache::consts::WALK_LINES;
use searchcache::{mix64, Inserted, Size, StateHash, VisitedMap};
use std::collections::HashMap;

/// The slot-level model: each slot empty or `(signature, payload)`.
struct Slots {
    slots: Vec<Option<(u64, u32)>>,
    lines: usize,
    bits: u32,
}

impl Slots {
    fn mask(&self) -> u32 {
        (u64::MAX >> (64 - self.bits)) as u32
    }

    /// The signature and the walk (slot indices, in order) of `h`.
    fn walk(&self, h: StateHash) -> (u64, impl Iterator<Item = usize>) {
        let home = ((u128::from(mix64(h.index)) * self.lines as u128) >> 64) as usize;
        let lines = self.lines;
        let walk = (0..lines.min(WALK_LINES + 1))
            .flat_map(move |j| ((home + j) % lines) * 8..((home + j) % lines + 1) * 8);
        let signature = match mix64(h.signature) >> self.bits {
            0 => 0x9e37_79b9_7f4a_7c15 >> self.bits,
            s => s,
        };
        (signature, walk)
    }

    /// The slot holding `h`, or the empty slot its insert would take (`false`), or `None`.
    fn slot(&self, h: StateHash) -> Option<(usize, bool)> {
        let (signature, walk) = self.walk(h);
        for i in walk {
            match self.slots[i] {
                Some((s, _)) if s == signature => return Some((i, true)),
                Some(_) => {}
                None => return Some((i, false)),
            }
        }
        None
    }

    fn insert(&mut self, h: StateHash, payload: u32) -> Option<(Inserted, u32)> {
        let (signature, _) = self.walk(h);
        let payload = payload & self.mask();
        match self.slot(h)? {
            (i, true) => Some((Inserted::Present, self.slots[i]?.1)),
            (i, false) => {
                self.slots[i] = Some((signature, payload));
                Some((Inserted::New, payload))
            }
        }
    }

    fn payload(&mut self, h: StateHash) -> Option<&mut u32> {
        match self.slot(h)? {
            (i, true) => self.slots[i].as_mut().map(|(_, p)| p),
            (_, false) => None,
        }
    }
}

/// The update `fetch_update` applies: declines odd payloads, else adds 3 (wrapping in the mask).
fn step(payload: u32) -> Option<u32> {
    payload.is_multiple_of(2).then(|| payload.wrapping_add(3))
}

/// Runs one input. The first byte picks the number of lines, the second the payload width.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let lines = usize::from(input.u8() % 4) + 1;
    let bits = u32::from(input.u8()) % 32 + 1;
    let mut map = VisitedMap::new(Size::Bytes(lines * 64), bits).expect("a tiny map");
    assert_eq!(map.capacity(), lines * 8);
    let mut model = Slots {
        slots: vec![None; map.capacity()],
        lines,
        bits,
    };
    let mut inserted: HashMap<StateHash, u32> = HashMap::new();
    while !input.is_empty() {
        let op = input.u8();
        let h = StateHash {
            index: input.key(),
            signature: input.key(),
        };
        let value = input.u32();
        operate(&mut map, &mut model, &mut inserted, op, h, value);
        assert_eq!(map.len(), model.slots.iter().flatten().count());
        for (&h, &payload) in &inserted {
            assert_eq!(map.get(h), Some(payload), "{h:?} lost or changed");
        }
    }
}

/// One operation on the map and both models.
fn operate(
    map: &mut VisitedMap,
    model: &mut Slots,
    inserted: &mut HashMap<StateHash, u32>,
    op: u8,
    h: StateHash,
    value: u32,
) {
    let mask = map.payload_mask();
    match op % 10 {
        0..=3 => {
            let got = map.insert(h, value);
            assert_eq!(got.ok(), model.insert(h, value), "insert {h:?}");
            match got {
                Ok((Inserted::New, payload)) => {
                    assert_eq!(payload, value & mask);
                    assert!(inserted.insert(h, payload).is_none(), "{h:?} New twice");
                }
                Ok((Inserted::Present, _)) => {}
                Err(full) => {
                    assert!(!inserted.contains_key(&h), "Full for a state already in");
                    assert_eq!(full.states(), map.capacity(), "Full with free slots");
                }
            }
        }
        4 => assert_eq!(map.get(h), model.payload(h).copied(), "get {h:?}"),
        5 | 6 => {
            let before = map.fetch_or(h, value);
            let expected = model.payload(h).map(|p| {
                let old = *p;
                *p |= value & mask;
                old
            });
            assert_eq!(before, expected, "fetch_or {h:?}");
        }
        7 => {
            let result = map.fetch_update(h, step);
            let expected = model.payload(h).map(|p| match step(*p) {
                Some(next) => {
                    let old = *p;
                    *p = next & mask;
                    Ok(old)
                }
                None => Err(*p),
            });
            assert_eq!(result, expected, "fetch_update {h:?}");
        }
        8 => {
            let mut bytes = Vec::new();
            map.save(&mut bytes).expect("saving to a Vec");
            *map = VisitedMap::load(&bytes[..]).expect("loading what was saved");
        }
        _ => {
            map.clear();
            model.slots.iter_mut().for_each(|s| *s = None);
            inserted.clear();
        }
    }
    // Updates through an aliasing state (same signature and walk) change what a state holds:
    // the model above agrees slot for slot, and the HashMap follows the slots.
    for (&state, payload) in inserted.iter_mut() {
        if let Some(&mut p) = model.payload(state) {
            *payload = p;
        }
    }
}
