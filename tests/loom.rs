//! loom models of the racy paths: every interleaving (up to `LOOM_MAX_PREEMPTIONS` preemptions)
//! and every value a relaxed load may return. Run with
//! `RUSTFLAGS="--cfg searchcache_loom" LOOM_MAX_PREEMPTIONS=3 cargo test --release --test loom --target-dir target/loom`.
//!
//! The tables' models run with structured keys (small integers, 0 included, and packed
//! 15-puzzle boards): a table sees keys only mixed (a bijection), so well-mixed keys explored
//! the same executions again (`models!` says more). Values name the key they were stored for,
//! the thread that stored them and a depth, so a value returned for the wrong key, or one
//! nobody stored, is seen.
//!
//! The visited-state set's models run with `u64` and `u32` signatures (where two slots share a
//! word) and with hashed and structured states.
//!
//! The test of the tests: under `--cfg searchcache_naive` the crate swaps the XOR check for a
//! broken protocol (the check word holds the bare key, so a torn pair passes) and the set's CAS
//! for a load-then-store, and every model here becomes a `should_panic` test that must find the
//! wrong value or the lost insert. `.ci/run` runs both.
#![cfg(searchcache_loom)]

use loom::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use loom::thread;
use searchcache::{
    Inserted, Pack64, SearchCache, Signature, Size, StateHash, VisitedMap, VisitedSet,
};
use std::sync::Arc;

/// Keys as a careless caller makes them: small integers (0 included) and packed 15-puzzle
/// boards one move apart, which differ from each other in a few low bits.
const STRUCTURED: [u64; 6] = [
    0,
    1,
    2,
    0x1234_5678_9abc_def0,
    0x1234_5678_9abc_de0f,
    0x1234_5678_9abc_0def,
];

/// The message every model's wrong-value assertion carries: the naive-protocol run expects it.
const WRONG: &str = "WRONG VALUE";

/// A value that says which key it was stored for (an index into the model's keys), who stored
/// it, and how deep it is (which steers eviction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tagged {
    key: u8,
    writer: u8,
    depth: u8,
}

impl Pack64 for Tagged {
    const BITS: u32 = 24;
    fn pack(self) -> u64 {
        u64::from(self.key) | u64::from(self.writer) << 8 | u64::from(self.depth) << 16
    }
    fn unpack(bits: u64) -> Self {
        Tagged {
            key: bits as u8,
            writer: (bits >> 8) as u8,
            depth: (bits >> 16) as u8,
        }
    }
    fn depth(&self) -> i32 {
        self.depth.into()
    }
}

/// A one-bucket table (four entries, so every store fights over the same line) and the keys
/// of one model run.
struct Fixture {
    table: SearchCache<Tagged>,
    keys: [u64; 6],
}

impl Fixture {
    fn new(keys: [u64; 6]) -> Arc<Self> {
        let table = SearchCache::new(Size::Entries(4)).unwrap();
        assert_eq!(table.buckets(), 1);
        Arc::new(Fixture { table, keys })
    }

    /// The value `writer` stores for key `k`.
    fn value(k: usize, writer: u8, depth: u8) -> Tagged {
        Tagged {
            key: k as u8,
            writer,
            depth,
        }
    }

    fn store(&self, k: usize, writer: u8, depth: u8) {
        self.table
            .store(self.keys[k], Self::value(k, writer, depth));
    }

    /// Probes key `k` and asserts the answer is one of `allowed` (a miss only if `allowed`
    /// holds `None`), and in any case never a value stored for another key.
    fn expect(&self, k: usize, allowed: &[Option<Tagged>]) -> Option<Tagged> {
        let got = self.table.probe(self.keys[k]);
        if let Some(v) = got {
            assert_eq!(
                usize::from(v.key),
                k,
                "{WRONG}: probe of key #{k} ({:#x}) returned {v:?}, stored for key #{}",
                self.keys[k],
                v.key
            );
        }
        assert!(
            allowed.contains(&got),
            "{WRONG}: probe of key #{k} ({:#x}) returned {got:?}, not one of {allowed:?}",
            self.keys[k]
        );
        got
    }
}

/// Runs `model` under loom, prints how many executions it explored and how long that took (see
/// them with `--nocapture`), and fails if loom explored next to nothing.
fn explore(name: &str, model: fn()) {
    explore_within(name, None, model);
}

