//! The chess engine's table entry: packing round trips, the replacement rules of the seed, mate
//! score conversion, and the legality check that keeps a colliding entry's move off the board.

use chess::tt::{
    legal_move, score_from_tt, score_to_tt, unpack_move, Bound, TableConfig, TranspositionTable,
    TtEntry, TtLayout, MATE, MAX_PLY, NO_EVAL,
};
use chess::tt_dense::DenseEntry;
use cozy_chess::{Board, Move, Piece, Square};
use searchcache::{DenseCache, Pack64, SearchCache, Size, Slots};

fn entry(mv: Option<Move>, depth: i8, bound: Bound) -> TtEntry {
    TtEntry {
        mv,
        score: 17,
        eval: -5,
        depth,
        bound,
    }
}

#[test]
fn every_move_and_field_round_trips() {
    let promotions = [
        None,
        Some(Piece::Knight),
        Some(Piece::Bishop),
        Some(Piece::Rook),
        Some(Piece::Queen),
    ];
    for from in Square::ALL {
        for to in Square::ALL {
            for promotion in promotions {
                if from == to {
                    continue;
                }
                let mv = Some(Move {
                    from,
                    to,
                    promotion,
                });
                let e = TtEntry {
                    mv,
                    score: -31_999,
                    eval: 1234,
                    depth: 100,
                    bound: Bound::Lower,
                };
                let bits = e.pack();
                assert_eq!(bits >> TtEntry::BITS, 0, "pack stays within BITS");
                assert_eq!(TtEntry::unpack(bits), e);
            }
        }
    }
    for depth in [-8i8, -1, 0, 1, 60, 119] {
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            for (score, eval) in [(i16::MIN, i16::MAX), (0, 0), (32_000, -32_000)] {
                let e = TtEntry {
                    mv: None,
                    score,
                    eval,
                    depth,
                    bound,
                };
                assert_eq!(TtEntry::unpack(e.pack()), e);
            }
        }
    }
    // Depths outside the 7-bit range saturate instead of wrapping into nonsense.
    assert_eq!(
        TtEntry::unpack(entry(None, 127, Bound::Exact).pack()).depth,
        119
    );
    assert_eq!(
        TtEntry::unpack(entry(None, -100, Bound::Exact).pack()).depth,
        -8
    );
    assert_eq!(unpack_move(0), None);
}

#[test]
fn merge_keeps_the_old_move_and_deep_entries() {
    let mv = Some("e2e4".parse::<Move>().unwrap());
    let old = entry(mv, 10, Bound::Lower);
    // No new move: the old one is kept.
    assert_eq!(entry(None, 12, Bound::Upper).merge(old, 0).unwrap().mv, mv);
    // Much shallower, same generation, not exact: the deep entry stays.
    assert_eq!(entry(None, 2, Bound::Upper).merge(old, 0), None);
    assert_eq!(entry(None, 5, Bound::Lower).merge(old, 0), None);
    // …unless it is exact, or the deep entry is from an older search, or not much deeper.
    assert!(entry(None, 2, Bound::Exact).merge(old, 0).is_some());
    assert!(entry(None, 2, Bound::Upper).merge(old, 1).is_some());
    assert!(entry(None, 6, Bound::Upper).merge(old, 0).is_some());

    // Through the table: the same rules decide what a store leaves behind.
    let table = SearchCache::<TtEntry>::new(Size::Mib(1)).unwrap();
    table.store(42, old);
    table.store(42, entry(None, 1, Bound::Upper));
    assert_eq!(
        table.probe(42),
        Some(old),
        "a shallow bound must not replace a deep entry"
    );
    table.new_generation();
    table.store(42, entry(None, 1, Bound::Upper));
    assert_eq!(
        table.probe(42),
        Some(entry(mv, 1, Bound::Upper)),
        "next search: replaced, move kept"
    );
}

