//! Where the checker remembers which states it has seen, behind one small interface: full
//! states (`exact`), 64-bit fingerprints, 32-bit compacted signatures, or a bitstate bit array.

use crate::exact::{ExactFull, ExactSet};
use crate::frame::{self, FrameError, FrameReader};
use crate::growing::GrowingSet;
use searchcache::{
    omission, Bitstate, CompactSet, FingerprintSet, Full, Inserted, Size, StateHash,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::hash::Hash;
use std::io::{Read, Write};
use std::str::FromStr;
use std::sync::RwLockReadGuard;

/// How states are remembered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// 64-bit fingerprints, 8 bytes per slot (the default).
    Fp64,
    /// 32-bit compacted signatures, 4 bytes per slot.
    Fp32,
    /// SPIN-style supertrace: k bits set per state in a bit array; may miss states.
    Bitstate,
    /// Full states in a hash set: no omission, most memory.
    Exact,
}

impl Mode {
    /// Every mode, in the order of [`Mode::NAMES`].
    pub const ALL: [Mode; 4] = [Mode::Fp64, Mode::Fp32, Mode::Bitstate, Mode::Exact];
    /// Their names, as [`Mode::name`] gives them and [`FromStr`] reads them.
    pub const NAMES: [&'static str; 4] = ["fp64", "fp32", "bitstate", "exact"];

    /// The mode's name: `fp64`, `fp32`, `bitstate` or `exact`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    /// A mode by its [`name`](Mode::name); any other text is an error that lists them.
    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == text)
            .ok_or_else(|| format!("no mode `{text}` (one of: {})", Self::NAMES.join(", ")))
    }
}

/// The visited storage ran out of room for a new state: what it is, and (once the search has
/// stopped) which level did not fit, in numbers. `Display` says so in a sentence that names no
/// command-line flag; [`TableFull::bytes_needed`] is the size to try next.
#[derive(Clone, Debug, PartialEq)]
pub struct TableFull {
    /// The mode whose storage filled up.
    pub mode: Mode,
    /// Slots of the set, or the states the exact set may hold within `memory_bytes`.
    pub capacity: usize,
    /// Bytes per slot, or the exact set's estimate of bytes per state.
    pub bytes_per_state: usize,
    /// The storage's size limit in bytes ([`crate::Options::memory_bytes`]).
    pub memory_bytes: usize,
    /// The table's load when the insert failed (stored states / slots).
    pub load: f64,
    /// The level that did not fit (filled in by the search when it stops).
    pub level: usize,
    /// States of levels 0 to `level − 1`, the whole levels (filled in by the search).
    pub states: u64,
    /// The states of levels `level − 3` to `level − 1`, the oldest first (filled in by the
    /// search; 0 where it does not know them).
    pub last_widths: [u64; 3],
}

/// The most [`TableFull::bytes_needed`] asks for, as a multiple of the table that filled: an
/// estimate made early in a search can be far too high, and a table that large is committed
/// page by page as it fills, so the next run may need this many tries again, not more memory.
pub const MAX_GROWTH: usize = 16;

/// The most levels [`TableFull::states_estimate`] projects.
const PROJECTED_LEVELS: usize = 100_000;

/// The largest size [`TableFull::bytes_needed`] names: 128 TiB.
const MAX_BYTES: usize = 128 << 40;

/// A table that fills by this level gets [`MAX_GROWTH`] times its size.
const FEW_LEVELS: usize = 3;

/// `bytes` rounded up to a whole KiB (a whole MiB from 1 MiB on), at most [`MAX_BYTES`].
fn round_size(bytes: usize) -> usize {
    let bytes = bytes.min(MAX_BYTES);
    let unit = if bytes >= 1 << 20 { 1 << 20 } else { 1 << 10 };
    bytes.div_ceil(unit).saturating_mul(unit).min(MAX_BYTES)
}

