#!/usr/bin/env bash
# The one entry point. Installs missing Debian packages (as root; otherwise prints the exact
# apt-get line and exits 1), configures and builds into build/ (incrementally on later calls),
# then:  tools/run.sh test      runs the doctest suite through ctest
#        tools/run.sh pytest ARGS...  runs the Python package's tests (tests/python) on the build
#                              tree's module, build/python/lockstep, with Debian's python3
#        tools/run.sh ARGS...   runs `lockstep ARGS...`
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
packages=(cmake make g++ ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd
          libboost-program-options-dev doctest-dev nlohmann-json3-dev zlib1g-dev libssw-dev
          libopenmpi-dev openmpi-bin
          python3-dev python3-pybind11 python3-numpy python3-scipy python3-pytest
          # search: parasail, the exact reference, and real proteins to search
          python3-parasail mmseqs2-examples
          # BLAST+ (blastp, blastn, makeblastdb, NCBI's matrix files) and ssearch36 (fasta3):
          # the tools whose output search is compared with
          ncbi-blast+ fasta3
          # the wheel (.ci/run: tools/python_wheel.py vendors libssw/libgomp; the interop tests)
          patchelf python3-venv python3-pyopencl)
# Only what building, tuning and the tests need: the AMD/SPIR-V compile pass's toolchain
# (clang-15/16/19, rocm-device-libs, llvm-spirv-15, spirv-tools) is installed by .ci/run.
"$root/tools/install_packages.sh" "${packages[@]}"
jobs=$(nproc 2>/dev/null || echo 2)
# The Python module (python/) is built for Debian's python3, whose numpy and scipy are Debian's.
python=/usr/bin/python3
if ! grep -qs '^LOCKSTEP_PYTHON:BOOL=ON' "$root/build/CMakeCache.txt"; then
  cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_PYTHON=ON \
        -DPython_EXECUTABLE="$python" >&2
fi
cmake --build "$root/build" -j"$jobs" >&2
if [[ "${1:-}" == "test" ]]; then
  shift
  cd "$root/build"
  exec ctest --output-on-failure -j"$jobs" "$@"
fi
if [[ "${1:-}" == "pytest" ]]; then
  shift
  cd "$root"
  PYTHONPATH="$root/build/python${PYTHONPATH:+:$PYTHONPATH}" exec "$python" -m pytest tests/python "$@"
fi
exec "$root/build/lockstep" "$@"
