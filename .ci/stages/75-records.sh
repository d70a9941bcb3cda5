# The lab's word is its records: every rendered block of README.md,
# reports/*.md and docs/lab.md, and every chart, must be exactly what the
# records in reports/data/ give; no figure may be typed outside a block;
# no record may come from an uncommitted tree. Fails naming the page and
# line. After a record changes: cargo run -p xtask -- report --render
set -euo pipefail
cargo run -p xtask -- report --check
# And the check must notice an edited figure: change one rendered figure of
# README's results block in this clone, expect a failure, restore it.
if grep -q '^| bulk perft against' README.md; then
  cp README.md /tmp/readme-before-tamper.md
  sed -i '0,/^| bulk perft against/ s/\([0-9]\)\.\([0-9][0-9]\)x/\1.\29x/' README.md
  if cargo run -q -p xtask -- report --check >/dev/null 2>&1; then
    cp /tmp/readme-before-tamper.md README.md
    echo "report --check passed with an edited figure in README.md"
    exit 1
  fi
  cp /tmp/readme-before-tamper.md README.md
  echo "report --check fails on an edited figure, as it must"
fi
