#!/usr/bin/env bash
# Python's overhead over the C++ path on the GPU, in one command under 3 minutes, key=value lines:
#  - lockstep.sort on a device array of 2^26 u32 keys (Python wall time per call, synchronised)
#    beside `lockstep sort --n 2^26` (the C++ call's device time)        -> bench=sort_*
#  - 100 chained `x = M @ x` on device arrays (Python, wall) beside 100 C++ spmv calls on the same
#    buffers in the same process (DeviceMatrix.time_chain, wall) and `lockstep spmv --repeat 100`
#    (median kernel time); laplace2d 4096, float64                           -> bench=chain_*
#  (SpMM against cuSPARSE: tools/gpu/spmm_bench.sh, its own call)
# Here first:  tools/gpu/prepare.sh && tools/gpu/python.sh prepare   (carry .carry)
# There:       bash tools/gpu/python_bench.sh        (OUT=dir keeps the logs; default /tmp/pybench)
set -uo pipefail
OUT=${OUT:-/tmp/pybench}
source "$(dirname "${BASH_SOURCE[0]}")/bench_setup.sh"  # root, carry, env, L, start
# in parallel: the module (about 1 min), the matrix
(cd "$root" && bash tools/gpu/python.sh build > "$OUT/pybuild.log" 2>&1; echo "rc=$?" >> "$OUT/pybuild.log") &
py=$!
"$L" gen laplace2d 4096 -o "$OUT/laplace4096.mtx" > /dev/null
echo "bench=setup matrices_s=$((SECONDS - start))"
# the C++ baselines while the module builds (the module build uses the CPU, not the GPU);
# PY_ONLY=1: the Python lines alone
if [[ -z "${PY_ONLY:-}" ]]; then
"$L" sort --n 67108864 --type u32 --repeat 10 | tail -1 | sed 's/^/bench=sort_cli /'
"$L" spmv "$OUT/laplace4096.mtx" --precision double --repeat 100 | tail -1 | sed 's/^/bench=chain_cli /'
fi
wait $py
tail -1 "$OUT/pybuild.log" | sed 's/^/bench=python_build /'
source "$carry/pysdk/env.sh"
timeout 90 python3 -u -X faulthandler - "$OUT/laplace4096.mtx" <<'PY'
import os, sys, time
import numpy as np
import lockstep

def wall(f, reps):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); lockstep.synchronize(); ts.append(time.perf_counter() - t)
    return 1e3 * float(np.median(ts)), 1e3 * min(ts)

ctx = lockstep.default_context()
print(f'bench=python device="{ctx.name}"')
n = 1 << int(os.environ.get("LOG2N", "26"))
keys = lockstep.asarray(np.random.default_rng(1).integers(0, 2**32, n, dtype=np.uint32))
lockstep.sort(keys); lockstep.synchronize()  # builds
med, best = wall(lambda: lockstep.sort(keys), 10)
print(f"bench=sort_python n={n} dtype=uint32 ms_median={med:.4f} ms_min={best:.4f} (new array + copy + sort)")
med, best = wall(lambda: keys.sort(), 10)
print(f"bench=sort_python_in_place n={n} dtype=uint32 ms_median={med:.4f} ms_min={best:.4f} (keys.sort(), as the C++ call)")

A = lockstep.read_matrix_market(sys.argv[1])
M = lockstep.Matrix(A)
x0 = lockstep.asarray(np.ones(A.shape[1]))
def chain():
    x = x0
    for _ in range(100):
        x = M @ x
chain(); lockstep.synchronize()
med, best = wall(chain, 5)
print(f"bench=chain_python rows={A.shape[0]} nnz={A.nnz} calls=100 ms_median={med:.3f} ms_min={best:.3f} (x = M @ x, a new array each)")
a, b = lockstep.zeros(A.shape[0]), lockstep.zeros(A.shape[0])
def pingpong():
    u, v = x0, a
    for i in range(100):
        lockstep.spmv(M, u, y=v); u, v = v, (b if v is a else a)
med, best = wall(pingpong, 5)
print(f"bench=chain_python_out calls=100 ms_median={med:.3f} ms_min={best:.3f} (spmv(M, x, y=out))")
cpp = [M._m.time_chain(x0._buf, a._buf, 100) * 1e3 for _ in range(5)]
print(f"bench=chain_cpp calls=100 ms_median={np.median(cpp):.3f} ms_min={min(cpp):.3f} (C++ spmv on the same buffers)")
PY
echo "bench=done seconds=$((SECONDS - start))"
