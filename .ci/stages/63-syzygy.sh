# Syzygy tablebase probing against python-chess 1.11.2's prober
# (chess.syzygy), on the 35 3- and 4-piece tables (KPvK to KRvKR, .rtbw and
# .rtbz) that python-chess's source package ships: tools/syzygy-test-tables.sh
# puts them in tests/data/syzygy/regular/ (not committed).
# * `cargo test --test syzygy` probes them from Rust; QUINCE_REQUIRE_SYZYGY=1
#   makes the tables compulsory here (without it the test only notes that
#   it skipped). Its committed fixture, tests/data/syzygy/probes.jsonl, holds
#   python-chess's WDL and DTZ for 40 positions per table.
# * tests/python/test_syzygy_uci.py: the Syzygy options as a GUI meets them.
# * tests/python/test_syzygy.py generates random positions per table (either
#   colour holding either side, e.p. positions where both sides have pawns),
#   pipes them all through one `quince syzygy --path DIR --json` and compares
#   every WDL and DTZ with python-chess's. Here 4000 positions per table
#   (140,000; python-chess takes about a minute of one core for them; 8000
#   were cut to keep a cold CI run near 45 minutes).
#   The full-size run:
#     QUINCE=target/release/quince python3 tests/python/test_syzygy.py --positions 20000
#   (--positions 2000, the script's default, takes python-chess about 40 s.)
set -euo pipefail
if ! python3 -c 'import chess, sys; sys.exit(chess.__version__ != "1.11.2")' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "chess==1.11.2" \
    || python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages "chess==1.11.2"
fi
bash tools/syzygy-test-tables.sh
cargo build --release
QUINCE_SYZYGY_TABLES=tests/data/syzygy/regular QUINCE_REQUIRE_SYZYGY=1 cargo test --release --test syzygy
QUINCE=target/release/quince python3 tests/python/test_syzygy.py --positions 4000
QUINCE=target/release/quince python3 tests/python/test_syzygy_uci.py
