//! `Placement`: a `SearchCache`, `DenseCache` or `ClusterCache` whose type fixes its `Keys` or
//! `Slots` behaves exactly as one built with those choices in its `Options`, reports them,
//! saves them, and refuses to load a file saved with others.

mod common;

use common::Table;
use searchcache::persist::FileError;
use searchcache::{
    ClusterCache, DenseCache, Error, FromOptions, Keys, Options, Placement, SearchCache, Size,
    Slots,
};

/// Zobrist keys in half a line: the engine's choice.
struct RandomHalf;
impl Placement for RandomHalf {
    const KEYS: Option<Keys> = Some(Keys::Random);
    const SLOTS: Option<Slots> = Some(Slots::Half);
}

/// Mixed keys, one slot each.
struct AnySingle;
impl Placement for AnySingle {
    const KEYS: Option<Keys> = Some(Keys::Any);
    const SLOTS: Option<Slots> = Some(Slots::Single);
}

/// Only the keys fixed: the slots come from the `Options`.
struct RandomKeys;
impl Placement for RandomKeys {
    const KEYS: Option<Keys> = Some(Keys::Random);
}

/// `options` with `P`'s fixed choices in place of their own, built by hand.
fn expected<P: Placement>(options: Options) -> Options {
    let options = P::KEYS.map_or(options, |k| options.keys(k));
    P::SLOTS.map_or(options, |s| options.slots(s))
}

fn saved(t: &impl Table<u32>) -> Vec<u8> {
    let mut bytes = Vec::new();
    t.save(&mut bytes).unwrap();
    bytes
}

/// The same 60,000 operations on both tables (a small table, so that lines fill and entries
/// are replaced): every answer, every key's line and check, `hashfull` and the saved bytes
/// agree.
fn same_behaviour(fixed: &impl Table<u32>, plain: &impl Table<u32>) {
    assert_eq!(fixed.options(), plain.options());
    for i in 0..60_000u64 {
        // Keys from a small universe, so that probes hit, stores merge and entries age.
        let key = searchcache::mix64(i * 7 % 5_000);
        assert_eq!(fixed.identity(key), plain.identity(key));
        match i % 4 {
            0 | 1 => {
                fixed.store(key, i as u32);
                plain.store(key, i as u32);
            }
            2 => assert_eq!(fixed.probe(key), plain.probe(key), "probe {i}"),
            _ => assert_eq!(fixed.probe_refresh(key), plain.probe_refresh(key)),
        }
        if i % 7_000 == 0 {
            fixed.new_generation();
            plain.new_generation();
        }
    }
    assert_eq!(fixed.hashfull(), plain.hashfull());
    assert_eq!(saved(fixed), saved(plain));
}

/// `Fixed` (a table of placement `P`) against `Plain` (the same layout reading its options),
/// built with each of three runtime options.
fn fixed_matches_plain<Fixed: Table<u32>, Plain: Table<u32>, P: Placement>() {
    let size = Size::Entries(2_048);
    let o = Options::default();
    for options in [
        o,
        o.keys(Keys::Random).slots(Slots::Half),
        o.slots(Slots::Single),
    ] {
        let want = expected::<P>(options);
        let fixed = Fixed::with_options(size, options).unwrap();
        assert_eq!(fixed.options(), want);
        same_behaviour(&fixed, &Plain::with_options(size, want).unwrap());
    }
}

fn all_layouts<P: Placement>() {
    fixed_matches_plain::<SearchCache<u32, P>, SearchCache<u32>, P>();
    fixed_matches_plain::<DenseCache<u32, P>, DenseCache<u32>, P>();
    fixed_matches_plain::<ClusterCache<u32, P>, ClusterCache<u32>, P>();
}

#[test]
fn a_fixed_placement_behaves_as_its_options() {
    all_layouts::<RandomHalf>();
    all_layouts::<AnySingle>();
    all_layouts::<RandomKeys>();
    all_layouts::<FromOptions>();
}

/// A file saved by `Plain` with `options`, loaded as `Fixed` (`load_placed`).
fn reload<Fixed: Table<u32>, Plain: Table<u32>>(options: Options) -> Result<Fixed, Error> {
    let plain = Plain::with_options(Size::Entries(512), options).unwrap();
    for key in 0..300u64 {
        plain.store(searchcache::mix64(key), key as u32);
    }
    let fixed = Fixed::load(&saved(&plain))?;
    assert_eq!(saved(&fixed), saved(&plain));
    Ok(fixed)
}

/// `load_placed` takes a file saved with the type's choices and refuses one saved with
/// others, in all three layouts; plain `load` takes a fixed table's file.
fn load_checks<Fixed: Table<u32>, Plain: Table<u32>>() {
    let fit = Options::default().keys(Keys::Random).slots(Slots::Half);
    let fixed = reload::<Fixed, Plain>(fit).unwrap();
    assert_eq!(Plain::load(&saved(&fixed)).unwrap().options(), fit);
    for other in [
        Options::default(),
        fit.slots(Slots::Bucket),
        fit.keys(Keys::Any),
    ] {
        let refused = reload::<Fixed, Plain>(other).unwrap_err();
        assert!(
            matches!(&refused, Error::File(FileError::Invalid(why)) if why.contains("fixes")),
            "{refused}"
        );
    }
}

#[test]
fn load_checks_the_fixed_choices() {
    load_checks::<SearchCache<u32, RandomHalf>, SearchCache<u32>>();
    load_checks::<DenseCache<u32, RandomHalf>, DenseCache<u32>>();
    load_checks::<ClusterCache<u32, RandomHalf>, ClusterCache<u32>>();
    // Only what the type fixes is checked: any slots load under `RandomKeys`.
    let single = Options::default().keys(Keys::Random).slots(Slots::Single);
    let loaded = reload::<DenseCache<u32, RandomKeys>, DenseCache<u32>>(single).unwrap();
    assert_eq!(loaded.options(), single);
}