impl TableFull {
    /// An estimate of the states of the whole search: the whole levels' states plus the levels
    /// projected from the last three widths. Levels of a breadth-first search grow and then
    /// shrink; the projection takes the last growth factor and how much it fell from the one
    /// before, and keeps it falling as fast (a bell-shaped profile, exact for a Gaussian one)
    /// until the levels die out. Growth that is not slowing is projected as steady for as many
    /// levels again as the search has done, and so is growth slowing so little that it would
    /// last more than 4 times the levels searched. `None` when the last two widths are not known. An
    /// estimate: a model whose profile changes shape holds more or fewer states.
    pub fn states_estimate(&self) -> Option<u64> {
        let [oldest, before, last] = self.last_widths.map(|w| w as f64);
        if before == 0.0 || last == 0.0 {
            return None;
        }
        let mut rate = (last / before).ln();
        let slowing = if oldest > 0.0 {
            (before / oldest).ln() - rate
        } else {
            0.0
        };
        // Growth slowing so little that it would go on for more than 4 times the levels
        // searched (Paxos: 1.7x a level, slowing by 0.001, for 530 more levels: e^140 states)
        // is projected as steady.
        let slowing = if slowing > 0.0 && rate / slowing > 4.0 * self.level.max(1) as f64 {
            0.0
        } else {
            slowing
        };
        let mut log_width = last.ln();
        let mut rest = 0.0;
        for projected in 1..=PROJECTED_LEVELS {
            if slowing > 0.0 {
                rate -= slowing;
            } else if rate >= 0.0 && projected > self.level.max(1) {
                break; // steady growth: as many levels again as so far
            }
            log_width += rate;
            if log_width < 0.0 && rate < 0.0 {
                break; // fewer than one state a level from here on
            }
            rest += log_width.exp();
        }
        Some(
            self.states
                .saturating_add(rest.min(u64::MAX as f64 / 2.0) as u64),
        )
    }

    /// The size to run again with: [`states_estimate`](Self::states_estimate) states at this
    /// table's bytes per state and the load it filled at, at least twice `memory_bytes` and at
    /// most [`MAX_GROWTH`] times it, rounded up to a whole KiB (MiB from 1 MiB on); twice
    /// `memory_bytes` when there is no estimate, and [`MAX_GROWTH`] times it for a table that
    /// filled by level 3. An estimate: more may be needed.
    pub fn bytes_needed(&self) -> usize {
        let doubled = self.memory_bytes.saturating_mul(2);
        let most = self.memory_bytes.saturating_mul(MAX_GROWTH) as f64;
        if self.filled_in_first_levels() {
            // Full within its first levels: far too small, and three widths tell little yet.
            return round_size(most as usize);
        }
        let estimate = self.states_estimate().map_or(0.0, |states| {
            let load = if self.mode == Mode::Exact {
                1.0
            } else {
                self.load.max(0.5)
            };
            states as f64 * self.bytes_per_state as f64 / load
        });
        round_size((estimate.min(most) as usize).max(doubled))
    }

    /// Whether the table filled by level 3, so small that [`bytes_needed`](Self::bytes_needed)
    /// asks for [`MAX_GROWTH`] times it without an estimate.
    pub fn filled_in_first_levels(&self) -> bool {
        self.level <= FEW_LEVELS
    }

    /// What the table is called in messages.
    pub fn what(&self) -> &'static str {
        match self.mode {
            Mode::Exact => "the exact set",
            _ => "the visited-state set",
        }
    }

    /// Whether the table filled while under half loaded: the states' hashes may not differ
    /// (the load is not meaningful for the exact set).
    pub fn filled_early(&self) -> bool {
        self.mode != Mode::Exact && self.load < 0.5
    }
}

impl fmt::Display for TableFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is full: no room for a new state of level {}; levels 0 to {} hold {} states. It \
             holds about {} states at {} bytes each in {} bytes; at least {} bytes are needed",
            self.what(),
            self.level,
            self.level.saturating_sub(1),
            self.states,
            self.capacity,
            self.bytes_per_state,
            self.memory_bytes,
            self.bytes_needed(),
        )?;
        if self.filled_early() {
            write!(
                f,
                " (the load was only {:.3} when it filled: check that the states' hashes \
                 differ)",
                self.load
            )?;
        }
        Ok(())
    }
}

