#!/usr/bin/env bash
# Coarse sweep of the pruning margins (issue 25, item 5): the `tune` build
# with every pruning margin scaled by one factor, against the same build at
# its defaults, as a GSPRT [0, 10] at the SPRT settings (tools/sprt-vs.sh):
# 2+0.02, the 500 openings, two games at once, adjudication. A scale that
# is clearly worse ends in H0 early; one that shows a gain is then made the
# default and proven by tools/sprt-vs.sh like any change.
#
#   tools/sweep-margins.sh SCALE_PERCENT [BINARY]   e.g. 75 or 133
#
# The log is reports/sweep/margins-<scale>.jsonl (resumable, committed).
set -euo pipefail
scale=${1:?usage: tools/sweep-margins.sh SCALE_PERCENT [BINARY]}
[[ $scale =~ ^[0-9]+$ ]] || { echo "SCALE_PERCENT must be a whole number, got '$scale'" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
binary=${2:-target/tune/release/quince}
if [[ ! -x $binary ]]; then
    cargo build --release --quiet --features tune --target-dir target/tune
    binary=target/tune/release/quince
fi
# The margins, with their defaults from src/search/params.rs.
declare -A margins=(
    [rfp_margin]=90 [rfp_improving]=30 [futility_base]=100 [futility_margin]=90
    [see_quiet_margin]=60 [see_capture_margin]=100 [qs_delta_margin]=200
)
opts=()
for name in "${!margins[@]}"; do
    opts+=(--a-opt "$name=$(( (margins[$name] * scale + 50) / 100 ))")
done
mkdir -p reports/sweep target/sweep
exec python3 tools/match.py --a "$binary" --a-name "margins x$scale%" "${opts[@]}" \
    --b "$binary" --b-name "defaults" \
    --openings tools/openings.epd --tc 2+0.02 --concurrency 2 --adjudicate \
    --sprt 0,10 --games 2000 --state "reports/sweep/margins-$scale.jsonl" \
    --pgn "target/sweep/margins-$scale.pgn"
