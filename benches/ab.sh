#!/usr/bin/env bash
# Paired A/B runs of the crate against another git revision of it: the `lean` or `targets`
# runner of this working tree, built with the revision linked beside the crate (renamed
# searchcache-baseline) and `--cfg searchcache_ab`, so that both sides run in one process,
# alternating, on identical tables.
#
#   benches/ab.sh REV lean [--mib MIB --rounds N --ops N]
#   benches/ab.sh REV targets --pairs ab [--mib MIB --rounds N --secs S]
#
# Everything goes to target/ab/ (the baseline's source, a copy of benches/, its build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: benches/ab.sh REV lean|targets [runner options]}
bin=${2:?usage: benches/ab.sh REV lean|targets [runner options]}
shift 2
work=$root/target/ab
rm -rf "$work/baseline" "$work/benches"
mkdir -p "$work/baseline" "$work/benches"
git -C "$root" archive "$rev" Cargo.toml README.md src | tar -x -C "$work/baseline"
# Another name, and no dev-dependencies (only the library is built).
sed -i -e 's/^name = "searchcache"$/name = "searchcache-baseline"/' \
  -e '/^\[dev-dependencies\]/,/^\[/{/^\[dev-dependencies\]/d;/^\[/!d}' "$work/baseline/Cargo.toml"
cp -r "$root/benches/Cargo.toml" "$root/benches/Cargo.lock" "$root/benches/src" \
  "$root/benches/benches" "$work/benches/"
sed -i -e 's|^searchcache = { path = ".." }|searchcache = { path = "../../.." }\nsearchcache_baseline = { package = "searchcache-baseline", path = "../baseline" }|' \
  "$work/benches/Cargo.toml"
echo "ab: $(git -C "$root" rev-parse --short "$rev") (baseline) against the working tree $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src || echo +changes)" >&2
RUSTFLAGS="${RUSTFLAGS:-} --cfg searchcache_ab" CARGO_TARGET_DIR="$work/target" \
  cargo run --release --manifest-path "$work/benches/Cargo.toml" --bin "$bin" -- "$@"