/// An upper bound on the probability that the storage made the search miss a reachable state,
/// as a named figure (each mode has its own formula).
#[derive(Clone, Copy, Debug)]
pub struct Omission {
    /// Which bound this is.
    pub name: &'static str,
    /// The bound, a probability in `[0, 1]`.
    pub value: f64,
}

/// The visited storage of one run.
pub enum Visited<S> {
    /// `--mode fp64` of a distributed run: searchcache's `FingerprintSet`, of a fixed size.
    Fp64(FingerprintSet),
    /// `--mode fp64` of a single process: a `FingerprintSet` that grows up to a cap.
    Growing(GrowingSet),
    /// `--mode fp32`: searchcache's `CompactSet`.
    Fp32(CompactSet),
    /// `--mode bitstate`: searchcache's `Bitstate` (SPIN's default is 3 hash functions).
    Bitstate(Bitstate),
    /// `--mode exact`.
    Exact(ExactSet<S>),
}

/// The exact set at its limit, in numbers.
fn exact_full<S: Hash + Eq + Clone>(set: &ExactSet<S>, _: ExactFull) -> TableFull {
    TableFull {
        mode: Mode::Exact,
        capacity: set.capacity(),
        bytes_per_state: ExactSet::<S>::bytes_per_state(),
        memory_bytes: set.memory_limit(),
        load: 1.0,
        level: 0,
        states: 0,
        last_widths: [0; 3],
    }
}

fn table_full(mode: Mode, full: Full, memory_bytes: usize) -> TableFull {
    TableFull {
        mode,
        capacity: full.capacity(),
        bytes_per_state: memory_bytes / full.capacity().max(1),
        memory_bytes,
        load: full.load_factor(),
        level: 0,
        states: 0,
        last_widths: [0; 3],
    }
}

impl<S: Hash + Eq + Clone> Visited<S> {
    /// Storage for `mode` in at most `memory_bytes` (the exact mode grows up to about that);
    /// `hashes` is the bitstate mode's k.
    pub fn new(mode: Mode, memory_bytes: usize, hashes: u32) -> Result<Self, String> {
        let size = Size::Bytes(memory_bytes);
        let error = |e: searchcache::Error| format!("cannot build the visited storage: {e}");
        Ok(match mode {
            Mode::Fp64 => Visited::Fp64(FingerprintSet::new(size).map_err(error)?),
            Mode::Fp32 => Visited::Fp32(CompactSet::new(size).map_err(error)?),
            Mode::Bitstate => Visited::Bitstate(Bitstate::new(size, hashes).map_err(error)?),
            Mode::Exact => Visited::Exact(ExactSet::new(memory_bytes)),
        })
    }

    /// Storage for a single-process run of `mode`: as [`new`](Self::new), but with `grow` an
    /// fp64 set starts small and grows up to `memory_bytes` ([`GrowingSet`]).
    pub fn for_run(
        mode: Mode,
        (memory_bytes, grow): (usize, bool),
        hashes: u32,
    ) -> Result<Self, String> {
        match mode {
            Mode::Fp64 if grow => GrowingSet::new(memory_bytes)
                .map(Visited::Growing)
                .map_err(|e| format!("cannot build the visited storage: {e}")),
            _ => Self::new(mode, memory_bytes, hashes),
        }
    }

    /// The state's key, computed once per successor: one 64-bit hash for a growing set and
    /// the exact set, two (index and signature) otherwise.
    #[inline]
    pub fn key(&self, state: &S) -> StateHash {
        match self {
            Visited::Growing(set) => set.key(state),
            Visited::Exact(set) => StateHash::from_u64(set.hash(state)),
            _ => StateHash::of(state),
        }
    }

