//! Self-play games for the tuner: the engine against itself at a fixed node count per move,
//! from a few random legal plies, each game decided by its seed alone. The quiet positions
//! (not in check, the engine's move neither a capture nor a promotion) are kept with the
//! game's result.

use crate::draws::insufficient_material;
use crate::eval_cache::EvalCache;
use crate::ordering::is_tactical;
use crate::search::{legal_moves, search, Limits, Shared, Task};
use crate::see::see_at_least;
use crate::tt::{TableConfig, TranspositionTable, TtLayout, MATE_BOUND};
use cozy_chess::{Board, Color, GameStatus};
use searchcache::Slots;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Instant;

/// How the games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlayConfig {
    /// Nodes per move (`go nodes`).
    pub nodes: u64,
    /// Random plies from the start position: from the smaller of the two numbers to the larger,
    /// both included, whichever comes first.
    pub random_plies: (u32, u32),
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// A side whose score stays at least this far ahead (centipawns, by both engines' searches)
    /// for [`ADJUDICATE_PLIES`] plies in a row wins.
    pub resign_cp: i32,
    /// After [`DRAW_FROM_PLY`] plies, scores within this many centipawns for
    /// [`ADJUDICATE_PLIES`] plies in a row are a draw.
    pub draw_cp: i32,
}

/// Plies in a row a score must hold to adjudicate.
pub const ADJUDICATE_PLIES: u32 = 8;
/// No draw is adjudicated before this ply.
pub const DRAW_FROM_PLY: u32 = 80;
/// The table of each game (MiB): a few thousand nodes a move fill a small part of it.
const TABLE_MIB: usize = 4;

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            nodes: 3000,
            random_plies: (6, 9),
            max_plies: 400,
            resign_cp: 1000,
            draw_cp: 10,
        }
    }
}

/// A finished game: its quiet positions (FEN) and its result from White's side (1, ½ or 0).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// FENs of the quiet positions, in game order.
    pub positions: Vec<String>,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
    /// Plies played, random ones included.
    pub plies: u32,
}

/// SplitMix64: a tiny deterministic generator, so each game is a function of its seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform enough in `0..n` for picking moves (n ≥ 1).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Whether `board` is quiet for the tuner: not in check, and the side to move has no promotion
/// and no capture that wins material by static exchange (`see_at_least(·, 1)`): its static
/// evaluation is then about what a quiescence search would find.
pub fn is_quiet(board: &Board) -> bool {
    board.checkers().is_empty()
        && legal_moves(board).into_iter().all(|mv| {
            !is_tactical(board, mv) || (mv.promotion.is_none() && !see_at_least(board, mv, 1))
        })
}

/// The game's result if it is over by the rules (checkmate, stalemate, fifty moves, threefold
/// repetition, insufficient material).
fn result_by_rules(board: &Board, history: &[u64]) -> Option<f64> {
    match board.status() {
        GameStatus::Won => {
            return Some(if board.side_to_move() == Color::White {
                0.0
            } else {
                1.0
            })
        }
        GameStatus::Drawn => return Some(0.5),
        GameStatus::Ongoing => {}
    }
    let repeats = history.iter().filter(|&&key| key == board.hash()).count();
    (repeats >= 2 || insufficient_material(board)).then_some(0.5)
}

/// Random legal plies from the start position, redrawn (from the same generator) in the rare
/// case the game ends during them.
fn random_start(rng: &mut SplitMix, config: &SelfPlayConfig) -> (Board, Vec<u64>, u32) {
    let (a, b) = config.random_plies;
    let (low, high) = (a.min(b), a.max(b));
    loop {
        let plies = low + rng.below(u64::from(high.saturating_sub(low)) + 1) as u32;
        let mut board = Board::default();
        let mut history = Vec::new();
        let mut ok = true;
        for _ in 0..plies {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            history.push(board.hash());
            board.play_unchecked(mv);
        }
        if ok && result_by_rules(&board, &history).is_none() {
            return (board, history, plies);
        }
    }
}