#[test]
fn mate_scores_convert_between_root_and_node() {
    for ply in [0usize, 1, 7, 40] {
        for dist in [1, 5, 30] {
            // Mate in `dist` plies from the node, found at `ply`: root-relative MATE - ply - dist.
            let root_relative = MATE - (ply as i32 + dist);
            let stored = score_to_tt(root_relative, ply);
            assert_eq!(
                i32::from(stored),
                MATE - dist,
                "stored relative to the node"
            );
            // Read back at another ply, it is the same distance from that node.
            assert_eq!(score_from_tt(stored, 3), MATE - 3 - dist);
            assert_eq!(
                score_from_tt(score_to_tt(-root_relative, ply), ply),
                -root_relative
            );
        }
    }
    for cp in [-900, 0, 35, MATE - MAX_PLY] {
        assert_eq!(
            score_from_tt(score_to_tt(cp, 9), 4),
            cp,
            "ordinary scores are untouched"
        );
    }
}

#[test]
fn a_colliding_entrys_move_is_never_played() {
    let board = Board::default();
    // Every 15-bit move pattern a foreign entry could carry: only the 20 legal ones pass.
    let mut legal = 0;
    for bits in 0..1u64 << 15 {
        let e = TtEntry::unpack(bits | (Bound::Exact as u64) << 54);
        if let Some(mv) = legal_move(&e, &board) {
            assert!(board.is_legal(mv));
            let mut b = board.clone();
            b.play(mv);
            legal += 1;
        }
    }
    assert_eq!(legal, 20);
}

/// The same rules through the dense table: what a store leaves behind is the wide table's
/// answer without the eval.
#[test]
fn the_dense_table_keeps_the_same_rules() {
    let mv = Some("e2e4".parse::<Move>().unwrap());
    let old = entry(mv, 10, Bound::Lower);
    let table = DenseCache::<DenseEntry>::new(Size::Mib(1)).unwrap();
    let no_eval = |e: TtEntry| Some(DenseEntry(TtEntry { eval: NO_EVAL, ..e }));
    table.store(42, DenseEntry(old));
    table.store(42, DenseEntry(entry(None, 1, Bound::Upper)));
    assert_eq!(table.probe(42), no_eval(old), "a deep entry stays");
    table.new_generation();
    table.store(42, DenseEntry(entry(None, 1, Bound::Upper)));
    assert_eq!(table.probe(42), no_eval(entry(mv, 1, Bound::Upper)));
}

/// A foreign dense entry's move is checked as a wide one's: of every 15-bit pattern, only the
/// 20 legal moves pass.
#[test]
fn a_colliding_dense_entrys_move_is_never_played() {
    let board = Board::default();
    let legal = (0..1u64 << 15)
        .filter_map(|bits| legal_move(&DenseEntry::unpack(bits | 3 << 38).0, &board))
        .inspect(|&mv| assert!(board.is_legal(mv)))
        .count();
    assert_eq!(legal, 20);
}

/// The engine's table in every layout: entries round-trip (the dense one without its eval),
/// `hashfull` counts this generation's entries, and a change of layout builds a fresh table.
#[test]
fn the_engine_table_works_in_both_layouts() {
    for layout in [TtLayout::Wide, TtLayout::Dense, TtLayout::Cluster] {
        let config = TableConfig {
            mib: 1,
            slots: Slots::Bucket,
            huge_pages: false,
            layout,
        };
        let tt = TranspositionTable::new(config).unwrap();
        let e = entry(Some("g1f3".parse().unwrap()), 7, Bound::Exact);
        tt.store(99, e);
        let back = tt.probe(99).unwrap();
        let eval = if layout == TtLayout::Dense {
            NO_EVAL
        } else {
            -5
        };
        assert_eq!(back, TtEntry { eval, ..e }, "{layout:?}");
        // The cluster layout keeps the whole entry, static evaluation included.
        assert_eq!(back.stored_eval().is_some(), layout != TtLayout::Dense);
        for key in 0..1_000_000u64 {
            tt.store(key.wrapping_mul(0x9e37_79b9_7f4a_7c15), e);
        }
        assert_eq!(tt.hashfull(), 1000, "{layout:?}");
        tt.new_generation();
        assert_eq!(tt.hashfull(), 0, "{layout:?}");
        let mut tt = tt;
        let other = match layout {
            TtLayout::Wide => TtLayout::Dense,
            TtLayout::Dense => TtLayout::Cluster,
            TtLayout::Cluster => TtLayout::Wide,
        };
        tt.reconfigure(TableConfig {
            layout: other,
            ..config
        })
        .unwrap();
        assert_eq!(tt.config().layout, other);
        assert_eq!(tt.probe(99), None, "a fresh table");
    }
}