/// As [`explore`], with at most `preemptions` preemptions when that is `Some` (fewer if
/// `LOOM_MAX_PREEMPTIONS` says so); `None` leaves loom's bound as `LOOM_MAX_PREEMPTIONS` sets it.
fn explore_within(name: &str, preemptions: Option<usize>, model: fn()) {
    let start = std::time::Instant::now();
    let executions = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = executions.clone();
    let mut builder = loom::model::Builder::new();
    if let Some(cap) = preemptions {
        builder.preemption_bound = Some(builder.preemption_bound.map_or(cap, |b| b.min(cap)));
    }
    builder.check(move || {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        model();
    });
    let executions = executions.load(std::sync::atomic::Ordering::Relaxed);
    println!("{name}: {executions} executions in {:.1?}", start.elapsed());
    // Every model here races at least two threads over shared words: loom exploring fewer
    // interleavings than this means it saw no race at all (see `let_writers_run_first`).
    assert!(executions >= 10, "{name}: only {executions} executions");
}

/// Lets the threads just spawned run before the reader, in loom's first execution. (The crate
/// no longer needs it: under loom every operation first touches an extra atomic that makes a
/// reader's early loads conflict with a writer's stores, see "Loom" in the crate docs; the
/// models keep it so that they explore what they did before, from writers-first.)
fn let_writers_run_first() {
    thread::yield_now();
}

/// Defines a loom test of a model `fn(keys)` with the structured keys. Under `--cfg
/// searchcache_naive` the tests must panic with [`WRONG`]: that is the test of the test.
///
/// One key set per model: the table sees a key only through the mixer, a bijection, and the
/// models' bucket is the table's one, so well-mixed keys explored exactly the executions these
/// do (448,604, 207,879 and 65) with other check values. The structured set is kept: its key 0
/// mixes to 0, the one key whose tag an empty entry carries (`table.rs`), a case well-mixed
/// keys do not reach.
macro_rules! models {
    ($($model:ident => $name:ident;)*) => {$(
        #[test]
        #[cfg_attr(searchcache_naive, should_panic(expected = "WRONG VALUE"))]
        fn $name() {
            explore(stringify!($name), || $model(STRUCTURED));
        }
    )*};
}

models! {
    same_key_writers => same_key_writers_structured;
    different_keys_one_bucket => different_keys_one_bucket_structured;
    store_races_new_generation => store_races_new_generation_structured;
}

/// Two writers store different values for key #4 while a reader probes. The full bucket holds
/// keys #0..#3 at depths 5, 1, 5, 5, so both writers (depth 3) take key #1's entry: the reader
/// sees #1's value or a miss for #1, and writer 1's value, writer 2's value or a miss for #4.
fn same_key_writers(keys: [u64; 6]) {
    let f = Fixture::new(keys);
    for (k, depth) in [(0, 5), (1, 1), (2, 5), (3, 5)] {
        f.store(k, 0, depth);
    }
    let writers: Vec<_> = [1u8, 2]
        .into_iter()
        .map(|w| {
            let f = f.clone();
            thread::spawn(move || f.store(4, w, 3))
        })
        .collect();
    let_writers_run_first();
    let stored = [
        None,
        Some(Fixture::value(4, 1, 3)),
        Some(Fixture::value(4, 2, 3)),
    ];
    f.expect(4, &stored);
    f.expect(1, &[None, Some(Fixture::value(1, 0, 1))]);
    for w in writers {
        w.join().unwrap();
    }
    // Racing writers may tear the entry for good (check of one, data of the other): a miss.
    f.expect(4, &stored);
    f.expect(1, &[None]);
    for k in [0, 2, 3] {
        f.expect(k, &[Some(Fixture::value(k, 0, 5))]);
    }
}

