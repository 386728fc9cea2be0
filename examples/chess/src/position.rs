//! `position startpos|fen <FEN> [moves …]`: the FEN (X-FEN or Shredder-FEN castling, for
//! Chess960 too) and the moves, checked so that every position the engine searches is legal.
//!
//! Accepted beyond cozy-chess's own parser, because python-chess and other GUIs send them: a
//! fullmove number of 0 (read as 1), a halfmove clock above 100 (read as 100: either way the
//! fifty-move rule is due), castling rights as `KQkq` in Chess960 (the outermost rook on that
//! side, X-FEN) and upper-case promotion letters (`b7b8Q`). Rejected beyond it: kings on
//! adjacent squares (the side to move could take the king), a piece placement that is not 8
//! ranks of 8 squares (named as such), and in standard chess (no `UCI_Chess960`) castling rights
//! whose king is not on e1/e8 or whose rook is not in its corner: standard castling is written
//! as the king's two-square move, which for such a king could be an ordinary king move too.

use crate::text::truncate;
use cozy_chess::util::parse_uci_move;
use cozy_chess::{get_king_moves, Board, Color, File, Move, Rank};

/// A parsed `position` command: the position and the keys of the positions before it.
pub struct Position {
    /// The position after all moves.
    pub board: Board,
    /// Keys of the positions before `board`, oldest first (for repetitions).
    pub history: Vec<u64>,
}

/// Parses the arguments of `position`. `chess960` selects king-takes-rook castling moves.
pub fn parse_position(args: &[&str], chess960: bool) -> Result<Position, String> {
    let moves_at = args.iter().position(|&a| a == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut board = match setup {
        ["startpos"] => Board::default(),
        ["fen", fields @ ..] => parse_fen(fields, chess960)?,
        _ => return Err("expected 'position startpos|fen <FEN> [moves ...]'".into()),
    };
    let mut history = Vec::with_capacity(moves.len());
    for text in moves {
        let mv = parse_move(&board, text, chess960)
            .ok_or_else(|| format!("malformed move '{}' in position", truncate(text)))?;
        history.push(board.hash());
        board
            .try_play(mv)
            .map_err(|_| format!("illegal move '{}' in position {board}", truncate(text)))?;
    }
    Ok(Position { board, history })
}

/// A move in UCI notation (promotion letters in either case); in Chess960 castling is the king
/// taking its own rook, otherwise the king's two-square move (king-takes-rook is accepted too).
pub fn parse_move(board: &Board, text: &str, chess960: bool) -> Option<Move> {
    let text = text.to_ascii_lowercase();
    if chess960 {
        text.parse::<Move>().ok()
    } else {
        parse_uci_move(board, &text).ok()
    }
}

/// A FEN from its fields (4 to 6: missing clocks default to "0 1"). Without `chess960`, castling
/// rights must be standard chess's (see [`check_standard_castling`]).
pub fn parse_fen(fields: &[&str], chess960: bool) -> Result<Board, String> {
    if !(4..=6).contains(&fields.len()) {
        return Err(format!("a FEN has 4 to 6 fields, got {}", fields.len()));
    }
    let clock = match fields.get(4) {
        Some(text) => text
            .parse::<u64>()
            .map_err(|_| format!("halfmove clock '{}' is not a number", truncate(text)))?
            .min(100),
        None => 0,
    };
    let fullmove = match fields.get(5) {
        Some(text) => text
            .parse::<u64>()
            .map_err(|_| format!("fullmove number '{}' is not a number", truncate(text)))?
            .clamp(1, u64::from(u16::MAX)),
        None => 1,
    };
    let placement = fields[0];
    check_placement(placement)?;
    let castling = shredder_castling(placement, fields[2]).ok_or_else(|| {
        format!(
            "castling rights '{}' do not fit the board",
            truncate(fields[2])
        )
    })?;
    let fen = format!(
        "{placement} {} {castling} {} {clock} {fullmove}",
        fields[1], fields[3]
    );
    // cozy-chess is a third-party parser: should it ever panic on some input, that must cost
    // this command, not the engine.
    let board = match std::panic::catch_unwind(|| Board::from_fen(&fen, true)) {
        Ok(parsed) => parsed.map_err(|e| format!("illegal FEN '{}': {e:?}", truncate(&fen)))?,
        Err(_) => return Err(format!("FEN '{}' crashed the parser", truncate(&fen))),
    };
    if get_king_moves(board.king(Color::White)).has(board.king(Color::Black)) {
        return Err(format!(
            "illegal FEN '{}': the kings stand next to each other",
            truncate(&fen)
        ));
    }
    if !chess960 {
        check_standard_castling(&board)?;
    }
    Ok(board)
}

/// The piece placement is 8 ranks of 8 squares each (piece letters are cozy-chess's to check).
fn check_placement(placement: &str) -> Result<(), String> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the piece placement '{}' has {} ranks; a board has 8",
            truncate(placement),
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let width: u32 = rank.chars().map(|c| c.to_digit(10).unwrap_or(1)).sum();
        if width != 8 {
            return Err(format!(
                "rank {} of the piece placement, '{}', is {width} squares wide; a rank has 8",
                8 - i,
                truncate(rank)
            ));
        }
    }
    Ok(())
}

