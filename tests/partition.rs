//! `owner`: even over the owners, and independent of the bits each owner's set uses (its line
//! index, its signature, its bitstate positions); a partition on the line's own bits fails the
//! same checks, so they can fail.

use searchcache::{mix64, owner, FingerprintSet, Full, Size, StateHash};

/// Portable hashes of counters, as a distributed checker would compute them.
fn hashes(count: u64) -> impl Iterator<Item = StateHash> {
    (0..count).map(|i| StateHash::portable(&i.to_le_bytes()))
}

/// The line a set of `lines` lines gives a hash (the multiply-shift of `src/set.rs`).
fn line(hash: StateHash, lines: usize) -> usize {
    ((mix64(hash.index) as u128 * lines as u128) >> 64) as usize
}

/// A partition that reads the set's own line bits: what `owner` must not be.
fn by_line_bits(hash: StateHash, owners: usize) -> usize {
    line(hash, owners)
}

/// Every owner's share and every (owner, line) cell within 5 standard deviations of its mean.
fn spreads_over_lines(partition: fn(StateHash, usize) -> usize, owners: usize) -> bool {
    const LINES: usize = 256;
    const COUNT: u64 = 400_000;
    let mut cells = vec![0u64; owners * LINES];
    for h in hashes(COUNT) {
        cells[partition(h, owners) * LINES + line(h, LINES)] += 1;
    }
    let within = |count: u64, mean: f64| (count as f64 - mean).abs() <= 5.0 * mean.sqrt() + 1.0;
    let cell_mean = COUNT as f64 / (owners * LINES) as f64;
    let share_mean = COUNT as f64 / owners as f64;
    cells.iter().all(|&c| within(c, cell_mean))
        && cells
            .chunks(LINES)
            .all(|lines| within(lines.iter().sum(), share_mean))
}

#[test]
fn owners_are_even_and_independent_of_the_line() {
    for owners in [2, 3, 5, 8] {
        assert!(spreads_over_lines(owner, owners), "{owners} owners");
        assert!(
            !spreads_over_lines(by_line_bits, owners),
            "the line-bit partition passed with {owners} owners: the check cannot fail"
        );
    }
}

#[test]
fn signature_bits_keep_their_entropy_within_an_owner() {
    const COUNT: u64 = 200_000;
    let owners = 4;
    let mut ones = vec![[0u64; 64]; owners];
    let mut counts = vec![0u64; owners];
    for h in hashes(COUNT) {
        let o = owner(h, owners);
        counts[o] += 1;
        let signature = mix64(h.signature);
        for (bit, count) in ones[o].iter_mut().enumerate() {
            *count += signature >> bit & 1;
        }
    }
    for (o, bits) in ones.iter().enumerate() {
        let n = counts[o] as f64;
        for (bit, &set) in bits.iter().enumerate() {
            let deviation = (set as f64 - n / 2.0).abs() / (n / 4.0).sqrt();
            assert!(
                deviation < 5.0,
                "owner {o}, signature bit {bit}: {set} of {n}"
            );
        }
    }
}

/// The set itself: the states of one owner out of 4 fill a set to 0.85 load without `Full`,
/// where the line-bit partition's states, all in one quarter of the lines, cannot.
#[test]
fn one_owners_states_fill_its_whole_set() {
    fn fill(partition: fn(StateHash, usize) -> usize) -> Result<usize, Full> {
        let set = FingerprintSet::new(Size::Bytes(1 << 20)).expect("1 MiB set");
        let target = (set.capacity() as f64 * 0.85) as usize;
        let mut stored = 0;
        for h in hashes(u64::MAX).filter(|&h| partition(h, 4) == 0) {
            set.insert(h)?;
            stored += 1;
            if stored == target {
                break;
            }
        }
        assert!((set.load_factor() - 0.85).abs() < 1e-3);
        Ok(stored)
    }
    let capacity = FingerprintSet::new(Size::Bytes(1 << 20))
        .expect("1 MiB set")
        .capacity();
    assert_eq!(
        fill(owner).expect("owner 0's states fit"),
        (capacity as f64 * 0.85) as usize
    );
    assert!(
        fill(by_line_bits).is_err(),
        "line-bit partition filled the set"
    );
}

#[test]
fn every_owner_is_in_range_and_zero_owners_is_one() {
    for h in hashes(10_000) {
        assert_eq!(owner(h, 1), 0);
        assert_eq!(owner(h, 0), 0);
        assert!(owner(h, 7) < 7);
        assert!(owner(h, usize::MAX) < usize::MAX);
    }
}

/// The documented formula, and pinned values (computed once with this implementation): the
/// owner of a portable hash is a contract between processes of different builds, so a change
/// to the formula must fail here.
#[test]
fn owner_is_the_documented_formula_and_pinned() {
    for h in hashes(1000) {
        let low = mix64(h.index) & 0xffff_ffff;
        assert_eq!(owner(h, 6), ((low * 6) >> 32) as usize);
    }
    let got: Vec<usize> = hashes(8).map(|h| owner(h, 5)).collect();
    assert_eq!(got, [0, 3, 1, 1, 4, 2, 1, 0]);
}
