#!/usr/bin/env bash
# The Python package on the lent GPU machine, whose python3 (3.12, numpy 2, scipy, pybind11,
# cmake, ninja, g++) differs from this Debian 12 one (3.11, numpy 1.24): a module built here
# cannot load there, so it is built there, from the working tree that travels, with a small kit
# of what that machine lacks: OpenCL C and C++ headers, nlohmann-json, zlib, the ICD loader.
#   here:   tools/gpu/python.sh prepare        -> .carry/pysdk (about 3 MiB; carry .carry)
#   there:  bash tools/gpu/python.sh build     -> build-gpu-py/python/lockstep (about 1 min)
#           source .carry/pysdk/env.sh && python3 examples/python/compare_scipy.py
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sdk="$root/.carry/pysdk"
case "${1:-}" in
  prepare)
    rm -rf "$sdk" && mkdir -p "$sdk/include" "$sdk/lib" "$sdk/share/cmake"
    cp -r /usr/include/CL /usr/include/nlohmann /usr/include/zlib.h /usr/include/zconf.h "$sdk/include/"
    cp -r /usr/share/cmake/nlohmann_json "$sdk/share/cmake/"
    cp -L /usr/lib/x86_64-linux-gnu/libz.so.1 "$sdk/lib/"  # libz.a is not position-independent
    cp -L /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 "$sdk/lib/"
    ln -s libOpenCL.so.1 "$sdk/lib/libOpenCL.so"
    cp "$root/../shared/device/opencl-env.sh" "$sdk/" 2>/dev/null || true
    cat > "$sdk/env.sh" <<'ENV'
# source me on the GPU machine: the NVIDIA ICD registered, the module on PYTHONPATH, and the
# carried ICD loader and zlib only where the machine lacks one.
d=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -f "$d/opencl-env.sh" ] && eval "$(bash "$d/opencl-env.sh" | grep '^export' || true)"
ldconfig -p 2>/dev/null | grep -q 'libOpenCL.so.1 .*x86-64' && ldconfig -p | grep -q 'libz.so.1 .*x86-64' ||
  export LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$d/../../build-gpu-py/python${PYTHONPATH:+:$PYTHONPATH}"
ENV
    du -sh "$sdk"
    ;;
  build)
    [[ -d "$sdk" ]] || { echo "python.sh: no $sdk (run 'tools/gpu/python.sh prepare' here first)" >&2; exit 1; }
    python=${PYTHON:-$(command -v python3)}
    zlib=$(ldconfig -p 2>/dev/null | awk '/libz.so.1 .*x86-64/ { print $NF; exit }')
    zlib=${zlib:-$sdk/lib/libz.so.1}  # the machine's own zlib, else the carried one
    gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
    cmake -S "$root" -B "$root/build-gpu-py" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DLOCKSTEP_PYTHON=ON -DLOCKSTEP_BUILD_CLI=OFF -DLOCKSTEP_BUILD_TESTS=OFF -DLOCKSTEP_MPI=OFF \
      -DPython_EXECUTABLE="$python" -DCMAKE_PREFIX_PATH="$sdk" \
      -DOpenCL_INCLUDE_DIR="$sdk/include" -DOpenCL_LIBRARY="$sdk/lib/libOpenCL.so" \
      -DZLIB_INCLUDE_DIR="$sdk/include" -DZLIB_LIBRARY="$zlib" >/dev/null
    cmake --build "$root/build-gpu-py" -j"$(nproc)" --target lockstep_python
    "$python" -c "import sys; sys.path.insert(0, '$root/build-gpu-py/python'); import lockstep; print('lockstep', lockstep.__version__, 'built for', sys.version.split()[0])"
    ;;
  *)
    echo "usage: tools/gpu/python.sh prepare|build" >&2; exit 2 ;;
esac
