# Every perft suite, the differential and property tests against shakmaty
# (and the slider-vs-reference unit tests and doctests)
# once per other sliding backend; the default `hq` backend ran the whole
# test suite in 30-test. PEXT needs BMI2 on the CPU running the tests:
# skipped (and said so) where it is missing.
set -euo pipefail
run() {
  cargo test --release --no-default-features "$@" --lib --test perft_suites --test stats --test differential --test properties
  cargo test --release --no-default-features "$@" --doc
}
run --features magic --target-dir target/magic
# The portable path: on plain x86-64 (no SSSE3) the `hq` bishop is the
# scalar one, which the x86-64-v2 build compiles only inside its tests
# (`bishop_matches_scalar`): check that the portable build compiles clean.
RUSTFLAGS='-C target-cpu=x86-64' cargo clippy --lib --target-dir target/baseline -- -D warnings
if grep -qw bmi2 /proc/cpuinfo; then
  export RUSTFLAGS='-C target-cpu=x86-64-v3' RUSTDOCFLAGS='-C target-cpu=x86-64-v3'
  run --features pext --target-dir target/pext
else
  echo "this CPU has no BMI2: the pext backend is not tested here"
fi
