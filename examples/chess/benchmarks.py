#!/usr/bin/env python3
"""Side-by-side measurements of the chess engine's transposition table, as a Markdown table.

Each configuration runs `bench DEPTH [THREADS]` (the bench positions, each from an empty table)
twice in a fresh engine process and measures the second (warm pages); configurations of one comparison alternate, REPEAT times, and the
medians are reported. Single-threaded comparisons use the main search thread's CPU time (from
/proc/thread-self/schedstat, printed by `bench`), which other jobs on a shared machine do not
inflate; the threads comparison uses wall time to depth. Node counts of single-threaded runs
are deterministic.

    cargo build --release -p chess
    python3 examples/chess/benchmarks.py [--depth 9] [--repeat 3] [--big-hash 1024]
    python3 examples/chess/benchmarks.py --game-depth 10   # TTSlots x TTRefresh over one game
    python3 examples/chess/benchmarks.py --layout-depth 12 # TTLayout Wide vs Dense over one game

Needs only the standard library (no python-chess).
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

BENCH_LINE = re.compile(r"^bench depth (\d+) threads (\d+) nodes (\d+) time (\d+) nps (\d+)(?: cpu (\d+))?")
# Set from --only: comparisons whose title lacks it are skipped.
ONLY = ""
HUGE_LINE = re.compile(r"^info string table memory on huge pages: (\d+) MiB")


# A real game, move after move: this engine (White) against Stockfish 15.1 at UCI_Elo 2200, 8+0.08,
# 2026-12-01 (117 plies; Stockfish lost on time, before its Move Overhead was raised).
GAME = (
    "e2e4 e7e5 g1f3 b8c6 f1b5 c6d4 b5d3 d4f3 d1f3 g8f6 e1g1 f8c5 f3g3 e8g8 g3e5 d7d5 e4d5 f8e8 "
    "e5g5 c5d6 g5h4 e8e5 h4c4 f6d5 b1c3 d5b6 c4d4 c7c5 d3h7 g8h7 d4d3 c8f5 d3f3 f5c2 a2a4 c2g6 "
    "b2b3 d8h4 h2h3 a8e8 f3g3 h4g3 f2g3 h7g8 c1b2 e5e6 g1h2 a7a6 a4a5 b6d7 c3d5 g6e4 d5f4 e6e5 "
    "b2e5 d7e5 f1e1 e4c6 e1e3 f7f6 a1c1 g8f7 e3c3 d6f8 c3e3 g7g6 h2g1 e8d8 c1c2 d8d6 h3h4 d6d8 "
    "e3e1 e5d3 f4d3 d8d3 e1e3 d3d4 g1f2 f8d6 e3c3 c6e4 c2b2 d6e5 c3c5 d4d8 c5e5 f6e5 g3g4 e4c6 "
    "h4h5 d8h8 h5h6 h8h6 d2d3 f7e6 b2b1 h6h4 f2g3 h4h8 b3b4 h8d8 b1b3 d8d4 b3b2 d4d3 g3h4 e5e4 "
    "b2c2 e4e3 c2e2 c6e8 h4g5 e6e5 e2e1 d3b3 e1e2"
).split()


def default_engine_path():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, "target", "release", "chess")


def bench(engine, options, depth, threads=1):
    """Runs one bench in a fresh process: (nodes, wall ms, main-thread CPU ms, huge-page MiB)."""
    script = "".join(f"setoption name {k} value {v}\n" for k, v in options.items())
    # Two benches per process, the second one measured: the first commits the table's pages.
    # (A fresh mapping is read as the kernel's zero page by `clear`; the search's first store to
    # each page then faults and zeroes it, 2 MiB at a time with huge pages, on the search thread:
    # that measured first-touch costs of this VM, up to 3 s per GiB, not the table.)
    script += f"bench {depth} {threads}\n" * 2 + "quit\n"
    out = subprocess.run([engine], input=script, capture_output=True, text=True, check=True).stdout
    errors = [l for l in out.splitlines() if l.startswith("info string error")]
    if errors:
        sys.exit(f"engine refused {options}: {errors}")
    huge = None
    for line in out.splitlines():
        m = HUGE_LINE.match(line)
        if m:
            huge = int(m.group(1))
        m = BENCH_LINE.match(line)
        if m:
            cpu = int(m.group(6)) if m.group(6) else None
            result = (int(m.group(3)), int(m.group(4)), cpu)
    return result + (huge,)


def compare(engine, title, configs, depth, repeat, metric="cpu"):
    """configs: [(label, options, threads)]. Returns Markdown rows.

    `metric` "cpu" compares the main search thread's CPU time (single-threaded runs: robust to
    other jobs holding the cores), "wall" the wall time (time to depth with several threads)."""
    if ONLY not in title:
        return []
    runs = {label: [] for label, _, _ in configs}
    for _ in range(repeat):
        for label, options, threads in configs:
            runs[label].append(bench(engine, options, depth, threads))
            print(f"  {title} / {label}: {runs[label][-1][:3]}", file=sys.stderr)

    def timing(label):
        """(median wall, median CPU, least CPU) in ms; CPU falls back to wall off Linux."""
        wall = statistics.median(r[1] for r in runs[label])
        cpus = [r[2] for r in runs[label] if r[2] is not None] or [r[1] for r in runs[label]]
        return wall, statistics.median(cpus), min(cpus)

    def measure(label):
        wall, cpu, best = timing(label)
        return (cpu, best) if metric == "cpu" else (wall, min(r[1] for r in runs[label]))

    base, base_best = measure(configs[0][0])
    rows = []
    for label, _, threads in configs:
        nodes = statistics.median(r[0] for r in runs[label])
        wall, cpu, best = timing(label)
        ms, least = measure(label)
        nps = int(nodes * 1000 // max(ms, 1))
        huge = runs[label][-1][3]
        note = f"{huge} MiB on huge pages" if huge is not None else ""
        rows.append(f"| {title} | {label} | {threads} | {nodes:,.0f} | {wall:,.0f} | {cpu:,.0f} | {best:,.0f} | "
                    f"{nps:,} | {ms / base:.2f} / {least / base_best:.2f} ({metric}) | {note} |")
    return rows


def perft_rows(engine, repeat):
    """perft vs perft-tt (64 MiB) on two positions: process CPU time (user + sys, from rusage)."""
    if ONLY not in "perft vs perft-tt":
        return []
    cases = [("startpos", "position startpos", 6),
             ("kiwipete", "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5)]
    rows = []
    for name, position, depth in cases:
        cpu = {"perft": [], "perft-tt": []}
        counts = {}
        for _ in range(repeat):
            for command in ("perft", "perft-tt"):
                suffix = " 64" if command == "perft-tt" else ""
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run([engine], input=f"{position}\n{command} {depth}{suffix}\nquit\n",
                                     capture_output=True, text=True, check=True).stdout
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[command].append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
                counts[command] = [l for l in out.splitlines() if l.startswith("Nodes searched")][-1]
                print(f"  perft {name} / {command}: {cpu[command][-1]:.0f} ms", file=sys.stderr)
        if counts["perft"] != counts["perft-tt"]:
            sys.exit(f"perft-tt disagrees with perft on {name}: {counts}")
        base = statistics.median(cpu["perft"])
        for command in ("perft", "perft-tt"):
            ms = statistics.median(cpu[command])
            rows.append(f"| perft vs perft-tt, {name} depth {depth} | {command} | 1 | "
                        f"{counts[command].split(': ')[1]} leaves | | {ms:,.0f} (process) | {min(cpu[command]):,.0f} | "
                        f"| {ms / base:.2f} (cpu) | |")
    return rows


def game_nodes(engine, options, depth):
    """Nodes to `depth` summed over every position of GAME, searched in order with one table
    (a new generation per `go`, as in a game), in one process, one thread."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        for line in p.stdout:
            lines.append(line)
            if line.startswith(prefix):
                return lines
        sys.exit("the engine stopped")

    for name, value in options.items():
        send(f"setoption name {name} value {value}")
    send("ucinewgame")
    send("isready")
    until("readyok")
    total = 0
    for ply in range(len(GAME)):
        send("position startpos moves " + " ".join(GAME[:ply]))
        send(f"go depth {depth}")
        exact = [l for l in until("bestmove") if " score " in l and "bound" not in l]
        total += int(exact[-1].split(" nodes ")[1].split()[0])
    send("quit")
    p.wait()
    return total


