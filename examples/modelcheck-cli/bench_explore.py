#!/usr/bin/env python3
"""The explorer's response time and memory (issue 28's benchmark line).

Starts `modelcheck explore MODEL SIZE` on a free loopback port, makes PATHS random paths of
DEPTH steps by walking the API (untimed), then times REQUESTS `GET /api/state?path=...` of
those paths over one keep-alive connection (p50, p99, max), and reads the server's resident
memory (VmRSS) before and after SOAK more requests, every 1,000 of them. The server keeps no
cache, so the memory must stay flat. Times include this client's own Python overhead (about
50 us a request); the server is the release binary.

    python3 examples/modelcheck-cli/bench_explore.py --model puzzle --size 3
"""

import argparse
import http.client
import json
import random
import re
import subprocess
import sys
import time

BINARY = "target/release/modelcheck"


def start(model, size):
    server = subprocess.Popen(
        [BINARY, "explore", model, str(size)], stdout=subprocess.PIPE, text=True
    )
    line = server.stdout.readline()
    found = re.match(r"explorer: http://([\d.]+):(\d+)/", line)
    if not found:
        server.kill()
        sys.exit(f"no URL from the explorer: {line!r}")
    return server, found.group(1), int(found.group(2))


def get(conn, path):
    conn.request("GET", "/api/state?path=" + path)
    response = conn.getresponse()
    body = response.read()
    if response.status != 200:
        sys.exit(f"{path}: {response.status} {body[:200]!r}")
    return body


def random_path(conn, depth, rng):
    path = "0"
    for _ in range(depth):
        actions = json.loads(get(conn, path))["actions"]
        if not actions:
            break
        path += "/" + str(rng.randrange(len(actions)))
    return path


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(p / 100 * len(sorted_values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="puzzle")
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument("--depth", type=int, default=30)
    parser.add_argument("--paths", type=int, default=100)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--soak", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    server, host, port = start(args.model, args.size)
    try:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        rng = random.Random(args.seed)
        paths = [random_path(conn, args.depth, rng) for _ in range(args.paths)]
        depth = min(p.count("/") for p in paths)
        print(f"model: {args.model} {args.size}; {len(paths)} random paths of {depth}+ steps")
        print(f"resident before the timed requests: {rss_kib(server.pid)} KiB")
        for p in paths:  # warm-up
            get(conn, p)
        times = []
        for i in range(args.requests):
            t = time.perf_counter()
            get(conn, paths[i % len(paths)])
            times.append(time.perf_counter() - t)
        times.sort()
        us = lambda s: f"{s * 1e6:.0f} us"
        print(f"{args.requests} requests: p50 {us(percentile(times, 50))}, "
              f"p99 {us(percentile(times, 99))}, max {us(times[-1])}")
        print(f"resident after {args.requests} requests: {rss_kib(server.pid)} KiB")
        for i in range(args.soak):
            get(conn, paths[i % len(paths)])
            if (i + 1) % 1000 == 0:
                print(f"resident after {args.requests + i + 1} requests: "
                      f"{rss_kib(server.pid)} KiB")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
