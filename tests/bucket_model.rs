//! `SearchCache`'s store and probe, one thread, against a plain model of the documented rules:
//! a store goes to the entry already holding the key (where `merge` decides), else to the first
//! empty entry, else evicts the entry whose `depth - AGE_WEIGHT * age` is least (the first of
//! equals); a probe returns the value of the entry holding the key. Guards the branch-free
//! probe and store scans of issue 8 against any change of behaviour.

use searchcache::{mix64, Pack64, SearchCache, Size, ENTRIES_PER_BUCKET};

/// A value with a depth, whose merge keeps a deeper old entry of the same age.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    depth: u8,
    tag: u16,
}

impl Pack64 for Entry {
    const BITS: u32 = 24;
    fn pack(self) -> u64 {
        u64::from(self.depth) | u64::from(self.tag) << 8
    }
    fn unpack(bits: u64) -> Self {
        Entry {
            depth: bits as u8,
            tag: (bits >> 8) as u16,
        }
    }
    fn depth(&self) -> i32 {
        i32::from(self.depth)
    }
    fn merge(self, old: Self, age: u8) -> Option<Self> {
        (age > 0 || self.depth >= old.depth).then_some(self)
    }
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    value: Entry,
    generation: u8,
}

struct Model {
    buckets: Vec<[Option<Slot>; ENTRIES_PER_BUCKET]>,
    generation: u8,
}

impl Model {
    fn bucket(&self, key: u64) -> usize {
        ((mix64(key) as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    fn age(&self, slot: &Slot) -> u8 {
        self.generation.wrapping_sub(slot.generation) & 127
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[self.bucket(key)]
            .iter()
            .flatten()
            .find(|s| s.key == key)
            .map(|s| s.value)
    }

    fn store(&mut self, key: u64, value: Entry) {
        let b = self.bucket(key);
        let now = self.generation;
        if let Some(i) = self.buckets[b]
            .iter()
            .position(|s| s.is_some_and(|s| s.key == key))
        {
            let old = self.buckets[b][i].expect("found above");
            if let Some(merged) = value.merge(old.value, self.age(&old)) {
                self.buckets[b][i] = Some(Slot {
                    key,
                    value: merged,
                    generation: now,
                });
            }
            return;
        }
        let victim = match self.buckets[b].iter().position(Option::is_none) {
            Some(empty) => empty,
            None => {
                let worth = |s: &Option<Slot>| {
                    let s = s.expect("no empty slot");
                    i32::from(s.value.depth) - 8 * i32::from(self.age(&s))
                };
                let least = self.buckets[b].iter().map(worth).min().expect("four slots");
                self.buckets[b]
                    .iter()
                    .position(|s| worth(s) == least)
                    .expect("the least")
            }
        };
        self.buckets[b][victim] = Some(Slot {
            key,
            value,
            generation: now,
        });
    }
}

#[test]
fn store_and_probe_follow_the_documented_rules() {
    let table = SearchCache::<Entry>::new(Size::Entries(32)).expect("a tiny table");
    let mut model = Model {
        buckets: vec![[None; ENTRIES_PER_BUCKET]; table.buckets()],
        generation: 0,
    };
    // 40 keys over 8 buckets: every bucket overflows, keys come back after eviction.
    let mut state = 0x1234_5678_u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    for step in 0..200_000 {
        let r = next();
        let key = r % 40;
        match (r >> 8) % 16 {
            0 => {
                table.new_generation();
                model.generation = (model.generation + 1) & 127;
            }
            1..=7 => {
                let value = Entry {
                    depth: ((r >> 12) % 20) as u8,
                    tag: step as u16,
                };
                table.store(key, value);
                model.store(key, value);
            }
            _ => assert_eq!(table.probe(key), model.probe(key), "step {step}, key {key}"),
        }
    }
}