    /// `key` (a state's key made elsewhere: a distributed run's portable one) as this storage
    /// stores the state: its own [`key`](Self::key) for the exact set, whose states must be
    /// found under the hash a loaded checkpoint gives them; `key` itself otherwise.
    #[inline]
    pub fn stored_key(&self, state: &S, key: StateHash) -> StateHash {
        match self {
            Visited::Exact(_) => self.key(state),
            _ => key,
        }
    }

    /// The storage as the inserts of a chunk of work use it: holds a growing set's read lock
    /// until dropped.
    #[inline]
    pub fn reader(&self) -> Reader<'_, S> {
        match self {
            Visited::Growing(set) => Reader::Growing(set.read(), set.cap()),
            other => Reader::Fixed(other),
        }
    }

    /// Grows a growing set so that `more` states fit at its target load (see [`GrowingSet`]),
    /// while no reader is active; nothing for the other storages. Whether it grew.
    pub fn grow_for(&self, more: u64) -> Result<bool, String> {
        match self {
            Visited::Growing(set) => set
                .grow_for(more)
                .map_err(|e| format!("cannot grow the visited-state set: {e}")),
            _ => Ok(false),
        }
    }

    /// Starts loading the memory `insert(_, key)` will touch.
    #[inline]
    pub fn prefetch(&self, key: StateHash) {
        match self {
            Visited::Growing(_) => self.reader().prefetch(key),
            Visited::Fp64(set) => set.prefetch(key),
            Visited::Fp32(set) => set.prefetch(key),
            Visited::Bitstate(bits) => bits.prefetch(key),
            Visited::Exact(_) => {}
        }
    }

    /// Records `state` (whose [`key`](Self::key) is `key`): `Ok(true)` when it was not seen
    /// before. With fingerprints a new state can be taken for a seen one (an omission, bounded
    /// by [`Visited::storage`]); a seen state is never reported new.
    #[inline]
    pub fn insert(&self, state: &S, key: StateHash) -> Result<bool, TableFull> {
        match self {
            Visited::Growing(_) => self.reader().insert(state, key),
            Visited::Fp64(set) => set
                .insert(key)
                .map(Inserted::is_new)
                .map_err(|full| table_full(Mode::Fp64, full, set.memory_bytes())),
            Visited::Fp32(set) => set
                .insert(key)
                .map(Inserted::is_new)
                .map_err(|full| table_full(Mode::Fp32, full, set.memory_bytes())),
            Visited::Bitstate(bits) => Ok(bits.insert(key).is_new()),
            Visited::Exact(set) => set
                .insert(state, key.index)
                .map_err(|full| exact_full(set, full)),
        }
    }

    /// Whether two threads inserting one state may both be told it is new (bitstate: its k
    /// bits are set by separate atomic operations).
    pub fn may_report_new_twice(&self) -> bool {
        matches!(self, Visited::Bitstate(_))
    }

    /// Bytes the storage holds now (the whole table for the compacted modes).
    pub fn memory_bytes(&self) -> usize {
        match self {
            Visited::Growing(set) => set.read().memory_bytes(),
            Visited::Fp64(set) => set.memory_bytes(),
            Visited::Fp32(set) => set.memory_bytes(),
            Visited::Bitstate(bits) => bits.memory_bytes(),
            Visited::Exact(set) => set.memory_bytes(),
        }
    }

    /// What the storage can say after a run that expanded `generated` transitions: sizes,
    /// fill, and the chance it made the search miss states. Reads the whole bitstate array
    /// once (to count its bits set).
    pub fn storage(&self, generated: u64) -> Storage {
        let table_bytes = self.memory_bytes();
        match self {
            Visited::Growing(set) => {
                let set = set.read();
                let mut figures = set_figures(Mode::Fp64, &set, generated);
                figures.omission = Omission {
                    name: "birthday bound n(n-1)/2^65 over the states' 64-bit hashes",
                    value: GrowingSet::omission(figures.stored),
                };
                figures
            }
            Visited::Fp64(set) => set_figures(Mode::Fp64, set, generated),
            Visited::Fp32(set) => set_figures(Mode::Fp32, set, generated),
            Visited::Bitstate(bits) => {
                let stored = bits.len() as u64;
                let (m, k) = (bits.bits(), bits.hashes());
                let fill = bits.bits_set() as f64 / m as f64;
                Storage {
                    mode: Mode::Bitstate,
                    table_bytes,
                    slots: m,
                    stored,
                    bytes_per_state: k as f64 / 8.0,
                    fill,
                    hashes: Some(k),
                    omission: Omission {
                        name: "(stored + 1) * (fill^k + k^2 * fill / bits), this run's fill",
                        value: bitstate_omission_bound(stored, m, fill, k),
                    },
                    reached_missed: Some(bits.expected_miss_fraction()),
                    tlc_optimistic: None,
                    may_report_new_twice: true,
                }
            }
            Visited::Exact(set) => {
                let (stored, buckets) = set.len_and_buckets();
                Storage {
                    mode: Mode::Exact,
                    table_bytes,
                    slots: buckets,
                    stored,
                    bytes_per_state: table_bytes as f64 / stored.max(1) as f64,
                    fill: stored as f64 / buckets.max(1) as f64,
                    hashes: None,
                    omission: Omission {
                        name: "none: full states are compared",
                        value: 0.0,
                    },
                    reached_missed: None,
                    tlc_optimistic: None,
                    may_report_new_twice: false,
                }
            }
        }
    }
}