/// A table for [`play_game`], one per thread of games.
pub fn game_table() -> Result<TranspositionTable, String> {
    TranspositionTable::new(TableConfig {
        mib: TABLE_MIB,
        slots: Slots::Bucket,
        huge_pages: false,
        layout: TtLayout::Wide,
    })
}

/// Plays the game of `seed` with one search thread; `tt` is cleared first, so the record
/// depends on `seed` and `config` only.
pub fn play_game(tt: &TranspositionTable, seed: u64, config: &SelfPlayConfig) -> GameRecord {
    tt.clear();
    let mut rng = SplitMix(seed);
    let (mut board, mut history, mut plies) = random_start(&mut rng, config);
    let mut positions = Vec::new();
    let evals = EvalCache::off();
    // Plies in a row with White's score beyond +resign, beyond −resign, and near zero.
    let (mut white_ahead, mut black_ahead, mut level) = (0, 0, 0);
    let result = loop {
        if let Some(result) = result_by_rules(&board, &history) {
            break result;
        }
        if plies >= config.max_plies {
            break 0.5;
        }
        let shared = Shared::default();
        let task = Task {
            root: board.clone(),
            history: history.clone(),
            tt,
            evals: &evals,
            shared: &shared,
            limits: Limits::fixed(crate::search::MAX_DEPTH, Some(config.nodes), Instant::now()),
            root_moves: Vec::new(),
            report: false,
            chess960: false,
            contempt: 0,
        };
        let outcome = search(&task, 1, |_| {});
        let Some(best) = outcome.best else {
            // No legal move: `result_by_rules` has already ended such a game.
            break 0.5;
        };
        if board.checkers().is_empty() && !is_tactical(&board, best) {
            positions.push(board.to_string());
        }
        let white_score = if board.side_to_move() == Color::White {
            outcome.score
        } else {
            -outcome.score
        };
        white_ahead = if white_score >= config.resign_cp {
            white_ahead + 1
        } else {
            0
        };
        black_ahead = if white_score <= -config.resign_cp {
            black_ahead + 1
        } else {
            0
        };
        level = if white_score.abs() <= config.draw_cp && outcome.score.abs() < MATE_BOUND {
            level + 1
        } else {
            0
        };
        history.push(board.hash());
        board.play_unchecked(best);
        plies += 1;
        if white_ahead >= ADJUDICATE_PLIES {
            break 1.0;
        }
        if black_ahead >= ADJUDICATE_PLIES {
            break 0.0;
        }
        if level >= ADJUDICATE_PLIES && plies >= DRAW_FROM_PLY {
            break 0.5;
        }
    };
    GameRecord {
        positions,
        result,
        plies,
    }
}

/// The seed of game `index` of the set `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ index
}

