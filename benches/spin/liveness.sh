#!/usr/bin/env bash
# Liveness verdicts of modelcheck against SPIN's nested depth-first search (issue 27): for each
# lock model, process 0's starvation freedom (LTL ns0 in the .pml; NoStarvation(p0) in
# modelcheck) under weak fairness (pan -a -f; --fairness weak) and without (pan -a; --fairness
# none). The verdicts must agree, or the script exits 1. Prints a markdown row per run: states
# (SPIN: product states stored, never claim and fairness copies included), seconds, states/s.
# Usage: benches/spin/liveness.sh [--quick]   (needs spin and gcc: apt-get install spin)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cargo build --release -q -p modelcheck-cli --manifest-path "$ROOT/Cargo.toml"
MC=$ROOT/target/release/modelcheck
specs=("tas 2" "tas 3" "ticket 2" "ticket 3" "peterson 2" "peterson 3")
[[ ${1:-} == --quick ]] || specs+=("ticket 5" "peterson 4")
echo "| model | fairness | checker | verdict | states | s | states/s |"
echo "|---|---|---|---|---|---|---|"
for spec in "${specs[@]}"; do
  set -- $spec
  (cd "$WORK" && cp "$ROOT/benches/spin/$1.pml" . && spin -DN="$2" -a "$1.pml" >/dev/null \
    && gcc -O2 -DNOREDUCE -DVECTORSZ=4096 -o pan pan.c 2>/dev/null) || { echo "SPIN $spec: building pan" >&2; exit 1; }
  for fairness in weak none; do
    flag=(); [[ $fairness == weak ]] && flag=(-f)
    (cd "$WORK" && ./pan -a "${flag[@]}" -N ns0 -m10000000 -w24 >"$WORK/out" 2>&1) || true
    errors=$(awk '/errors:/ {print $NF}' "$WORK/out")
    states=$(awk '/states, stored/ {print $1; exit}' "$WORK/out")
    secs=$(sed -n 's/pan: elapsed time \([0-9.e+-]*\) seconds/\1/p' "$WORK/out")
    spin_verdict=$([[ $errors == 0 ]] && echo holds || echo violated)
    echo "| $1 $2 | $fairness | SPIN pan -a ${flag[*]:-} | $spin_verdict | $states | $secs | $(awk -v n="$states" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }') |"
    status=0
    "$MC" "$1" "$2" --quiet --threads 1 --property 'NoStarvation(p0)' --fairness "$fairness" >"$WORK/mc" || status=$?
    line=$(grep '^property NoStarvation(p0): ' "$WORK/mc")
    ours=$([[ $status -eq 0 ]] && echo holds || echo violated)
    [[ $status -eq 0 || $status -eq 1 ]] || { echo "modelcheck $spec: exit $status" >&2; cat "$WORK/mc" >&2; exit 1; }
    mstates=$(sed -n 's/.*(\([0-9]*\) product states.*/\1/p' <<<"$line")
    msecs=$(sed -n 's/.* transitions, \([0-9.]*\) s.*/\1/p' <<<"$line")
    echo "| $1 $2 | $fairness | modelcheck | $ours | $mstates | $msecs | $(awk -v n="$mstates" -v s="$msecs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }') |"
    [[ $ours == "$spin_verdict" ]] || { echo "DISAGREE: $spec $fairness: SPIN $spin_verdict, modelcheck $ours" >&2; exit 1; }
  done
done
echo "every verdict agrees with SPIN"
