//! `Pack64` round trips: for the library's impls and the stand-ins for the examples' entries,
//! `unpack(pack(v)) == v`, `pack` stays within `BITS`, and a value stored in a real table (in
//! any generation, under any key) probes back unchanged.

use crate::input::Input;
use crate::values::{ChessEntry, FuzzValue, IdaBound};
use searchcache::{HugePages, Options, SearchCache, Size};

/// Runs one input: a type selector byte, then values of that type.
pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    match input.u8() % 10 {
        0 => run_with::<u8>(input),
        1 => run_with::<u16>(input),
        2 => run_with::<u32>(input),
        3 => run_with::<i8>(input),
        4 => run_with::<i16>(input),
        5 => run_with::<i32>(input),
        6 => run_with::<bool>(input),
        7 => run_with::<()>(input),
        8 => run_with::<ChessEntry>(input),
        _ => run_with::<IdaBound>(input),
    }
}

fn run_with<V: FuzzValue>(mut input: Input) {
    let options = Options::default().huge_pages(HugePages::Never);
    let table = SearchCache::<V>::with_options(Size::Entries(4), options).expect("one bucket");
    while !input.is_empty() {
        let value = V::read(&mut input);
        let bits = value.pack();
        assert_eq!(
            bits >> V::BITS.min(63) >> (V::BITS == 64) as u32,
            0,
            "{value:?} packs above BITS"
        );
        assert_eq!(V::unpack(bits), value, "unpack(pack({value:?}))");
        for _ in 0..input.u8() % 4 {
            table.new_generation();
        }
        // A fresh table entry each time: clear, so merge rules cannot keep an older value.
        table.clear();
        let key = input.key();
        table.store(key, value);
        assert_eq!(table.probe(key), Some(value), "stored under {key:#x}");
    }
}