/// Two writers store different keys (#4, #5, depth 4) into one bucket holding #0..#2 at depths
/// 5, 2, 7 and an empty entry, while a reader probes. The first writer to finish takes the
/// empty entry; the other takes it too (if it did not see the first) or evicts #1 (depth 2).
/// Keys #0 and #2 are never evicted.
fn different_keys_one_bucket(keys: [u64; 6]) {
    let f = Fixture::new(keys);
    for (k, depth) in [(0, 5), (1, 2), (2, 7)] {
        f.store(k, 0, depth);
    }
    let writers: Vec<_> = [4usize, 5]
        .into_iter()
        .map(|k| {
            let f = f.clone();
            thread::spawn(move || f.store(k, k as u8, 4))
        })
        .collect();
    let_writers_run_first();
    f.expect(4, &[None, Some(Fixture::value(4, 4, 4))]);
    f.expect(1, &[None, Some(Fixture::value(1, 0, 2))]);
    f.expect(5, &[None, Some(Fixture::value(5, 5, 4))]);
    for w in writers {
        w.join().unwrap();
    }
    f.expect(4, &[None, Some(Fixture::value(4, 4, 4))]);
    f.expect(5, &[None, Some(Fixture::value(5, 5, 4))]);
    f.expect(1, &[None, Some(Fixture::value(1, 0, 2))]);
    f.expect(0, &[Some(Fixture::value(0, 0, 5))]);
    f.expect(2, &[Some(Fixture::value(2, 0, 7))]);
}

/// A store of key #4 races `new_generation()` while the racing thread probes, at the
/// generation wrap-around, where the generation the store reads decides its victim. Key #1
/// (depth 1) was written in generation 0 and #0, #2, #3 (depth 5) in generation 127, which is
/// current. A store that reads 127 sees #1 at age 127 (worth 1 − 8·127) and evicts it; one that
/// reads the new generation 0 (128 wraps to 0) sees #1 at age 0 (worth 1) and the others at age
/// 1 (worth −3) and evicts #0, the first of equals. Afterwards exactly one of the two is gone,
/// and `hashfull` (entries of generation 0) says which generation the store stamped.
fn store_races_new_generation(keys: [u64; 6]) {
    let f = Fixture::new(keys);
    f.store(1, 0, 1);
    for _ in 0..127 {
        f.table.new_generation();
    }
    for k in [0, 2, 3] {
        f.store(k, 0, 5);
    }
    let writer = {
        let f = f.clone();
        thread::spawn(move || f.store(4, 1, 3))
    };
    let_writers_run_first();
    f.table.new_generation();
    f.expect(1, &[None, Some(Fixture::value(1, 0, 1))]);
    f.expect(0, &[None, Some(Fixture::value(0, 0, 5))]);
    f.expect(4, &[None, Some(Fixture::value(4, 1, 3))]);
    writer.join().unwrap();
    assert_eq!(f.table.generation(), 0);
    // Nothing raced the store's write: it must be there.
    f.expect(4, &[Some(Fixture::value(4, 1, 3))]);
    for k in [2, 3] {
        f.expect(k, &[Some(Fixture::value(k, 0, 5))]);
    }
    let one = f.expect(1, &[None, Some(Fixture::value(1, 0, 1))]);
    let zero = f.expect(0, &[None, Some(Fixture::value(0, 0, 5))]);
    let hashfull = f.table.hashfull();
    match (one, zero) {
        // Read generation 127: #4 stamped 127, nothing of generation 0 left.
        (None, Some(_)) => assert_eq!(hashfull, 0, "{WRONG}: evicted #1 in generation 0"),
        // Read generation 0: #4 and #1 are of generation 0.
        (Some(_), None) => assert_eq!(hashfull, 500, "{WRONG}: evicted #0 in generation 127"),
        _ => panic!("{WRONG}: exactly one of #0 and #1 must be evicted: {one:?} {zero:?}"),
    }
}

// ----- The visited-state set -------------------------------------------------------------------

/// States as a hash function makes them.
const WELL_MIXED_STATES: [StateHash; 3] = [
    StateHash {
        index: 0x243f_6a88_85a3_08d3,
        signature: 0x1319_8a2e_0370_7344,
    },
    StateHash {
        index: 0xa409_3822_299f_31d0,
        signature: 0x082e_fa98_ec4e_6c89,
    },
    StateHash {
        index: 0x4528_21e6_38d0_1377,
        signature: 0xbe54_66cf_34e9_0c6c,
    },
];

/// States as a careless caller makes them: counters, signature 0 (the empty slot's value, which
/// the set must replace by a stand-in) and 1.
const STRUCTURED_STATES: [StateHash; 3] = [
    StateHash {
        index: 0,
        signature: 0,
    },
    StateHash {
        index: 1,
        signature: 1,
    },
    StateHash {
        index: 2,
        signature: 2,
    },
];

