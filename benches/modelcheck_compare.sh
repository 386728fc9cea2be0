#!/usr/bin/env bash
# The model checker (examples/modelcheck) against stateright and SPIN, side by side in one run,
# on 2PC with 8 resource managers (1,745,408 states) and philosophers-16 (1,331,714 states).
# Prints a markdown table for BENCHMARKS.md. Needs: cargo, spin, gcc, /usr/bin/time.
# Usage: benches/modelcheck_compare.sh [--quick] [--ours]
#   --quick: 2pc 5 and philosophers 10 only; --ours: only examples/modelcheck's rows (no
#   stateright, no SPIN; benches/tests/modelcheck_compare_rows.sh runs it so in CI).
# A run that fails, or whose report lacks a number, stops the script with its output (exit 1):
# never a row of blanks.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
QUICK= OURS=
for arg in "$@"; do
  case $arg in
    --quick) QUICK=1 ;;
    --ours) OURS=1 ;;
    *) echo "usage: benches/modelcheck_compare.sh [--quick] [--ours]" >&2; exit 2 ;;
  esac
done
TWOPC=8 PHIL=16 MEM=32
if [[ -n $QUICK ]]; then TWOPC=5 PHIL=10 MEM=8; fi

cargo build --release -p modelcheck-cli -q
[[ -n $OURS ]] || (cd benches && cargo build --release --bin stateright_models -q)
MC=$ROOT/target/release/modelcheck
SR=$ROOT/benches/target/release/stateright_models
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, THP $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo n/a)"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
echo
echo "| model | checker | threads | states | time (s) | CPU (s) | states/s | visited B/state (slot) | peak RSS (MiB) |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|"

# Stops the script: what failed, and the tail of its output and of time's log.
fail() {
  echo "modelcheck_compare.sh: $1" >&2
  tail -n 20 "$WORK/out" "$WORK/time" >&2 || true
  exit 1
}

peak_mib() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$1"; }
# User + system seconds: with other jobs on the cores, wall time hides whether threads scale.
cpu_s() { awk -F': ' '/User time|System time/ {t += $2} END {printf "%.2f", t}' "$1"; }
# Peers run under a 4 GiB address-space cap: stateright's DFS on philosophers-16 grew past
# 24 GB and was OOM-killed in the first run of this script.
PEER_VMEM_KIB=$((4 * 1024 * 1024))

# examples/modelcheck: one row per mode and thread count (and the work-stealing schedule).
ours() { # model N label MEMORY_MIB flags...
  local model=$1 n=$2 label=$3 memory=$4 status=0; shift 4
  /usr/bin/time -v "$MC" "$model" "$n" --quiet --no-liveness --memory "$memory" "$@" >"$WORK/out" 2>"$WORK/time" || status=$?
  # 0: every state visited; 4: no error, but a partial search (fp32 and bitstate always are).
  [[ $status -eq 0 || $status -eq 4 ]] || fail "modelcheck $model $n $label --memory $memory $*: exit $status"
  local states secs rate bps slot
  states=$(sed -n 's/^states: //p' "$WORK/out")
  secs=$(sed -n 's/^time: \([0-9.]*\) s/\1/p' "$WORK/out")
  rate=$(sed -n 's/^states\/s: //p' "$WORK/out")
  [[ -n $states && -n $secs && -n $rate ]] || fail "modelcheck $model $n $label: no states, time or rate in its report"
  # The whole table over the states, and what one stored state costs (a slot, or k bits).
  bps=$(awk '/^visited table: / {t = $3} /^states: / {n = $2} END { if (n > 0) printf "%.2f", t / n }' "$WORK/out")
  slot=$(awk '/^per stored state: at most/ {printf "%.3g", $6 / 8} /^per stored state: [0-9.]* bytes/ {printf "%.3g", $4}' "$WORK/out")
  echo "| $model $n | modelcheck $label | $(grep -o '[0-9]* threads' "$WORK/out" | cut -d' ' -f1) | $states | $secs | $(cpu_s "$WORK/time") | $rate | $bps ($slot) | $(peak_mib "$WORK/time") |"
}

