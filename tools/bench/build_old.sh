#!/usr/bin/env bash
# Builds the lockstep CLI of another commit (default: the commit before the DPX pipeline,
# 9b00ea1) as a portable binary (static libstdc++/Boost, kernels embedded) into .carry/NAME
# (default lockstep-old), for before/after runs in one GPU call (tools/bench/align.sh's OLD,
# tools/bench/before_after.sh; with MPI=1 a build with lockstep::mpi for tools/bench/mpi_cg.sh's
# and mpi_bfs.sh's LOCKSTEP_MPI, which runs with .carry/mpi's OpenMPI, tools/gpu/prepare_mpi.sh).
# Run after tools/gpu/prepare.sh (which recreates .carry/). Sources: git archive into build-old/
# (git-ignored); ccache is used when present.
# Use: [MPI=1] tools/bench/build_old.sh [COMMIT [NAME]]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
commit=${1:-9b00ea1}
name=${2:-lockstep-old}
src="$root/build-old/src-$commit"
if [[ ! -f "$src/CMakeLists.txt" ]]; then
  mkdir -p "$src"
  git -C "$root" archive "$commit" | tar -x -C "$src"
fi
opts=(-DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_PORTABLE=ON)
build="$root/build-old/build-$commit"
if [[ -n "${MPI:-}" ]]; then
  opts+=(-DLOCKSTEP_MPI=ON)
  build+=-mpi
fi
command -v ccache > /dev/null && opts+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src" -B "$build" "${opts[@]}" > /dev/null
cmake --build "$build" -j"$(nproc)" --target lockstep_cli > /dev/null
mkdir -p "$root/.carry"
cp "$build/lockstep" "$root/.carry/$name"
echo "$root/.carry/$name ($commit)"
