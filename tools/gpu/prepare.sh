#!/usr/bin/env bash
# Prepares .carry/ (git-ignored) for a run on the lent GPU machine, which has no Boost, doctest
# or OpenCL C++ headers: portable binaries built here (static libstdc++/Boost, kernels
# embedded), the NVIDIA ICD registration script, the CUDA anchor source (built there with nvcc),
# the OpenCL anchor binary (built here) and the shared real matrices.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
shared="$root/../shared"
carry="$root/.carry"
cmake -S "$root" -B "$root/build-gpu" -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_PORTABLE=ON >/dev/null
cmake --build "$root/build-gpu" -j"$(nproc)" --target lockstep_cli lockstep_tests >/dev/null
rm -rf "$carry" && mkdir -p "$carry/matrices"
cp "$root/build-gpu/lockstep" "$root/build-gpu/tests/lockstep_tests" "$carry/"
cp "$shared/device/opencl-env.sh" "$shared/anchors/cuda_anchors.cu" "$carry/"
cp "$shared"/matrices/*.mtx "$carry/matrices/" 2>/dev/null || true
mkdir -p "$carry/graphs" "$carry/genomes"  # real graphs and genomes for tests and benches (8 MiB)
cp "$shared"/graphs/*.gz "$carry/graphs/" 2>/dev/null || true
cp "$shared"/genomes/*.fasta.gz "$carry/genomes/" 2>/dev/null || true
if [[ ! -x "$root/build-gpu/opencl_anchors" ]]; then  # needs libviennacl-dev and libboost-dev here
  g++ -O3 -std=c++17 -static-libstdc++ -static-libgcc -w "$shared/anchors/opencl_anchors.cpp" \
      -o "$root/build-gpu/opencl_anchors" -lOpenCL ||
    echo "prepare: opencl_anchors not built (needs libviennacl-dev, libboost-dev)" >&2
fi
[[ -x "$root/build-gpu/opencl_anchors" ]] && cp "$root/build-gpu/opencl_anchors" "$carry/"
du -sh "$carry"
