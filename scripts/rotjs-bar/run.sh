#!/bin/sh
# Issue 35's bar "in one run": MYK generate+check (examples/bar.rs) against rot-js's 3x3 Rogue
# layout alone (bench.mjs), run alternately ROUNDS times in the same sitting, so both meet the
# same load on a shared machine. Prints each round's figures and ratios, then the median ratio
# (MYK / rot-js: at or under 1.00 meets the bar). The bar's figure is MYK on the system allocator
# (examples/bar.rs); the same on mimalloc, the dungeonsmith binary's allocator
# (examples/bar_mimalloc.rs), is printed beside it. Not part of CI (it needs node and npm).
#
#   cargo build --profile bench --locked --example bar --example bar_mimalloc
#   (cd scripts/rotjs-bar && npm ci)
#   scripts/rotjs-bar/run.sh [ROUNDS]
#
# BAR names the built example if it is not target/release/examples/bar (CARGO_TARGET_DIR is read);
# bar_mimalloc is looked for beside it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-5}
bar=${BAR:-${CARGO_TARGET_DIR:-$root/target}/release/examples/bar}
bar_mi=$(dirname "$bar")/bar_mimalloc
for b in "$bar" "$bar_mi"; do
    [ -x "$b" ] || { echo "run.sh: $b is missing: cargo build --profile bench --locked --example bar --example bar_mimalloc" >&2; exit 2; }
done
[ -d "$here/node_modules/rot-js" ] || { echo "run.sh: rot-js is missing: (cd $here && npm ci)" >&2; exit 2; }

figure() { sed -n 's/^us //p'; }
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }'; }
ratios=""
ratios_mi=""
i=1
while [ "$i" -le "$rounds" ]; do
    myk=$("$bar" | figure)
    mi=$("$bar_mi" | figure)
    rot=$(node "$here/bench.mjs" | figure)
    ratio=$(awk -v a="$myk" -v b="$rot" 'BEGIN { printf "%.3f", a / b }')
    ratio_mi=$(awk -v a="$mi" -v b="$rot" 'BEGIN { printf "%.3f", a / b }')
    echo "round $i: MYK generate+check $myk us (mimalloc $mi us), rot-js layout $rot us, ratio $ratio (mimalloc $ratio_mi)"
    ratios="$ratios $ratio"
    ratios_mi="$ratios_mi $ratio_mi"
    i=$((i + 1))
done
echo "median ratio (MYK / rot-js) over $rounds rounds: $(echo "$ratios" | median) (the bar); on mimalloc: $(echo "$ratios_mi" | median)"
