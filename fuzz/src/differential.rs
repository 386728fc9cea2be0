//! Differential target: a random sequence of store / probe / new_generation / clear on a tiny
//! table (1-3 buckets, four entries each or `Slots::Single`, keys mixed or `Keys::Random`) and on the reference model; after
//! every operation every key used so far must probe alike, and generation and hashfull must
//! agree. Single-threaded, so the two must agree exactly.

use crate::input::Input;
use crate::reference::Reference;
use crate::values::{ChessEntry, FuzzValue, IdaBound};
use searchcache::{HugePages, Keys, Options, SearchCache, Size, Slots};

/// Runs one input. The first byte picks the table shape and the value type.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let shape = input.u8();
    match (shape >> 2) % 3 {
        0 => run_with::<ChessEntry>(shape, input),
        1 => run_with::<IdaBound>(shape, input),
        _ => run_with::<u32>(shape, input),
    }
}

fn run_with<V: FuzzValue>(shape: u8, mut input: Input) {
    let buckets = usize::from(shape % 3) + 1;
    let single = shape & 0x80 != 0;
    let random_keys = shape & 0x40 != 0;
    let options = Options::default()
        .huge_pages(HugePages::Never)
        .slots(if single { Slots::Single } else { Slots::Bucket })
        .keys(if random_keys { Keys::Random } else { Keys::Any });
    let table = SearchCache::<V>::with_options(Size::Entries(buckets * 4), options)
        .expect("a table of 1-3 buckets");
    assert_eq!(table.buckets(), buckets);
    let mut model = Reference::<V>::new(buckets, single, random_keys);
    let mut keys: Vec<u64> = Vec::new();

    while !input.is_empty() {
        match input.u8() % 16 {
            0..=8 => {
                let key = input.key();
                let value = V::read(&mut input);
                table.store(key, value);
                model.store(key, value);
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            9..=11 => {
                let key = input.key();
                assert_eq!(table.probe(key), model.probe(key), "probe of {key:#x}");
            }
            12 | 13 => table_and_model_new_generation(&table, &mut model, 1),
            // Many generations at once, to wrap around 128.
            14 => table_and_model_new_generation(&table, &mut model, input.u8()),
            _ => {
                table.clear();
                model.clear();
            }
        }
        for &key in &keys {
            assert_eq!(table.probe(key), model.probe(key), "probe of {key:#x}");
        }
        assert_eq!(table.generation(), model.generation());
        assert_eq!(table.hashfull(), model.hashfull());
    }
}

fn table_and_model_new_generation<V: FuzzValue>(
    table: &SearchCache<V>,
    model: &mut Reference<V>,
    times: u8,
) {
    for _ in 0..times {
        table.new_generation();
        model.new_generation();
    }
}