def table_experiment(engine, depth, bench_depth):
    """TTSlots (buckets of four or one slot) and TTRefresh (off or on) at Hash 1 and 64 MiB:
    nodes to a fixed depth over the game, and the bench node count. Node counts at one thread
    are exact, so one run of each suffices."""
    rows = [f"| Hash | TTSlots | TTRefresh | game nodes, depth {depth} | ratio | "
            f"bench {bench_depth} nodes |", "|---|---|---|---:|---:|---:|"]
    for mib in (1, 64):
        base = None
        for slots in ("Bucket", "Single"):
            for refresh in ("false", "true"):
                options = {"Hash": mib, "TTSlots": slots, "TTRefresh": refresh}
                nodes = game_nodes(engine, options, depth)
                base = base or nodes
                bench_nodes = bench(engine, options, bench_depth)[0]
                rows.append(f"| {mib} MiB | {slots} | {'on' if refresh == 'true' else 'off'} | "
                            f"{nodes:,} | {nodes / base:.3f} | {bench_nodes:,} |")
                print(rows[-1], file=sys.stderr)
    return rows


def layout_experiment(engine, depth, bench_depth):
    """TTLayout Wide against Dense at Hash 1 and 16 MiB: nodes to a fixed depth over the game,
    and the bench node count (exact at one thread: one run each)."""
    rows = [f"| Hash | TTLayout | game nodes, depth {depth} | dense ÷ wide | bench {bench_depth} nodes |",
            "|---|---|---:|---:|---:|"]
    for mib in (1, 16):
        base = None
        for layout in ("Wide", "Dense"):
            options = {"Hash": mib, "TTLayout": layout}
            nodes = game_nodes(engine, options, depth)
            base = base or nodes
            bench_nodes = bench(engine, options, bench_depth)[0]
            rows.append(f"| {mib} MiB | {layout} | {nodes:,} | {nodes / base:.3f} | {bench_nodes:,} |")
            print(rows[-1], file=sys.stderr)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=default_engine_path())
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big-hash", type=int, default=1024, help="MiB for the prefetch and huge-page rows")
    parser.add_argument("--only", default="", help="run only comparisons whose title contains this")
    parser.add_argument("--game-depth", type=int,
                        help="instead: the TTSlots x TTRefresh table over a game at this depth")
    parser.add_argument("--layout-depth", type=int,
                        help="instead: TTLayout Wide vs Dense over a game at this depth")
    args = parser.parse_args()
    if args.layout_depth:
        print("\n".join(layout_experiment(args.engine, args.layout_depth, args.depth)))
        return
    if args.game_depth:
        print("\n".join(table_experiment(args.engine, args.game_depth, args.depth)))
        return
    global ONLY
    ONLY = args.only
    d, r, big = args.depth, args.repeat, args.big_hash

    rows = ["| comparison | configuration | threads | nodes | wall ms | CPU ms | least CPU ms | nps | "
            "time ratio: median / least | note |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    rows += compare(args.engine, f"table vs none (depth {d})",
                    [("Hash 16 MiB", {"Hash": 16}, 1), ("Hash 0 (no table)", {"Hash": 0}, 1)], d, r)
    for mib in (1, 16):
        rows += compare(args.engine, f"buckets vs single slot, {mib} MiB (depth {d})",
                        [("buckets of 4", {"Hash": mib, "TTSlots": "Bucket"}, 1),
                         ("single slot", {"Hash": mib, "TTSlots": "Single"}, 1)], d, r)
    rows += compare(args.engine, f"threads, time to depth {d}",
                    [("1 thread", {"Hash": 64}, 1), ("2 threads", {"Hash": 64}, 2)], d, r, metric="wall")
    rows += compare(args.engine, f"prefetch, {big} MiB (depth {d})",
                    [("prefetch on", {"Hash": big, "TTPrefetch": "true"}, 1),
                     ("prefetch off", {"Hash": big, "TTPrefetch": "false"}, 1)], d, r)
    rows += compare(args.engine, f"huge pages, {big} MiB (depth {d})",
                    [("HugePages on (madvise)", {"Hash": big, "HugePages": "true"}, 1),
                     ("HugePages off (never)", {"Hash": big, "HugePages": "false"}, 1)], d, r)
    rows += perft_rows(args.engine, r)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
