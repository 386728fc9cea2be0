#!/usr/bin/env python3
"""Games between the searchcache chess engine and an opponent, through python-chess.

The opponent is Stockfish (at a Skill Level or a UCI_Elo) or another UCI engine, e.g. an older
build of this one or the same binary with other options. Games start from openings (the 12
built in, or a file of UCI move lines such as openings.txt), each opening played with both
colours, one engine thread each side, one game at a time. Each side's clock is kept here from
the wall time of each `go` (so a loaded machine slows both sides alike).

The run fails (exit status 1) on any illegal move, engine crash, time forfeit or protocol
problem of our engine (python-chess warnings or errors on its connection count as protocol
problems; when the opponent is our engine too, the same holds for it), with --no-loss on
any game our engine loses, and with --win-series unless it wins more games than it loses. Without --sprt it plays --games games; with --sprt ELO0 ELO1 it stops as soon as the sequential probability ratio test
(alpha = beta = 0.05) accepts one hypothesis, or after --games games. It prints W/D/L, the
score and the Elo difference with its 95% interval. By default it then runs python-chess's
`analyse` with Hash, Threads and Clear Hash options and checks the answer (--no-analyse skips).

    pip install chess; apt-get install stockfish
    cargo build --release -p chess
    python3 examples/chess/match.py [--games 12] [--skill 0 | --elo 2200] [--tc 1+0.01]
    python3 examples/chess/match.py --games 8 --movetime 50 --win-series --no-analyse
    python3 examples/chess/match.py --opponent target/chess-old --openings examples/chess/openings.txt \\
        --sprt 0 10 --games 2000 --tc 1+0.01
    python3 examples/chess/match.py --opponent target/release/chess --option TTSlots=Single \\
        --opponent-option TTSlots=Bucket --option Hash=1 --opponent-option Hash=1 ...
"""

import argparse
import logging
import math
import os
import random
import signal
import sys
import time

import chess
import chess.engine
import chess.pgn

# Short, well-known openings (UCI moves), so the games differ from the first move on.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5",  # Ruy Lopez
    "e2e4 c7c5 g1f3 d7d6",  # Sicilian
    "d2d4 d7d5 c2c4 e7e6",  # Queen's Gambit Declined
    "d2d4 g8f6 c2c4 g7g6",  # King's Indian
    "e2e4 e7e6 d2d4 d7d5",  # French
    "e2e4 c7c6 d2d4 d7d5",  # Caro-Kann
    "c2c4 e7e5",  # English
    "g1f3 d7d5 g2g3",  # Reti
    "d2d4 d7d5 c2c4 d5c4",  # Queen's Gambit Accepted
    "e2e4 d7d5 e4d5 d8d5",  # Scandinavian
    "e2e4 e7e5 f2f4",  # King's Gambit
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",  # Queen's Indian
]

# Games longer than this many plies are adjudicated drawn (keeps the match bounded).
MAX_PLIES = 300
# Move Overhead given to Stockfish, ms (its default is 10).
STOCKFISH_OVERHEAD_MS = 100
# Adjudication (--adjudicate): a side both engines score at least this many centipawns behind,
# for RESIGN_MOVES moves of each side in a row, loses; after DRAW_FROM plies, both scores within
# DRAW_CP for DRAW_MOVES moves of each side in a row is a draw.
RESIGN_CP = 1000
RESIGN_MOVES = 4
DRAW_FROM = 80
DRAW_CP = 10
DRAW_MOVES = 8


class ProtocolWatch(logging.Handler):
    """Collects python-chess's warnings and errors about an engine connection."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


class Failure(Exception):
    """Our engine did something that loses a real game or breaks the protocol."""


def default_engine_path():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, "target", "release", "chess")


def parse_options(pairs):
    """NAME=VALUE strings -> a dict for python-chess's configure (numbers stay strings: UCI)."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise argparse.ArgumentTypeError(f"option '{pair}' is not NAME=VALUE")
        options[name] = value
    return options


def white_cp(info):
    """The engine's score for White in centipawns (mates as +-100000), or None."""
    score = info.get("score")
    return None if score is None else score.pov(chess.WHITE).score(mate_score=100000)