/// The message of a set model's failed assertion: the naive-protocol run expects it.
const LOST: &str = "LOST INSERT";

/// A one-line set (8 `u64` or 16 `u32` slots: every insert fights over the same cache line, and
/// with `u32` the first two inserts share one 64-bit word).
fn one_line_set<S: Signature>() -> Arc<VisitedSet<S>> {
    let set = VisitedSet::<S>::new(Size::Entries(8)).unwrap();
    assert_eq!(set.memory_bytes(), 64);
    Arc::new(set)
}

/// Defines loom tests of a set model `fn::<S>(states)` for both signature widths and both
/// state sets; under `--cfg searchcache_naive` each must panic with [`LOST`].
macro_rules! set_models {
    ($($model:ident => { $($name:ident: $sig:ty, $states:ident;)* })*) => {$($(
        #[test]
        #[cfg_attr(searchcache_naive, should_panic(expected = "LOST INSERT"))]
        fn $name() {
            explore(stringify!($name), || $model::<$sig>($states));
        }
    )*)*};
}

set_models! {
    same_state_two_inserters => {
        same_state_two_inserters_u64_mixed: u64, WELL_MIXED_STATES;
        same_state_two_inserters_u64_structured: u64, STRUCTURED_STATES;
        same_state_two_inserters_u32_mixed: u32, WELL_MIXED_STATES;
        same_state_two_inserters_u32_structured: u32, STRUCTURED_STATES;
    }
    different_states_one_line => {
        different_states_one_line_u64_mixed: u64, WELL_MIXED_STATES;
        different_states_one_line_u64_structured: u64, STRUCTURED_STATES;
        different_states_one_line_u32_mixed: u32, WELL_MIXED_STATES;
        different_states_one_line_u32_structured: u32, STRUCTURED_STATES;
    }
    insert_races_lookup => {
        insert_races_lookup_u64_mixed: u64, WELL_MIXED_STATES;
        insert_races_lookup_u64_structured: u64, STRUCTURED_STATES;
        insert_races_lookup_u32_mixed: u32, WELL_MIXED_STATES;
        insert_races_lookup_u32_structured: u32, STRUCTURED_STATES;
    }
}

/// Two threads insert the same state while the main thread looks it up: exactly one gets `New`
/// (two would mean a state explored twice, a lost CAS; none, a lost insert), and it is found
/// afterwards.
fn same_state_two_inserters<S: Signature>(states: [StateHash; 3]) {
    let set = one_line_set::<S>();
    let h = states[0];
    let inserters: Vec<_> = (0..2)
        .map(|_| {
            let set = set.clone();
            thread::spawn(move || set.insert(h).unwrap())
        })
        .collect();
    let_writers_run_first();
    let _ = set.contains(h);
    let results: Vec<Inserted> = inserters.into_iter().map(|t| t.join().unwrap()).collect();
    let new = results.iter().filter(|r| r.is_new()).count();
    assert_eq!(new, 1, "{LOST}: {results:?}: one New per state, not {new}");
    assert!(set.contains(h), "{LOST}: not found after the inserts");
    assert_eq!(set.len(), 1, "{LOST}: len");
}

/// Two threads insert different states into one line (both want its first free slot): both
/// get `New` and both are found afterwards, and a third state inserted before stays.
fn different_states_one_line<S: Signature>(states: [StateHash; 3]) {
    let set = one_line_set::<S>();
    assert_eq!(set.insert(states[2]), Ok(Inserted::New));
    let inserters: Vec<_> = [states[0], states[1]]
        .into_iter()
        .map(|h| {
            let set = set.clone();
            thread::spawn(move || set.insert(h).unwrap())
        })
        .collect();
    let_writers_run_first();
    for t in inserters {
        assert_eq!(
            t.join().unwrap(),
            Inserted::New,
            "{LOST}: a new state reported Present"
        );
    }
    for h in states {
        assert!(set.contains(h), "{LOST}: {h:?} not found after the inserts");
        assert_eq!(
            set.insert(h),
            Ok(Inserted::Present),
            "{LOST}: {h:?} inserted twice"
        );
    }
    assert_eq!(set.len(), 3);
}

