#!/usr/bin/env python3
"""TTRefresh off and on in the chess example: nodes to a fixed depth over the positions of one
real game, played move after move with one table (a new generation per `go`, as in a game),
and the `bench` node count. One thread, so node counts are exact and repeatable.

    cargo build --release -p chess
    python3 benches/chess_refresh.py target/release/chess DEPTH HASH_MIB
"""
import subprocess
import sys

# Morphy vs the Duke of Brunswick and Count Isouard, Paris 1858 (the "Opera game"), 32 plies.
MOVES = (
    "e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 "
    "c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8"
).split()


def run(engine, refresh, depth, mib):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine stopped")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    send(f"setoption name Hash value {mib}")
    send(f"setoption name TTRefresh value {'true' if refresh else 'false'}")
    send("ucinewgame")
    send("isready")
    until("readyok")
    total = 0
    for ply in range(len(MOVES)):
        send("position startpos moves " + " ".join(MOVES[:ply]))
        send(f"go depth {depth}")
        nodes = [int(l.split(" nodes ")[1].split()[0]) for l in until("bestmove") if " nodes " in l]
        total += nodes[-1]
    send("bench")
    bench = until("bench")[-1].split()
    send("quit")
    if p.wait() != 0:
        raise SystemExit(f"the engine exited with status {p.returncode}")
    return total, int(bench[bench.index("nodes") + 1])


def main():
    engine, depth, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    off = run(engine, False, depth, mib)
    on = run(engine, True, depth, mib)
    print(f"depth {depth}, Hash {mib} MiB: game nodes {off[0]} off, {on[0]} on "
          f"(on/off {on[0] / off[0]:.3f}); bench nodes {off[1]} off, {on[1]} on")


if __name__ == "__main__":
    main()