impl<S: Hash + Eq + Clone + Serialize + DeserializeOwned> Visited<S> {
    /// Writes the storage to `w`, while no insert runs (between BFS levels): the crate's own
    /// format for the compacted modes ([`searchcache::persist`]: versioned, checksummed), the
    /// count and then every state, in one frame (postcard, see `frame.rs`), for the exact
    /// mode.
    pub fn save(&self, w: &mut dyn Write) -> Result<(), String> {
        let crate_error = |e: searchcache::Error| e.to_string();
        match self {
            Visited::Growing(set) => set.read().save(w).map_err(crate_error),
            Visited::Fp64(set) => set.save(w).map_err(crate_error),
            Visited::Fp32(set) => set.save(w).map_err(crate_error),
            Visited::Bitstate(bits) => bits.save(w).map_err(crate_error),
            Visited::Exact(set) => frame::write(w, &ExactStates(set)).map_err(|e| e.to_string()),
        }
    }

    /// Reads storage that [`save`](Self::save) wrote for `mode` (with `memory_bytes` and, for
    /// bitstate, `hashes`): an error, never a panic, for bytes that are not such storage. At
    /// most `limit` bytes are read for the exact mode's states. `growing`: an fp64 set is a
    /// single process's [`GrowingSet`], capped at `memory_bytes`.
    pub fn load(
        mode: Mode,
        (memory_bytes, growing): (usize, bool),
        hashes: u32,
        r: &mut dyn Read,
        limit: u64,
    ) -> Result<Self, String> {
        let crate_error = |e: searchcache::Error| e.to_string();
        Ok(match mode {
            Mode::Fp64 if growing => Visited::Growing(GrowingSet::from_set(
                FingerprintSet::load(r).map_err(crate_error)?,
                memory_bytes,
            )),
            Mode::Fp64 => Visited::Fp64(FingerprintSet::load(r).map_err(crate_error)?),
            Mode::Fp32 => Visited::Fp32(CompactSet::load(r).map_err(crate_error)?),
            Mode::Bitstate => {
                let bits = Bitstate::load(r).map_err(crate_error)?;
                if bits.hashes() != hashes {
                    return Err(format!(
                        "the bit array uses {} hash functions, the header says {hashes}",
                        bits.hashes()
                    ));
                }
                Visited::Bitstate(bits)
            }
            Mode::Exact => {
                let frame_error = |e: FrameError| match e {
                    FrameError::Truncated => "the file is truncated".to_string(),
                    FrameError::Corrupted(why) => why,
                };
                let set = ExactSet::new(memory_bytes);
                let mut states = FrameReader::open(r, limit).map_err(frame_error)?;
                let count: u64 = states.next().map_err(frame_error)?;
                for _ in 0..count {
                    let state: S = states.next().map_err(frame_error)?;
                    match set.insert(&state, set.hash(&state)) {
                        Ok(true) => {}
                        Ok(false) => return Err("a state is stored twice".into()),
                        Err(full) => {
                            let full = exact_full(&set, full);
                            return Err(format!("{count} states do not fit: {full}"));
                        }
                    }
                }
                states.close().map_err(frame_error)?;
                Visited::Exact(set)
            }
        })
    }

