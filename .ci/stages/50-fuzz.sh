# Each cargo-fuzz target for a short fixed time (FUZZ_SECONDS, default 30 s).
# Needs: cargo-fuzz (installed here if missing, about 1 min), a C++ compiler
# for libFuzzer (cc/c++, present on the machine). Runs on the stable toolchain
# with `-s none`: AddressSanitizer would need nightly, and the targets are
# safe Rust that assert their invariants. New inputs go to a scratch corpus
# (the first directory), so the committed seeds in fuzz/corpus/ stay as they are.
set -euo pipefail
seconds="${FUZZ_SECONDS:-30}"
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2 --locked
fi
cargo fuzz --version
cargo fuzz build -s none
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for target in $(cargo fuzz list); do
  mkdir -p "$scratch/$target" "fuzz/corpus/$target"
  echo "fuzzing $target for $seconds s"
  log="$scratch/$target.log"
  if cargo fuzz run -s none "$target" "$scratch/$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
    # libFuzzer's closing lines: "Done N runs in S second(s)" and the stats.
    grep -E '^Done [0-9]+ runs|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$log" || true
  else
    status=$?
    tail -n 60 "$log"
    echo "fuzz target $target failed (exit $status); the crashing input is under fuzz/artifacts/$target/"
    exit "$status"
  fi
done
echo "fuzzing done: every target ran $seconds s without a crash"
