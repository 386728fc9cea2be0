#!/usr/bin/env bash
# Issue 26's encoded frontier: the model checker plain against --encoded-states, alternated, on
# Paxos and ABD with 3 clients to a depth bound (their whole state spaces do not fit this
# machine), fp64 and exact, 2 threads, --memory 4G; per run the states, states/s and peak RSS.
# Usage: benches/encoded_compare.sh [ROUNDS]   (default 3, about 5 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
cargo build --release -p modelcheck-cli -q
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
  for spec in "paxos 3 --max-depth 15" "abd 3 --max-depth 18"; do
    for mode in fp64 exact; do
      # The order alternates round by round.
      if (( r % 2 )); then order=(plain --encoded-states); else order=(--encoded-states plain); fi
      for e in "${order[@]}"; do
        flag=(); [[ $e == plain ]] || flag=("$e")
        line=$( { /usr/bin/time -f "rss %M KB" target/release/modelcheck $spec --mode "$mode" \
          --threads 2 --memory 4G --quiet "${flag[@]}"; } 2>&1 | grep -E "^(states|states/s)|rss" | tr '\n' ' ')
        echo "round $r | $spec | $mode | $e | $line"
      done
    done
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
