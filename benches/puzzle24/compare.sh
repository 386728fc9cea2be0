#!/usr/bin/env bash
# Issue 30's comparison: fifteen (this project) against sourcedennis/puzzle24, the public Rust
# 6-6-6-6 solver, one thread each, on the same 24-puzzle boards, the two solvers alternating.
#
# Usage: benches/puzzle24/compare.sh PEER_SRC [BOARDS_FILE]
#   PEER_SRC     a checkout of github.com/sourcedennis/puzzle24 (copied, never modified in place)
#   BOARDS_FILE  one board per line (25 numbers); default: random walks made by this script
#
# The peer is a library; drive.rs (ours) calls its `solve_ita` after building its databases
# once (cached in benches/target/puzzle24-db, 2 × 244 MB). Its database builder needs two local
# fixes to fit in 24 GiB, applied to the copy: its bit set used 8 of each word's 64 bits (6.1 GB
# instead of 763 MB), and its breadth-first queues held children already visited (12 GB and
# growing when it was stopped). Its search, heuristic and databases' contents are unchanged.
set -euo pipefail
cd "$(dirname "$0")/../.."
PEER_SRC=${1:?usage: benches/puzzle24/compare.sh PEER_SRC [BOARDS_FILE]}
WORK=benches/target/puzzle24-drive
rm -rf "$WORK/puzzle24" && mkdir -p "$WORK/src" benches/target/puzzle24-db
cp -r "$PEER_SRC" "$WORK/puzzle24" && rm -rf "$WORK/puzzle24/.git"
sed -i 's/size_of::< usize >( )/(8 * size_of::< usize >( ))/g' "$WORK/puzzle24/src/heuristic/pattern_db/helpers.rs"
python3 - "$WORK/puzzle24/src/heuristic/pattern_db" <<'PY'
import sys, re
d = sys.argv[1]
h = open(d + "/helpers.rs").read()
h = h.replace("impl BitSet {", "impl BitSet {\n  pub fn contains(&self, v: usize) -> bool {\n"
              "    let w = 8 * std::mem::size_of::<usize>();\n    self.0[v / w] & (1 << (v % w)) != 0\n  }\n", 1)
open(d + "/helpers.rs", "w").write(h)
b = open(d + "/db.rs").read()
pat = re.compile(r"(if let Some\( \(next_p, is_pattern_tile\) \) = p\.step_inv\( dir \) \{\n)")
assert pat.search(b), "the peer's builder changed: update compare.sh"
b = pat.sub(r"\1if visited.contains(u64::from(Pattern7Packing::from_u32(next_p.to_u32(), next_p.gap_cell)) as usize) { continue; }\n", b, count=1)
open(d + "/db.rs", "w").write(b)
PY
cat > "$WORK/Cargo.toml" <<'TOML'
[package]
name = "puzzle24-drive"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
puzzle24 = { path = "puzzle24" }
TOML
cp benches/puzzle24/drive.rs "$WORK/src/main.rs"
cargo build --release -q --manifest-path "$WORK/Cargo.toml"
cargo build --release -q -p fifteen
PEER="$WORK/target/release/puzzle24-drive"
export P24_DB=benches/target/puzzle24-db
"$PEER" >/dev/null # builds the peer's databases the first time (about 20 min of one core)

BOARDS=${2:-}
if [[ -z $BOARDS ]]; then # seeded random walks of the blank, no move undone at once
  BOARDS=benches/target/puzzle24-walks.txt
  python3 - > "$BOARDS" <<'PY'
import random
for seed, steps in [(1, 100), (2, 150), (3, 200), (4, 300)]:
    r, b, cells, last = random.Random(seed), 0, list(range(25)), None
    for _ in range(steps):
        moves = [m for m in (-5, -1, 1, 5) if 0 <= b + m < 25 and not (m in (-1, 1) and (b + m) // 5 != b // 5) and m != last]
        m = r.choice(moves); cells[b], cells[b + m] = cells[b + m], cells[b]; b, last = b + m, -m
    print(" ".join(map(str, cells)))
PY
fi
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| board | solver | length | nodes | seconds | ns/node |"
echo "|---|---|---:|---:|---:|---:|"
n=0
while read -r board; do
  [[ -z $board ]] && continue
  n=$((n + 1))
  for side in $( ((n % 2)) && echo "peer ours" || echo "ours peer"); do
    if [[ $side == peer ]]; then
      read -r len nodes secs nsn < <("$PEER" "$board" 2>/dev/null)
    else
      # fifteen's result row: "argv LENGTH NODES SECONDS MNODES/S TT-HIT"
      read -r _ len nodes secs mnps _ < <(target/release/fifteen --threads 1 $board 2>/dev/null | grep '^ *argv ')
      nsn=$(python3 -c "print(f'{$secs * 1e9 / $nodes:.1f}')")
    fi
    echo "| $n | $side | $len | $nodes | $secs | $nsn |"
  done
done < "$BOARDS"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
