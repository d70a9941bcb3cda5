#!/usr/bin/env bash
# The 3- and 4-piece Syzygy tables the Syzygy tests probe, put in
# tests/data/syzygy/regular/ (git-ignored: the tables are not committed).
#
# They come from python-chess 1.11.2's source package, which ships every
# 3- and 4-piece table (35 of them, KPvK to KRvKR; KvK has no file), each a
# .rtbw (win/draw/loss) and a .rtbz (distance to zeroing) file: 70 files.
# The script downloads that sdist with pip (no install, no dependencies) and
# extracts only chess-1.11.2/data/syzygy/regular/*.rtb[wz].
#
#     bash tools/syzygy-test-tables.sh           # into tests/data/syzygy/regular
#     bash tools/syzygy-test-tables.sh DIR       # into DIR instead
#
# Idempotent: when all 70 files are already there it does nothing. Used by
# .ci/stages/63-syzygy.sh; read by tests/python/test_syzygy.py and the Rust
# test `cargo test --test syzygy` (QUINCE_SYZYGY_TABLES).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=${1:-$root/tests/data/syzygy/regular}
version=1.11.2

# Every 3- and 4-piece material split: K + one piece against a bare king,
# K + two pieces against a bare king, K + one piece against K + one piece
# (the stronger side first, pieces in Q R B N P order).
pieces=(Q R B N P)
tables=()
for ((i = 0; i < 5; i++)); do
  tables+=("K${pieces[i]}vK")
  for ((j = i; j < 5; j++)); do
    tables+=("K${pieces[i]}${pieces[j]}vK" "K${pieces[i]}vK${pieces[j]}")
  done
done

missing() {
  local table ext
  for table in "${tables[@]}"; do
    for ext in rtbw rtbz; do
      [[ -s "$dest/$table.$ext" ]] || echo "$table.$ext"
    done
  done
}

if [[ -z "$(missing)" ]]; then
  echo "syzygy-test-tables: all ${#tables[@]} tables (70 files) already in $dest"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "syzygy-test-tables: downloading the chess==$version sdist"
if ! python3 -m pip download --quiet --disable-pip-version-check \
     --no-binary :all: --no-deps "chess==$version" -d "$tmp" >"$tmp/pip.log" 2>&1; then
  cat "$tmp/pip.log" >&2
  echo "syzygy-test-tables: error: 'pip download chess==$version' failed (above);" \
       "the Syzygy test tables come from that source package, so this needs pip" \
       "and access to PyPI (or a pip index / proxy configured for pip)" >&2
  exit 1
fi

sdist="$tmp/chess-$version.tar.gz"
if [[ ! -f "$sdist" ]]; then
  echo "syzygy-test-tables: error: pip did not leave $sdist (it left: $(ls "$tmp"))" >&2
  exit 1
fi

tar -xzf "$sdist" -C "$tmp" --wildcards "chess-$version/data/syzygy/regular/*.rtb[wz]"
mkdir -p "$dest"
cp "$tmp/chess-$version/data/syzygy/regular/"*.rtb[wz] "$dest/"

left=$(missing)
if [[ -n "$left" ]]; then
  echo "syzygy-test-tables: error: the sdist lacks:" $left >&2
  exit 1
fi
echo "syzygy-test-tables: ${#tables[@]} tables (70 files) in $dest"
