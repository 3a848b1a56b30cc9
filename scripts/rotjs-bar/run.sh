#!/bin/sh
# Issue 35's bar "in one run": MYK generate+check (examples/bar.rs) against rot-js's 3x3 Rogue
# layout alone (bench.mjs), run alternately ROUNDS times in the same sitting, so both meet the
# same load on a shared machine. Prints each round's two figures and ratio, then the median ratio
# (MYK / rot-js: at or under 1.00 meets the bar). Not part of CI (it needs node and npm).
#
#   cargo build --profile bench --locked --example bar
#   (cd scripts/rotjs-bar && npm ci)
#   scripts/rotjs-bar/run.sh [ROUNDS]
#
# BAR names the built example if it is not target/release/examples/bar (CARGO_TARGET_DIR is read).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-5}
bar=${BAR:-${CARGO_TARGET_DIR:-$root/target}/release/examples/bar}
[ -x "$bar" ] || { echo "run.sh: $bar is missing: cargo build --profile bench --locked --example bar" >&2; exit 2; }
[ -d "$here/node_modules/rot-js" ] || { echo "run.sh: rot-js is missing: (cd $here && npm ci)" >&2; exit 2; }

figure() { sed -n 's/^us //p'; }
ratios=""
i=1
while [ "$i" -le "$rounds" ]; do
    myk=$("$bar" | figure)
    rot=$(node "$here/bench.mjs" | figure)
    ratio=$(awk -v a="$myk" -v b="$rot" 'BEGIN { printf "%.3f", a / b }')
    echo "round $i: MYK generate+check $myk us, rot-js layout $rot us, ratio $ratio"
    ratios="$ratios $ratio"
    i=$((i + 1))
done
echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n |
    awk '{ r[NR] = $1 } END { printf "median ratio (MYK / rot-js) over %d rounds: %s\n", NR, r[int((NR + 1) / 2)] }'
