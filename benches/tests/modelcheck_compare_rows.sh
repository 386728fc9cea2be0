#!/usr/bin/env bash
# benches/modelcheck_compare.sh in its small mode (--quick --ours: 2pc 5 and philosophers 10,
# examples/modelcheck's rows only, a few seconds) must succeed and print every row whole: the
# expected number of rows, none with an empty cell. (It once passed --memory twice, which
# clap refuses, swallowed the usage error and printed rows of blanks: issue 25, item 10.)
# Usage: benches/tests/modelcheck_compare_rows.sh [SCRIPT]   (SCRIPT: the script to check)
set -euo pipefail
cd "$(dirname "$0")/../.."
script=${1:-benches/modelcheck_compare.sh}
out=$("$script" --quick --ours)
rows=$(grep -E '^\| (2pc|philosophers) ' <<<"$out" || true)
# Per model: 2 thread counts x 5 rows (fp64, fp32, bitstate, exact, fp64 steal), and 2 tight rows.
expected=24
count=$(grep -c . <<<"$rows" || true)
if [[ $count -ne $expected ]]; then
  echo "modelcheck_compare_rows: $count rows, expected $expected:" >&2
  echo "$out" >&2
  exit 1
fi
# A cell that is empty or blank: `|  |` (the row's own first and last bars excluded).
blank=$(awk -F'|' '{ for (i = 2; i < NF; i++) if ($i ~ /^ *$/ || $i ~ /^ *\( *\) *$/) { print; break } }' <<<"$rows")
if [[ -n $blank ]]; then
  echo "modelcheck_compare_rows: rows with an empty cell:" >&2
  echo "$blank" >&2
  exit 1
fi
echo "modelcheck_compare_rows: $count rows, every cell filled"