class Side:
    """One engine in the match: its process, its name, and whether its faults fail the run."""

    def __init__(self, process, name, strict):
        self.process = process
        self.name = name
        self.strict = strict
        self.lowest = math.inf
        self.forfeits = 0


def play_game(white, black, opening, base, inc, game_id, adjudicate, forfeit_loses, nodes=None,
              movetime=None):
    """Plays one game; returns (result from White's view, plies, reason, board).

    With `nodes`, every move is a `go nodes` search and there is no clock: the games do not
    depend on the machine's load (but say nothing about speed). With `movetime` (seconds),
    every move is a `go movetime` search (what GUIs' fixed time per move sends), no clock."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    sides = {chess.WHITE: white, chess.BLACK: black}
    resign = {chess.WHITE: 0, chess.BLACK: 0}
    drawish = 0
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= MAX_PLIES:
            return "1/2-1/2", board.ply(), "adjudicated (move limit)", board
        mover = board.turn
        side = sides[mover]
        if nodes:
            limit = chess.engine.Limit(nodes=nodes)
        elif movetime:
            limit = chess.engine.Limit(time=movetime)
        else:
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
        started = time.monotonic()
        try:
            result = side.process.play(board, limit, game=game_id, info=chess.engine.INFO_SCORE)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            if side.strict:
                raise Failure(f"{side.name}: engine error at ply {board.ply()} ({board.fen()}): {e!r}")
            raise
        spent = time.monotonic() - started
        if not (nodes or movetime):
            clocks[mover] -= spent
        if clocks[mover] < 0:
            side.forfeits += 1
            if side.strict and not forfeit_loses:
                raise Failure(f"{side.name}: time forfeit at ply {board.ply()}: spent {spent:.3f} s ({board.fen()})")
            return ("1-0" if mover == chess.BLACK else "0-1"), board.ply(), f"{side.name} lost on time", board
        side.lowest = min(side.lowest, clocks[mover])
        clocks[mover] += inc
        move = result.move
        if move is None or move not in board.legal_moves:
            raise Failure(f"{side.name} played illegal move {move} in {board.fen()}")
        board.push(move)
        if adjudicate:
            cp = white_cp(result.info)
            if cp is None:
                resign = {chess.WHITE: 0, chess.BLACK: 0}
                drawish = 0
                continue
            # Scores of the side that just moved, counted per side: both must agree.
            for colour in (chess.WHITE, chess.BLACK):
                behind = cp <= -RESIGN_CP if colour == chess.WHITE else cp >= RESIGN_CP
                resign[colour] = resign[colour] + 1 if behind else 0
            drawish = drawish + 1 if abs(cp) <= DRAW_CP and board.ply() >= DRAW_FROM else 0
            for colour in (chess.WHITE, chess.BLACK):
                if resign[colour] >= 2 * RESIGN_MOVES:
                    return ("0-1" if colour == chess.WHITE else "1-0"), board.ply(), "adjudicated (score)", board
            if drawish >= 2 * DRAW_MOVES:
                return "1/2-1/2", board.ply(), "adjudicated (draw score)", board
    outcome = board.outcome(claim_draw=True)
    return outcome.result(), board.ply(), outcome.termination.name.lower(), board


def check_analyse(ours):
    """python-chess's analyse with Hash/Threads options: a sane, legal answer."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    for options in ({"Hash": 32, "Threads": 2}, {"Hash": 1, "Threads": 1}, {"Hash": 64, "Threads": 3}):
        info = ours.analyse(board, chess.engine.Limit(depth=8), options=options)
        if info.get("depth") != 8 or "score" not in info or not info.get("pv"):
            raise Failure(f"analyse with {options}: incomplete info {info}")
        if info["pv"][0] not in board.legal_moves:
            raise Failure(f"analyse with {options}: illegal pv move {info['pv'][0]}")
        print(f"analyse {options}: depth {info['depth']} score {info['score'].white()} "
              f"pv {' '.join(m.uci() for m in info['pv'][:4])} nodes {info.get('nodes')}")
    # A mate through the table: KQ v K, mate in 4. One thread searches deterministically and
    # sees it at depth 12 (at 11 it scores +10.7). Two threads share the table: a helper's entry
    # can graft a shallower result into the main thread's tree, so at depth 12 they once
    # reported +10.8 (CI, 2026-12-07) and at 14 now and then a mate in 5. With two threads the
    # check is that mate distances survive the shared table: a mate, never one shorter than 4,
    # four plies past the depth that one thread needs.
    mate = chess.Board("4Q3/8/8/5K2/8/8/8/7k w - - 0 1")
    info = ours.analyse(mate, chess.engine.Limit(depth=12), options={"Hash": 16, "Threads": 1})
    if info["score"].relative != chess.engine.Mate(4):
        raise Failure(f"analyse of a mate in 4 with one thread reported {info['score']}")
    print(f"analyse mate in 4, one thread: {info['score'].relative}")
    info = ours.analyse(mate, chess.engine.Limit(depth=16), options={"Hash": 16, "Threads": 2})
    moves = info["score"].relative.mate()
    if moves is None or moves < 4:
        raise Failure(f"analyse of a mate in 4 with two threads reported {info['score']}")
    print(f"analyse mate in 4, two threads: {info['score'].relative}")


