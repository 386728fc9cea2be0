#!/usr/bin/env bash
# One thread against two on one instance, alternating (BENCHMARKS.md, "Two threads against one
# on a long instance"): per run the solve's wall time and nodes (the result row), the process's
# user CPU time, the load before it and the hypervisor's steal time during it.
#
# Usage: examples/fifteen/threads.sh ROUNDS FIFTEEN_ARGS...
#   e.g. examples/fifteen/threads.sh 3 --korf24 2
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:?usage: examples/fifteen/threads.sh ROUNDS FIFTEEN_ARGS...}
shift
cargo build --release -q -p fifteen
steal() { awk '/^cpu /{print $9}' /proc/stat; }
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; args: $*"
echo "| round | threads | load | steal ticks | result row (id length nodes seconds Mnode/s hit) | user CPU s |"
echo "|---:|---:|---:|---:|---|---:|"
for round in $(seq 1 "$ROUNDS"); do
  for threads in 1 2; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    before=$(steal)
    out=$( { /usr/bin/time -f "USER %U" target/release/fifteen --threads "$threads" "$@" 2>&1; } || true)
    after=$(steal)
    row=$(grep -E '^ +(24-|argv|[0-9])' <<<"$out" | head -1 | xargs)
    user=$(grep '^USER' <<<"$out" | cut -d' ' -f2)
    echo "| $round | $threads | $load | $((after - before)) | $row | $user |"
  done
done
