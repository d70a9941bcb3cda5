# Clippy for every feature set CI builds, and the build-time crates.
# `all-sliders` compiles every technique's module at once (the feature
# builds of 35-backends differ only in which one `Active` names), and the
# x86-64-v3 run adds PEXT and the AVX2 path of `simd-fill`; `hce` is the
# search with the hand-written evaluation (the NNUE A/B); `serde` the
# optional text serialisation.
set -euo pipefail
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --features all-sliders -- -D warnings
cargo clippy --all-targets --features hce -- -D warnings
cargo clippy --all-targets --features tune -- -D warnings
cargo clippy --all-targets --features serde -- -D warnings
cargo clippy --all-targets --no-default-features --features magic,cli -- -D warnings
RUSTFLAGS='-C target-cpu=x86-64-v3' cargo clippy --all-targets --no-default-features \
  --features pext,all-sliders,cli -- -D warnings
# Every technique this CPU can run (AVX-512 and GFNI ones included where
# it has them), as 35-backends builds them.
RUSTFLAGS='-C target-cpu=native' cargo clippy --all-targets --features all-sliders \
  --target-dir target/all-sliders -- -D warnings
cargo clippy -p quince-codegen -p xtask -p quince-trainer --all-targets -- -D warnings