def interrupted(_signum, _frame):
    """SIGTERM: stop as Ctrl-C stops."""
    raise KeyboardInterrupt


def expected_score(elo):
    """The logistic model's expected score of a side `elo` points stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score):
    """Inverse of expected_score, clamped away from 0 and 1."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def elo_interval(wins, draws, losses):
    """(Elo, low, high): the score's normal 95% interval from the trinomial per-game variance,
    mapped to Elo."""
    n = wins + draws + losses
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    return elo_of(mean), elo_of(mean - half), elo_of(mean + half)


def sprt_llr(wins, draws, losses, elo0, elo1):
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0), in the normal approximation of
    the generalised SPRT that fishtest uses for trinomial results (logistic Elo)."""
    n = wins + draws + losses
    if n == 0 or wins + losses == 0:
        return 0.0
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    if var <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return (s1 - s0) * (2 * mean - s0 - s1) / (2 * var / n)


def read_openings(path):
    """One opening a line (UCI moves); blank lines and '#' comments skipped."""
    if path is None:
        return OPENINGS
    with open(path) as f:
        lines = [l.split("#")[0].strip() for l in f]
    openings = [l for l in lines if l]
    for line in openings:
        board = chess.Board()
        for uci in line.split():
            board.push_uci(uci)  # raises on a bad line, before any game
    return openings


def make_openings(args):
    """Writes --make-openings N openings: random 8-ply starts that Stockfish at depth 12 scores
    within 60 cp of equality (seeded, so the list reproduces on the same Stockfish)."""
    rng = random.Random(args.seed)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"Threads": 1, "Hash": 16})
    found = []
    seen = set()
    while len(found) < args.make_openings:
        board = chess.Board()
        for _ in range(8):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.fen() in seen:
            continue
        seen.add(board.fen())
        info = stockfish.analyse(board, chess.engine.Limit(depth=12))
        cp = info["score"].white().score(mate_score=100000)
        if abs(cp) <= 60:
            found.append(" ".join(m.uci() for m in board.move_stack))
            print(found[-1], f"# Stockfish depth 12: {cp:+d} cp", flush=True)
    stockfish.quit()
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=default_engine_path(), help="our engine")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option of our engine (repeatable)")
    parser.add_argument("--opponent", default="/usr/games/stockfish",
                        help="the opponent's binary: Stockfish (default) or another UCI engine")
    parser.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option of the opponent (repeatable)")
    parser.add_argument("--stockfish", default="/usr/games/stockfish", help="for --make-openings")
    strength = parser.add_mutually_exclusive_group()
    strength.add_argument("--skill", type=int, help="Stockfish Skill Level (0-20); default 0")
    strength.add_argument("--elo", type=int, help="Stockfish UCI_LimitStrength with this UCI_Elo")
    parser.add_argument("--games", type=int, default=12, help="games (the most, with --sprt)")
    parser.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"),
                        help="stop when the SPRT (alpha = beta = 0.05) decides")
    parser.add_argument("--openings", help="a file of openings, one line of UCI moves each")
    parser.add_argument("--tc", default="1+0.01", help="seconds+increment")
    parser.add_argument("--nodes", type=int, metavar="N",
                        help="every move searches N nodes, no clock (instead of --tc)")
    parser.add_argument("--movetime", type=int, metavar="MS",
                        help="every move is 'go movetime MS', no clock (instead of --tc)")
    parser.add_argument("--no-loss", action="store_true",
                        help="fail the run if our engine loses a game")
    parser.add_argument("--win-series", action="store_true",
                        help="fail the run unless our engine wins more games than it loses")
    parser.add_argument("--first-game", type=int, default=0, metavar="K",
                        help="start at game K of the opening schedule (split one match over runs)")
    parser.add_argument("--threads", type=int, default=1, help="our engine's Threads")
    parser.add_argument("--hash", type=int, default=16, help="both engines' Hash, MiB (an --option wins)")
    parser.add_argument("--adjudicate", action="store_true",
                        help="end clearly decided and dead-drawn games early (both engines' scores)")
    parser.add_argument("--forfeit-loses", action="store_true",
                        help="a time forfeit of our engine loses the game instead of failing the "
                             "run (experiments on a loaded machine)")
    parser.add_argument("--no-analyse", action="store_true", help="skip the analyse checks")
    parser.add_argument("--pgn", help="append the games to this PGN file")
    parser.add_argument("--make-openings", type=int, metavar="N", help="print N openings and exit")
    parser.add_argument("--seed", type=int, default=1, help="for --make-openings")
    args = parser.parse_args()
    if args.make_openings:
        return make_openings(args)
    try:
        base, inc = (float(x) for x in args.tc.split("+"))
    except ValueError:
        parser.error("--tc must look like 1+0.01")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.nodes is not None and args.nodes < 1:
        parser.error("--nodes must be at least 1")
    if args.movetime is not None and args.movetime < 1:
        parser.error("--movetime must be at least 1")
    if args.nodes is not None and args.movetime is not None:
        parser.error("--nodes and --movetime exclude each other")
    if args.first_game < 0:
        parser.error("--first-game must be at least 0")
    try:
        our_options = parse_options(args.option)
        their_options = parse_options(args.opponent_option)
    except argparse.ArgumentTypeError as e:
        parser.error(str(e))
    openings = read_openings(args.openings)
    if args.nodes:
        control = f"nodes {args.nodes}"
    elif args.movetime:
        control = f"movetime {args.movetime} ms"
    else:
        control = args.tc

    # SIGTERM (kill) ends the match like Ctrl-C: the games so far are summarised.
    signal.signal(signal.SIGTERM, interrupted)
    watch = ProtocolWatch()
    logging.getLogger("chess.engine").addHandler(watch)
    ours = chess.engine.SimpleEngine.popen_uci(args.engine)
    opponent = chess.engine.SimpleEngine.popen_uci(args.opponent)
    is_stockfish = opponent.id.get("name", "").startswith("Stockfish")
    their_config = {"Threads": 1, "Hash": args.hash}
    if is_stockfish:
        # Stockfish's default of 10 ms lost on time against this runner's clock (the wall time
        # of each `go`, python-chess and a loaded machine included): give it a reserve.
        their_config["Move Overhead"] = STOCKFISH_OVERHEAD_MS
        if args.elo is not None:
            their_config.update({"UCI_LimitStrength": True, "UCI_Elo": args.elo})
            label = f"Stockfish (UCI_Elo {args.elo})"
        else:
            skill = 0 if args.skill is None else args.skill
            their_config["Skill Level"] = skill
            label = f"Stockfish (Skill Level {skill})"
    elif opponent.id.get("name") == ours.id.get("name"):
        # The same engine on both sides: name them by their binaries.
        label = os.path.basename(args.opponent)
    else:
        label = opponent.id.get("name", "opponent")
    their_config.update(their_options)
    if their_options:
        label += " " + " ".join(f"{k}={v}" for k, v in their_options.items())
    opponent.configure(their_config)
    our_config = {"Threads": args.threads, "Hash": args.hash}
    our_config.update(our_options)
    ours.configure(our_config)
    name = ours.id.get("name", "engine")
    if ours.id.get("name") == opponent.id.get("name"):
        name = os.path.basename(args.engine)
    if our_options:
        name += " " + " ".join(f"{k}={v}" for k, v in our_options.items())
    us = Side(ours, name, strict=True)
    # Our own engine as the opponent (another build or other options) is held to our standard.
    them = Side(opponent, label, strict=opponent.id.get("name", "").startswith("searchcache"))
    wins = draws = losses = 0
    failed = None
    verdict = ""
    started = time.monotonic()
    try:
        for game in range(args.first_game, args.first_game + args.games):
            opening = openings[(game // 2) % len(openings)]
            ours_white = game % 2 == 0
            white, black = (us, them) if ours_white else (them, us)
            result, plies, reason, board = play_game(white, black, opening, base, inc, game,
                                                     args.adjudicate, args.forfeit_loses, args.nodes,
                                                     args.movetime and args.movetime / 1000)
            if args.pgn:
                pgn = chess.pgn.Game.from_board(board)
                pgn.headers.update({"White": white.name, "Black": black.name, "Result": result,
                                    "Round": str(game + 1),
                                    "TimeControl": control,
                                    "Termination": reason})
                with open(args.pgn, "a") as f:
                    print(pgn, file=f, end="\n\n")
            ours_won = result == ("1-0" if ours_white else "0-1")
            if result == "1/2-1/2":
                draws += 1
            elif ours_won:
                wins += 1
            else:
                losses += 1
            colour = "white" if ours_white else "black"
            line = (f"game {game + 1}: {name} as {colour}, opening '{opening}': {result} after "
                    f"{plies} plies ({reason}); +{wins} ={draws} -{losses}")
            if args.sprt:
                llr = sprt_llr(wins, draws, losses, *args.sprt)
                line += f"; LLR {llr:+.2f}"
            print(line, flush=True)
            if args.no_loss and losses:
                raise Failure(f"{name} lost game {game + 1} ({reason}): {board.fen()}")
            if args.sprt:
                bound = math.log((1 - 0.05) / 0.05)
                if llr >= bound:
                    verdict = f"SPRT [{args.sprt[0]:g}, {args.sprt[1]:g}]: H1 accepted (LLR {llr:+.2f})"
                    break
                if llr <= -bound:
                    verdict = f"SPRT [{args.sprt[0]:g}, {args.sprt[1]:g}]: H0 accepted (LLR {llr:+.2f})"
                    break
        if args.sprt and not verdict:
            verdict = f"SPRT [{args.sprt[0]:g}, {args.sprt[1]:g}]: no decision after {args.games} games"
        if not args.no_analyse:
            check_analyse(ours)
    except Failure as e:
        failed = str(e)
    except KeyboardInterrupt:
        verdict = verdict or f"interrupted after {wins + draws + losses} games"
    finally:
        ours.quit()
        opponent.quit()
    if watch.records:
        failed = failed or "protocol problems: " + " | ".join(watch.records[:5])
    if args.win_series and not failed and wins <= losses:
        failed = f"{name} did not win the series: +{wins} ={draws} -{losses}"
    games = wins + draws + losses
    summary = (f"match: {name} vs {label} at {control}: +{wins} ={draws} -{losses}, "
               f"score {wins + draws / 2}/{games}")
    if games:
        elo, low, high = elo_interval(wins, draws, losses)
        summary += f", Elo {elo:+.0f} (95%: {low:+.0f} to {high:+.0f})"
    clock = "" if args.nodes or args.movetime else (f"; our lowest clock {us.lowest * 1000:.0f} ms; time forfeits: "
                                   f"ours {us.forfeits}, theirs {them.forfeits}")
    print(f"{summary} in {time.monotonic() - started:.0f} s{clock}")
    if verdict:
        print(verdict)
    if failed:
        print(f"FAILED: {failed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
