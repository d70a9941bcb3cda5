# The full test suite (all perft suites included) once per other sliding
# backend; the default `hq` backend ran in 30-test. PEXT needs BMI2 on the
# CPU running the tests: skipped (and said so) where it is missing.
set -euo pipefail
cargo test --release --no-default-features --features magic --target-dir target/magic
if grep -qw bmi2 /proc/cpuinfo; then
  RUSTFLAGS='-C target-feature=+bmi2' RUSTDOCFLAGS='-C target-feature=+bmi2' \
    cargo test --release --no-default-features --features pext --target-dir target/pext
else
  echo "this CPU has no BMI2: the pext backend is not tested here"
fi
