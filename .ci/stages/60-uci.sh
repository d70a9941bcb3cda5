# The playing engine from a real client: python-chess drives the release
# binary (self-play game, analyses), the tactics answers are re-checked with
# python-chess, and `quince bench` prints the search's node-count signature.
set -euo pipefail
cargo build --release
if ! python3 -c 'import chess, sys; sys.exit(chess.__version__ != "1.11.2")' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "chess==1.11.2" \
    || python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages "chess==1.11.2"
fi
python3 tests/python/verify_tactics.py
QUINCE=target/release/quince python3 tests/python/test_uci.py
target/release/quince bench
