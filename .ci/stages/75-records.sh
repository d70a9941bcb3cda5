# The lab's word is its records: every rendered block of README.md,
# reports/*.md and docs/lab.md, and every chart, must be exactly what the
# records in reports/data/ give; no figure may be typed outside a block;
# no record may come from an uncommitted tree. Fails naming the page and
# line. After a record changes: cargo run -p xtask -- report --render
set -euo pipefail
cargo run -p xtask -- report --check
