//! Differential target: a random sequence of store / probe / new_generation / clear on a tiny
//! table (1-3 buckets, four entries each, `Slots::Half` or `Slots::Single`, keys mixed or `Keys::Random`) and on the reference model; after
//! every operation every key used so far must probe alike, and generation and hashfull must
//! agree. Single-threaded, so the two must agree exactly.
//!
//! [`run_dense`] does the same for `DenseCache` (1-3 lines of eight one-word entries), against
//! the reference model in its dense mode, where keys of one line and one 16-bit tag are one key
//! (the documented false hit), with the value types that fit its 41 bits. [`run_cluster`] does
//! it for `ClusterCache` (six ten-byte entries per line, matched the same way), with the wide
//! table's value types.

use crate::input::Input;
use crate::reference::Reference;
use crate::values::{ChessEntry, FuzzValue, IdaBound};
use searchcache::{
    ClusterCache, DenseCache, Error, HugePages, Keys, Options, Pack64, SearchCache, Size, Slots,
};

/// The table under test, either layout.
trait Tested<V: Pack64>: Sized {
    /// Entries per line.
    const PER_LINE: usize;
    fn build(size: Size, options: Options) -> Result<Self, Error>;
    fn lines(&self) -> usize;
    fn store(&self, key: u64, value: V);
    fn probe(&self, key: u64) -> Option<V>;
    fn new_generation(&self);
    fn generation(&self) -> u8;
    fn hashfull(&self) -> usize;
    fn clear(&self);
}

macro_rules! tested {
    ($table:ident, $per_line:expr, $lines:ident) => {
        impl<V: Pack64> Tested<V> for $table<V> {
            const PER_LINE: usize = $per_line;
            fn build(size: Size, options: Options) -> Result<Self, Error> {
                $table::with_options(size, options)
            }
            fn lines(&self) -> usize {
                $table::$lines(self)
            }
            fn store(&self, key: u64, value: V) {
                $table::store(self, key, value);
            }
            fn probe(&self, key: u64) -> Option<V> {
                $table::probe(self, key)
            }
            fn new_generation(&self) {
                $table::new_generation(self);
            }
            fn generation(&self) -> u8 {
                $table::generation(self)
            }
            fn hashfull(&self) -> usize {
                $table::hashfull(self)
            }
            fn clear(&self) {
                $table::clear(self);
            }
        }
    };
}

tested!(SearchCache, 4, buckets);
tested!(DenseCache, 8, lines);
tested!(ClusterCache, 6, lines);

/// Runs one input. The first byte picks the table shape and the value type.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let shape = input.u8();
    match (shape >> 2) % 3 {
        0 => run_with::<ChessEntry, SearchCache<_>>(shape, input),
        1 => run_with::<IdaBound, SearchCache<_>>(shape, input),
        _ => run_with::<u32, SearchCache<_>>(shape, input),
    }
}

/// Runs one input on a `DenseCache`; the first byte picks the shape and the value type.
pub fn run_dense(data: &[u8]) {
    let mut input = Input::new(data);
    let shape = input.u8();
    match (shape >> 2) % 3 {
        0 => run_with::<u16, DenseCache<_>>(shape, input),
        1 => run_with::<IdaBound, DenseCache<_>>(shape, input),
        _ => run_with::<u32, DenseCache<_>>(shape, input),
    }
}

/// Runs one input on a `ClusterCache`; the first byte picks the shape and the value type (the
/// wide table's, all of which fit the cluster's 56 bits).
pub fn run_cluster(data: &[u8]) {
    let mut input = Input::new(data);
    let shape = input.u8();
    match (shape >> 2) % 3 {
        0 => run_with::<ChessEntry, ClusterCache<_>>(shape, input),
        1 => run_with::<IdaBound, ClusterCache<_>>(shape, input),
        _ => run_with::<u32, ClusterCache<_>>(shape, input),
    }
}

fn run_with<V: FuzzValue, T: Tested<V>>(shape: u8, mut input: Input) {
    let buckets = usize::from(shape % 3) + 1;
    let slots = match (shape & 0x80 != 0, shape & 0x20 != 0) {
        (true, _) => Slots::Single,
        (false, true) => Slots::Half,
        (false, false) => Slots::Bucket,
    };
    let random_keys = shape & 0x40 != 0;
    let options = Options::default()
        .huge_pages(HugePages::Never)
        .slots(slots)
        .keys(if random_keys { Keys::Random } else { Keys::Any });
    let table =
        T::build(Size::Entries(buckets * T::PER_LINE), options).expect("a table of 1-3 buckets");
    assert_eq!(table.lines(), buckets);
    let mut model = match T::PER_LINE {
        8 => Reference::<V>::dense(buckets, slots, random_keys),
        6 => Reference::<V>::cluster(buckets, slots, random_keys),
        _ => Reference::<V>::new(buckets, slots, random_keys),
    };
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

fn table_and_model_new_generation<V: FuzzValue, T: Tested<V>>(
    table: &T,
    model: &mut Reference<V>,
    times: u8,
) {
    for _ in 0..times {
        table.new_generation();
        model.new_generation();
    }
}
