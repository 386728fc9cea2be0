//! Bitstate: the measured loss on 10^6 distinct states against the Bloom prediction, and the
//! array's guarantees.

use searchcache::consts::MAX_HASHES;
use searchcache::omission::bloom_miss;
use searchcache::{Bitstate, Error, Inserted, Size, StateHash};

/// Offers `offered` distinct states; returns the number reported `Present` (all false: missed).
fn missed(table: &Bitstate, offered: u64, hash: fn(u64) -> StateHash) -> u64 {
    (0..offered)
        .filter(|&i| table.insert(hash(i)) == Inserted::Present)
        .count() as u64
}

/// The measured fraction of missed states lies within 3 % (plus 4 standard deviations of the
/// count) of `bloom_miss(offered, bits, k)`, and so does the estimate the array makes from the
/// states it stored.
fn loss_matches_prediction(bytes: usize, k: u32, offered: u64, hash: fn(u64) -> StateHash) {
    let table = Bitstate::new(Size::Bytes(bytes), k).unwrap();
    let lost = missed(&table, offered, hash);
    assert_eq!(table.len() as u64, offered - lost);
    let measured = lost as f64 / offered as f64;
    let predicted = bloom_miss(offered, table.bits() as u64, k);
    let estimated = table.expected_miss_fraction();
    assert!(
        (estimated - predicted).abs() <= 0.01 * predicted,
        "estimate from len() {estimated} vs {predicted}"
    );
    eprintln!(
        "{bytes} bytes, k = {k}: measured {measured:.5}, predicted {predicted:.5}, estimated from len {estimated:.5}"
    );
    let sigma = (predicted * offered as f64).sqrt() / offered as f64;
    let tolerance = 0.03 * predicted + 4.0 * sigma;
    assert!(
        (measured - predicted).abs() <= tolerance,
        "{bytes} bytes, k = {k}: measured {measured:.5} ({lost} states), predicted {predicted:.5}"
    );
    // Every stored state, and every missed one, reads as present now.
    assert!((0..offered).step_by(997).all(|i| table.contains(hash(i))));
}

#[test]
fn measured_loss_matches_bloom_prediction() {
    // One byte per state, SPIN's k = 3: about 1 % missed.
    loss_matches_prediction(1_000_000, 3, 1_000_000, |i| StateHash::of(&i));
    // Half a byte per state, k = 2: about 7 % missed.
    loss_matches_prediction(500_000, 2, 1_000_000, |i| StateHash::of(&i));
    // Structured 64-bit keys as both hashes (a checker's Zobrist keys): same law.
    loss_matches_prediction(1_000_000, 3, 1_000_000, StateHash::from_u64);
    // k = 1 (a plain hash table of bits) on portable hashes.
    loss_matches_prediction(250_000, 1, 1_000_000, |i| {
        StateHash::portable(&i.to_le_bytes())
    });
}

#[test]
fn inserted_states_stay_present() {
    let table = Bitstate::new(Size::Mib(1), 3).unwrap();
    for i in 0..10_000u64 {
        table.prefetch(StateHash::of(&i));
        let _ = table.insert(StateHash::of(&i));
        assert_eq!(table.insert(StateHash::of(&i)), Inserted::Present);
    }
    assert!((0..10_000u64).all(|i| table.contains(StateHash::of(&i))));
    // At 10^4 states in 2^23 bits nothing is missed in practice, and at most 3 bits per state.
    assert!(table.len() > 9_990);
    assert!(table.bits_set() <= 3 * table.len());
    assert!(table.expected_miss_fraction() < 1e-6);
}

#[test]
fn concurrent_inserts_lose_nothing_they_stored() {
    let table = Bitstate::new(Size::Mib(4), 3).unwrap();
    let news = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..3u64 {
            let (table, news) = (&table, &news);
            s.spawn(move || {
                // Every state by two threads.
                for i in (0..200_000u64).filter(|i| i % 3 == t || (i + 1) % 3 == t) {
                    if table.insert(StateHash::of(&i)).is_new() {
                        news.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert!((0..200_000u64).all(|i| table.contains(StateHash::of(&i))));
    // Racing inserts of one state may both be New (a duplicate, never a loss): len counts them.
    assert_eq!(table.len() as u64, news.into_inner());
    assert!(table.len() >= 199_000, "{}", table.len());
}

#[test]
fn sizes_and_hash_counts() {
    let table = Bitstate::new(Size::Mib(1), 0).unwrap();
    assert_eq!(table.hashes(), 1);
    assert_eq!(table.bits(), 8 << 20);
    assert_eq!(table.memory_bytes(), 1 << 20);
    assert_eq!(
        Bitstate::new(Size::Mib(1), 1000).unwrap().hashes(),
        MAX_HASHES
    );
    assert_eq!(Bitstate::new(Size::Entries(1000), 3).unwrap().bits(), 1024);
    assert!(matches!(
        Bitstate::new(Size::Bytes(10), 3),
        Err(Error::ZeroSize { .. })
    ));
    assert!(Bitstate::new(Size::Mib(usize::MAX), 3).is_err());
}

#[test]
fn clear_forgets_everything() {
    let mut table = Bitstate::new(Size::Bytes(4096), 3).unwrap();
    for i in 0..100u64 {
        let _ = table.insert(StateHash::of(&i));
    }
    assert!(table.bits_set() > 0);
    table.clear();
    assert_eq!(table.bits_set(), 0);
    assert!(table.is_empty());
    assert_eq!(table.insert(StateHash::of(&1u64)), Inserted::New);
}