/// A lookup races two inserts: once the main thread has seen a state it keeps seeing it ("once
/// found, always found"), and what the inserter wrote before its `New` is visible to whoever
/// finds the state (the CAS publishes it).
fn insert_races_lookup<S: Signature>(states: [StateHash; 3]) {
    let set = one_line_set::<S>();
    let payload = Arc::new(AtomicUsize::new(0));
    let first = {
        let (set, payload) = (set.clone(), payload.clone());
        thread::spawn(move || {
            payload.store(42, Relaxed);
            set.insert(states[0]).unwrap()
        })
    };
    let second = {
        let set = set.clone();
        thread::spawn(move || set.insert(states[1]).unwrap())
    };
    let_writers_run_first();
    let found = set.contains(states[0]);
    if found {
        assert_eq!(
            payload.load(Relaxed),
            42,
            "{LOST}: found before its publication"
        );
    }
    let found_again = set.contains(states[0]);
    assert!(!found || found_again, "{LOST}: found, then not found");
    assert_eq!(first.join().unwrap(), Inserted::New);
    assert_eq!(second.join().unwrap(), Inserted::New);
    assert!(set.contains(states[0]), "{LOST}: first state gone");
    assert!(set.contains(states[1]), "{LOST}: second state gone");
}

/// A one-line map (8 slots: every insert fights over the same cache line) with 4 payload bits.
fn one_line_map() -> Arc<VisitedMap> {
    let map = VisitedMap::new(Size::Entries(8), 4).unwrap();
    assert_eq!(map.memory_bytes(), 64);
    Arc::new(map)
}

/// Defines loom tests of a map model `fn(states)` for both state sets; under
/// `--cfg searchcache_naive` each must panic with [`LOST`].
macro_rules! map_models {
    ($($model:ident => $mixed:ident, $structured:ident;)*) => {$(
        #[test]
        #[cfg_attr(searchcache_naive, should_panic(expected = "LOST INSERT"))]
        fn $mixed() {
            explore(stringify!($mixed), || $model(WELL_MIXED_STATES));
        }

        #[test]
        #[cfg_attr(searchcache_naive, should_panic(expected = "LOST INSERT"))]
        fn $structured() {
            explore(stringify!($structured), || $model(STRUCTURED_STATES));
        }
    )*};
}

map_models! {
    map_bits_from_two_threads => map_bits_from_two_threads_mixed, map_bits_from_two_threads_structured;
    map_update_races_inserts => map_update_races_inserts_mixed, map_update_races_inserts_structured;
}

/// Two threads set different bits of one state's payload, one by `fetch_or` and one by
/// `fetch_update`, while a neighbour is inserted into the same line: neither bit is lost, and
/// the neighbour's payload is untouched.
fn map_bits_from_two_threads(states: [StateHash; 3]) {
    let map = one_line_map();
    let (h, neighbour) = (states[0], states[1]);
    assert_eq!(map.insert(h, 0), Ok((Inserted::New, 0)));
    let or = {
        let map = map.clone();
        thread::spawn(move || map.fetch_or(h, 1))
    };
    let update = {
        let map = map.clone();
        thread::spawn(move || {
            let _ = map.insert(neighbour, 8);
            map.fetch_update(h, |p| Some(p | 2))
        })
    };
    let_writers_run_first();
    let seen = map.get(h).unwrap_or(99);
    assert!(seen <= 3, "{LOST}: payload {seen}, never written");
    assert!(or.join().unwrap().is_some(), "{LOST}: state gone");
    assert!(matches!(update.join().unwrap(), Some(Ok(_))), "{LOST}");
    assert_eq!(map.get(h), Some(3), "{LOST}: a bit was lost");
    assert_eq!(map.get(neighbour), Some(8), "{LOST}: neighbour changed");
}

