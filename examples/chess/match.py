#!/usr/bin/env python3
"""A bounded match between the searchcache chess engine and Stockfish, through python-chess.

Plays --games games (default 12) from varied openings, colours alternating, at a fast
time control (default 1 s + 0.01 s per move, each side's clock kept here from the wall time
of each `go`), Stockfish at a low Skill Level. Fails (exit status 1) on any illegal move,
engine crash, time forfeit or protocol problem of our engine (python-chess warnings or errors
on its connection count as protocol problems). Then runs python-chess's `analyse` with Hash,
Threads and Clear Hash options, and checks the answer.

    pip install chess; apt-get install stockfish
    cargo build --release -p chess
    python3 examples/chess/match.py [--games 12] [--skill 0] [--tc 1+0.01]
"""

import argparse
import logging
import os
import sys
import time

import chess
import chess.engine

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


def play_game(ours, stockfish, opening, ours_white, base, inc):
    """Plays one game; returns (result from White's view, plies, reason, our lowest clock in s)."""
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    lowest = base
    our_color = chess.WHITE if ours_white else chess.BLACK
    ours.configure({"Clear Hash": None})
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= MAX_PLIES:
            return "1/2-1/2", board.ply(), "adjudicated (move limit)", lowest
        mover = board.turn
        engine = ours if mover == our_color else stockfish
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        started = time.monotonic()
        try:
            result = engine.play(board, limit)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            if engine is ours:
                raise Failure(f"engine error at ply {board.ply()} ({board.fen()}): {e!r}")
            raise
        spent = time.monotonic() - started
        clocks[mover] -= spent
        if clocks[mover] < 0:
            if engine is ours:
                raise Failure(f"time forfeit at ply {board.ply()}: spent {spent:.3f} s ({board.fen()})")
            return ("1-0" if mover == chess.BLACK else "0-1"), board.ply(), "Stockfish lost on time", lowest
        if engine is ours:
            lowest = min(lowest, clocks[mover])
        clocks[mover] += inc
        move = result.move
        if move is None or move not in board.legal_moves:
            who = "engine" if engine is ours else "Stockfish"
            raise Failure(f"{who} played illegal move {move} in {board.fen()}")
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    return outcome.result(), board.ply(), outcome.termination.name.lower(), lowest


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
    # A mate through the table: KQ v K, mate in 4 (depth 11 sees it).
    mate = chess.Board("4Q3/8/8/5K2/8/8/8/7k w - - 0 1")
    info = ours.analyse(mate, chess.engine.Limit(depth=11), options={"Hash": 16, "Threads": 2})
    if info["score"].relative != chess.engine.Mate(4):
        raise Failure(f"analyse of a mate in 4 reported {info['score']}")
    print(f"analyse mate in 4: {info['score'].relative}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=default_engine_path())
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--skill", type=int, default=0, help="Stockfish Skill Level (0-20)")
    parser.add_argument("--tc", default="1+0.01", help="seconds+increment")
    parser.add_argument("--threads", type=int, default=1, help="our engine's Threads")
    args = parser.parse_args()
    try:
        base, inc = (float(x) for x in args.tc.split("+"))
    except ValueError:
        parser.error("--tc must look like 1+0.01")
    if args.games < 1:
        parser.error("--games must be at least 1")

    watch = ProtocolWatch()
    logging.getLogger("chess.engine").addHandler(watch)
    ours = chess.engine.SimpleEngine.popen_uci(args.engine)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"Skill Level": args.skill, "Threads": 1, "Hash": 16})
    ours.configure({"Threads": args.threads, "Hash": 16})
    name = ours.id.get("name", "engine")
    wins = draws = losses = 0
    failed = None
    started = time.monotonic()
    try:
        for game in range(args.games):
            opening = OPENINGS[game % len(OPENINGS)]
            ours_white = game % 2 == 0
            result, plies, reason, lowest = play_game(ours, stockfish, opening, ours_white, base, inc)
            ours_won = result == ("1-0" if ours_white else "0-1")
            if result == "1/2-1/2":
                draws += 1
            elif ours_won:
                wins += 1
            else:
                losses += 1
            colour = "white" if ours_white else "black"
            print(f"game {game + 1}: {name} as {colour}, opening '{opening}': {result} after {plies} plies ({reason}); our lowest clock {lowest * 1000:.0f} ms")
            sys.stdout.flush()
        check_analyse(ours)
    except Failure as e:
        failed = str(e)
    finally:
        ours.quit()
        stockfish.quit()
    if watch.records:
        failed = failed or "protocol problems: " + " | ".join(watch.records[:5])
    games = wins + draws + losses
    print(f"match: {name} vs Stockfish (Skill Level {args.skill}) at {args.tc}: "
          f"+{wins} ={draws} -{losses}, score {wins + draws / 2}/{games} in {time.monotonic() - started:.0f} s")
    if failed:
        print(f"FAILED: {failed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
