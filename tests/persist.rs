//! Saving and loading (src/persist/): every persisted type round-trips, and a truncated, a
//! corrupted, a wrong-version or a wrong-kind file is an `Error`, never a panic and never a
//! table built from bad bytes.

use searchcache::consts::FORMAT_VERSION;
use searchcache::persist::{ChecksumReader, ChecksumWriter, FileError};
use searchcache::{
    Bitstate, CompactSet, DenseCache, Error, FingerprintSet, Inserted, Keys, Options, Pack64,
    SearchCache, Size, Slots, StateHash, VisitedSet,
};
use std::io::{Read, Write};

fn states(n: u64) -> impl Iterator<Item = StateHash> {
    (0..n).map(|i| StateHash::of(&i))
}

/// What `load` must say of every way to spoil `file` (a saved table of some kind): cut short
/// anywhere, any one byte changed, another version, another kind.
fn spoiled_files_are_errors<T>(file: &[u8], load: impl Fn(&[u8]) -> Result<T, Error>) {
    assert!(load(file).is_ok());
    // Truncated: at every length in the header, and at a spread of lengths beyond.
    let cuts = (0..80).chain((80..file.len()).step_by(file.len() / 97 + 1));
    for cut in cuts.chain([file.len() - 1]) {
        match load(&file[..cut]) {
            Err(Error::File(FileError::Truncated)) => {}
            // A cut inside the magic is "not a table" only when it left a wrong prefix: never.
            Err(e) => panic!("cut at {cut}: {e}"),
            Ok(_) => panic!("cut at {cut} of {} loaded", file.len()),
        }
    }
    // Corrupted: one byte changed, anywhere (each position of the header, a spread beyond).
    let positions = (0..64).chain((64..file.len()).step_by(file.len() / 211 + 1));
    for at in positions.chain([file.len() - 1]) {
        let mut bad = file.to_vec();
        bad[at] ^= 0x10;
        match load(&bad) {
            Err(Error::File(_)) => {}
            Err(e) => panic!("byte {at} changed: {e}"),
            Ok(_) => panic!("byte {at} of {} changed, and it loaded", file.len()),
        }
    }
    // Other format versions (with the header checksum made right: real files of an older and
    // a newer build).
    for other in [FORMAT_VERSION - 1, FORMAT_VERSION + 1] {
        let mut file = file.to_vec();
        file[8..12].copy_from_slice(&other.to_le_bytes());
        reseal_header(&mut file);
        assert_eq!(
            load(&file).err(),
            Some(Error::File(FileError::Version {
                found: other,
                supported: FORMAT_VERSION
            }))
        );
    }
    // Not a table at all.
    assert_eq!(
        load(b"hello, world: not a table, just text of some length").err(),
        Some(Error::File(FileError::NotATable))
    );
}

/// Recomputes the header's CRC-32 after a test changed a field.
fn reseal_header(file: &mut [u8]) {
    let crc = crc32(&file[..56]);
    file[56..60].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 (ISO-HDLC), bit by bit: the format's documented checksum, from its definition.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                crc >> 1 ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn saved(save: impl FnOnce(&mut Vec<u8>) -> Result<(), Error>) -> Vec<u8> {
    let mut file = Vec::new();
    save(&mut file).unwrap();
    file
}

fn set_round_trips<S: searchcache::Signature>() {
    let set = VisitedSet::<S>::with_expected_states(30_000).unwrap();
    for h in states(20_000) {
        assert_eq!(set.insert(h), Ok(Inserted::New));
    }
    let file = saved(|f| set.save(f));
    assert_eq!(file.len(), 64 + set.memory_bytes() + 16);
    let loaded = VisitedSet::<S>::load(&file[..]).unwrap();
    assert_eq!(loaded.len(), 20_000);
    assert_eq!(loaded.capacity(), set.capacity());
    assert_eq!(loaded.signature_comparisons(), set.signature_comparisons());
    assert!(states(20_000).all(|h| loaded.contains(h)));
    assert!(states(20_000).all(|h| loaded.insert(h) == Ok(Inserted::Present)));
    let new = StateHash::of(&"never inserted");
    assert_eq!(loaded.insert(new), Ok(Inserted::New));
    // Saved again, the same bytes but for the new state.
    assert_eq!(saved(|f| set.save(f)), file);
    spoiled_files_are_errors(&file, |f| VisitedSet::<S>::load(f));
}

#[test]
fn sets_round_trip_and_refuse_spoiled_files() {
    set_round_trips::<u64>();
    set_round_trips::<u32>();
}

