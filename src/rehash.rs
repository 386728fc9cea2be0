//! Rehashing a keyed fingerprint set into a larger table: where each stored signature goes.
//!
//! With [`crate::StateHash::from_u64`] keys, a `FingerprintSet` stores `mix64(key)` and takes the
//! home line from the same value, `scale(mix64(key), lines)`: the slot alone says where the
//! state belongs in a table of any size. The one signature that is not `mix64(key)` is
//! [`Signature::ZERO_STAND_IN`], which key 0 (whose mix is 0, the empty slot) stores instead,
//! and which is also `mix64` of one other key; [`home`] tells the two apart by where the slot
//! lies (see there).

use crate::mix::scale;
use crate::signature::{self, Line, Signature};

/// The slots a walk from `home` visits, in order, as `(line, slot)`: `walk` lines from `home`,
/// wrapping at the end of `lines`.
fn slots<S: Signature>(
    lines: &[Line],
    home: usize,
    walk: usize,
) -> impl Iterator<Item = (usize, usize)> {
    let n = lines.len();
    (0..walk).flat_map(move |j| (0..S::PER_LINE).map(move |i| ((home + j) % n, i)))
}

/// Where a lookup of `signature` from `home` stops in `lines`: the slot holding it, or `None`
/// (an empty slot or the walk's end came first).
fn found<S: Signature>(
    lines: &[Line],
    home: usize,
    walk: usize,
    signature: u64,
) -> Option<(usize, usize)> {
    for (line, i) in slots::<S>(lines, home, walk) {
        match signature::load::<S>(&lines[line], i) {
            0 => return None,
            s if s == signature => return Some((line, i)),
            _ => {}
        }
    }
    None
}

/// The home line, in a table of `new_lines`, of the keyed signature `signature` stored at
/// `at` in `old`.
///
/// For [`Signature::ZERO_STAND_IN`]: key 0's home (line 0) if a lookup from line 0 in `old`
/// stops at `at`, else the other key's. The two walks cannot meet in a table of more than
/// `(WALK_LINES + 1) / (1 − 0.618)`, about 2,700 lines, since the other key's home is at 0.618
/// of the table; in a smaller one, that other key's slot may be taken for key 0's, and that key is then
/// reported `New` once more after the grow (a state explored twice, never one lost).
fn home<S: Signature>(
    old: &[Line],
    walk: usize,
    at: (usize, usize),
    signature: u64,
    new_lines: usize,
) -> usize {
    let stand_in = S::ZERO_STAND_IN.to_u64();
    if signature == stand_in && found::<S>(old, 0, walk, stand_in) == Some(at) {
        0
    } else {
        scale(signature, new_lines)
    }
}

/// Puts `signature` in the first empty slot of its walk from `home` in `lines` (which only this
/// thread writes): `false` if the walk has none.
fn place<S: Signature>(lines: &[Line], home: usize, walk: usize, signature: u64) -> bool {
    slots::<S>(lines, home, walk)
        .any(|(line, i)| signature::claim::<S>(&lines[line], i, signature).is_ok())
}

/// Copies every signature of `old` (a keyed set) into `new` (larger and empty) at its home in
/// `new`. `false` if some walk in `new` had no free slot: `new` is then partly filled, to be
/// dropped. Walks are `walk(lines)` lines long.
pub(crate) fn rehash<S: Signature>(
    old: &[Line],
    new: &[Line],
    walk: impl Fn(usize) -> usize,
) -> bool {
    let (old_walk, new_walk) = (walk(old.len()), walk(new.len()));
    (0..old.len()).all(|line| {
        (0..S::PER_LINE).all(|i| match signature::load::<S>(&old[line], i) {
            0 => true,
            s => {
                let home = home::<S>(old, old_walk, (line, i), s, new.len());
                place::<S>(new, home, new_walk, s)
            }
        })
    })
}
