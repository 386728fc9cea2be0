//! The evaluation's weights in centipawns, (middlegame, endgame): material, piece-square tables
//! and the positional terms. The tuner (`texel fit --write`, `examples/texel.rs`) rewrites this
//! file whole.

/// Material of pawn, knight, bishop, rook, queen, king.
#[rustfmt::skip]
pub const MATERIAL: [(i32, i32); 6] = [
    (76, 77), // pawn
    (386, 261), // knight
    (399, 261), // bishop
    (513, 489), // rook
    (1028, 926), // queen
    (0, 0), // king
];

/// Piece-square tables, middlegame then endgame per piece (pawn to king), from White's side with
/// a8 first (as printed: rank 8 on the first row), so a White piece on square `s` (a1 = 0) reads
/// entry `s ^ 56`.
#[rustfmt::skip]
pub const PST: [[[i32; 64]; 2]; 6] = [
    // pawn
    [
        [
               0,    0,    0,    0,    0,    0,    0,    0,
              99,  131,   63,   96,   69,  127,   35,  -13,
              -4,   10,   24,   35,   54,   54,   22,  -10,
             -10,   18,   17,   30,   34,   18,   13,  -18,
             -18,   -4,    8,   18,   19,   17,    4,  -19,
             -18,  -10,   -8,  -22,  -16,  -12,   21,  -17,
             -29,   -5,  -13,  -27,  -22,    9,   22,  -19,
               0,    0,    0,    0,    0,    0,    0,    0,
        ],
        [
               0,    0,    0,    0,    0,    0,    0,    0,
             164,  173,  161,  136,  148,  134,  171,  163,
              76,   89,  100,   60,   51,   35,   73,   72,
              33,   15,    9,    5,    4,   -3,   17,   14,
              22,   12,   -7,  -10,   -9,   -2,    5,    1,
              13,   -6,    6,    6,   21,    2,   -5,   -7,
              31,    6,   18,    8,   10,   13,   -5,    5,
               0,    0,    0,    0,    0,    0,    0,    0,
        ],
    ],
    // knight
    [
        [
            -166,  -89,  -35,  -48,   61,  -98,  -15, -106,
             -66,  -38,   67,   37,   24,   62,    6,  -20,
             -46,   59,   36,   65,   81,  126,   69,   40,
              -4,   22,   14,   50,   31,   60,   15,   29,
              -5,    4,   15,   18,   27,   23,   17,    5,
             -23,   -7,    3,   14,   21,   15,   22,  -14,
             -26,  -48,   -6,   10,   10,   14,  -15,  -18,
            -106,  -16,  -58,  -31,  -15,  -27,  -14,  -21,
        ],
        [
             -58,  -37,  -14,  -26,  -32,  -29,  -62,  -97,
             -25,   -9,  -26,   -2,   -7,  -23,  -27,  -54,
             -24,  -19,   16,    9,  -11,  -13,  -20,  -42,
             -11,    5,   14,   30,   18,    1,    7,  -16,
             -20,   -7,   18,   20,   18,   12,   -2,  -15,
             -23,  -12,    6,   16,    9,    4,  -21,  -19,
             -45,  -17,  -10,   -7,   -4,  -18,  -23,  -41,
             -30,  -51,  -22,  -15,  -18,  -19,  -52,  -64,
        ],
    ],
    // bishop
    [
        [
             -29,    4,  -81,  -37,  -25,  -41,    7,   -7,
             -24,   17,  -16,  -11,   30,   54,   17,  -47,
             -14,   34,   38,   41,   41,   51,   30,   -1,
               3,   16,   21,   50,   29,   32,   15,    1,
               1,   11,   11,   28,   34,    6,   12,    2,
              -2,   17,   15,   14,    3,   19,   13,    9,
               6,   16,   28,    1,   13,   24,   30,    8,
             -35,   -2,   -5,  -19,  -10,  -10,  -39,  -18,
        ],
        [
             -14,  -21,   -6,   -7,  -10,   -8,  -17,  -23,
              -9,    0,   10,   -9,   -2,  -17,   -2,  -11,
               4,   -6,    0,   -3,   -2,    0,   -2,    0,
              -1,   14,    8,    5,   17,    5,   -1,    3,
              -6,    0,    9,   19,   -2,   13,   -1,   -8,
              -6,   -6,    7,    4,    9,    5,   -4,  -12,
             -13,  -12,  -11,   -5,    1,  -15,  -18,  -27,
             -25,  -16,  -26,   -6,   -6,  -20,   -9,  -12,
        ],
    ],
    // rook
    [
        [
              33,   38,   31,   55,   62,   10,   31,   42,
              26,   27,   57,   61,   81,   65,   26,   45,
              -1,   21,   24,   38,   18,   47,   59,   11,
             -23,  -10,    9,   29,   28,   35,   -4,  -19,
             -34,  -26,   -7,    0,    5,   -9,    6,  -19,
             -40,  -21,  -17,  -15,   -3,   -3,   -6,  -28,
             -42,  -13,  -18,  -12,   -8,    0,   -9,  -63,
              -9,   -5,    0,    6,    4,    5,  -25,   -6,
        ],
        [
              17,   -1,   13,   19,    9,   13,    4,    5,
              15,   11,   11,    6,   -1,   -2,    7,    7,
              13,   11,   11,    7,    8,    4,   -4,   -1,
               9,    4,   14,   10,   13,    1,    5,    3,
               9,    0,    9,    9,   -5,   -7,   -9,   -3,
              -7,   -4,   -9,    0,   -7,  -14,   -9,  -11,
             -11,  -15,   -5,   -4,  -11,  -16,  -18,   -5,
              -3,   -4,   -2,   -8,  -17,  -17,    4,  -22,
        ],
    ],
    // queen
    [
        [
             -26,    2,   28,   13,   58,   45,   40,   44,
             -24,  -38,   -9,    1,  -15,   53,   23,   51,
             -17,  -15,    2,   12,   32,   53,   40,   51,
             -26,  -22,  -11,  -14,   -2,   14,   -4,   -3,
              -1,  -26,   -4,   -9,   -3,   -1,    0,   -6,
             -18,   -2,   -8,   -5,   -5,    1,   14,   -3,
             -33,   -8,    9,    9,   18,   17,    0,    1,
              -3,  -14,   -5,   11,  -11,  -24,  -31,  -48,
        ],
        [
              -8,   23,   21,   28,   26,   19,    9,   18,
             -15,   21,   32,   41,   60,   25,   28,    0,
             -21,    7,    7,   49,   47,   35,   17,    6,
               4,   21,   26,   45,   58,   41,   57,   34,
             -19,   29,   21,   48,   32,   35,   38,   21,
             -17,  -25,   17,    4,    9,   20,   10,    3,
             -21,  -24,  -31,  -18,  -16,  -26,  -35,  -32,
             -34,  -27,  -21,  -49,   -6,  -33,  -20,  -41,
        ],
    ],
    // king
    [
        [
             -65,   23,   16,  -15,  -56,  -33,    3,   13,
              30,   -1,  -20,   -7,   -8,   -4,  -37,  -28,
              -8,   27,    2,  -17,  -18,    4,   15,  -22,
             -17,  -18,  -12,  -28,  -35,  -26,  -15,  -37,
             -49,   -1,  -25,  -41,  -49,  -45,  -30,  -50,
             -17,  -11,  -27,  -50,  -51,  -34,  -10,  -30,
               0,    8,   -9,  -55,  -38,  -15,   16,   18,
             -17,   30,   11,  -58,   -4,  -16,   30,   12,
        ],
        [
             -77,  -34,  -19,  -19,  -10,   17,    8,  -17,
              -8,   19,   11,   18,   17,   29,   29,   13,
              12,   31,   22,   15,   33,   30,    4,   13,
              -2,   27,   21,   30,   19,   31,   13,   -4,
             -15,   -6,   35,   26,   25,   23,    7,   -8,
             -28,   -6,    5,   18,   29,   24,    7,  -14,
             -30,   -9,    8,   10,   13,   15,   -5,  -22,
             -52,  -35,  -16,  -10,  -24,  -12,  -19,  -34,
        ],
    ],
];

