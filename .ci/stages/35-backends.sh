# Every sliding-attack backend through every perft suite (standard, the
# 1,000-position suite, Chess960; bulk and full make), the differential and
# property tests against shakmaty, and the slider-vs-ray-walker unit tests.
# The default `hq` backend ran the whole test suite (doctests included) in
# 30-test. Builds use the `ci-backends` profile (release optimisation,
# no fat LTO) in one shared target dir, so only `quince` rebuilds per
# backend: about 35 s each here.
#
# `simd-fill` runs twice: its scalar lanes on the default x86-64-v2 target,
# its AVX2 path on x86-64-v3. PEXT and the AVX2 path need a CPU with BMI2
# and AVX2: skipped (and said so) where they are missing.
set -euo pipefail
run() {
  local started=$SECONDS
  cargo test --profile ci-backends --no-default-features "$@" \
    --lib --test perft_suites --test stats --test differential --test properties
  echo "::: backend $* passed in $((SECONDS - started)) s"
}
for backend in magic classical obstruction kindergarten plain-magic black-magic \
  kogge-stone dumb7 simd-fill rotated hq-bitrev; do
  run --features "$backend" --target-dir target/backends
done
# The portable path: on plain x86-64 (no SSSE3) the `hq` bishop is the
# scalar one, which the x86-64-v2 build compiles only inside its tests
# (`bishop_matches_scalar`): check that the portable build of every
# backend compiles clean.
RUSTFLAGS='-C target-cpu=x86-64' cargo clippy --lib --features all-sliders \
  --target-dir target/baseline -- -D warnings
if grep -qw bmi2 /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo; then
  export RUSTFLAGS='-C target-cpu=x86-64-v3'
  run --features pext --target-dir target/backends-v3
  run --features simd-fill --target-dir target/backends-v3
else
  echo "this CPU lacks BMI2 or AVX2: pext and the AVX2 path of simd-fill are not tested here"
fi
