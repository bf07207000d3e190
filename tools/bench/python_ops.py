#!/usr/bin/env python3
"""Host cost of lockstep.Array's operations: microseconds per call on tiny arrays (n = 16, where
the kernels' own time is negligible), i.e. what Python, the binding and the OpenCL enqueue add to
each operation of a CG written in Python (tools/bench/python_cg.py's device_cg).

    tools/bench/python_ops.py [--n 16] [--grid 16] [--calls 2000] [--rounds 5] [--device SPEC]

Prints key=value lines: us per call (the minimum over --rounds rounds of --calls calls, each
round ended by lockstep.synchronize) for each operation, and us per iteration of device_cg on the
2-D Laplacian of a --grid x --grid grid beside lockstep.cg's, with device_cg's reads per
iteration. LOCKSTEP_BUILD=DIR takes the module from DIR/python (default: the build tree's).
"""
import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.environ.get("LOCKSTEP_BUILD", os.path.join(HERE, "..", "..",
                                                                              "build")), "python"))
import lockstep  # noqa: E402
from python_cg import device_cg, laplace2d  # noqa: E402


def per_call(ctx, fn, calls, rounds):
    fn()  # warm-up: builds the kernels
    best = float("inf")
    for _ in range(rounds):
        lockstep.synchronize(ctx)
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        lockstep.synchronize(ctx)
        best = min(best, time.perf_counter() - t)
    return 1e6 * best / calls


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=16)
    p.add_argument("--grid", type=int, default=16)
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--device")
    a = p.parse_args()
    ctx = lockstep.Context(a.device) if a.device else lockstep.default_context()
    rng = np.random.default_rng(1)
    x = lockstep.asarray(rng.standard_normal(a.n), ctx=ctx)
    y = lockstep.asarray(rng.standard_normal(a.n), ctx=ctx)
    s = lockstep.dot(x, y, out=lockstep.empty((), np.float64, ctx))
    out = lockstep.empty((), np.float64, ctx)
    A = laplace2d(a.grid, np.float64)
    M = lockstep.Matrix(A, ctx=ctx)
    v = lockstep.asarray(np.ones(A.shape[0]), ctx=ctx)

    def iadd():
        nonlocal x
        x += y

    ops = {
        "add": lambda: x + y,
        "scalar_times_array": lambda: s * y,  # a 0-d device array times an array
        "iadd": iadd,
        "div_0d": lambda: s / s,
        "dot_out": lambda: lockstep.dot(x, y, out=out),
        "matvec": lambda: M @ v,
        "empty": lambda: lockstep.empty(a.n, np.float64, ctx),
        "empty_0d": lambda: lockstep.empty((), np.float64, ctx),
    }
    print(f"device={ctx.name!r} n={a.n} calls={a.calls} rounds={a.rounds}")
    for name, fn in ops.items():
        print(f"op={name} us_per_call={per_call(ctx, fn, a.calls, a.rounds):.2f}")

    b = lockstep.asarray(np.ones(A.shape[0]), ctx=ctx)
    best, its, reads = float("inf"), 0, 0
    device_cg(M, b, rtol=1e-12)
    for _ in range(a.rounds):
        for _ in range(max(1, a.calls // 100)):
            lockstep.synchronize(ctx)
            r0 = lockstep.device_reads()
            t = time.perf_counter()
            _, k = device_cg(M, b, rtol=1e-12)
            lockstep.synchronize(ctx)
            dt = time.perf_counter() - t
            if dt / k < best:
                best, its, reads = dt / k, k, lockstep.device_reads() - r0
    # reads: the stop criterion's, then one per iteration and the last (converged) check
    print(f"op=device_cg_iteration us_per_call={1e6 * best:.2f} iterations={its} "
          f"reads_per_iteration={(reads - 2) / its:.2f}")
    lib = per_call(ctx, lambda: lockstep.cg(M, b, rtol=1e-12), max(1, a.calls // 100), a.rounds)
    _, info = lockstep.cg(M, b, rtol=1e-12)
    print(f"op=lockstep_cg_solve us_per_call={lib:.2f} per_iteration_of_device_cg="
          f"{lib / its:.2f}")


if __name__ == "__main__":
    main()