#[test]
fn the_header_is_as_documented() {
    let set = FingerprintSet::new(Size::Entries(16)).unwrap();
    assert_eq!(set.insert(StateHash::from_u64(5)), Ok(Inserted::New));
    let file = saved(|f| set.save(f));
    assert_eq!(&file[0..8], b"srchcach");
    assert_eq!(u32::from_le_bytes(file[8..12].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(file[12..16].try_into().unwrap()), 1);
    assert_eq!(u64::from_le_bytes(file[16..24].try_into().unwrap()), 2);
    assert_eq!(u64::from_le_bytes(file[24..32].try_into().unwrap()), 64);
    assert_eq!(u64::from_le_bytes(file[32..40].try_into().unwrap()), 1024);
    let crc = u32::from_le_bytes(file[56..60].try_into().unwrap());
    assert_eq!(crc, crc32(&file[..56]));
    assert_eq!(file.len(), 64 + 2 * 64 + 16);
    let trailer = &file[64 + 128..];
    assert_eq!(u64::from_le_bytes(trailer[0..8].try_into().unwrap()), 1);
    let whole = u32::from_le_bytes(trailer[8..12].try_into().unwrap());
    assert_eq!(whole, crc32(&file[..64 + 128 + 8]));
    assert_eq!(&trailer[12..16], &[0; 4]);
    // The one signature, little-endian, in one of the 16 slots.
    let words: Vec<u64> = file[64..192]
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(words.iter().filter(|&&w| w != 0).count(), 1);
}

#[test]
fn a_file_of_another_kind_is_refused() {
    let wide = saved(|f| FingerprintSet::new(Size::Entries(64)).unwrap().save(f));
    let compact = saved(|f| CompactSet::new(Size::Entries(64)).unwrap().save(f));
    let bits = saved(|f| Bitstate::new(Size::Entries(4096), 3).unwrap().save(f));
    let table = saved(|f| SearchCache::<u32>::new(Size::Entries(64)).unwrap().save(f));
    let kind = |e: Option<Error>| match e {
        Some(Error::File(FileError::Kind { found, expected })) => format!("{found}>{expected}"),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        kind(CompactSet::load(&wide[..]).err()),
        "FingerprintSet>CompactSet"
    );
    assert_eq!(
        kind(FingerprintSet::load(&compact[..]).err()),
        "CompactSet>FingerprintSet"
    );
    assert_eq!(
        kind(SearchCache::<u32>::load(&bits[..]).err()),
        "Bitstate>SearchCache"
    );
    assert_eq!(
        kind(Bitstate::load(&table[..]).err()),
        "SearchCache>Bitstate"
    );
    let mut unknown = wide.clone();
    unknown[12..16].copy_from_slice(&9u32.to_le_bytes());
    reseal_header(&mut unknown);
    assert_eq!(
        kind(FingerprintSet::load(&unknown[..]).err()),
        "unknown kind 9>FingerprintSet"
    );
}

/// A hostile header (with a correct checksum) that claims 2^50 lines: an error, without the
/// 64 PiB; and one claiming more than the address space.
#[test]
fn a_header_claiming_a_huge_table_is_an_error_not_an_abort() {
    let mut file = saved(|f| FingerprintSet::new(Size::Entries(8)).unwrap().save(f));
    for lines in [1u64 << 50, u64::MAX / 64, u64::MAX, 0] {
        file[16..24].copy_from_slice(&lines.to_le_bytes());
        reseal_header(&mut file);
        match FingerprintSet::load(&file[..]) {
            Err(Error::AllocationFailed { .. })
            | Err(Error::File(FileError::Invalid(_)))
            | Err(Error::File(FileError::Truncated)) => {}
            other => panic!("{lines} lines: {other:?}"),
        }
    }
}

#[test]
fn bitstate_round_trips_and_refuses_spoiled_files() {
    let bits = Bitstate::new(Size::Entries(1 << 18), 3).unwrap();
    for h in states(10_000) {
        let _ = bits.insert(h);
    }
    let file = saved(|f| bits.save(f));
    let loaded = Bitstate::load(&file[..]).unwrap();
    assert_eq!(
        (loaded.len(), loaded.hashes(), loaded.bits()),
        (bits.len(), 3, bits.bits())
    );
    assert_eq!(loaded.bits_set(), bits.bits_set());
    assert!(states(10_000).all(|h| loaded.contains(h)));
    assert_eq!(
        loaded.expected_miss_fraction(),
        bits.expected_miss_fraction()
    );
    spoiled_files_are_errors(&file, |f| Bitstate::load(f));
}

/// A value with `BITS` and `AGE_WEIGHT` of its own, to check that both are in the header.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scored(u32);

impl Pack64 for Scored {
    const BITS: u32 = 32;
    const AGE_WEIGHT: i32 = 3;
    fn pack(self) -> u64 {
        u64::from(self.0)
    }
    fn unpack(bits: u64) -> Self {
        Scored(bits as u32)
    }
}

#[test]
fn search_cache_round_trips_with_its_options_and_generation() {
    for options in [
        Options::default(),
        Options::default().keys(Keys::Random).slots(Slots::Single),
        Options::default().slots(Slots::Half),
    ] {
        let table = SearchCache::<u32>::with_options(Size::Mib(4), options).unwrap();
        for _ in 0..5 {
            table.new_generation();
        }
        let keys: Vec<u64> = (0..50_000u64).map(searchcache::mix64).collect();
        for &k in &keys {
            table.store(k, k as u32);
        }
        let file = saved(|f| table.save(f));
        let loaded = SearchCache::<u32>::load(&file[..]).unwrap();
        assert_eq!(loaded.options(), options);
        assert_eq!(loaded.generation(), 5);
        assert_eq!(loaded.capacity(), table.capacity());
        assert_eq!(loaded.hashfull(), table.hashfull());
        for &k in &keys {
            assert_eq!(loaded.probe(k), table.probe(k), "key {k:#x}");
        }
        assert!(keys.iter().filter(|&&k| loaded.probe(k).is_some()).count() > 40_000);
        if options == Options::default() {
            spoiled_files_are_errors(&file, |f| SearchCache::<u32>::load(f));
        }
        // Another value type with the same bits but another age weight: refused.
        assert!(matches!(
            SearchCache::<Scored>::load(&file[..]),
            Err(Error::File(FileError::Invalid(_)))
        ));
        assert!(matches!(
            SearchCache::<u16>::load(&file[..]),
            Err(Error::File(FileError::Invalid(_)))
        ));
    }
}

/// A caller's extras after a table: `load` reads exactly the table, and the checksum wrappers
/// carry the rest.
#[test]
fn a_table_and_the_callers_data_share_one_stream() {
    let set = FingerprintSet::with_expected_states(100).unwrap();
    for h in states(50) {
        let _ = set.insert(h);
    }
    let mut file = Vec::new();
    set.save(&mut file).unwrap();
    let mut extra = ChecksumWriter::new(&mut file);
    extra.write_all(b"frontier: 7 8 9").unwrap();
    extra.finish().unwrap();

    let mut input = &file[..];
    let loaded = FingerprintSet::load(&mut input).unwrap();
    assert_eq!(loaded.len(), 50);
    let mut reader = ChecksumReader::new(input);
    let mut text = String::new();
    reader.by_ref().take(15).read_to_string(&mut text).unwrap();
    assert_eq!(text, "frontier: 7 8 9");
    assert!(reader.finish().is_ok());

    let mut bad = file.clone();
    let last = bad.len() - 6;
    bad[last] ^= 1;
    let mut input = &bad[..];
    FingerprintSet::load(&mut input).unwrap();
    let mut reader = ChecksumReader::new(input);
    std::io::copy(&mut reader.by_ref().take(15), &mut std::io::sink()).unwrap();
    assert_eq!(
        reader.finish().err(),
        Some(Error::File(FileError::Checksum { part: "data" }))
    );
}

/// A save racing inserts (documented in src/persist/mod.rs): the file loads, and every state
/// inserted before the save began is found in it.
#[test]
fn a_save_racing_inserts_keeps_every_earlier_state() {
    let set = FingerprintSet::with_expected_states(400_000).unwrap();
    for h in states(100_000) {
        let _ = set.insert(h);
    }
    let file = std::thread::scope(|s| {
        s.spawn(|| {
            for i in 100_000..300_000u64 {
                let _ = set.insert(StateHash::of(&i));
            }
        });
        saved(|f| set.save(f))
    });
    let loaded = FingerprintSet::load(&file[..]).unwrap();
    assert!(states(100_000).all(|h| loaded.contains(h)));
    assert!(loaded.len() >= 100_000 && loaded.len() <= 300_000);
}

/// A write error is `Error::Io`, with the cause as its source.
#[test]
fn a_failing_writer_is_an_io_error() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = FingerprintSet::new(Size::Entries(8))
        .unwrap()
        .save(Broken)
        .unwrap_err();
    assert!(matches!(e, Error::Io(_)), "{e}");
    let source = std::error::Error::source(&e).map(|s| s.to_string());
    assert_eq!(source.as_deref(), Some("disk on fire"));
}

