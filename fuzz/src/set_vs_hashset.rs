//! Set target: random insert / contains / clear sequences on a tiny `VisitedSet` (1-4 lines,
//! `u64` or `u32` signatures), until and past `Full`, against two models:
//!
//! * a `HashSet` of the states inserted: a state once inserted is `Present` and contained
//!   forever (until `clear`), `Full` comes only when every slot is taken (a walk covers the
//!   whole of a set of at most `WALK_LINES + 1` lines), and `len` counts the `New`s;
//! * a slot-level model written from the documentation, for exact agreement: a state's
//!   signature is its mixed signature hash (the low 32 bits for `u32`, a stand-in for 0); its
//!   walk scans the slots of its home line `⌊mix64(index) · lines / 2^64⌋` and of the lines
//!   after it, wrapping; an insert stops at its own signature (`Present`) or claims the first
//!   empty slot (`New`); `contains` stops at its signature (true) or an empty slot (false).
//!   So two states that share a signature are told apart only if their walks differ: the
//!   omission that hash compaction accepts.

use crate::input::Input;
use searchcache::consts::WALK_LINES;
use searchcache::{mix64, Inserted, Signature, Size, StateHash, VisitedSet};
use std::collections::HashSet;

/// Runs one input. The first byte picks the width and the number of lines.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let shape = input.u8();
    let lines = usize::from(shape % 4) + 1;
    if shape & 0x80 == 0 {
        run_with::<u64>(lines, input);
    } else {
        run_with::<u32>(lines, input);
    }
}

/// The slot-level model.
struct Slots<S> {
    slots: Vec<Option<S>>,
    lines: usize,
}

impl<S: Signature> Slots<S> {
    /// The signature and the walk (slot indices, in order) of `h`.
    fn walk(&self, h: StateHash) -> (S, impl Iterator<Item = usize>) {
        let home = ((u128::from(mix64(h.index)) * self.lines as u128) >> 64) as usize;
        let per_line = S::PER_LINE;
        let lines = self.lines;
        let walk = (0..lines.min(WALK_LINES + 1)).flat_map(move |j| {
            ((home + j) % lines) * per_line..((home + j) % lines + 1) * per_line
        });
        (S::from_mixed(mix64(h.signature)), walk)
    }

    fn insert(&mut self, h: StateHash) -> Option<Inserted> {
        let (signature, walk) = self.walk(h);
        for i in walk {
            match self.slots[i] {
                Some(s) if s == signature => return Some(Inserted::Present),
                Some(_) => {}
                None => {
                    self.slots[i] = Some(signature);
                    return Some(Inserted::New);
                }
            }
        }
        None
    }

    fn contains(&self, h: StateHash) -> bool {
        let (signature, walk) = self.walk(h);
        for i in walk {
            match self.slots[i] {
                Some(s) if s == signature => return true,
                Some(_) => {}
                None => return false,
            }
        }
        false
    }
}

fn run_with<S: Signature>(lines: usize, mut input: Input) {
    let mut set = VisitedSet::<S>::new(Size::Bytes(lines * 64)).expect("a tiny set");
    assert_eq!(set.capacity(), lines * S::PER_LINE);
    let mut model = Slots::<S> {
        slots: vec![None; set.capacity()],
        lines,
    };
    let mut inserted: HashSet<StateHash> = HashSet::new();
    while !input.is_empty() {
        let op = input.u8();
        let h = StateHash {
            index: input.key(),
            signature: input.key(),
        };
        match op % 8 {
            0..=4 => {
                let got = set.insert(h);
                assert_eq!(got.ok(), model.insert(h), "insert {h:?}");
                match got {
                    Ok(Inserted::New) => assert!(inserted.insert(h), "{h:?} New twice"),
                    Ok(Inserted::Present) => {}
                    Err(full) => {
                        assert!(!inserted.contains(&h), "Full for a state already in");
                        assert_eq!(full.states(), set.capacity(), "Full with free slots");
                        assert_eq!(full.capacity(), set.capacity());
                        assert!(full.to_string().contains("full"));
                    }
                }
            }
            5 | 6 => {
                let found = set.contains(h);
                assert_eq!(found, model.contains(h), "contains {h:?}");
                assert!(found || !inserted.contains(&h), "{h:?} inserted, not found");
            }
            _ => {
                set.clear();
                model.slots.iter_mut().for_each(|s| *s = None);
                inserted.clear();
            }
        }
        assert_eq!(set.len(), inserted.len());
        assert_eq!(set.is_empty(), inserted.is_empty());
        for &h in &inserted {
            assert!(set.contains(h), "{h:?} lost");
        }
    }
}