/// Plays games `0..games` of the set `seed` on `threads` threads (one table each) and hands
/// each record to `record` in game order, so what `record` sees does not depend on `threads`.
/// `record` returns `false` to stop early (games in progress finish, none is handed on).
pub fn play_games(
    games: u64,
    seed: u64,
    threads: usize,
    config: &SelfPlayConfig,
    mut record: impl FnMut(u64, GameRecord) -> bool,
) -> Result<(), String> {
    let tables = (0..threads.max(1))
        .map(|_| game_table())
        .collect::<Result<Vec<_>, _>>()?;
    let next = AtomicU64::new(0);
    let (sender, receiver) = mpsc::channel::<(u64, GameRecord)>();
    std::thread::scope(|scope| {
        for tt in &tables {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Relaxed);
                if index >= games {
                    return;
                }
                let game = play_game(tt, game_seed(seed, index), config);
                if sender.send((index, game)).is_err() {
                    return;
                }
            });
        }
        drop(sender);
        // Records arrive in any order; they are handed on in game order.
        let mut pending = BTreeMap::new();
        let mut next_to_hand = 0;
        for (index, game) in receiver {
            pending.insert(index, game);
            while let Some(game) = pending.remove(&next_to_hand) {
                if !record(next_to_hand, game) {
                    // No later game is wanted: stop the players.
                    next.store(games, Relaxed);
                    return;
                }
                next_to_hand += 1;
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Move;

    #[test]
    fn random_plies_span_both_bounds_in_either_order() {
        for bounds in [(1, 3), (3, 1)] {
            let config = SelfPlayConfig {
                random_plies: bounds,
                ..SelfPlayConfig::default()
            };
            let mut rng = SplitMix(7);
            let plies: Vec<u32> = (0..64).map(|_| random_start(&mut rng, &config).2).collect();
            assert!(
                plies.iter().all(|p| (1..=3).contains(p)),
                "{bounds:?}: {plies:?}"
            );
            assert!(
                plies.contains(&1) && plies.contains(&3),
                "{bounds:?}: {plies:?}"
            );
        }
    }

    fn quick() -> SelfPlayConfig {
        SelfPlayConfig {
            nodes: 400,
            max_plies: 60,
            ..SelfPlayConfig::default()
        }
    }

    #[test]
    fn a_game_is_a_function_of_its_seed() {
        let tt = game_table().unwrap();
        let a = play_game(&tt, 7, &quick());
        let b = play_game(&tt, 8, &quick());
        let again = play_game(&tt, 7, &quick());
        assert_eq!(a, again);
        assert_ne!(a.positions, b.positions);
        assert!(!a.positions.is_empty());
        assert!([0.0, 0.5, 1.0].contains(&a.result));
        assert!(a.plies <= 60);
    }

    #[test]
    fn games_come_in_order_whatever_the_threads() {
        let collect = |threads| {
            let mut games = Vec::new();
            play_games(4, 5, threads, &quick(), |index, game| {
                games.push((index, game));
                true
            })
            .unwrap();
            games
        };
        let one = collect(1);
        assert_eq!(one.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(one, collect(3));
    }

    #[test]
    fn kept_positions_are_quiet() {
        let tt = game_table().unwrap();
        let record = play_game(&tt, 3, &quick());
        for fen in &record.positions {
            let board: Board = fen.parse().unwrap();
            assert!(board.checkers().is_empty(), "{fen}");
        }
    }

    #[test]
    fn games_end_by_the_rules() {
        let mated: Board = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
            .parse()
            .unwrap();
        assert_eq!(result_by_rules(&mated, &[]), Some(0.0));
        let bare: Board = "8/8/4k3/8/8/3K4/8/8 w - - 0 1".parse().unwrap();
        assert_eq!(result_by_rules(&bare, &[]), Some(0.5));
        let start = Board::default();
        assert_eq!(result_by_rules(&start, &[start.hash(), 1]), None);
        assert_eq!(
            result_by_rules(&start, &[start.hash(), 1, start.hash()]),
            Some(0.5)
        );
    }

    #[test]
    fn quiet_means_no_winning_capture_and_no_promotion() {
        let quiet = |fen: &str| is_quiet(&fen.parse().unwrap());
        assert!(quiet("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(
            !quiet("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"),
            "exd5 wins a queen"
        );
        assert!(
            quiet("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1"),
            "exd5 cxd5 is even"
        );
        assert!(!quiet("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"), "b8=Q");
        assert!(!quiet("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), "in check");
    }

    #[test]
    fn noisy_moves_are_recognised() {
        let board: Board = "4k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1".parse().unwrap();
        let mv = |text: &str| -> Move { text.parse().unwrap() };
        assert!(is_tactical(&board, mv("e5d6")), "en passant");
        assert!(is_tactical(&board, mv("b7b8q")), "promotion");
        assert!(
            !is_tactical(&board, mv("e1h1")),
            "castling takes its own rook"
        );
        assert!(!is_tactical(&board, mv("e5e6")));
    }
}
