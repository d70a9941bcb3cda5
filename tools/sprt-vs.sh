#!/usr/bin/env bash
# SPRT of one commit's engine against another's.
#
#   tools/sprt-vs.sh NEW BASE [ELO0,ELO1] [--change search|eval|time] [more tools/match.py arguments]
#
# Builds NEW and BASE (commits, tags or branches) in scratch worktrees,
# keeps the binaries as target/sprt/<commit>, and runs tools/match.py with
# the project's test settings: the 500 balanced openings of
# tools/openings.epd, two games at once, adjudication on, GSPRT [0, 10]
# unless given, at most 6000 games, and the time control the kind of
# change calls for (issue "Playing strength IV", item 3):
#
#   --change search   8+0.08 (the default): a search change
#   --change eval     nodes=40000, a fixed node count per move: an
#                     evaluation-only change, measured without what its
#                     speed costs or buys (its nodes per second are stated
#                     apart, as nnue.md does per network)
#   --change time     40+0.4: the confirmation of anything that touches
#                     time management or depth
#
# Until 2026-11-29 every test ran at 2+0.02; a test that is resumed keeps
# the time control it began with (read from its header record), so the
# pages' resume commands go on as before. A `--tc` among the match.py
# arguments overrides both.
#
# Every finished pair is appended to reports/sprt/<new>-vs-<base>.jsonl, so
# an interrupted test resumes where it stopped when started again, and the
# log and the games (reports/sprt/<new>-vs-<base>.pgn, which `report
# --check` recounts against the log) are committed with the change it
# decided, beside its header record
# reports/data/match-sprt-<new>-vs-<base>.json (both commits, the binaries'
# SHA-256, the settings and the host; tools/match.py writes it). NEW may
# be a side-branch commit that is not in this clone: it is then rebuilt
# from its patch, reports/sprt/tested/NEW-*.patch, on BASE. The last
# line of the output is the `summary:` JSON object.
set -euo pipefail
usage="usage: tools/sprt-vs.sh NEW BASE [ELO0,ELO1] [--change search|eval|time] [match.py arguments]"
new=${1:?$usage}
base=${2:?$usage}
shift 2
bounds=0,10
# Bounds may be negative (a non-regression test, e.g. -10,0), so they are
# told from match.py's options by their shape, not by a leading dash.
if [[ $# -gt 0 && $1 =~ ^-?[0-9.]+,-?[0-9.]+$ ]]; then bounds=$1; shift; fi
change=
if [[ $# -gt 0 && $1 == --change ]]; then
    change=${2:-}
    shift 2 || { echo "$usage" >&2; exit 2; }
fi
case $change in
    "" | search) tc=8+0.08 ;;
    eval) tc=nodes=40000 ;;
    time) tc=40+0.4 ;;
    *) echo "error: --change wants search, eval or time, not '$change'" >&2; echo "$usage" >&2; exit 2 ;;
esac
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p target/sprt reports/sprt
source tools/build-rev.sh
base_rev=$(git rev-parse --short "$base")
if git rev-parse -q --verify "$new^{commit}" >/dev/null; then
    new_rev=$(git rev-parse --short "$new")
    new_commit=$(git rev-parse "$new_rev")
    # The header's title: the change.
    title=$(git log -1 --format=%s "$new_rev")
else
    # A side-branch commit that is not in this clone: rebuilt from its
    # patch in reports/sprt/tested/ on BASE (see tools/build-rev.sh), with
    # the commit and title the patch names.
    patch=$(patch_of_rev "$new")
    new_rev=$new
    new_commit=$(sed -n '1s/^From \([0-9a-f]\{40\}\) .*/\1/p' "$patch")
    title=$(git mailinfo /dev/null /dev/null < "$patch" | sed -n 's/^Subject: //p')
fi
name="$new_rev-vs-$base_rev"
# A test already under way keeps its time control, whatever the kind says.
header=reports/data/match-sprt-$name.json
if [[ -f reports/sprt/$name.jsonl && -f $header ]]; then
    began=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["time_control"])' "$header")
    if [[ -n $change && $began != "$tc" ]]; then
        echo "note: $name began at $began; resuming at $began, not $tc" >&2
    fi
    tc=$began
fi
build_rev "$new_rev" "$base_rev"
build_rev "$base_rev"
# A removal test is named after the variant it plays against, a
# side-branch commit "sprt variant: no-...".
base_subject=$(git log -1 --format=%s "$base_rev")
if [[ $base_subject == "sprt variant: "* ]]; then
    variant=${base_subject#sprt variant: }
    title="removal test: the search against its \`${variant%% (*}\` variant"
fi
exec python3 tools/match.py --a "target/sprt/$new_rev" --a-name "new $new_rev" \
    --a-commit "$new_commit" --b-commit "$(git rev-parse "$base_rev")" \
    --kind sprt --title "$title" \
    --b "target/sprt/$base_rev" --b-name "base $base_rev" \
    --openings tools/openings.epd --tc "$tc" --concurrency 2 --adjudicate \
    --sprt="$bounds" --games 6000 --state "reports/sprt/$name.jsonl" --pgn "reports/sprt/$name.pgn" "$@"
