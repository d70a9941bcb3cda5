# The playing engine from a real client: python-chess drives the release
# binary (self-play game, analyses), the tactics answers are re-checked with
# python-chess, `quince moves` lists python-chess's SAN for thousands of
# random positions, and `quince bench` prints the search's node-count signature.
set -euo pipefail
cargo build --release
if ! python3 -c 'import chess, sys; sys.exit(chess.__version__ != "1.11.2")' 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check "chess==1.11.2" \
    || python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages "chess==1.11.2"
fi
python3 tests/python/verify_tactics.py
QUINCE=target/release/quince python3 tests/python/test_san.py
QUINCE=target/release/quince python3 tests/python/test_pgn_roundtrip.py
QUINCE=target/release/quince python3 tests/python/test_uci.py
target/release/quince bench
# The match tools: the statistics' self-test, and one pair of games through
# the runner (two workers, the opening file, adjudication, a resumable
# state file) whose summary line must show two games, no illegal move and
# no crash or hang.
python3 tools/sprt.py
# The SPRT stop: a crossing undone by the pairs in play does not end the run.
python3 tests/python/test_dealer.py
state=$(mktemp -d)
tools/match.py --a target/release/quince --b target/release/quince \
  --openings tools/openings.epd --tc 2+0.05 --games 2 --concurrency 2 --adjudicate \
  --state "$state/pairs.jsonl" --pgn "$state/games.pgn" --json "$state/summary.json" | tail -3
python3 - "$state/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["games"] == 2 and s["pairs"] == 1, s
assert not s["illegal_moves"] and not s["crashes"] and not s["hangs"], s
print("match runner: ok")
PY
# Fixed nodes (`--tc nodes=N`, the test of an evaluation change): no clock
# in the header or the PGN, and the same pair played twice is the same
# two games, move for move (one search thread, the same node budget).
for run in 1 2; do
  tools/match.py --a target/release/quince --b target/release/quince \
    --openings tools/openings.epd --tc nodes=2000 --games 2 --concurrency 1 --adjudicate \
    --state "$state/nodes$run.jsonl" --pgn "$state/nodes$run.pgn" --json "$state/nodes$run.json" | tail -1
done
python3 - "$state" <<'PY'
import json, sys
d = sys.argv[1]
header = json.load(open(f"{d}/nodes1.match.json"))
assert header["time_control"] == "nodes=2000", header["time_control"]
assert header["clock"]["kept_by"].startswith("none"), header["clock"]
games = [[l for l in open(f"{d}/nodes{r}.pgn") if not l.startswith("[Date")] for r in (1, 2)]
assert games[0] == games[1], "a fixed-node pair played twice differs"
assert '[TimeControl "-"]\n' in games[0]
s = json.load(open(f"{d}/nodes1.json"))
assert s["games"] == 2 and not s["illegal_moves"] and not s["crashes"] and not s["hangs"], s
print("match runner at fixed nodes: ok (the pair replays move for move)")
PY
# Stopping a background run: `kill PID` once the first pair is logged must
# let the pair under way finish, log it, and name both pairs in the header.
tools/match.py --a target/release/quince --b target/release/quince \
  --openings tools/openings.epd --tc 1+0.01 --games 8 --concurrency 1 \
  --state "$state/stopped.jsonl" --pgn "$state/stopped.pgn" > "$state/stopped.txt" 2>&1 &
runner=$!
for _ in $(seq 600); do
  [[ -s "$state/stopped.jsonl" ]] && break
  sleep 0.1
done
kill -TERM "$runner"
wait "$runner"
python3 - "$state/stopped.jsonl" "$state/stopped.match.json" "$state/stopped.txt" <<'PY'
import json, sys
pairs = [json.loads(line)["pair"] for line in open(sys.argv[1])]
header = json.load(open(sys.argv[2]))
assert pairs == [0, 1], (pairs, open(sys.argv[3]).read())
assert header["segments"][0]["pairs"] == [[0, 1]], header["segments"]
assert "interrupted: finishing the games under way" in open(sys.argv[3]).read()
print("match runner stopped by a signal: ok")
PY
# The tuning build (`--features tune`): its search constants are UCI
# options that change the search, the ordinary build offers none, and
# tools/spsa.py plays two iterations, then resumes its log without
# replaying them.
cargo build --release --features tune --target-dir target/tune
python3 tests/python/test_tune.py
tools/spsa.py --engine target/tune/release/quince --params rfp_margin,lmr_divisor \
  --iterations 2 --tc 2+0.05 --state "$state/spsa.jsonl" | tail -2
tools/spsa.py --engine target/tune/release/quince --params rfp_margin,lmr_divisor \
  --iterations 2 --tc 2+0.05 --state "$state/spsa.jsonl" > "$state/spsa-resumed.txt"
python3 - "$state/spsa.jsonl" "$state/spsa-resumed.txt" <<'PY'
import json, sys
log = [json.loads(line) for line in open(sys.argv[1])]
assert "settings" in log[0] and sorted(r["k"] for r in log[1:]) == [1, 2], log
resumed = open(sys.argv[2]).read()
assert "resuming: 2 iterations" in resumed, resumed
summary = json.loads(resumed.rsplit("summary: ", 1)[1])
assert summary["iterations"] == 2 and set(summary["tuned"]) == {"rfp_margin", "lmr_divisor"}, summary
assert not summary["events"].get("illegal") and not summary["events"].get("crashes"), summary
print("spsa: ok")
PY
