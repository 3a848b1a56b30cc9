#!/bin/sh
# Writes the output of many seeds and options into DIR, so a refactor can be proved byte-neutral:
#   scripts/outputs-snapshot.sh BIN /tmp/before ; (change) ; scripts/outputs-snapshot.sh BIN /tmp/after
#   diff -r /tmp/before /tmp/after
# MYK seeds 0..300 with options varied by seed, fortresses 0..300 with 3..40 areas (JSON), and a
# few seeds in every format (pictures, Udonarium and PDF too), and each objective kind in the texts.
set -eu
bin=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
layouts="straight junction mixed"
i=0
while [ $i -le 300 ]; do
    layout=$(echo $layouts | cut -d' ' -f$((i % 3 + 1)))
    size=$((i % 6 + 1))
    level=$((i % 9 + 1))
    maps=$((i % 4 + 1))
    rooms=$((i % 7 + 3))
    "$bin" myk --seed $i --court-size $size --level $level --maps $maps --rooms $rooms --layout $layout \
        --format json --out "$dir/myk-$i" >/dev/null
    "$bin" myk --seed $i --format json --out "$dir/myk-default-$i" >/dev/null
    areas=$((i % 38 + 3))
    cl=$((i % 10 + 1))
    party=$((i % 5 + 2))
    "$bin" fortress --seed $i --areas $areas --cl $cl --party $party --format json --out "$dir/nw3-$i" >/dev/null
    i=$((i + 1))
done
for s in 1 7 42; do
    "$bin" myk --seed $s --maps 2 --format json,svg,md,html,uvtt,udonarium,pdf --out "$dir/myk-all-$s" >/dev/null
    "$bin" fortress --seed $s --format json,svg,md,html,uvtt,udonarium,pdf --out "$dir/nw3-all-$s" >/dev/null
done
# The largest pictures: four maps on US letter, and a 40-area fortress plan.
"$bin" myk --seed 5 --maps 4 --paper letter --format json,svg,md,html,uvtt,udonarium,pdf --out "$dir/myk-all-letter" >/dev/null
"$bin" fortress --seed 9 --areas 40 --paper letter --format json,svg,md,html,uvtt,udonarium,pdf --out "$dir/nw3-all-40" >/dev/null
# Every objective kind, in the texts that print the story (seeds 31-150, 1-4 maps), and the
# formats DOT draws too.
kinds="defeat rescue acquire search deliver win_over race"
for s in $(seq 31 150); do
    kind=$(echo $kinds | cut -d' ' -f$((s % 7 + 1)))
    "$bin" myk --seed $s --maps $((s % 4 + 1)) --objective $kind --format json,md,dot --out "$dir/myk-kind-$s" >/dev/null
done
