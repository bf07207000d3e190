#!/usr/bin/env bash
# Fills a carry folder (default .carry/search, git-ignored) for tools/gpu/search.sh: the portable
# test binary and tools/gpu/search_probe (static libstdc++, kernels embedded), opencl-env.sh, the
# mmseqs2 example data (Debian mmseqs2-examples) and CUDASW++4.0's source (git archive of a
# mirror: CUDASW4_GIT, a git directory of github asbschmidt/CUDASW4, e.g. from the search tool's
# fetch). Then on the GPU machine: bash <carry>/search.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
carry=${1:-$root/.carry/search}
data=/usr/share/doc/mmseqs2/example-data
cmake -S "$root" -B "$root/build-gpu" -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_PORTABLE=ON >/dev/null
cmake --build "$root/build-gpu" -j2 --target lockstep_tests >/dev/null
# The probe links what the test binary links (the library's dependencies, as CMake found them).
libs=$(sed 's/.* -o lockstep_tests //' "$root/build-gpu/tests/CMakeFiles/lockstep_tests.dir/link.txt" |
       tr ' ' '\n' | grep -v '\.o$' | sed "s#^\.\./#$root/build-gpu/#" | tr '\n' ' ')
g++ -O2 -std=c++17 -I"$root/include" -I"$root/src" "$root/tools/gpu/search_probe.cpp" \
    -o "$root/build-gpu/search_probe" $libs -static-libstdc++ -static-libgcc -pthread
rm -rf "$carry" && mkdir -p "$carry"
cp "$root/build-gpu/tests/lockstep_tests" "$root/build-gpu/search_probe" "$carry/"
cp "$root/tools/gpu/search.sh" "$root/../shared/device/opencl-env.sh" "$carry/"
cp "$data/DB.fasta.gz" "$data/QUERY.fasta.gz" "$carry/"
mkdir -p "$carry/cudasw4"
git --git-dir="${CUDASW4_GIT:-/work/.mirror/asbschmidt+CUDASW4/repo}" archive HEAD |
  tar -x -C "$carry/cudasw4"
du -sh "$carry"
