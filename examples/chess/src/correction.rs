//! Static-evaluation correction by pawn structure: each search thread learns, per side to move
//! and pawn configuration (a hash of both sides' pawns into a table of its own), how far the
//! searches' results have been from the static evaluation, and adds that to later evaluations
//! of positions with the same pawns. It corrects what the evaluation misjudges about a pawn
//! structure for the rest of the game.

use cozy_chess::{Board, Color, Piece};
use searchcache::mix64;

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this, so small corrections accumulate.
const GRAIN: i32 = 256;
/// Corrections stay within this many centipawns.
const LIMIT: i32 = 96;
/// An update moves the entry by at most this share (1/256ths) of the way to the new error.
const MAX_WEIGHT: i32 = 16;

/// One thread's corrections.
pub struct Correction {
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * ENTRIES],
        }
    }
}

impl Correction {
    fn index(board: &Board) -> usize {
        let white = board.colored_pieces(Color::White, Piece::Pawn).0;
        let black = board.colored_pieces(Color::Black, Piece::Pawn).0;
        let pawns = mix64(white ^ mix64(black));
        board.side_to_move() as usize * ENTRIES + (pawns as usize & (ENTRIES - 1))
    }

    /// The correction for `board`, centipawns from the side to move's view.
    pub fn get(&self, board: &Board) -> i32 {
        self.table[Self::index(board)] / GRAIN
    }

    /// A search of `depth` plies found `error` = result − corrected static eval (an exact score,
    /// or a bound on the side the eval lies beyond): move the entry towards it, deeper searches
    /// more.
    pub fn update(&mut self, board: &Board, error: i32, depth: i32) {
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let entry = &mut self.table[Self::index(board)];
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        let moved = (i64::from(*entry) * i64::from(256 - weight)
            + i64::from(target) * i64::from(weight))
            / 256;
        *entry = (moved as i32).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn corrections_stay_within_the_limit() {
        let b = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let mut correction = Correction::default();
        for _ in 0..10_000 {
            correction.update(&b, 30_000, 60);
        }
        // Within the limit, and it comes within a centipawn of it (the average converges).
        assert!(
            (LIMIT - 1..=LIMIT).contains(&correction.get(&b)),
            "{}",
            correction.get(&b)
        );
        for _ in 0..10_000 {
            correction.update(&b, -30_000, 60);
        }
        assert!(
            (-LIMIT..=1 - LIMIT).contains(&correction.get(&b)),
            "{}",
            correction.get(&b)
        );
    }

    #[test]
    fn deeper_results_move_the_entry_further() {
        let b = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let (mut shallow, mut deep) = (Correction::default(), Correction::default());
        shallow.update(&b, 80, 1);
        deep.update(&b, 80, 12);
        let entry = |c: &Correction| c.table[Correction::index(&b)];
        assert!(0 < entry(&shallow) && entry(&shallow) < entry(&deep));
        assert!(deep.get(&b) <= 80);
    }

    #[test]
    fn an_update_moves_the_entry_at_most_max_weight_of_the_way() {
        let b = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let mut correction = Correction::default();
        correction.update(&b, LIMIT, 1_000);
        let entry = correction.table[Correction::index(&b)];
        assert_eq!(entry, LIMIT * GRAIN * MAX_WEIGHT / 256);
    }

    #[test]
    fn the_entry_is_per_pawn_structure_and_side_to_move() {
        let white = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let black = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1");
        let other_pawns = board("4k3/ppp1p3/8/8/8/8/PPPP4/4K3 w - - 0 1");
        let same_pawns_moved_king = board("3k4/pppp4/8/8/8/8/PPPP4/3K4 w - - 0 1");
        let mut correction = Correction::default();
        for _ in 0..100 {
            correction.update(&white, 60, 10);
        }
        assert!(correction.get(&white) > 20);
        assert_eq!(
            correction.get(&same_pawns_moved_king),
            correction.get(&white)
        );
        assert_eq!(correction.get(&black), 0);
        assert_eq!(correction.get(&other_pawns), 0);
    }
}
