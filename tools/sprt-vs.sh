#!/usr/bin/env bash
# SPRT of the working tree's engine against an earlier commit.
#
#   tools/sprt-vs.sh BASE [ELO0,ELO1] [more tools/match.py arguments]
#
# Builds BASE (a commit, tag or branch) in a scratch worktree and the working
# tree as it is, copies both binaries to target/sprt/{base,new}, and runs
# tools/match.py with the settings every search change in reports/strength.md
# was decided with: 500 balanced openings, 3+0.03, two games at once,
# adjudication on, GSPRT [0, 10] by default, at most 6000 games. The run is
# resumable: its state lives in target/sprt/<base>-<tree hash>.jsonl.
set -euo pipefail
base=${1:?usage: tools/sprt-vs.sh BASE [ELO0,ELO1] [match.py arguments]}
shift
bounds=${1:-0,10}
[[ $# -gt 0 ]] && shift
root=$(git rev-parse --show-toplevel)
cd "$root"
out=target/sprt
mkdir -p "$out"
base_rev=$(git rev-parse --short "$base")
scratch=$(mktemp -d)
trap 'git worktree remove --force "$scratch" >/dev/null 2>&1 || true' EXIT
git worktree add --detach "$scratch" "$base_rev" >/dev/null
echo "building base $base_rev" >&2
(cd "$scratch" && CARGO_TARGET_DIR="$root/target/sprt-base-build" cargo build --release --quiet --bin quince)
cp target/sprt-base-build/release/quince "$out/base"
echo "building the working tree" >&2
cargo build --release --quiet --bin quince
cp target/release/quince "$out/new"
tree=$( (git diff "$base_rev"; git status --porcelain) | sha1sum | cut -c1-8)
state="$out/$base_rev-$tree.jsonl"
exec python3 tools/match.py --a "$out/new" --a-name "new" --b "$out/base" --b-name "base $base_rev" \
    --openings tools/openings.epd --tc 3+0.03 --concurrency 2 --adjudicate \
    --sprt "$bounds" --games 6000 --state "$state" --pgn "$out/$base_rev-$tree.pgn" "$@"
