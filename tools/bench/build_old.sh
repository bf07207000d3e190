#!/usr/bin/env bash
# Builds the lockstep CLI of an older commit (default: the commit before the DPX pipeline,
# 9b00ea1) as a portable binary (static libstdc++/Boost, kernels embedded) into .carry/lockstep-old,
# for before/after runs in one GPU call (tools/bench/align.sh's OLD, tools/bench/before_after.sh).
# Run after tools/gpu/prepare.sh (which recreates .carry/). Sources: git archive into build-old/
# (git-ignored); ccache is used when present.
# Use: tools/bench/build_old.sh [COMMIT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
commit=${1:-9b00ea1}
src="$root/build-old/src-$commit"
if [[ ! -f "$src/CMakeLists.txt" ]]; then
  mkdir -p "$src"
  git -C "$root" archive "$commit" | tar -x -C "$src"
fi
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src" -B "$root/build-old/build-$commit" -DCMAKE_BUILD_TYPE=Release \
  -DLOCKSTEP_PORTABLE=ON "${launcher[@]}" > /dev/null
cmake --build "$root/build-old/build-$commit" -j"$(nproc)" --target lockstep_cli > /dev/null
mkdir -p "$root/.carry"
cp "$root/build-old/build-$commit/lockstep" "$root/.carry/lockstep-old"
echo "$root/.carry/lockstep-old ($commit)"
