//! Time management: how long to think, from the clock `go` reports.
//!
//! A fixed `go movetime N` searches N less a margin of `min(Move Overhead, N / 10)` ms, and at
//! least 5 ms ([`fixed_move_time`]): the overhead protects a clock, and a fixed move time has
//! none to lose. A clock is managed as follows.
//!
//! Two limits. The *soft* limit is checked between iterations: no new iteration starts after half
//! of it, because the next one usually costs about as much as all before it; the search scales
//! it by how clear and how stable its best move is ([`soft_scale`], 0.4 to 2.5). The *hard* limit
//! stops a running iteration. Both leave `Move Overhead` for the GUI's and the pipe's latency,
//! and neither exceeds a quarter of the clock left after the overhead, whatever `movestogo`
//! says (`movestogo 0` counts as not given). At 1+0.01 with 50 ms of overhead the first move
//! gets a soft limit of 54 ms and a hard limit of 216 ms; a clock of 150 ms gets a soft limit
//! under 10 ms, less than the increment, so the clock recovers (depth 1 always completes, in
//! well under a millisecond).

use std::time::{Duration, Instant};

/// What `go` says about the clock, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, ms.
    pub time_ms: Option<u64>,
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u64>,
    /// A fixed time for this move, ms.
    pub move_time_ms: Option<u64>,
}

/// Moves the remaining time is spread over when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u64 = 20;
/// The hard limit may exceed the soft one by this factor…
const HARD_FACTOR: u64 = 4;
/// …but neither limit uses more than this fraction (1/MAX_SHARE) of what is left.
const MAX_SHARE: u64 = 4;

/// A fixed `movetime` keeps back at most this fraction (1/FIXED_MARGIN_SHARE) of itself…
const FIXED_MARGIN_SHARE: u64 = 10;
/// …and searches at least this long, ms, however short it is.
const MIN_FIXED_SEARCH_MS: u64 = 5;

/// The search time of a fixed `go movetime`: the movetime less a safety margin that shrinks with
/// it, `min(Move Overhead, movetime / 10)`, and never under 5 ms. `Move Overhead` protects a
/// clock from a forfeit; a fixed movetime has no clock to lose, so taking all of the overhead
/// from a short one (50 − 50 ms) left depth 1 and lost games. `movetime 50` searches 45 ms,
/// `movetime 1000` 950 ms (with the default 50 ms overhead), `movetime 2` 5 ms.
pub fn fixed_move_time(move_time_ms: u64, overhead_ms: u64) -> u64 {
    let margin = overhead_ms.min(move_time_ms / FIXED_MARGIN_SHARE);
    (move_time_ms - margin).max(MIN_FIXED_SEARCH_MS)
}

/// The largest soft-limit scale: 2.5 × soft / 2 stays below the hard limit's 4 × soft where the
/// clock does not cap both (where it does, the hard limit still ends the iteration).
const SCALE_MAX: f64 = 2.5;
/// The smallest: even a clear best move gets 40 % of the planned time.
const SCALE_MIN: f64 = 0.4;

/// How much of the planned (soft) time the search should use, from what the last iteration
/// said about the position:
/// - `best_move_node_share`, the fraction of the iteration's root nodes the best move took. A
///   move that refutes all others quickly takes most of them (clear: less time); one whose
///   rivals needed as much work is a close call (more time). The scale is `(1.5 − share) · 1.35`,
///   so 0.68 at a share of 1, 1.35 at 0.5.
/// - `stable_iterations`, how many iterations in a row the best move has stayed the same: a
///   move that just changed gets 1.4 times more, one stable for 4 or more 0.8 times.
///
/// The product is clamped to 0.4..=2.5.
pub fn soft_scale(best_move_node_share: f64, stable_iterations: u32) -> f64 {
    let share = if best_move_node_share.is_nan() {
        0.5
    } else {
        best_move_node_share.clamp(0.0, 1.0)
    };
    let by_nodes = (1.5 - share) * 1.35;
    let by_stability = match stable_iterations {
        0 => 1.4,
        1 => 1.15,
        2 => 1.0,
        3 => 0.9,
        _ => 0.8,
    };
    (by_nodes * by_stability).clamp(SCALE_MIN, SCALE_MAX)
}

