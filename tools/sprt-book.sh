#!/usr/bin/env bash
# SPRT of the engine's own book: OwnBook on against off (issue 46, item 5).
#
#   tools/sprt-book.sh [REV [BOOK]] [more tools/match.py arguments]
#
# REV defaults to HEAD; BOOK to Debian's gnuchess-book
# (/usr/share/games/gnuchess/book.bin; `apt-get install gnuchess-book`).
# No opening book ships with Quince, so the test uses one a user can
# install. Both sides are REV's engine (built once into target/sprt/REV);
# the first has `OwnBook=true` and `BookFile=BOOK`, the second
# `OwnBook=false` (the default again since issue 68: GUIs bring their own books). Every pair starts from
# the start position (tools/startpos.epd), since the question is whether
# the book's openings beat the engine's own search from move one; the
# book's weighted random choice keeps the pairs apart. Settings otherwise
# those tools/sprt-vs.sh used until 2026-11-29: 2+0.02, two games at once,
# adjudication on, GSPRT [0, 10]. (Its H1 made OwnBook the default for a while; issue 68 turned it off.) The log is
# reports/sprt/ownbook-REV.jsonl (resumable), its header record
# reports/data/match-sprt-ownbook-REV.json.
set -euo pipefail
rev=HEAD
book=/usr/share/games/gnuchess/book.bin
if [[ $# -gt 0 && $1 != -* ]]; then rev=$1; shift; fi
if [[ $# -gt 0 && $1 != -* ]]; then book=$1; shift; fi
if [[ ! -r $book ]]; then
    echo "no readable book at $book: apt-get install gnuchess-book, or name a Polyglot .bin" >&2
    exit 2
fi
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p target/sprt reports/sprt
source tools/build-rev.sh
rev=$(git rev-parse --short "$rev")
build_rev "$rev"
commit=$(git rev-parse "$rev")
book_sha=$(sha256sum "$book" | cut -c1-12)
name="ownbook-$rev"
exec python3 tools/match.py \
    --a "target/sprt/$rev" --a-name "OwnBook on $rev" --a-commit "$commit" \
    --a-opt OwnBook=true --a-opt "BookFile=$book" \
    --b "target/sprt/$rev" --b-name "OwnBook off $rev" --b-commit "$commit" --b-opt OwnBook=false \
    --kind sprt --title "opening book: OwnBook on ($(basename "$book"), SHA-256 $book_sha...) against off, from the start position" \
    --openings tools/startpos.epd --tc 2+0.02 --concurrency 2 --adjudicate \
    --sprt 0,10 --games 6000 --state "reports/sprt/$name.jsonl" --pgn "reports/sprt/$name.pgn" "$@"
