#!/usr/bin/env python3
"""Adds Stockfish's score to each position of a `texel generate` file, for `texel fit --target`.

Each input line is JSON with a "fen"; each output line is the same object with "score", White's
score in centipawns from a fixed-depth Stockfish search (a mate is written as +-10000), and
"best", Stockfish's move in UCI notation (the fit keeps only positions whose best move is quiet).
Positions are split round-robin over `--jobs` Stockfish processes (one thread and 16 MiB of
hash each), and the output keeps the input's order, so the same input gives the same file.

    python3 examples/chess/label.py --data games.jsonl --out labelled.jsonl --depth 8 --jobs 2
"""

import argparse
import json
import shutil
import subprocess
import sys
import threading

MATE_SCORE = 10000


class Stockfish:
    """One Stockfish process spoken to over UCI directly (python-chess's engine layer costs more
    per position than a shallow search does)."""

    def __init__(self, path):
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait_for(self, prefix):
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line

    def score(self, fen, depth):
        """(White's score in centipawns, best move) of a depth-limited search."""
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        score = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            words = line.split()
            if words and words[0] == "bestmove":
                best = words[1] if len(words) > 1 else "(none)"
                break
            if "score" in words and "multipv" in words and "upperbound" not in words \
                    and "lowerbound" not in words:
                at = words.index("score")
                kind, value = words[at + 1], int(words[at + 2])
                if kind == "cp":
                    score = value
                else:
                    score = MATE_SCORE if value > 0 else -MATE_SCORE
        if score is None:
            return None, best
        white_to_move = fen.split()[1] == "w"
        return (score if white_to_move else -score), best

    def close(self):
        try:
            self.send("quit")
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        self.process.wait(timeout=10)


def fen_problem(fen):
    """Why `fen` is not a position Stockfish can be given (it may crash on a malformed one), or
    None. Checks the shape only: eight ranks of eight squares, one king each, the side to move."""
    if not isinstance(fen, str):
        return "no FEN string"
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        return "no side to move"
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        return "not eight ranks"
    for rank in ranks:
        squares = 0
        for c in rank:
            if c.isdigit() and c != "0":
                squares += int(c)
            elif c in "pnbrqkPNBRQK":
                squares += 1
            else:
                return f"bad character {c!r}"
        if squares != 8:
            return "a rank without eight squares"
    if fields[0].count("K") != 1 or fields[0].count("k") != 1:
        return "not one king each"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="input: JSON lines with a fen each")
    parser.add_argument("--out", required=True, help="output: the lines with score and best")
    parser.add_argument("--depth", type=int, default=8, help="Stockfish's search depth")
    parser.add_argument("--jobs", type=int, default=2, help="Stockfish processes")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    if args.depth < 1 or args.jobs < 1:
        sys.exit("error: --depth and --jobs must be at least 1")
    try:
        with open(args.data) as f:
            lines = [json.loads(text) for text in f if text.strip()]
    except (OSError, ValueError) as e:
        sys.exit(f"error: {args.data}: {e}")
    for number, line in enumerate(lines, 1):
        problem = fen_problem(line.get("fen")) if isinstance(line, dict) else "not an object"
        if problem:
            sys.exit(f"error: {args.data} line {number}: {problem}")
    try:
        out = open(args.out, "w")
    except OSError as e:
        sys.exit(f"error: {args.out}: {e}")
    results = [None] * len(lines)
    errors = []

    def work(job):
        try:
            engine = Stockfish(args.stockfish)
        except (OSError, RuntimeError) as e:
            errors.append(str(e))
            return
        try:
            for i in range(job, len(lines), args.jobs):
                results[i] = engine.score(lines[i]["fen"], args.depth)
                if job == 0 and i % 5000 < args.jobs:
                    print(f"{i}/{len(lines)}", file=sys.stderr, flush=True)
        except (OSError, RuntimeError) as e:
            errors.append(str(e))
        finally:
            engine.close()

    threads = [threading.Thread(target=work, args=(job,)) for job in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        out.close()
        sys.exit(f"error: {errors[0]}")
    written = 0
    with out:
        for line, (score, best) in zip(lines, results):
            if score is None:
                continue
            line["score"] = score
            line["best"] = best
            out.write(json.dumps(line) + "\n")
            written += 1
    print(f"{written} of {len(lines)} positions labelled at depth {args.depth}", file=sys.stderr)


if __name__ == "__main__":
    main()