/// The positional terms, indexed by `crate::eval::positional`'s term constants.
#[rustfmt::skip]
pub const POSITIONAL: [(i32, i32); 52] = [
    (0, 0), // passed pawn, relative rank 1 (never occurs)
    (-7, 12), // passed pawn, relative rank 2
    (-12, 16), // passed pawn, relative rank 3
    (-5, 34), // passed pawn, relative rank 4
    (27, 55), // passed pawn, relative rank 5
    (33, 52), // passed pawn, relative rank 6
    (55, 31), // passed pawn, relative rank 7
    (0, 0), // passed pawn, relative rank 8 (never occurs)
    (-1, 7), // passed pawn: enemy king's distance to its front square, times (rank - 1), ranks 3-7
    (1, -6), // passed pawn: own king's distance to its front square, times (rank - 1), ranks 3-7
    (1, -24), // doubled pawn, per pawn beyond the first on a file
    (-3, -9), // isolated pawn
    (48, 44), // bishop pair
    (44, -10), // rook on an open file
    (14, 17), // rook on a half-open file
    (7, -7), // knight mobility, per square beyond 4
    (7, -2), // bishop mobility, per square beyond 6
    (6, 1), // rook mobility, per square beyond 7
    (3, 0), // queen mobility, per square beyond 13
    (0, 4), // knight attacks on the enemy king's zone, per square
    (5, 6), // bishop attacks on the enemy king's zone, per square
    (11, -3), // rook attacks on the enemy king's zone, per square
    (6, 1), // queen attacks on the enemy king's zone, per square
    (19, -15), // pieces attacking the enemy king's zone, n(n - 1)
    (11, -11), // own pawns one or two ranks in front of the king, its file and the adjacent ones
    (-21, -8), // files at the king without an own pawn
    (-11, 3), // enemy pawns one to three ranks in front of the king, its file and the adjacent ones
    (16, -1), // pawns defended by a pawn
    (8, 3), // pawns with a pawn beside them
    (-8, -15), // passed pawn with its front square occupied, times (rank - 1)
    (35, 14), // knight outpost: relative ranks 4-6, defended by a pawn, no enemy pawn can attack it
    (-9, 0), // backward pawn: no pawn beside or behind on the adjacent files, its front square attacked by a pawn
    (1, -4), // passed pawn with an empty way to the last rank, times (rank - 1)
    (-8, -5), // rook on the seventh rank
    (23, 6), // bishop outpost: relative ranks 4-6, defended by a pawn, no enemy pawn can attack it
    (-4, 15), // passed pawn whose front square the enemy does not attack, times (rank - 1)
    (15, -6), // waiting side: safe knight checks, per square
    (-8, -3), // waiting side: safe bishop checks, per square
    (22, -21), // waiting side: safe rook checks, per square
    (1, 0), // waiting side: safe queen checks, per square
    (52, 3), // waiting side: enemy pieces attacked by our pawns
    (27, 6), // waiting side: enemy rooks and queens attacked by our knights and bishops
    (19, 3), // waiting side: enemy queens attacked by our rooks
    (22, 23), // waiting side: enemy pieces attacked and not defended
    (36, -3), // side to move: safe knight checks, per square
    (29, 5), // side to move: safe bishop checks, per square
    (50, -19), // side to move: safe rook checks, per square
    (44, 0), // side to move: safe queen checks, per square
    (1, 0), // side to move: enemy pieces attacked by our pawns
    (-2, -2), // side to move: enemy rooks and queens attacked by our knights and bishops
    (0, 0), // side to move: enemy queens attacked by our rooks
    (-5, -4), // side to move: enemy pieces attacked and not defended
];
