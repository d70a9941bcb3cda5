#!/usr/bin/env bash
# Builds Gigantua for valgrind: ../shared/gigantua/build.sh compiles with
# -march=native, which on a CPU with AVX-512 gives a binary that valgrind
# 3.19 cannot decode; this runs the same script with -march=x86-64-v3 in
# its place (a g++ wrapper first on PATH), so `xtask lead-profile` can count
# its instructions and branches beside Quince's x86-64-v3 build.
#
#   GIGANTUA_GIT=<git dir of Gigantua/Gigantua> tools/gigantua-for-valgrind.sh [OUT]
#
# OUT defaults to target/yardsticks/gigantua-v3/gigantua; a VERSIONS.json
# beside it names the commit and flags (the record quotes it). About five
# minutes on two cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
: "${GIGANTUA_GIT:?set GIGANTUA_GIT to a git dir of Gigantua/Gigantua (the fetch tool gives one)}"
script=${GIGANTUA_BUILD:-$root/../shared/gigantua/build.sh}
[[ -f $script ]] || { echo "no $script (set GIGANTUA_BUILD to Gigantua's build script)" >&2; exit 2; }
out=${1:-$root/target/yardsticks/gigantua-v3/gigantua}
mkdir -p "$(dirname "$out")"
wrap=$(mktemp -d)
trap 'rm -rf "$wrap"' EXIT
real_gxx=$(command -v g++)
cat >"$wrap/g++" <<WRAP
#!/usr/bin/env bash
args=()
for a in "\$@"; do [[ \$a == -march=native ]] && a=-march=x86-64-v3; args+=("\$a"); done
exec "$real_gxx" "\${args[@]}"
WRAP
chmod +x "$wrap/g++"
PATH="$wrap:$PATH" GIGANTUA_GIT="$GIGANTUA_GIT" bash "$script" "$out"
commit=$(git --git-dir="$GIGANTUA_GIT" rev-parse HEAD)
printf '{"gigantua": {"commit": "%s", "flags": "g++ -std=c++2a -march=x86-64-v3 -O3 (for valgrind)"}}\n' \
  "$commit" >"$(dirname "$out")/VERSIONS.json"
echo "wrote $out and $(dirname "$out")/VERSIONS.json"