/// Standard chess castles only with the king on e1/e8 and the rook in its corner (h-file short,
/// a-file long). Other rights are Chess960's: refused here, with the advice to set
/// `UCI_Chess960`, rather than dropped, so the GUI learns that its position was not taken.
pub fn check_standard_castling(board: &Board) -> Result<(), String> {
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        let back_rank = Rank::First.relative_to(color);
        let king = board.king(color);
        let sides = [
            (rights.short, File::H, "short"),
            (rights.long, File::A, "long"),
        ];
        for (rook, corner, side) in sides {
            let Some(rook) = rook else { continue };
            if king.file() != File::E || king.rank() != back_rank || rook != corner {
                return Err(format!(
                    "{color:?}'s {side} castling right (king on {king}, rook on the {} file) is \
                     not standard chess's (king on e{}, rook on the {} file); set UCI_Chess960 \
                     for Chess960 positions",
                    file_letter(rook),
                    back_rank as usize + 1,
                    file_letter(corner),
                ));
            }
        }
    }
    Ok(())
}

/// A file's letter, `a` to `h`.
fn file_letter(file: File) -> char {
    char::from(b'a' + file as u8)
}

/// The castling field in Shredder-FEN (rook files), from X-FEN (`KQkq`: the outermost rook on
/// that side of the king), Shredder-FEN (`HAha`) or a mix. `None` when a `K`/`Q` has no rook to
/// name or the placement cannot be read; whether the rights are legal is cozy-chess's check.
fn shredder_castling(placement: &str, castling: &str) -> Option<String> {
    if castling == "-" {
        return Some(castling.to_string());
    }
    let mut out = String::with_capacity(castling.len());
    for c in castling.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let file = match c.to_ascii_lowercase() {
            side @ ('k' | 'q') => outermost_rook(placement, color, side == 'k')?,
            letter @ 'a'..='h' => File::index(letter as usize - 'a' as usize),
            _ => return None,
        };
        let letter = file_letter(file);
        out.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    Some(out)
}

/// The file of the rook of `color` on its back rank farthest from its king on the king's
/// (`king_side`) or queen's side, read from the FEN's piece placement.
fn outermost_rook(placement: &str, color: Color, king_side: bool) -> Option<File> {
    let back_rank = Rank::First.relative_to(color);
    // The placement lists rank 8 first.
    let row = placement.split('/').nth(7 - back_rank as usize)?;
    let (king, rook) = match color {
        Color::White => ('K', 'R'),
        Color::Black => ('k', 'r'),
    };
    let mut squares = Vec::with_capacity(8);
    for c in row.chars() {
        match c.to_digit(10) {
            Some(n) => squares.extend(std::iter::repeat_n(None, n as usize)),
            None => squares.push(Some(c)),
        }
    }
    if squares.len() != 8 {
        return None;
    }
    let king_file = squares.iter().position(|&s| s == Some(king))?;
    let rook_at = |file: usize| squares[file] == Some(rook);
    let file = if king_side {
        (king_file + 1..8).rev().find(|&f| rook_at(f))?
    } else {
        (0..king_file).find(|&f| rook_at(f))?
    };
    Some(File::index(file))
}
