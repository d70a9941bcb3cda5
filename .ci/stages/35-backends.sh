# Every sliding-attack technique through every perft suite, from ONE build:
# `--features all-sliders` compiles every technique this CPU can run
# (`-C target-cpu=native`, so the BMI2, AVX2, AVX-512 and GFNI ones too
# where the CI machine has them) and `tests/every_technique.rs` runs the
# legal generator instantiated for each (`quince::perft::techniques`)
# through the standard, 197-position and Chess960 suites, bulk and full
# make, plus the ray-walker unit tests of every technique's rook, bishop
# and queen. Adding a technique costs no extra cargo build here.
#
# Then the library's own selection by feature: a non-default backend
# (`magic`) and the scalar lanes of `simd-fill` through the whole perft,
# differential and property suites as a user's build would run them, and
# PEXT on x86-64-v3 where the CPU has BMI2. Builds use the `ci-backends`
# profile (release optimisation, no fat LTO).
set -euo pipefail
started=$SECONDS
# --show-output prints what the build compiled and left out on this CPU
# (the_perft_table_holds_every_compiled_technique lists them; building the
# `quince` binary only to ask it took four and a half minutes).
RUSTFLAGS='-C target-cpu=native' cargo test --profile ci-backends --features all-sliders \
  --target-dir target/all-sliders --lib --test every_technique -- sliders:: technique \
  --show-output
echo "::: every technique passed in $((SECONDS - started)) s"

run() {
  local started=$SECONDS
  cargo test --profile ci-backends --no-default-features "$@" \
    --lib --test perft_suites --test stats --test differential --test properties
  echo "::: backend $* passed in $((SECONDS - started)) s"
}
for backend in magic simd-fill; do
  run --features "$backend" --target-dir target/backends
done
# The portable path: on plain x86-64 (no SSSE3) the `hq` bishop is the
# scalar one, and the techniques needing BMI2, AVX2, AVX-512 or GFNI are
# left out: check that the portable build of every technique compiles clean.
RUSTFLAGS='-C target-cpu=x86-64' cargo clippy --lib --features all-sliders \
  --target-dir target/baseline -- -D warnings
if grep -qw bmi2 /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo; then
  export RUSTFLAGS='-C target-cpu=x86-64-v3'
  run --features pext --target-dir target/backends-v3
else
  echo "this CPU lacks BMI2 or AVX2: the pext feature build is not tested here"
fi