/// Two threads insert one state with different payloads while the main thread sets a bit of
/// it: exactly one insert is `New`, the other sees the winner's payload (or it with the bit),
/// and afterwards the payload is the winner's, with the bit exactly when `fetch_or` found the
/// state.
fn map_update_races_inserts(states: [StateHash; 3]) {
    let map = one_line_map();
    let h = states[0];
    let inserters: Vec<_> = [1u32, 2]
        .into_iter()
        .map(|payload| {
            let map = map.clone();
            thread::spawn(move || map.insert(h, payload).unwrap())
        })
        .collect();
    let_writers_run_first();
    let found = map.fetch_or(h, 4);
    let results: Vec<(Inserted, u32)> = inserters.into_iter().map(|t| t.join().unwrap()).collect();
    let winners: Vec<u32> = results
        .iter()
        .filter(|(r, _)| r.is_new())
        .map(|&(_, p)| p)
        .collect();
    assert_eq!(winners.len(), 1, "{LOST}: {results:?}: one New per state");
    let winner = winners[0];
    for &(_, p) in &results {
        assert_eq!(
            p & 3,
            winner,
            "{LOST}: {results:?}: a loser saw another payload"
        );
    }
    let bit = if found.is_some() { 4 } else { 0 };
    assert_eq!(map.get(h), Some(winner | bit), "{LOST}: found {found:?}");
    assert_eq!(map.len(), 1, "{LOST}: len");
}

// ----- Tables of one-line buckets: the dense and cluster layouts ----------------------------
//
// `DenseCache`: one word per entry, so a reader can only see whole words. The naive protocol
// splits each write into two stores (the new tag over the old value, then the whole word), the
// torn entry a non-atomic write would leave, and every model here must then see it.
//
// `ClusterCache`: entries of a data word and a 16-bit check (`tag ^ fold(data)`), two stores
// each, so a reader can see a torn pair, which must fail its check. The naive protocol makes
// the check the bare tag, and every model here must then see another key's data.
//
// Under `--cfg searchcache_loom` a cluster line has three entries, not six
// (`cluster_line::CLUSTER_ENTRIES` says why that proves the same): the models below are
// written for a line of any width `n`, filling it with keys #0..#n−1 and racing keys #n and
// #n+1.
//
// One key set per model: the table sees a key only as its line (there is one) and its 16-bit
// tag, and the fixture checks that the tags differ, so a second key set would explore the same
// executions again with other tag values (well-mixed keys explored exactly as many as these,
// for every model of both layouts). The structured set is kept: its key 0 has the mixed key 0,
// whose tag is the stand-in 1.

/// Ten keys as a careless caller makes them: small integers (0 included) and packed 15-puzzle
/// boards one move apart.
const LINE_KEYS: [u64; 10] = [
    0,
    1,
    2,
    3,
    4,
    0x1234_5678_9abc_def0,
    0x1234_5678_9abc_de0f,
    0x1234_5678_9abc_0def,
    0x1234_5678_9ab0_cdef,
    0x1234_5678_90ab_cdef,
];

/// What the one-line models use of a table of one-line buckets.
trait OneLine: Send + Sync + 'static {
    /// Whether racing writers of one entry can leave a torn pair that reads as a miss.
    const TEARS: bool;
    /// A table of one line.
    fn one_line() -> Self;
    fn capacity(&self) -> usize;
    fn tag_of(&self, key: u64) -> u16;
    fn store(&self, key: u64, value: Tagged);
    fn probe(&self, key: u64) -> Option<Tagged>;
    fn new_generation(&self);
    fn generation(&self) -> u8;
    fn hashfull(&self) -> usize;
}

/// Implements [`OneLine`] for tables whose methods have its names.
macro_rules! one_line {
    ($($table:ident, tears: $tears:expr;)*) => {$(
        impl OneLine for searchcache::$table<Tagged> {
            const TEARS: bool = $tears;
            fn one_line() -> Self {
                let table = Self::new(Size::Bytes(64)).unwrap();
                assert_eq!(table.lines(), 1);
                table
            }
            fn capacity(&self) -> usize {
                self.capacity()
            }
            fn tag_of(&self, key: u64) -> u16 {
                self.tag_of(key)
            }
            fn store(&self, key: u64, value: Tagged) {
                self.store(key, value);
            }
            fn probe(&self, key: u64) -> Option<Tagged> {
                self.probe(key)
            }
            fn new_generation(&self) {
                self.new_generation();
            }
            fn generation(&self) -> u8 {
                self.generation()
            }
            fn hashfull(&self) -> usize {
                self.hashfull()
            }
        }
    )*};
}

one_line! {
    DenseCache, tears: false;
    ClusterCache, tears: true;
}