/// The deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl Deadlines {
    /// Deadlines for a search starting at `start`; `overhead_ms` is kept in reserve.
    pub fn new(start: Instant, clock: &Clock, overhead_ms: u64) -> Self {
        let (soft, hard) = if let Some(fixed) = clock.move_time_ms {
            let t = fixed_move_time(fixed, overhead_ms);
            (t, t)
        } else if let Some(left) = clock.time_ms {
            let usable = left.saturating_sub(overhead_ms).max(1);
            let moves = clock
                .moves_to_go
                .filter(|&m| m > 0)
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .min(60);
            // Three quarters of the increment, but only while the clock holds 40 increments or
            // more: below that the share shrinks in proportion, so a short clock grows back
            // instead of settling a few milliseconds above the overhead, where one scheduling
            // hiccup loses on time.
            // (u128 and saturation: `go` may carry any u64, and none may overflow.)
            let inc = u128::from(clock.inc_ms);
            let full_share_above = (40 * inc).max(1);
            let share = inc * 3 / 4 * u128::from(usable).min(full_share_above) / full_share_above;
            let increment_share = u64::try_from(share).unwrap_or(u64::MAX);
            let cap = (usable / MAX_SHARE).max(1);
            let soft = (usable / moves)
                .saturating_add(increment_share)
                .min(cap)
                .max(1);
            let hard = soft.saturating_mul(HARD_FACTOR).min(cap).max(soft);
            (soft, hard)
        } else {
            return Deadlines {
                start,
                soft: None,
                hard: None,
            };
        };
        Deadlines {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    /// No time limit (depth, nodes or infinite searches).
    pub fn unlimited(start: Instant) -> Self {
        Deadlines {
            start,
            soft: None,
            hard: None,
        }
    }

    /// Whether there is a clock limit at all.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether a new iteration should not start, the soft limit scaled by `scale` (see
    /// [`soft_scale`]; 1 for none). Whatever the scale, the hard limit still ends the iteration.
    /// A scale that is not a number counts as 1.
    pub fn soft_expired(&self, scale: f64) -> bool {
        let scale = if scale.is_nan() {
            1.0
        } else {
            scale.clamp(0.0, SCALE_MAX)
        };
        self.soft
            .is_some_and(|soft| self.elapsed() >= soft.mul_f64(scale) / 2)
    }

    /// Whether the running iteration must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extreme_clocks_do_not_overflow() {
        let start = Instant::now();
        for time in [0, 1, 50, 1_000, 300_000, u64::MAX] {
            for inc in [0, 10, u64::MAX] {
                for moves_to_go in [None, Some(0), Some(1), Some(u64::MAX)] {
                    let clock = Clock {
                        time_ms: Some(time),
                        inc_ms: inc,
                        moves_to_go,
                        move_time_ms: None,
                    };
                    let d = Deadlines::new(start, &clock, 50);
                    assert!(d.soft <= d.hard);
                    // Never more than a quarter of the clock (after the overhead), but at
                    // least a millisecond.
                    let quarter = (time.saturating_sub(50) / 4).max(1);
                    assert!(d.hard.unwrap() <= Duration::from_millis(quarter), "{d:?}");
                }
            }
        }
        let fixed = Clock {
            move_time_ms: Some(u64::MAX),
            ..Clock::default()
        };
        assert!(Deadlines::new(start, &fixed, u64::MAX).hard.is_some());
    }

    #[test]
    fn the_soft_scale_spends_more_on_close_and_changing_choices() {
        // A clear, stable move takes less than a close or a new one, within the bounds.
        assert!(soft_scale(0.9, 5) < soft_scale(0.3, 5));
        assert!(soft_scale(0.6, 5) < soft_scale(0.6, 0));
        for share in [f64::NAN, -1.0, 0.0, 0.5, 1.0, 7.0] {
            for stable in [0, 1, 2, 3, 4, 100] {
                let scale = soft_scale(share, stable);
                assert!((SCALE_MIN..=SCALE_MAX).contains(&scale), "{share} {stable}");
            }
        }
        assert_eq!(soft_scale(1.0, 5), SCALE_MIN.max(0.5 * 1.35 * 0.8));
        assert_eq!(soft_scale(0.0, 0), SCALE_MAX);
    }

    #[test]
    fn the_scaled_soft_limit_stays_below_the_hard_one() {
        let clock = Clock {
            time_ms: Some(10_000),
            inc_ms: 100,
            moves_to_go: None,
            move_time_ms: None,
        };
        let d = Deadlines::new(Instant::now(), &clock, 50);
        let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
        assert!(soft.mul_f64(SCALE_MAX) / 2 < hard, "{d:?}");
        // Any scale, even absurd ones, is clamped.
        let later = Deadlines {
            start: Instant::now() - soft.mul_f64(SCALE_MAX) / 2,
            ..d
        };
        assert!(later.soft_expired(f64::INFINITY));
        assert!(later.soft_expired(f64::NAN), "NaN counts as 1");
        let early = Deadlines {
            start: Instant::now(),
            ..d
        };
        assert!(!early.soft_expired(f64::NAN) && !early.soft_expired(1.0));
        assert!(early.soft_expired(0.0), "a zero scale stops at once");
    }

    #[test]
    fn a_fixed_movetime_keeps_a_margin_that_shrinks_with_it() {
        let start = Instant::now();
        let fixed = |move_time, overhead| {
            let clock = Clock {
                move_time_ms: Some(move_time),
                ..Clock::default()
            };
            let d = Deadlines::new(start, &clock, overhead);
            assert_eq!(d.soft, d.hard);
            d.hard.unwrap().as_millis() as u64
        };
        // A tenth at most, so a short movetime still searches (50 − 50 left 1 ms: depth 1)…
        assert_eq!(fixed(50, 50), 45);
        assert_eq!(fixed(100, 50), 90);
        // …the overhead at most, so a long one is the clock's usual margin…
        assert_eq!(fixed(1_000, 50), 950);
        assert_eq!(fixed(10_000, 50), 9_950);
        assert_eq!(fixed(1_000, 0), 1_000);
        assert_eq!(fixed(1_000, 5_000), 900);
        // …and never under 5 ms.
        for tiny in [0, 1, 2, 5] {
            assert_eq!(fixed(tiny, 50), 5, "movetime {tiny}");
        }
        assert_eq!(fixed(u64::MAX, u64::MAX), u64::MAX - u64::MAX / 10);
        for move_time in [6, 49, 51, 99, 101, 499, 501, 5_001] {
            let t = fixed(move_time, 50);
            assert!(
                t <= move_time && t >= move_time - move_time / 10,
                "{move_time}: {t}"
            );
        }
    }

    #[test]
    fn one_plus_one_hundredth() {
        let start = Instant::now();
        let clock = |time| Clock {
            time_ms: Some(time),
            inc_ms: 10,
            moves_to_go: None,
            move_time_ms: None,
        };
        let first = Deadlines::new(start, &clock(1_000), 50);
        assert_eq!(first.soft, Some(Duration::from_millis(54)));
        assert_eq!(first.hard, Some(Duration::from_millis(216)));
        // A short clock plans less than the increment, so it grows back.
        let short = Deadlines::new(start, &clock(150), 50);
        assert!(short.soft.unwrap() < Duration::from_millis(10), "{short:?}");
    }
}
