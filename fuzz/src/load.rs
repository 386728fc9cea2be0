//! `load` of every kind of table on arbitrary bytes: [`FingerprintSet`], [`CompactSet`],
//! [`Bitstate`], [`VisitedMap`], [`SearchCache`] (two value types; the file names its `Keys` and `Slots`,
//! and the seeds hold every combination) and [`ClusterCache`]. Each input is given to every loader. A load must
//! never panic; one that succeeds must
//!
//! * hold exactly the lines the input delivered: `memory_bytes()` is the consumed bytes less
//!   the 80 of header and trailer, so no table is larger than its checked header says and the
//!   input paid for (a failing load maps at most the header's checked size, lazily: the lines
//!   it never received are never touched);
//! * save back to the very bytes it read (a table whose contents or parameters differ from the
//!   file is a finding).
//!
//! The first byte is a mode: odd values re-seal the rest before loading (the header's and the
//! trailer's CRC-32 recomputed where the header's line count puts them), so that mutations get
//! past the checksums to the checks behind them; even values load the bytes as they are.

use crate::values::IdaBound;
use searchcache::{
    Bitstate, ClusterCache, CompactSet, Error, FingerprintSet, HugePages, Keys, Options,
    SearchCache, Size, Slots, StateHash, VisitedMap,
};

/// Header bytes, and the trailer's count and CRC (`searchcache::persist`'s format).
const HEADER: usize = 64;
const TRAILER: usize = 16;

/// Runs one input: a mode byte, then the file.
pub fn run(data: &[u8]) {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let file = if mode & 1 == 1 {
        reseal(file)
    } else {
        file.to_vec()
    };
    check::<FingerprintSet>(&file);
    check::<CompactSet>(&file);
    check::<Bitstate>(&file);
    check::<SearchCache<u32>>(&file);
    check::<SearchCache<IdaBound>>(&file);
    check::<VisitedMap>(&file);
    check::<ClusterCache<u32>>(&file);
}

/// What the target needs of each kind of table.
trait Table: Sized {
    const NAME: &'static str;
    fn load(r: &mut &[u8]) -> Result<Self, Error>;
    fn save(&self, w: &mut Vec<u8>) -> Result<(), Error>;
    fn memory_bytes(&self) -> usize;
}

macro_rules! table {
    ($t:ty, $name:expr) => {
        impl Table for $t {
            const NAME: &'static str = $name;
            fn load(r: &mut &[u8]) -> Result<Self, Error> {
                <$t>::load(r)
            }
            fn save(&self, w: &mut Vec<u8>) -> Result<(), Error> {
                <$t>::save(self, w)
            }
            fn memory_bytes(&self) -> usize {
                <$t>::memory_bytes(self)
            }
        }
    };
}

table!(FingerprintSet, "FingerprintSet");
table!(CompactSet, "CompactSet");
table!(Bitstate, "Bitstate");
table!(SearchCache<u32>, "SearchCache<u32>");
table!(SearchCache<IdaBound>, "SearchCache<IdaBound>");
table!(VisitedMap, "VisitedMap");
table!(ClusterCache<u32>, "ClusterCache<u32>");

/// Loads `file` as a `T`; if that succeeds, checks the table's size and its round trip.
fn check<T: Table>(file: &[u8]) {
    let mut rest = file;
    let Ok(table) = T::load(&mut rest) else {
        return;
    };
    let consumed = file.len() - rest.len();
    assert_eq!(
        table.memory_bytes() + HEADER + TRAILER,
        consumed,
        "{}: the table is not the size of the lines read",
        T::NAME
    );
    let mut saved = Vec::new();
    table.save(&mut saved).expect("saving to a Vec");
    assert!(
        saved == file[..consumed],
        "{}: saving the loaded table wrote other bytes than were read",
        T::NAME
    );
}