/// A one-line table of `n` entries and the keys of one model run (`n + 2` of them), whose tags
/// differ (so that a false hit cannot pass for a torn entry).
struct LineFixture<T> {
    table: T,
    keys: Vec<u64>,
    n: usize,
}

impl<T: OneLine> LineFixture<T> {
    fn new(keys: &[u64]) -> Arc<Self> {
        let table = T::one_line();
        let n = table.capacity();
        let keys = keys[..n + 2].to_vec();
        let mut tags: Vec<u16> = keys.iter().map(|&k| table.tag_of(k)).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), n + 2, "the model's keys need distinct tags");
        Arc::new(LineFixture { table, keys, n })
    }

    fn store(&self, k: usize, writer: u8, depth: u8) {
        self.table
            .store(self.keys[k], Fixture::value(k, writer, depth));
    }

    /// As [`Fixture::expect`].
    fn expect(&self, k: usize, allowed: &[Option<Tagged>]) -> Option<Tagged> {
        let got = self.table.probe(self.keys[k]);
        assert!(
            got.is_none_or(|v| usize::from(v.key) == k) && allowed.contains(&got),
            "{WRONG}: {} probe of key #{k} ({:#x}) returned {got:?}, not one of {allowed:?}",
            std::any::type_name::<T>(),
            self.keys[k]
        );
        got
    }
}

/// Defines a loom test of a one-line model `fn::<T>(keys)` per table type and key set, with
/// at most `$p` preemptions where given; under `--cfg searchcache_naive` each must panic with
/// [`WRONG`].
macro_rules! line_models {
    ($($name:ident: $model:ident::<$table:ty>($keys:ident) $(, preemptions $p:literal)?;)*) => {$(
        #[test]
        #[cfg_attr(searchcache_naive, should_panic(expected = "WRONG VALUE"))]
        fn $name() {
            let preemptions = Option::<usize>::None $(.or(Some($p)))?;
            explore_within(stringify!($name), preemptions, || $model::<$table>(&$keys));
        }
    )*};
}

type Dense = searchcache::DenseCache<Tagged>;
type Cluster = searchcache::ClusterCache<Tagged>;

// `cluster_different_keys_one_line` runs with at most 2 preemptions, not 3 (403,362
// executions at 3, 76,614 at 2; BENCHMARKS.md, "The cluster layout"). What it looks for needs
// fewer: a reader's torn pair needs none (a relaxed load may return any store not ordered
// before it, so loom offers the reader stale data under a fresh check in any schedule; the
// naive protocol already fails at 1); both writers choosing the same entry, one's scan before
// the other's write, needs one (A scans, B preempts it and runs to its end, A writes), and
// tearing that entry for good (one's data, the other's check) is the same schedule with A
// preempted between its two stores; a reader probing between the writers' stores is one more.
// A third adds schedules cut more finely (a writer cut twice, say), which none of these needs;
// the cost is that the model no longer covers them (`same_key_writers` still runs at 3).
line_models! {
    dense_same_key_writers: line_same_key_writers::<Dense>(LINE_KEYS);
    dense_different_keys_one_line: line_different_keys::<Dense>(LINE_KEYS);
    dense_store_races_new_generation: line_store_races_new_generation::<Dense>(LINE_KEYS);
    cluster_same_key_writers: line_same_key_writers::<Cluster>(LINE_KEYS);
    cluster_different_keys_one_line: line_different_keys::<Cluster>(LINE_KEYS), preemptions 2;
    cluster_store_races_new_generation: line_store_races_new_generation::<Cluster>(LINE_KEYS);
}

/// Two writers store different values for key #n while a reader probes. The full line holds
/// #0..#n−1, #1 at depth 1 and the others at 5, so both writers (depth 3) take #1's entry.
/// Afterwards #n holds one writer's value, or, where racing writers can tear an entry (one's
/// data, the other's check), reads as a miss; never another key's value.
fn line_same_key_writers<T: OneLine>(keys: &[u64]) {
    let f = LineFixture::<T>::new(keys);
    let n = f.n;
    for k in 0..n {
        f.store(k, 0, if k == 1 { 1 } else { 5 });
    }
    let writers: Vec<_> = [1u8, 2]
        .into_iter()
        .map(|w| {
            let f = f.clone();
            thread::spawn(move || f.store(n, w, 3))
        })
        .collect();
    let_writers_run_first();
    let by = |w| Some(Fixture::value(n, w, 3));
    f.expect(n, &[None, by(1), by(2)]);
    f.expect(1, &[None, Some(Fixture::value(1, 0, 1))]);
    for w in writers {
        w.join().unwrap();
    }
    let after: &[_] = if T::TEARS {
        &[None, by(1), by(2)]
    } else {
        &[by(1), by(2)]
    };
    f.expect(n, after);
    f.expect(1, &[None]);
    for k in (0..n).filter(|&k| k != 1) {
        f.expect(k, &[Some(Fixture::value(k, 0, 5))]);
    }
}

