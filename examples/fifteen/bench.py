#!/usr/bin/env python3
"""Paired, alternating timings of fifteen configurations (BENCHMARKS.md, "Fifteen puzzle").

Each round runs every configuration once, in order (A B C A B C ...), so that a change of the
machine's load hits all of them alike; the table gives per configuration the median and the
range over the rounds of: the solve wall time (all instances, setup excluded), the sum of the
instances' own times, the process CPU time (user + sys, setup included), the peak RSS, and the
node count (which varies between rounds only with several threads), then each median's ratio to
the first configuration's.

    python3 examples/fifteen/bench.py ROUNDS 'ARGS A' 'ARGS B' ...

The binary is target/release/fifteen (built first), or the one a configuration names first
as `@PATH` (e.g. '@/tmp/fifteen-before --threads 1', a build of an older commit, for paired
before/after runs); every configuration gets --pdb-dir target/fifteen-pdb unless it names its
own. The machine's header (date, CPU, load
before and after) is printed first: quote it with the numbers.
"""

import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, "target", "release", "fifteen")


def machine():
    model = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
    load = open("/proc/loadavg").read().split()[:3]
    date = subprocess.run(["date", "-u"], capture_output=True, text=True, check=True).stdout.strip()
    return f"{date}; {model[0] if model else '?'} x {len(model)}; load {' '.join(load)}"


def run(args):
    binary = BINARY
    if args and args[0].startswith("@"):
        binary, args = args[0][1:], args[1:]
    with tempfile.NamedTemporaryFile("r") as times:
        cmd = ["/usr/bin/time", "-o", times.name, "-f", "%U %S %M", binary] + args
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if out.returncode != 0:
            sys.exit(f"{' '.join(args)}: exit {out.returncode}\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
        user, system, rss = times.read().split()[-3:]
    total = re.search(r"^ *total +\d+ +(\d+) +([\d.]+)", out.stdout, re.M)
    solved = re.search(r"solved in ([\d.]+) s wall", out.stdout)
    if not total or not solved:
        sys.exit(f"{' '.join(args)}: no totals in its output\n{out.stdout[-2000:]}")
    return {
        "solve": float(solved.group(1)),
        "sum": float(total.group(2)),
        "cpu": float(user) + float(system),
        "rss": int(rss) / 1024,
        "nodes": int(total.group(1)),
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    configs = [shlex.split(a) for a in sys.argv[2:]]
    configs = [c if "--pdb-dir" in c or "--no-pdb-cache" in c else c + ["--pdb-dir", "target/fifteen-pdb"] for c in configs]
    subprocess.run(["nice", "-n", "5", "cargo", "build", "--release", "-p", "fifteen"], cwd=ROOT, check=True, capture_output=True)
    print(f"before: {machine()}")
    results = [[] for _ in configs]
    for _ in range(rounds):
        for i, c in enumerate(configs):
            results[i].append(run(c))
    print(f"after:  {machine()}; {rounds} rounds, alternating")
    print("| `target/release/fifteen` | nodes | solve wall s (median, range) | Σ instance s | CPU s | peak RSS MiB | × first (solve wall) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = None
    for c, rs in zip(configs, results):
        med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
        lo, hi = min(r["solve"] for r in rs), max(r["solve"] for r in rs)
        nodes = sorted({r["nodes"] for r in rs})
        nodes = f"{nodes[0]:,}" if len(nodes) == 1 else f"{nodes[0]:,}-{nodes[-1]:,}"
        base = base or med["solve"]
        shown = " ".join(a for a in c if a != "target/fifteen-pdb" and a != "--pdb-dir")
        print(f"| `{shown}` | {nodes} | {med['solve']:.3f} ({lo:.3f}-{hi:.3f}) | {med['sum']:.3f} | "
              f"{med['cpu']:.2f} | {med['rss']:.0f} | {med['solve'] / base:.3f} |")


if __name__ == "__main__":
    main()
