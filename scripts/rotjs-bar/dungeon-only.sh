#!/bin/sh
# What issue 35's bar would read for the dungeon alone: MYK generate+check with the scenario frame
# (objective, cast, clues, story, Scenario Movement, the ruler's Relationship) left out, against
# the whole scenario and rot-js's 3x3 Rogue layout, run alternately ROUNDS times in one sitting.
#
# rot-js makes a layout; our generator makes a dungeon (maps, rooms, corridors, traps, monsters,
# bases, rulers, each under the book's limits) and a scenario around it. This splits the figure:
# dungeon-only.patch takes the frame out of `myk::generate` and its rules out of the check (the
# check's verdict is ignored, since a scenario without its frame breaks the frame's rules), and is
# applied in a throwaway worktree: the patched build never touches this one. Not part of CI (it
# needs node, npm and git).
#
#   (cd scripts/rotjs-bar && npm ci)
#   scripts/rotjs-bar/dungeon-only.sh [ROUNDS]
#
# The builds go to $CARGO_TARGET_DIR (default target/) and $CARGO_TARGET_DIR-dungeon-only.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-3}
target=${CARGO_TARGET_DIR:-$root/target}
[ -d "$here/node_modules/rot-js" ] || { echo "dungeon-only.sh: rot-js is missing: (cd $here && npm ci)" >&2; exit 2; }
tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$tree"' EXIT INT TERM
git -C "$root" worktree add --quiet --detach "$tree" HEAD
git -C "$tree" apply "$here/dungeon-only.patch" ||
    { echo "dungeon-only.sh: dungeon-only.patch no longer applies to src/myk: update it" >&2; exit 2; }
# The workspace's ../shared (the rulebook texts some tests read) is not needed to build.
(cd "$root" && CARGO_TARGET_DIR=$target cargo build --quiet --profile bench --locked --example bar)
(cd "$tree" && CARGO_TARGET_DIR=$target-dungeon-only cargo build --quiet --profile bench --locked --example bar)

figure() { sed -n 's/^us //p'; }
i=1
while [ "$i" -le "$rounds" ]; do
    whole=$("$target/release/examples/bar" | figure)
    dungeon=$("$target-dungeon-only/release/examples/bar" | figure)
    rot=$(node "$here/bench.mjs" | figure)
    echo "round $i: scenario $whole us, dungeon alone $dungeon us, rot-js layout $rot us;" \
        "ratios $(awk -v a="$whole" -v d="$dungeon" -v b="$rot" 'BEGIN { printf "%.3f and %.3f", a / b, d / b }')"
    i=$((i + 1))
done
