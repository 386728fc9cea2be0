#!/usr/bin/env bash
# Liveness verdicts of modelcheck against SPIN's nested depth-first search (issue 27), under weak
# fairness (pan -a -f; --fairness weak) and without (pan -a; --fairness none). The verdicts must
# agree, or the script exits 1. Each spec names the model, its size, its Promela file, the LTL
# formula there and the property here:
# - the locks: process 0's starvation freedom (ltl ns0; NoStarvation(p0));
# - 2PC with one SPIN process per fairness class (twophase_fair.pml; ltl decided; Decided);
# - the dining philosophers, and their ordered variant without a deadlock: philosopher 0
#   eventually eats (ltl eats0; Eats(p0)).
# Prints a markdown row per run: states (SPIN: product states stored, never claim and fairness
# copies included), seconds, states/s.
# Usage: benches/spin/liveness.sh [--quick]   (needs spin and gcc: apt-get install spin)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cargo build --release -q -p modelcheck-cli --manifest-path "$ROOT/Cargo.toml"
MC=$ROOT/target/release/modelcheck
specs=("tas 2 tas ns0 NoStarvation(p0)" "tas 3 tas ns0 NoStarvation(p0)"
  "ticket 2 ticket ns0 NoStarvation(p0)" "ticket 3 ticket ns0 NoStarvation(p0)"
  "peterson 2 peterson ns0 NoStarvation(p0)" "peterson 3 peterson ns0 NoStarvation(p0)"
  "2pc 3 twophase_fair decided Decided" "philosophers 3 philosophers eats0 Eats(p0)"
  "philosophers 5 philosophers eats0 Eats(p0)"
  "ordered-philosophers 4 ordered_philosophers eats0 Eats(p0)")
[[ ${1:-} == --quick ]] || specs+=("ticket 5 ticket ns0 NoStarvation(p0)"
  "peterson 4 peterson ns0 NoStarvation(p0)" "2pc 5 twophase_fair decided Decided"
  "2pc 6 twophase_fair decided Decided" "philosophers 8 philosophers eats0 Eats(p0)"
  "ordered-philosophers 6 ordered_philosophers eats0 Eats(p0)")
echo "| model | fairness | checker | verdict | states | s | states/s |"
echo "|---|---|---|---|---|---|---|"
for spec in "${specs[@]}"; do
  read -r model size pml ltl property <<<"$spec"
  # NFAIR=8: SPIN's fairness bookkeeping for up to 8 bytes of process bits (2PC: n + 2 processes).
  (cd "$WORK" && cp "$ROOT/benches/spin/$pml.pml" . && spin -DN="$size" -a "$pml.pml" >/dev/null \
    && gcc -O2 -DNOREDUCE -DNFAIR=8 -DVECTORSZ=4096 -o pan pan.c 2>/dev/null) \
    || { echo "SPIN $model $size: building pan" >&2; exit 1; }
  for fairness in weak none; do
    flag=(); [[ $fairness == weak ]] && flag=(-f)
    (cd "$WORK" && ./pan -a "${flag[@]}" -N "$ltl" -m10000000 -w24 >"$WORK/out" 2>&1) || true
    errors=$(awk '/errors:/ {print $NF}' "$WORK/out")
    [[ -n $errors ]] || { echo "SPIN $model $size $fairness: no verdict" >&2; cat "$WORK/out" >&2; exit 1; }
    states=$(awk '/states, stored/ {print $1; exit}' "$WORK/out")
    secs=$(sed -n 's/pan: elapsed time \([0-9.e+-]*\) seconds/\1/p' "$WORK/out")
    spin_verdict=$([[ $errors == 0 ]] && echo holds || echo violated)
    echo "| $model $size | $fairness | SPIN pan -a ${flag[*]:-} | $spin_verdict | $states | $secs | $(awk -v n="$states" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }') |"
    status=0
    # --no-deadlock: a state without successors is the liveness check's finite counterexample
    # (the philosophers' deadlock), not a safety error that ends the run before it.
    "$MC" "$model" "$size" --quiet --no-deadlock --threads 1 --property "$property" \
      --fairness "$fairness" >"$WORK/mc" || status=$?
    [[ $status -eq 0 || $status -eq 1 ]] || { echo "modelcheck $model $size: exit $status" >&2; cat "$WORK/mc" >&2; exit 1; }
    line=$(grep -F "property $property: " "$WORK/mc" | head -1)
    ours=$([[ $status -eq 0 ]] && echo holds || echo violated)
    mstates=$(sed -n 's/.*(\([0-9]*\) product states.*/\1/p' <<<"$line")
    msecs=$(sed -n 's/.* transitions, \([0-9.]*\) s.*/\1/p' <<<"$line")
    echo "| $model $size | $fairness | modelcheck | $ours | $mstates | $msecs | $(awk -v n="$mstates" -v s="$msecs" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }') |"
    [[ $ours == "$spin_verdict" ]] || { echo "DISAGREE: $model $size $fairness: SPIN $spin_verdict, modelcheck $ours" >&2; exit 1; }
  done
done
echo "every verdict agrees with SPIN"
