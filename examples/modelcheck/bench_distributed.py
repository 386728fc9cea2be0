#!/usr/bin/env python3
"""Side-by-side benchmark of the distributed checker (BENCHMARKS.md, "Distributed model
checker"): on each model, the threaded checker with 1 and 2 threads, 1 process x 2 timely
workers, and 2 processes x 1 worker (--local 2) with and without the senders' filters
(--sent-filter 0), alternated A B C D E A B C D E ... for --rounds rounds. Prints one markdown table per model: states/s (median and spread), bytes sent per
state, peak resident memory per process, the largest process's visited states over the mean
(skew), and each process's visited storage (states x bytes/slot) over the single run's.

Usage: python3 examples/modelcheck/bench_distributed.py [--rounds 3]
(builds the release binary first; run from the repository root)."""

import argparse
import os
import re
import statistics
import subprocess
import sys

MODELS = [
    # (name, arguments, memory per single run in MiB)
    ("2PC-9", ["2pc", "9"], 256),
    ("philosophers-16", ["philosophers", "16", "--no-deadlock"], 64),
]


def configs(memory):
    half = max(1, memory // 2)
    return [
        ("threaded, 1 thread", ["--threads", "1", "--memory", str(memory)], 1),
        ("threaded, 2 threads", ["--threads", "2", "--memory", str(memory)], 1),
        ("1 process x 2 workers", ["--workers", "2", "--memory", str(memory)], 1),
        ("2 processes x 1 worker", ["--local", "2", "--memory", str(half)], 2),
        ("2 processes x 1 worker, no sent filter",
         ["--local", "2", "--sent-filter", "0", "--memory", str(half)], 2),
    ]


def field(report, key):
    match = re.search(rf"^{re.escape(key)}: (\S+)", report, re.M)
    if not match:
        sys.exit(f"no `{key}` in:\n{report}")
    return float(match.group(1))


def run(binary, args):
    """Returns (report, peak resident KiB of the command from GNU time)."""
    command = ["/usr/bin/time", "-f", "%M", binary, *args, "--quiet"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    peak_kib = int(done.stderr.strip().splitlines()[-1])
    return done.stdout, peak_kib


def processes_of(report):
    """Per-process rows of the distributed report: (states, bytes sent, peak resident)."""
    rows = []
    for line in report.splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[0].isdigit():
            rows.append((int(parts[1]), int(parts[3]), int(parts[7]) if parts[7] != "-" else 0))
    return rows


def machine():
    """`date -u`, the load average and the CPU model, for the benchmark's header."""
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    model = next((line.split(":", 1)[1].strip() for line in
                  subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
                  if line.startswith("Model name")), "unknown")
    date = subprocess.run(["date", "-u"], capture_output=True, text=True).stdout.strip()
    return f"{date}; load average {load}; {model}, {os.cpu_count()} CPUs"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    subprocess.run(["cargo", "build", "--release", "-p", "modelcheck-cli"], check=True)
    binary = "target/release/modelcheck"
    print(f"start: {machine()}")
    for name, model, memory in MODELS:
        results = {label: [] for label, _, _ in configs(memory)}
        for _ in range(rounds):
            for label, flags, _ in configs(memory):
                results[label].append(run(binary, model + flags))
        single_states = field(results["threaded, 1 thread"][0][0], "states")
        print(f"\n{name}: {int(single_states):,} states, {rounds} rounds alternated\n")
        print("| configuration | states/s (median) | spread (min-max) | bytes sent/state "
              "| peak RSS per process (MiB) | skew max/mean | storage per process / single |")
        print("|---|---|---|---|---|---|---|")
        for label, flags, processes in configs(memory):
            runs = results[label]
            rates = [field(report, "states/s") for report, _ in runs]
            report, peak_kib = runs[-1]
            rows = processes_of(report)
            if rows:
                sent = sum(r[1] for r in rows) / single_states
                peaks = "/".join(f"{r[2] / 2**20:.0f}" for r in rows)
                states = [r[0] for r in rows]
                skew = max(states) / (sum(states) / len(states))
                share = "/".join(f"{s / single_states:.3f}" for s in states)
            else:
                sent, peaks, skew, share = 0.0, f"{peak_kib / 1024:.0f}", 1.0, "1.000"
            print(f"| {label} | {statistics.median(rates):,.0f} | {min(rates):,.0f}-{max(rates):,.0f} "
                  f"| {sent:.1f} | {peaks} | {skew:.4f} | {share} |")
    print(f"\nend: {machine()}")


if __name__ == "__main__":
    main()
