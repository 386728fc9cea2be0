#!/usr/bin/env bash
# The MD+LC and 6-6-3 measurements of BENCHMARKS.md ("Fifteen puzzle (issue 6)"): one
# configuration per line, totals and times. Takes 15-30 minutes on 2 cores.
# Usage: examples/fifteen/bench.sh [LC_SUBSET]. The 7-8 measurements use bench.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUB=${1:-1-25}
cargo build --release -p fifteen -q
B=target/release/fifteen
PDB=(--heuristic pdb663 --pdb-dir target/fifteen-pdb)
$B --korf 1 "${PDB[@]}" >/dev/null # build the pattern databases once, outside the timings
date -u; uptime; lscpu | grep -E "Model name|^CPU\(s\)"; cat /sys/kernel/mm/transparent_hugepage/enabled
# One configuration; a run that fails (or prints no totals) stops the script with its output.
run() {
  local t0 t1 log out status=0
  t0=$(date +%s.%N)
  log=$(/usr/bin/time -f "user %U s" "$B" "$@" 2>&1) || status=$?
  t1=$(date +%s.%N)
  out=$(grep -E "^ *total|^user" <<<"$log" || true)
  if [[ $status -ne 0 || $(grep -c . <<<"$out") -ne 2 ]]; then
    echo "bench.sh: fifteen $* failed (exit $status):" >&2
    tail -n 20 <<<"$log" >&2
    exit 1
  fi
  printf '%-70s %s | wall %.1f s\n' "$*" "$(echo "$out" | tr '\n' ' ' | tr -s ' ')" "$(echo "$t1 - $t0" | bc)"
}
echo "== PDB 6-6-3 (mirrored), Korf 1-100"
run "${PDB[@]}" --no-table --threads 1
run "${PDB[@]}" --no-table --threads 2
run "${PDB[@]}" --threads 1 --hash-mib 64 --fresh-table
run "${PDB[@]}" --threads 2 --hash-mib 64 --fresh-table
run "${PDB[@]}" --threads 2 --hash-mib 64 --fresh-table --table-slack 2
run "${PDB[@]}" --threads 2
echo "== MD+LC, Korf $SUB: table sizes"
run --heuristic lc --korf "$SUB" --no-table --threads 1
for mib in 1 4 16 64 256; do run --heuristic lc --korf "$SUB" --threads 1 --fresh-table --hash-mib $mib; done
run --heuristic lc --korf "$SUB" --threads 1 --fresh-table --hash-mib 64 --table-slack 2
run --heuristic lc --korf "$SUB" --no-table --threads 2
run --heuristic lc --korf "$SUB" --threads 2 --fresh-table --hash-mib 64
echo "== MD+LC, Korf 1-100"
run --heuristic lc --no-table --threads 1
run --heuristic lc --threads 1 --fresh-table --hash-mib 64
run --heuristic lc --threads 2 --fresh-table --hash-mib 64
date -u; uptime
