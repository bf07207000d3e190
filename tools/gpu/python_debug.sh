#!/usr/bin/env bash
# The Python package's device-array sort on the GPU machine, isolated: built there, run with a
# fresh cache (XDG_CACHE_HOME) and under gdb when the machine has it (a native backtrace).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/pydebug}; mkdir -p "$OUT"
(cd "$root" && bash tools/gpu/python.sh build > "$OUT/pybuild.log" 2>&1); echo "build rc=$?"
source "$root/.carry/pysdk/env.sh"
export LOCKSTEP_DEVICE=nvidia
cat > "$OUT/t.py" <<'PY'
import sys, numpy as np, lockstep
n = 1 << int(sys.argv[1])
k = lockstep.asarray(np.random.default_rng(1).integers(0, 2**32, n, dtype=np.uint32))
print("asarray ok", flush=True)
h = lockstep.sort(k.get()); print("host sort ok", bool((h[1:] >= h[:-1]).all()), flush=True)
s = lockstep.sort(k, algorithm=sys.argv[2]); lockstep.synchronize()
g = s.get(); print("device sort ok", sys.argv[2], bool((g == np.sort(k.get())).all()), flush=True)
PY
for alg in radix auto; do
  for lg in 16 26; do
    XDG_CACHE_HOME=$(mktemp -d) timeout 60 python3 -X faulthandler "$OUT/t.py" $lg $alg 2>&1 | tail -6
    echo "rc=$? n=2^$lg alg=$alg"
  done
done
if command -v gdb >/dev/null; then
  XDG_CACHE_HOME=$(mktemp -d) timeout 120 gdb -q -batch -ex run -ex bt --args python3 "$OUT/t.py" 26 auto 2>&1 | tail -30
else echo "no gdb"; fi