/// Two writers store different keys (#n, #n+1, depth 4) into one line holding #0..#n−2 (#1
/// at depth 2, the others deeper) and one empty entry, while a reader probes. The first takes
/// the empty entry; the other takes it too (if it did not see the first) or evicts #1. Where
/// entries cannot tear, at least one of the two stores is kept.
fn line_different_keys<T: OneLine>(keys: &[u64]) {
    let f = LineFixture::<T>::new(keys);
    let n = f.n;
    for k in 0..n - 1 {
        f.store(k, 0, if k == 1 { 2 } else { 5 });
    }
    let writers: Vec<_> = [n, n + 1]
        .into_iter()
        .map(|k| {
            let f = f.clone();
            thread::spawn(move || f.store(k, k as u8, 4))
        })
        .collect();
    let_writers_run_first();
    let own = |k: usize| Some(Fixture::value(k, k as u8, 4));
    f.expect(n, &[None, own(n)]);
    f.expect(1, &[None, Some(Fixture::value(1, 0, 2))]);
    f.expect(n + 1, &[None, own(n + 1)]);
    for w in writers {
        w.join().unwrap();
    }
    let first = f.expect(n, &[None, own(n)]);
    let second = f.expect(n + 1, &[None, own(n + 1)]);
    assert!(
        T::TEARS || first.is_some() || second.is_some(),
        "{WRONG}: both stores lost"
    );
    f.expect(1, &[None, Some(Fixture::value(1, 0, 2))]);
    for k in (0..n - 1).filter(|&k| k != 1) {
        f.expect(k, &[Some(Fixture::value(k, 0, 5))]);
    }
}

/// A store of key #n races `new_generation()` at the wrap-around, as
/// `store_races_new_generation`: #1 (depth 1) was written in generation 0, #0 and #2..#n−1
/// (depth 5) in 127. Read 127: #1 is evicted; read 0 (128 wraps): #0, the first of equals.
fn line_store_races_new_generation<T: OneLine>(keys: &[u64]) {
    let f = LineFixture::<T>::new(keys);
    let n = f.n;
    f.store(1, 0, 1);
    for _ in 0..127 {
        f.table.new_generation();
    }
    for k in (0..n).filter(|&k| k != 1) {
        f.store(k, 0, 5);
    }
    let writer = {
        let f = f.clone();
        thread::spawn(move || f.store(n, 1, 3))
    };
    let_writers_run_first();
    f.table.new_generation();
    f.expect(1, &[None, Some(Fixture::value(1, 0, 1))]);
    f.expect(0, &[None, Some(Fixture::value(0, 0, 5))]);
    f.expect(n, &[None, Some(Fixture::value(n, 1, 3))]);
    writer.join().unwrap();
    assert_eq!(f.table.generation(), 0);
    f.expect(n, &[Some(Fixture::value(n, 1, 3))]);
    for k in 2..n {
        f.expect(k, &[Some(Fixture::value(k, 0, 5))]);
    }
    let one = f.expect(1, &[None, Some(Fixture::value(1, 0, 1))]);
    let zero = f.expect(0, &[None, Some(Fixture::value(0, 0, 5))]);
    let hashfull = f.table.hashfull();
    match (one, zero) {
        (None, Some(_)) => assert_eq!(hashfull, 0, "{WRONG}: evicted #1 in generation 0"),
        // #n and #1 of generation 0: 2 of n entries.
        (Some(_), None) => assert_eq!(hashfull, 2000 / n, "{WRONG}: evicted #0 in generation 127"),
        _ => panic!("{WRONG}: exactly one of #0 and #1 must be evicted: {one:?} {zero:?}"),
    }
}
