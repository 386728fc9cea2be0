//! The replacement rule of every table layout: which entry a store overwrites when no entry
//! holds its key. One ranking (`worth`), shared by the wide, dense and cluster layouts; the
//! wide and cluster stores scan with `victim`, the dense store with its own forward scan of the
//! same result (`dense_line::choose` says why). The rule's tests run on
//! all three (tests/table.rs: depth against age, empty entries first, the first of equals);
//! which entry an equal-ranked store takes shows only in a saved file, which tests/persist.rs
//! checks for the dense table (a scan that took the last of equals there fails it).

use crate::pack::{age, Pack64};
use std::hint::select_unpredictable;
use std::ops::Range;

/// The first empty entry of `entries`, else the first of the entries whose
/// `depth − AGE_WEIGHT · age` is least; and whether the entry chosen is occupied (the store
/// evicts). `entry(i)` is `None` for an empty entry, else its value and the generation it was
/// written in; `now` is the current generation.
///
/// Branch-free on table memory (`select_unpredictable`, scanning backwards so that the first
/// of equals wins), as the tables' key scans; empty entries rank below every occupied one,
/// since worths are `i32`s.
#[inline(always)]
pub(crate) fn victim<V: Pack64>(
    entries: Range<usize>,
    now: u8,
    entry: impl Fn(usize) -> Option<(V, u8)>,
) -> (usize, bool) {
    let (mut victim, mut victim_worth) = (entries.start, i64::MAX);
    for i in entries.rev() {
        let worth = worth(entry(i), now);
        let lower = worth <= victim_worth;
        victim = select_unpredictable(lower, i, victim);
        victim_worth = select_unpredictable(lower, worth, victim_worth);
    }
    (victim, victim_worth != i64::MIN)
}

/// What the rule ranks an entry by: `i64::MIN` for an empty one (`None`), else its value's
/// `depth − AGE_WEIGHT · age` (an `i32`, so above every empty entry), `age` counted from the
/// generation it was written in to `now`. A store evicts the entry of least worth.
#[inline(always)]
pub(crate) fn worth<V: Pack64>(entry: Option<(V, u8)>, now: u8) -> i64 {
    match entry {
        Some((old, generation)) => {
            let old_age = i32::from(age(now, generation));
            i64::from(
                old.depth()
                    .saturating_sub(V::AGE_WEIGHT.saturating_mul(old_age)),
            )
        }
        None => i64::MIN,
    }
}