/// The header's unused parameters are written as zero and must read as zero: a file whose
/// reserved field is set (and whose checksums were recomputed) is refused, so a loaded table
/// always saves back to the bytes it came from (the `load` fuzz target found both).
#[test]
fn reserved_header_fields_must_be_zero() {
    let set = FingerprintSet::new(Size::Entries(64)).unwrap();
    let bits = Bitstate::new(Size::Entries(1024), 2).unwrap();
    let files = [
        (saved(|f| set.save(f)), vec![48]),
        (saved(|f| bits.save(f)), vec![40, 48]),
    ];
    for (file, reserved) in files {
        assert!(FingerprintSet::load(&file[..]).is_ok() || Bitstate::load(&file[..]).is_ok());
        for at in reserved {
            let mut spoiled = file.clone();
            spoiled[at] = 1;
            reseal_header(&mut spoiled);
            let trailer = spoiled.len() - 8;
            let crc = crc32(&spoiled[..trailer]);
            spoiled[trailer..trailer + 4].copy_from_slice(&crc.to_le_bytes());
            let refused = |e: Error| matches!(e, Error::File(FileError::Invalid(_)));
            let set_refused = FingerprintSet::load(&spoiled[..]).map_or_else(refused, |_| false);
            let bits_refused = Bitstate::load(&spoiled[..]).map_or_else(refused, |_| false);
            assert!(
                set_refused || bits_refused,
                "byte {at} set to 1 was accepted"
            );
        }
    }
}