    /// States the storage holds by its own count (bitstate: every `New`, racing duplicates
    /// included).
    pub fn stored(&self) -> u64 {
        match self {
            Visited::Growing(set) => set.read().len() as u64,
            Visited::Fp64(set) => set.len() as u64,
            Visited::Fp32(set) => set.len() as u64,
            Visited::Bitstate(bits) => bits.len() as u64,
            Visited::Exact(set) => set.len_and_buckets().0,
        }
    }
}

/// The storage for the inserts of one chunk of work ([`Visited::reader`]).
pub enum Reader<'a, S> {
    /// A growing set's table, its read lock held, and its cap.
    Growing(RwLockReadGuard<'a, FingerprintSet>, usize),
    /// Any other storage.
    Fixed(&'a Visited<S>),
}

impl<S: Hash + Eq + Clone> Reader<'_, S> {
    /// As [`Visited::insert`].
    #[inline]
    pub fn insert(&self, state: &S, key: StateHash) -> Result<bool, TableFull> {
        match self {
            Reader::Growing(set, _) => set
                .insert(key)
                .map(Inserted::is_new)
                .map_err(|full| table_full(Mode::Fp64, full, set.memory_bytes())),
            Reader::Fixed(visited) => visited.insert(state, key),
        }
    }

    /// As [`Visited::prefetch`].
    #[inline]
    pub fn prefetch(&self, key: StateHash) {
        match self {
            Reader::Growing(set, _) => set.prefetch(key),
            Reader::Fixed(visited) => visited.prefetch(key),
        }
    }

    /// Whether a full table here can still grow at the end of the level (a growing set below
    /// its cap): then a state that found it full waits for the grow instead of failing.
    #[inline]
    pub fn can_grow(&self) -> bool {
        match self {
            Reader::Growing(set, cap) => GrowingSet::can_grow(set, *cap),
            Reader::Fixed(_) => false,
        }
    }
}

/// The exact set as one value: its count (`u64`), then every state, shard by shard (a tuple,
/// so postcard writes no length of its own).
struct ExactStates<'a, S>(&'a ExactSet<S>);

impl<S: Hash + Eq + Clone + Serialize> Serialize for ExactStates<'_, S> {
    fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        use serde::ser::SerializeTuple;
        let (count, _) = self.0.len_and_buckets();
        let mut tuple = serializer.serialize_tuple(1 + count as usize)?;
        tuple.serialize_element(&count)?;
        self.0
            .try_for_each(|state| tuple.serialize_element(state))?;
        tuple.end()
    }
}

/// The figures of a fingerprint or compact set.
fn set_figures<S: searchcache::Signature>(
    mode: Mode,
    set: &searchcache::VisitedSet<S>,
    generated: u64,
) -> Storage {
    let stored = set.len() as u64;
    Storage {
        mode,
        table_bytes: set.memory_bytes(),
        slots: set.capacity(),
        stored,
        bytes_per_state: set.memory_bytes() as f64 / set.capacity() as f64,
        fill: set.load_factor(),
        hashes: None,
        omission: Omission {
            name: "Stern-Dill with this run's signature comparisons",
            value: set.omission_probability(),
        },
        reached_missed: None,
        tlc_optimistic: (mode == Mode::Fp64).then(|| omission::tlc_optimistic(stored, generated)),
        may_report_new_twice: false,
    }
}

