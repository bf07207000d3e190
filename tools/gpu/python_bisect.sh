#!/usr/bin/env bash
# Builds the Python module of each source tree in .carry/bisect/<commit> (git archive) on the GPU
# machine, in parallel, and runs one device sort with each: which commit brought a crash.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sdk="$root/.carry/pysdk"
for d in "$root"/.carry/bisect/*/; do
  c=$(basename "$d")
  (cmake -S "$d" -B "/tmp/b-$c" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_PYTHON=ON \
     -DLOCKSTEP_BUILD_CLI=OFF -DLOCKSTEP_BUILD_TESTS=OFF -DLOCKSTEP_MPI=OFF \
     -DPython_EXECUTABLE=$(command -v python3) -DCMAKE_PREFIX_PATH="$sdk" > /tmp/b-$c.log 2>&1 &&
   cmake --build "/tmp/b-$c" -j4 >> /tmp/b-$c.log 2>&1; echo "built $c rc=$?") &
done
wait
source "$sdk/env.sh"
export LOCKSTEP_DEVICE=nvidia
for d in "$root"/.carry/bisect/*/; do
  c=$(basename "$d")
  XDG_CACHE_HOME=$(mktemp -d) PYTHONPATH=/tmp/b-$c/python timeout 60 python3 -c "
import numpy as np, lockstep
print(lockstep.__file__)
k = np.random.default_rng(1).integers(0, 2**32, 1 << 16, dtype=np.uint32)
s = lockstep.sort(k); print('sorted', bool((s == np.sort(k)).all()), flush=True)" 2>&1 | tail -3
  echo "commit=$c rc=${PIPESTATUS[0]}"
done