/// A `ClusterCache` file (kind 7) round-trips, holds each line as documented (six data words,
/// then the checks four to a word) with the trailer's count of occupied entries, and refuses
/// every spoiled variant and the other table kinds' loaders.
#[test]
fn cluster_cache_round_trips_and_refuses_spoiled_files() {
    use searchcache::ClusterCache;
    let t = ClusterCache::<u32>::new(Size::Entries(6 * 64)).unwrap();
    for k in 0..100u64 {
        t.store(k, (k << 20 | k) as u32);
    }
    t.new_generation();
    let file = saved(|f| t.save(f));
    assert_eq!(u32::from_le_bytes(file[12..16].try_into().unwrap()), 7);
    let body = &file[64..file.len() - 16];
    assert_eq!(body.len(), 64 * 64);
    let occupied = body
        .chunks_exact(64)
        .flat_map(|line| line[..48].chunks_exact(8))
        .filter(|w| u64::from_le_bytes((*w).try_into().unwrap()) >> 63 == 1)
        .count() as u64;
    let trailer = &file[file.len() - 16..];
    assert_eq!(
        u64::from_le_bytes(trailer[0..8].try_into().unwrap()),
        occupied
    );
    assert!(occupied > 80, "{occupied} of 100 stored keys kept");
    // The two unused checks of every line are zero.
    assert!(body.chunks_exact(64).all(|line| line[60..64] == [0; 4]));
    let back = ClusterCache::<u32>::load(&file[..]).unwrap();
    assert_eq!(back.generation(), 1);
    for k in 0..100u64 {
        assert_eq!(back.probe(k), t.probe(k), "key {k}");
    }
    assert_eq!(saved(|f| back.save(f)), file);
    spoiled_files_are_errors(&file, |f| ClusterCache::<u32>::load(f));
    assert!(matches!(
        SearchCache::<u32>::load(&file[..]),
        Err(Error::File(FileError::Kind { .. }))
    ));
}

/// A dense table's body is its lines' words, each entry `payload << 23 | generation << 16 |
/// tag` as the module docs write it (format version 2).
#[test]
fn the_dense_body_is_as_documented() {
    let table: DenseCache<u32> = DenseCache::new(Size::Bytes(64)).unwrap();
    for _ in 0..5 {
        table.new_generation();
    }
    let key = 0xfeed_f00d;
    table.store(key, 0xabcdef);
    let file = saved(|f| table.save(f));
    assert_eq!(u32::from_le_bytes(file[12..16].try_into().unwrap()), 5);
    let words: Vec<u64> = file[64..128]
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let tag = u64::from(table.tag_of(key));
    assert_eq!(words[0], 0xabcdef << 23 | 5 << 16 | tag);
    assert_eq!(&words[1..], &[0; 7]);
    // The trailer counts the one occupied entry.
    assert_eq!(u64::from_le_bytes(file[128..136].try_into().unwrap()), 1);
}
