# Quince as a dependency (issue 28): with default features off the library
# pulls in no runtime crate at all (clap, serde_json and indicatif belong to
# the `cli` feature), it builds alone, and the crate packages: `cargo
# package` builds the packed sources (with the build-time table generator,
# packed beside it) the way a user's download would.
set -euo pipefail
deps=$(cargo tree -p quince --no-default-features --features hq -e normal --prefix none \
  | sed 1d | sort -u)
if [ -n "$deps" ]; then
  echo "the library without default features depends on:"; echo "$deps"; exit 1
fi
cargo check --lib --no-default-features --features hq
# A program on the library alone (examples/replay.rs) builds and runs: Fool's
# mate is mate, and an illegal move is refused with a non-zero exit.
report=$(cargo run --quiet --no-default-features --features hq --example replay -- \
  f2f3 e7e5 g2g4 d8h4)
echo "$report"
grep -q '^status   checkmate$' <<<"$report"
if cargo run --quiet --no-default-features --features hq --example replay -- e2e5; then
  echo "replay accepted an illegal move"; exit 1
fi
# A crate of its own on the public API with default features off
# (tests/library_user): the everyday tasks of docs/library.md compile and pass.
cargo run --quiet --manifest-path tests/library_user/Cargo.toml --target-dir target/library-user
# Every feature alone (cargo-hack, as shakmaty does): each backend, `hce`,
# `cli`, none at all (the default backend then). Two backends at once are a
# compile error by design, so no --all-features. The toolchain CI runs is
# the crate's declared minimum (`rust-version`), so these checks are also
# the MSRV check.
command -v cargo-hack >/dev/null || cargo install cargo-hack --locked --version 0.6.46
echo "rust-version $(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml), $(rustc --version)"
# Each feature alone. A technique that needs target features the build
# lacks is a compile error by design (build.rs), so each is checked only
# with flags that have them: BMI2 and AVX2 ones on x86-64-v3, the AVX-512
# and GFNI ones with the CPU's own flags where it has them.
avx512="galois-field,avx512-fill"
if grep -qw bmi2 /proc/cpuinfo; then
  RUSTFLAGS='-C target-cpu=x86-64-v3' cargo hack check --lib --each-feature \
    --exclude-all-features --exclude-features "$avx512" --target-dir target/hack
else
  echo "this CPU lacks BMI2: pext, pext-pdep, split-pext and avx2-shift are not checked here"
  cargo hack check --lib --each-feature --exclude-all-features \
    --exclude-features "pext,pext-pdep,split-pext,avx2-shift,$avx512" --target-dir target/hack
fi
if grep -qw avx512f /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo \
  && grep -qw avx512vl /proc/cpuinfo && grep -qw gfni /proc/cpuinfo; then
  for feature in ${avx512//,/ }; do
    RUSTFLAGS='-C target-cpu=native' cargo check --lib --no-default-features \
      --features "$feature" --target-dir target/hack-native
  done
else
  echo "this CPU lacks AVX-512 or GFNI: $avx512 are not checked alone here"
fi
cargo test --features serde --test serde
# Ready to publish: the workspace's publishable crates (quince-codegen,
# then quince, which depends on it) package and verify as `cargo publish`
# would, without uploading. --allow-dirty: CI's tree holds build outputs.
# Cargo verifies quince against the packed quince-codegen through a
# temporary local registry, and treats a registry crate of a given version
# as immutable: it unpacks it under $CARGO_HOME/registry/src/-<hash>/ once,
# and a target directory that built it once never rebuilds it. An earlier
# run with the same version number would verify against its stale codegen
# (CI failed so on 2026-11-29: a codegen from before king buckets). So the
# unpacked copies go first, and verification builds in a fresh directory.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/quince-* target/publish-verify
cargo publish --workspace --dry-run --allow-dirty --target-dir target/publish-verify