/// A bound on the probability that a bitstate search missed any state, from what the run saw:
/// `stored` states set bits in an array of `bits` bits of which a fraction `fill` is set at
/// the end, `k` bits per state.
///
/// Why it holds (under the usual assumption that a state's hashes are random): until the first
/// miss, the distinct states offered are those of a complete search, each stored, so the first
/// miss, if any, is among the first `stored + 1` distinct states offered. A new state is missed
/// when all of its k bits are already set; at any time the fill is at most the final `fill`, so
/// for independent positions that chance is at most `fill^k`. The positions come from double
/// hashing (`a + i·b`), and are not independent when the step `b` is within a bit of a
/// multiple of `bits / q` for a `q < k` (then they fall on fewer than k distinct bits): that
/// has a chance below `k^2 / bits` and still needs the first bit set (`fill`). Summing over the
/// `stored + 1` candidates (a union bound) gives `(stored + 1)·(fill^k + k^2·fill/bits)`, at
/// most 1. `tests/coverage.rs` checks it against exact counts.
pub fn bitstate_omission_bound(stored: u64, bits: usize, fill: f64, k: u32) -> f64 {
    let (m, k) = (bits.max(1) as f64, k.max(1));
    let per_state = fill.powi(k as i32) + (k * k) as f64 * fill / m;
    ((stored as f64 + 1.0) * per_state).min(1.0)
}

/// Below this omission bound, an fp64 search counts as complete: one chance in a million.
pub const NEGLIGIBLE_OMISSION: f64 = 1e-6;

/// The visited storage of a run, after it: what it can say about the states it may have missed.
/// Only the bounds named here hold; no figure here says how many states a partial search
/// missed.
#[derive(Clone, Debug)]
pub struct Storage {
    /// How states were stored.
    pub mode: Mode,
    /// Bytes of the table: the whole `--memory` for the compacted modes (pages never touched
    /// cost no memory), what the hash sets hold for the exact mode.
    pub table_bytes: usize,
    /// Slots of the set (fp64, fp32), bits of the array (bitstate), buckets (exact).
    pub slots: usize,
    /// States the table stored (its own count; in bitstate, every `New`, racing duplicates
    /// included).
    pub stored: u64,
    /// What one more stored state costs: the slot (8 or 4 bytes), k bits at most (bitstate:
    /// k/8), or the exact set's bytes over its states.
    pub bytes_per_state: f64,
    /// Stored states over slots (fp64, fp32, exact), bits set over bits (bitstate).
    pub fill: f64,
    /// Bitstate's k, hash functions (bits set) per state.
    pub hashes: Option<u32>,
    /// An upper bound on the probability that the storage made the search miss any reachable
    /// state (and so everything behind it).
    pub omission: Omission,
    /// Bitstate: the expected fraction of the distinct states reached that it took for seen
    /// ([`Bitstate::expected_miss_fraction`]). The states behind a missed one are never
    /// reached, so `1 −` this is only an upper estimate of coverage.
    pub reached_missed: Option<f64>,
    /// TLC's "optimistic" figure n·(g − n)/2^64 for fp64, for users comparing with TLC's
    /// output (not a bound).
    pub tlc_optimistic: Option<f64>,
    /// Whether racing threads could both have been told that one state was new (bitstate), in
    /// which case [`crate::Stats::duplicates`] counts the copies dropped.
    pub may_report_new_twice: bool,
}

impl Storage {
    /// Whether the search may have missed reachable states because of the storage, so that
    /// "no error" is about the states visited only: always in bitstate and fp32 mode, in fp64
    /// mode when the omission bound is above [`NEGLIGIBLE_OMISSION`], never in exact mode.
    pub fn partial(&self) -> bool {
        match self.mode {
            Mode::Exact => false,
            Mode::Fp64 => self.omission.value > NEGLIGIBLE_OMISSION,
            Mode::Fp32 | Mode::Bitstate => true,
        }
    }

    /// An upper estimate of the fraction of reachable states visited, where one holds: for
    /// bitstate, `1 −` [`reached_missed`](Self::reached_missed) (the states behind a missed
    /// one are not counted, so the true coverage may be far lower). `None` in the other modes,
    /// whose only figure is the omission bound.
    pub fn coverage_at_most(&self) -> Option<f64> {
        self.reached_missed.map(|missed| 1.0 - missed)
    }

