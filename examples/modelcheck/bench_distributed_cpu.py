#!/usr/bin/env python3
"""CPU seconds per state of the distributed checker against the threaded one (BENCHMARKS.md,
"Distributed model checker"): a measure that a shared, loaded machine disturbs far less than
states/s. On each model it alternates the threaded checker with 2 threads and 2 processes x 1
worker (--local 2), A B A B ... for --rounds rounds, and sums the user and system CPU time of
every process of a run (getrusage of the children: `--local 2` waits for its two processes, so
theirs are included). Prints, per configuration, the median CPU microseconds per state with
its spread, and the ratio threaded / distributed of the medians: the share of the threaded
checker's throughput that the distributed one would reach if both kept the two cores equally
busy (wall-clock also pays for the distributed run's idle waits at level ends).

With several --binary, every binary runs every configuration in each round (A/B of builds).

Usage: python3 examples/modelcheck/bench_distributed_cpu.py [--rounds 5] [--binary PATH ...]
(without --binary, builds and uses target/release/modelcheck; run from the repository root)."""

import argparse
import re
import resource
import statistics
import subprocess
import sys
import time

MODELS = [
    # (name, arguments, memory per single run in MiB), as bench_distributed.py runs them
    ("2PC-9", ["2pc", "9"], 256),
    ("philosophers-16", ["philosophers", "16", "--no-deadlock"], 64),
]


def configs(memory):
    return [
        ("threaded, 2 threads", ["--threads", "2", "--memory", str(memory)]),
        ("2 processes x 1 worker", ["--local", "2", "--memory", str(max(1, memory // 2))]),
    ]


def run(binary, args):
    """(states, CPU seconds of all processes, wall seconds) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run([binary, *args, "--quiet"], capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    match = re.search(r"^states: (\d+)", done.stdout, re.M)
    if not match:
        sys.exit(f"no `states` in:\n{done.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(match.group(1)), cpu, wall


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--binary", action="append")
    arguments = parser.parse_args()
    binaries = arguments.binary
    if not binaries:
        subprocess.run(["cargo", "build", "--release", "-p", "modelcheck-cli"], check=True)
        binaries = ["target/release/modelcheck"]
    date = subprocess.run(["date", "-u"], capture_output=True, text=True).stdout.strip()
    print(f"start: {date}; load average {load()}")
    for name, model, memory in MODELS:
        cpu = {}
        for _ in range(arguments.rounds):
            for binary in binaries:
                for label, flags in configs(memory):
                    states, seconds, _ = run(binary, model + flags)
                    cpu.setdefault((binary, label), []).append(seconds / states * 1e6)
        print(f"\n{name}, {arguments.rounds} rounds alternated\n")
        print("| binary | configuration | CPU µs/state (median) | spread (min-max) |")
        print("|---|---|---|---|")
        for (binary, label), values in cpu.items():
            print(f"| {binary} | {label} | {statistics.median(values):.3f} "
                  f"| {min(values):.3f}-{max(values):.3f} |")
        for binary in binaries:
            threaded = statistics.median(cpu[(binary, "threaded, 2 threads")])
            distributed = statistics.median(cpu[(binary, "2 processes x 1 worker")])
            print(f"\n{binary}: threaded / distributed CPU per state = "
                  f"{threaded / distributed:.3f}")
    print(f"\nend: load average {load()}")


if __name__ == "__main__":
    main()
