//! A worker's memory of the successors it already placed (sent to their owners, or queued for
//! its own set), so that a duplicate is dropped before it is serialized and exchanged, or
//! looked up in the set (most successors are duplicates: 2PC-9 has 12 transitions per state).
//!
//! Lossy, never wrong. It is a direct-mapped array of the last successor sent through each
//! slot: a duplicate whose slot another successor took since is sent again, and its owner's
//! set finds it present, as without the filter. A successor is dropped only when its full
//! 128-bit portable key equals the one remembered in its slot (and, when the owner's set tells
//! states apart by value, `--mode exact`, its state equals the remembered state too). The
//! owner's set is a function of that identity: the fp64, fp32 and bitstate sets map a key to
//! the same slot, signature or bits every time, and the exact set compares states; so the
//! owner, which received the first copy earlier in this search, would have found this one
//! present, and the counts, depth, violations and traces do not change (a worker's own
//! successors go into its set in order, so the first copy is inserted first there too).

use searchcache::StateHash;

/// The most slots of a filter (16 bytes each, 4 GiB).
pub const MAX_SLOTS: usize = 1 << 28;

/// A worker's filter of the successors it placed (see the module documentation).
pub struct SentFilter<S> {
    /// The key of the successor sent last through each slot; 0 is an empty slot, so a key
    /// of 0 is never remembered.
    keys: Vec<u128>,
    /// Its state, when states are compared (else empty).
    states: Vec<Option<S>>,
    mask: usize,
}

impl<S: Clone + Eq> SentFilter<S> {
    /// A filter of `slots` slots, rounded up to a power of two (0: no filter, which drops
    /// nothing); `compare_states` when the owners' sets tell states apart by value. Errors:
    /// more than [`MAX_SLOTS`] slots, or no memory for them.
    pub fn new(slots: usize, compare_states: bool) -> Result<Self, String> {
        if slots > MAX_SLOTS {
            return Err(format!(
                "a filter of {slots} slots: at most {MAX_SLOTS} are allowed"
            ));
        }
        let slots = if slots == 0 {
            0
        } else {
            slots.next_power_of_two()
        };
        let no_memory = |e| format!("no memory for a filter of {slots} slots: {e}");
        let mut keys = Vec::new();
        keys.try_reserve_exact(slots).map_err(no_memory)?;
        keys.resize(slots, 0);
        let mut states = Vec::new();
        if compare_states {
            states.try_reserve_exact(slots).map_err(no_memory)?;
            states.resize(slots, None);
        }
        Ok(SentFilter {
            keys,
            states,
            mask: slots.saturating_sub(1),
        })
    }

    /// Slots of the filter (0 when it is off).
    pub fn slots(&self) -> usize {
        self.keys.len()
    }

    /// Whether the successor `state` of portable key `key` is the one remembered in its slot:
    /// it was placed before, and the caller drops it. Otherwise the filter remembers it in
    /// place of the slot's previous one, and the caller sends or inserts it.
    #[must_use]
    #[inline]
    pub fn sent_before(&mut self, key: StateHash, state: &S) -> bool {
        let Some(slot) = self.slot(key) else {
            return false;
        };
        let key = key.to_u128();
        if key == 0 {
            return false;
        }
        if self.keys[slot] == key {
            match self.states.get(slot) {
                None => return true,
                Some(Some(remembered)) if remembered == state => return true,
                Some(_) => {}
            }
        }
        self.keys[slot] = key;
        if let Some(remembered) = self.states.get_mut(slot) {
            *remembered = Some(state.clone());
        }
        false
    }

    /// Starts loading the slot [`sent_before`](Self::sent_before)`(key, _)` will read.
    #[inline]
    pub fn prefetch(&self, key: StateHash) {
        if let Some(slot) = self.slot(key) {
            searchcache::prefetch(&self.keys[slot]);
        }
    }

    /// The slot of `key`: the low bits of its signature, unrelated to its owner (the owner
    /// is a mix of the index).
    #[inline]
    fn slot(&self, key: StateHash) -> Option<usize> {
        (!self.keys.is_empty()).then_some(key.signature as usize & self.mask)
    }
}
