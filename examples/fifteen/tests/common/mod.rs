//! Helpers shared by the pattern-database tests of both board sizes.

use fifteen::rank::Ranking;
use std::collections::VecDeque;

/// The abstract distance of every placement of `tiles` (by compact rank) on a `side`×`side`
/// board, by a plain 0-1 breadth-first search over (placement, blank cell) with the blank on
/// cell 0 at the goal: written apart from the builder, to check it entry by entry.
pub fn reference_distances(tiles: &[u8], side: u8) -> Vec<u8> {
    let cells = usize::from(side) * usize::from(side);
    let ranking = Ranking::new(tiles.len(), cells);
    let n = ranking.count();
    let mut dist = vec![u8::MAX; n * cells];
    let mut best = vec![u8::MAX; n];
    let mut queue = VecDeque::from([(tiles.to_vec(), 0u8, 0u8)]);
    dist[ranking.rank(tiles) as usize * cells] = 0;
    while let Some((placed, blank, d)) = queue.pop_front() {
        let rank = ranking.rank(&placed) as usize;
        if dist[rank * cells + usize::from(blank)] < d {
            continue;
        }
        best[rank] = best[rank].min(d);
        let (r, c) = (blank / side, blank % side);
        let steps = [
            (r > 0).then(|| blank - side),
            (c > 0).then(|| blank - 1),
            (c + 1 < side).then(|| blank + 1),
            (r + 1 < side).then(|| blank + side),
        ];
        for to in steps.into_iter().flatten() {
            let mut next = placed.clone();
            let cost = match next.iter().position(|&x| x == to) {
                Some(s) => {
                    next[s] = blank;
                    1
                }
                None => 0,
            };
            let at = ranking.rank(&next) as usize * cells + usize::from(to);
            if d + cost < dist[at] {
                dist[at] = d + cost;
                if cost == 0 {
                    queue.push_front((next, to, d));
                } else {
                    queue.push_back((next, to, d + 1));
                }
            }
        }
    }
    best
}