    /// Slots (fp64, fp32) or bits (bitstate) of table per stored state: SPIN's hash factor.
    pub fn hash_factor(&self) -> f64 {
        self.slots as f64 / self.stored.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full table after `level − 1` whole levels of `widths` (level 0 first).
    fn full_after(widths: &[u64], level: usize) -> TableFull {
        TableFull {
            mode: Mode::Fp64,
            capacity: 1 << 10,
            bytes_per_state: 8,
            memory_bytes: 8 << 10,
            load: 0.9,
            level,
            states: widths[..level].iter().sum(),
            last_widths: [widths[level - 3], widths[level - 2], widths[level - 1]],
        }
    }

    #[test]
    fn a_gaussian_profile_is_projected_to_its_total() {
        // Levels of 10^6·exp(−(d − 30)²/50): the projection is exact for this shape.
        let widths: Vec<u64> = (0..80)
            .map(|d: i32| (1e6 * (-f64::from((d - 30).pow(2)) / 50.0).exp()).round() as u64)
            .collect();
        let total: u64 = widths.iter().sum();
        for level in [20, 25, 30, 40] {
            let estimate = full_after(&widths, level).states_estimate().unwrap();
            let error = (estimate as f64 / total as f64 - 1.0).abs();
            assert!(error < 0.01, "level {level}: {estimate} for {total}");
        }
    }

    #[test]
    fn shrinking_and_steady_levels_have_bounded_estimates() {
        // Halving from the start: the geometric tail, 1,000 + 500 + … ≈ 2,000 in all.
        let halving: Vec<u64> = (0..12).map(|d| 8_000 >> d).collect();
        let estimate = full_after(&halving, 4).states_estimate().unwrap();
        assert!((14_900..=16_100).contains(&estimate), "{estimate}");
        // Steady growth ×2: as many levels again at most, never without end.
        let doubling: Vec<u64> = (0..20).map(|d| 1 << d).collect();
        let full = full_after(&doubling, 10);
        let estimate = full.states_estimate().unwrap();
        assert!(
            estimate > 2 * full.states && estimate < 1 << 21,
            "{estimate}"
        );
        assert_eq!(full.bytes_needed(), full.memory_bytes * MAX_GROWTH);
        // Growth of 1.7x slowing by 0.1% a level (paxos 3's exact run, full at level 17): steady
        // for 17 levels more, not e^140 states (it printed 9,223,372,036,867,274,424).
        let widths = [1_000_000u64, 1_701_000, 2_890_000];
        let full = TableFull {
            level: 17,
            states: 6_000_000,
            last_widths: widths,
            ..full_after(&doubling, 10)
        };
        let estimate = full.states_estimate().unwrap();
        let steady: f64 = (1..=17).map(|k| 2_890_000.0 * 1.699f64.powi(k)).sum();
        assert!((estimate as f64) < 2.0 * steady, "{estimate}");
        assert!(estimate > 2 * full.states, "{estimate}");
    }

    /// The growing set's docs: its birthday bound passes the negligible one at 6.1 M states.
    #[test]
    fn a_growing_set_is_negligible_up_to_6_1_million_states() {
        assert!(GrowingSet::omission(6_000_000) < NEGLIGIBLE_OMISSION);
        assert!(GrowingSet::omission(6_200_000) > NEGLIGIBLE_OMISSION);
    }

    #[test]
    fn the_advice_is_at_least_twice_and_whole_kib() {
        let flat = [100u64; 10];
        let full = full_after(&flat, 8);
        assert_eq!(full.bytes_needed(), 2 * full.memory_bytes);
        let unknown = TableFull {
            last_widths: [0, 0, 7],
            ..full
        };
        assert_eq!(unknown.states_estimate(), None);
        assert_eq!(unknown.bytes_needed(), 2 * unknown.memory_bytes);
        assert_eq!(round_size(1025), 2048);
        assert_eq!(round_size((1 << 20) + 1), 2 << 20);
    }
}
