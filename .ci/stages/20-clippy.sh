# Clippy for every feature set CI builds, and the build-time crates.
# `all-sliders` compiles every technique's module at once (the feature
# builds of 35-backends differ only in which one `Active` names), and the
# native (or x86-64-v3) run adds PEXT and the AVX2 path of `simd-fill`; `hce` is the
# search with the hand-written evaluation (the NNUE A/B); `serde` the
# optional text serialisation.
set -euo pipefail
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --features all-sliders -- -D warnings
cargo clippy --all-targets --features hce -- -D warnings
cargo clippy --all-targets --features tune -- -D warnings
cargo clippy --all-targets --features serde -- -D warnings
cargo clippy --all-targets --no-default-features --features magic,cli -- -D warnings
# Every technique this CPU can run (AVX-512 and GFNI ones included where
# it has them), as 35-backends builds them. On a CPU with BMI2 and AVX2 the
# native build holds everything x86-64-v3 does, so one run with `pext` as
# the library's backend covers both (a separate v3 run re-checked every
# dependency in a target directory of its own: two minutes of CI); `hq` as
# the backend is checked above.
if grep -qw bmi2 /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo; then
  RUSTFLAGS='-C target-cpu=native' cargo clippy --all-targets --no-default-features \
    --features pext,all-sliders,cli --target-dir target/all-sliders -- -D warnings
else
  RUSTFLAGS='-C target-cpu=x86-64-v3' cargo clippy --all-targets --no-default-features \
    --features pext,all-sliders,cli -- -D warnings
  RUSTFLAGS='-C target-cpu=native' cargo clippy --all-targets --features all-sliders \
    --target-dir target/all-sliders -- -D warnings
fi
cargo clippy -p quince-codegen -p xtask -p quince-trainer --all-targets -- -D warnings