stateright() { # model N threads bfs|dfs
  local status=0
  (ulimit -v "$PEER_VMEM_KIB"; /usr/bin/time -v "$SR" "$1" "$2" "$3" "$4" >"$WORK/out" 2>"$WORK/time") || status=$?
  # Running out of the capped address space is a result (the row says so); any other failure stops.
  if [[ $status -ne 0 ]]; then
    grep -q "memory allocation of" "$WORK/time" || fail "stateright $*: exit $status"
    echo "| $1 $2 | stateright $4 | $3 | did not finish: over the 4 GiB cap | | $(cpu_s "$WORK/time") | | | $(peak_mib "$WORK/time") |"
    return
  fi
  local line states secs rate
  line=$(cat "$WORK/out")
  states=$(sed -n 's/.*: states \([0-9]*\) .*/\1/p' <<<"$line")
  secs=$(sed -n 's/.*, \([0-9.]*\) s, .*/\1/p' <<<"$line")
  rate=$(sed -n 's/.* s, \([0-9]*\) states\/s/\1/p' <<<"$line")
  [[ -n $states && -n $secs && -n $rate ]] || fail "stateright $*: no states, time or rate in its output"
  echo "| $1 $2 | stateright $4 | $3 | $states | $secs | $(cpu_s "$WORK/time") | $rate | n/a (full states + parent fingerprints) | $(peak_mib "$WORK/time") |"
}

spin_run() { # label cflags
  local label=$1; shift
  (cd "$WORK" && cp "$ROOT/benches/spin/twophase.pml" . && spin -DN="$TWOPC" -a twophase.pml >/dev/null \
    && gcc -O2 -DSAFETY -DNOREDUCE "$@" -o pan pan.c) || fail "SPIN $label: building pan"
  local status=0
  (cd "$WORK" && ulimit -v "$PEER_VMEM_KIB" && /usr/bin/time -v ./pan -m1000 -w22 >"$WORK/out" 2>"$WORK/time") || status=$?
  [[ $status -eq 0 ]] || fail "SPIN $label: pan exit $status"
  local states secs rate mem
  states=$(awk '/states, stored/ {print $1}' "$WORK/out")
  secs=$(sed -n 's/pan: elapsed time \([0-9.e+]*\) seconds/\1/p' "$WORK/out")
  rate=$(sed -n 's/pan: rate *\([0-9.]*\) states\/second/\1/p' "$WORK/out" | cut -d. -f1)
  mem=$(awk '/actual memory usage for states/ {print $1}' "$WORK/out")
  [[ -n $states && -n $secs && -n $rate && -n $mem ]] || fail "SPIN $label: no states, time, rate or memory in its output"
  local bps; bps=$(awk -v m="$mem" -v s="$states" 'BEGIN { if (s > 0) printf "%.1f", m * 1048576 / s }')
  echo "| 2pc $TWOPC | SPIN $label | 1 | $states | $secs | $(cpu_s "$WORK/time") | $rate | $bps (state store) | $(peak_mib "$WORK/time") |"
}

for spec in "2pc $TWOPC" "philosophers $PHIL"; do
  set -- $spec
  extra=(); [[ $1 == philosophers ]] && extra=(--no-deadlock)
  for threads in 1 2; do
    for mode in fp64 fp32 bitstate; do
      ours "$1" "$2" "$mode" "$MEM" --mode "$mode" --threads "$threads" "${extra[@]}"
    done
    # The exact mode's --memory is a cap on its hash set (about 20 B a 2PC state while growing).
    ours "$1" "$2" exact $((MEM * 4)) --mode exact --threads "$threads" "${extra[@]}"
    ours "$1" "$2" "fp64 steal" "$MEM" --mode fp64 --schedule steal --threads "$threads" "${extra[@]}"
  done
  # Tables sized to the model (load ~0.8): the visited storage's bytes per state at its tightest.
  tight64=16 tight32=8
  [[ $1 == philosophers ]] && tight64=12 tight32=6
  [[ -n $QUICK ]] && tight64=1 tight32=1
  ours "$1" "$2" "fp64 --memory $tight64" "$tight64" --mode fp64 --threads 2 "${extra[@]}"
  ours "$1" "$2" "fp32 --memory $tight32" "$tight32" --mode fp32 --threads 2 "${extra[@]}"
  [[ -z $OURS ]] || continue
  for threads in 1 2; do
    stateright "$1" "$2" "$threads" bfs
  done
  for threads in 1 2; do
    stateright "$1" "$2" "$threads" dfs
  done
done
if [[ -z $OURS ]]; then
  spin_run "exhaustive"
  spin_run "-DHC" -DHC
fi
echo
echo "load after: $(uptime | sed 's/.*load average/load average/')"