/// `file` with its header CRC (bytes 56..60, over 0..56) and its trailer CRC (over everything
/// before it) recomputed, where the file is long enough to hold them.
pub fn reseal(file: &[u8]) -> Vec<u8> {
    let mut file = file.to_vec();
    if file.len() < HEADER {
        return file;
    }
    let crc = crc32fast::hash(&file[..56]);
    file[56..60].copy_from_slice(&crc.to_le_bytes());
    let lines = u64::from_le_bytes(file[16..24].try_into().expect("8 bytes"));
    let count_end = usize::try_from(lines)
        .ok()
        .and_then(|n| n.checked_mul(64))
        .and_then(|body| body.checked_add(HEADER + 8));
    if let Some(end) = count_end.filter(|&end| end + 4 <= file.len()) {
        let crc = crc32fast::hash(&file[..end]);
        file[end..end + 4].copy_from_slice(&crc.to_le_bytes());
    }
    file
}

/// Valid saved tables of every kind (sets and bitstate arrays empty and partly filled; tables
/// with each `Keys` × `Slots` and both page settings, in a later generation), then truncations
/// and bit flips of each: the seed corpus of `corpus/load/`, each with its mode byte.
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut valid: Vec<(String, Vec<u8>)> = Vec::new();
    let mut save = |name: String, write: &dyn Fn(&mut Vec<u8>) -> Result<(), Error>| {
        let mut bytes = Vec::new();
        write(&mut bytes).expect("saving to a Vec");
        valid.push((name, bytes));
    };
    let states = |n: u64| (0..n).map(StateHash::from_u64);
    for n in [0, 5] {
        let set = FingerprintSet::new(Size::Entries(32)).expect("a small set");
        for h in states(n) {
            let _ = set.insert(h);
        }
        save(format!("fingerprint-{n}"), &|w| set.save(w));
        let set = CompactSet::new(Size::Entries(64)).expect("a small set");
        for h in states(n) {
            let _ = set.insert(h);
        }
        save(format!("compact-{n}"), &|w| set.save(w));
        let bits = Bitstate::new(Size::Bytes(128), 3).expect("a small array");
        for h in states(n) {
            let _ = bits.insert(h);
        }
        save(format!("bitstate-{n}"), &|w| bits.save(w));
        let map = VisitedMap::new(Size::Entries(16), 3).expect("a small map");
        for h in states(n) {
            let _ = map.insert(h, h.index as u32);
        }
        save(format!("map-{n}"), &|w| map.save(w));
    }
    for keys in [Keys::Any, Keys::Random] {
        for slots in [Slots::Bucket, Slots::Single, Slots::Half] {
            for pages in [HugePages::Advise, HugePages::Never] {
                let options = Options::default().keys(keys).slots(slots).huge_pages(pages);
                let table = SearchCache::<u32>::with_options(Size::Entries(16), options)
                    .expect("a small table");
                table.new_generation();
                (0..9u64).for_each(|k| table.store(k * 0x9e37_79b9, k as u32));
                let name = format!("table-u32-{keys:?}-{slots:?}-{pages:?}").to_lowercase();
                save(name, &|w| table.save(w));
            }
        }
    }
    let table = SearchCache::<IdaBound>::new(Size::Entries(8)).expect("a small table");
    save("table-idabound-empty".into(), &|w| table.save(w));
    let cluster = ClusterCache::<u32>::new(Size::Entries(12)).expect("a small table");
    cluster.new_generation();
    (0..9u64).for_each(|k| cluster.store(k * 0x9e37_79b9, k as u32));
    save("cluster-u32".into(), &|w| cluster.save(w));
    let mut out = Vec::new();
    for (name, bytes) in valid {
        out.push((format!("{name}-valid"), [&[0u8][..], &bytes].concat()));
        for cut in [8, 63, HEADER, bytes.len() - TRAILER, bytes.len() - 1] {
            out.push((
                format!("{name}-cut-{cut}"),
                [&[0u8][..], &bytes[..cut]].concat(),
            ));
        }
        // Bit flips in the header's fields and the body, as they are and re-sealed.
        for bit in [
            8 * 12,
            8 * 16 + 5,
            8 * 24,
            8 * 48,
            8 * 70 + 3,
            8 * (bytes.len() - 20),
        ] {
            let mut flipped = bytes.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            for mode in [0u8, 1] {
                let name = format!("{name}-flip-{bit}-mode-{mode}");
                out.push((name, [&[mode][..], &flipped].concat()));
            }
        }
    }
    out
}
