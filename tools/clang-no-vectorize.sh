#!/bin/sh
# clang++-16 with its loop and SLP vectorisers off, for a second build of
# Gigantua/Chess_Movegen whose figures are one lookup at a time (the atlas's
# --reference-scalar):
#   CXX=$PWD/tools/clang-no-vectorize.sh CMG_GIT=... ../shared/chess-movegen/build.sh /tmp/cmg-scalar
# The flags go after the caller's: placed before -O3 they changed nothing
# (the binary came out byte for byte the same as the default build).
exec "${CLANG:-clang++-16}" "$@" -fno-vectorize -fno-slp-vectorize
