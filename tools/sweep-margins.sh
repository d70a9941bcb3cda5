#!/usr/bin/env bash
# Coarse sweep of the pruning margins (issue 25, item 5): the `tune` build
# with every pruning margin scaled by one factor, against the same build at
# its defaults, as a GSPRT [0, 10] at the SPRT settings tools/sprt-vs.sh
# used until 2026-11-29: 2+0.02, the 500 openings, two games at once, adjudication. A scale that
# is clearly worse ends in H0 early; one that shows a gain is then made the
# default and proven by tools/sprt-vs.sh like any change.
#
#   tools/sweep-margins.sh SCALE_PERCENT [BINARY]   e.g. 75 or 133
#
# The log is reports/sweep/margins-<scale>.jsonl (resumable, committed);
# its header record, reports/data/match-sweep-margins-<scale>.json, names
# the binary's SHA-256, every option set and the host (tools/match.py), and
# the commit when this script built the binary from a clean tree.
set -euo pipefail
scale=${1:?usage: tools/sweep-margins.sh SCALE_PERCENT [BINARY]}
[[ $scale =~ ^[0-9]+$ ]] || { echo "SCALE_PERCENT must be a whole number, got '$scale'" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
cd "$root"
binary=${2:-target/tune/release/quince}
commit=()
if [[ ! -x $binary ]]; then
    cargo build --release --quiet --features tune --target-dir target/tune
    binary=target/tune/release/quince
    if [[ -z $(git status --porcelain --untracked-files=no) ]]; then
        head=$(git rev-parse HEAD)
        commit=(--a-commit "$head" --b-commit "$head")
    fi
fi
# The margins; their defaults are read from the binary's UCI option list
# (the tune build offers each parameter with its default from
# src/search/params.rs), so the sweep always scales what the build uses.
names=(rfp_margin rfp_improving futility_base futility_margin
    see_quiet_margin see_capture_margin qs_delta_margin)
options=$(printf 'uci\nquit\n' | "$binary")
opts=()
for name in "${names[@]}"; do
    default=$(awk -v n="$name" '$1 == "option" && $3 == n { for (i = 4; i < NF; i++) if ($i == "default") print $(i + 1) }' <<<"$options")
    [[ $default =~ ^[0-9]+$ ]] || { echo "$binary offers no option $name: build it with --features tune" >&2; exit 2; }
    opts+=(--a-opt "$name=$(( (default * scale + 50) / 100 ))")
done
mkdir -p reports/sweep target/sweep
exec python3 tools/match.py --a "$binary" --a-name "margins x$scale%" "${opts[@]}" \
    --b "$binary" --b-name "defaults" "${commit[@]}" \
    --kind sweep --title "every pruning margin x$scale% against the defaults (tune build)" \
    --openings tools/openings.epd --tc 2+0.02 --concurrency 2 --adjudicate \
    --sprt 0,10 --games 2000 --state "reports/sweep/margins-$scale.jsonl" \
    --pgn "reports/sweep/margins-$scale.pgn"
