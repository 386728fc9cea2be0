#!/usr/bin/env bash
# Issue 26's comparison: the model checker (examples/modelcheck, fp64 and exact, default flags
# otherwise) against stateright's BFS, 2 threads each, on the actor models (Paxos and ABD, whose
# stateright ports are in src/bin/stateright_actors/) and on 2PC (stateright_models' adapter),
# the three runs of a model alternating, ROUNDS rounds (default 3). Prints one line per run
# (model, checker, states, states/s) and the load before and after.
# With MAX_DEPTH, Paxos and ABD stop storing states more than MAX_DEPTH steps from the start on
# both sides (for 3 clients, whose whole state spaces are too large for this machine); MEMORY is
# our runs' --memory (the exact set's size, and the fp64 table's cap).
# Usage: benches/actors_compare.sh [ROUNDS] [PAXOS_CLIENTS] [ABD_CLIENTS] [2PC_RMS] [MAX_DEPTH] [MEMORY]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3} PAXOS=${2:-2} ABD=${3:-2} RMS=${4:-7} DEPTH=${5:-} MEMORY=${6:-}
cargo build --release -p modelcheck-cli -q
(cd benches && cargo build --release --bin stateright_actors --bin stateright_models -q)
MC=target/release/modelcheck
SRA=benches/target/release/stateright_actors
SRM=benches/target/release/stateright_models

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# A run that fails or prints no rate stops the script (set -e, and the checks below).
ours() { # model N mode
  local bound=()
  [[ -n $DEPTH && $1 != 2pc ]] && bound=(--max-depth "$DEPTH")
  [[ -n $MEMORY ]] && bound+=(--memory "$MEMORY")
  local out; out=$("$MC" "$1" "$2" --threads 2 --mode "$3" --quiet "${bound[@]}")
  local states rate
  states=$(sed -n 's/^states: //p' <<<"$out"); rate=$(sed -n 's/^states\/s: //p' <<<"$out")
  [[ -n $states && -n $rate ]] || { echo "no counts: $out" >&2; exit 1; }
  echo "$1 $2 | modelcheck $3 | $states | $rate"
}
theirs() { # model N
  local out
  if [[ $1 == 2pc ]]; then out=$("$SRM" 2pc "$2" 2 bfs); else out=$("$SRA" "$1" "$2" 2 $DEPTH); fi
  local states rate
  states=$(sed -n 's/.*: states \([0-9]*\) .*/\1/p' <<<"$out"); rate=$(sed -n 's/.* s, \([0-9]*\) states\/s.*/\1/p' <<<"$out")
  [[ -n $states && -n $rate ]] || { echo "no counts: $out" >&2; exit 1; }
  echo "$1 $2 | stateright bfs | $states | $rate"
}
for round in $(seq "$ROUNDS"); do
  for spec in "paxos $PAXOS" "abd $ABD" "2pc $RMS"; do
    set -- $spec
    # Alternate the order of the three each round.
    if (( round % 2 )); then ours "$1" "$2" fp64; ours "$1" "$2" exact; theirs "$1" "$2"
    else theirs "$1" "$2"; ours "$1" "$2" exact; ours "$1" "$2" fp64; fi
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
