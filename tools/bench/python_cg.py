#!/usr/bin/env python3
"""CG written in Python over lockstep.Array and lockstep.Matrix (docs/python.md's example: one
device-to-host read per iteration, the convergence check) beside lockstep.cg (the library's
classic CG, one call), per iteration, on a Matrix Market file or a generated 2-D Laplacian.

    tools/bench/python_cg.py [--matrix FILE | --grid N] [--dtype float64] [--rtol 1e-8]
                             [--repeats 3] [--device SPEC]

Prints one key=value line per solver: iterations, ms per iteration (best of --repeats, after
one warm-up solve that builds the kernels), reads per iteration (device_reads), and the true
relative residual. Run on the GPU by the lead: e.g.
    PYTHONPATH=build/python python3 tools/bench/python_cg.py --grid 2048 --device nvidia
"""
import argparse
import os
import sys
import time

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build",
                                "python"))
import lockstep  # noqa: E402


def device_cg(A, b, rtol=1e-8, maxiter=100000):
    """Classic CG over device arrays: the scalars stay on the device (0-d arrays, the dots
    written into them with out=), the vectors are updated in place."""
    x = lockstep.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rr = lockstep.dot(r, r, out=lockstep.empty((), b.dtype, b.ctx))
    rr_new, pAp = lockstep.empty_like(rr), lockstep.empty_like(rr)
    stop = rtol * rtol * float(rr)
    for k in range(maxiter):
        if float(rr) <= stop:  # the one read per iteration
            return x, k
        Ap = A @ p
        alpha = rr / lockstep.dot(p, Ap, out=pAp)
        x += alpha * p
        r -= alpha * Ap
        lockstep.dot(r, r, out=rr_new)
        p *= rr_new / rr  # p = r + beta p
        p += r
        rr, rr_new = rr_new, rr
    return x, maxiter


def laplace2d(n, dtype):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    return sp.csr_array(sp.kron(t, eye) + sp.kron(eye, t), dtype=dtype)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matrix")
    p.add_argument("--grid", type=int, default=512)
    p.add_argument("--dtype", default="float64", choices=["float32", "float64"])
    p.add_argument("--rtol", type=float, default=1e-8)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--device")
    a = p.parse_args()
    ctx = lockstep.Context(a.device) if a.device else lockstep.default_context()
    dtype = np.dtype(a.dtype)
    A = (lockstep.read_matrix_market(a.matrix, dtype) if a.matrix else laplace2d(a.grid, dtype))
    M = lockstep.Matrix(A, ctx=ctx)
    bh = np.ones(A.shape[0], dtype)
    b = lockstep.asarray(bh, ctx=ctx)
    print(f"device={ctx.name!r} n={A.shape[0]} nnz={A.nnz} dtype={dtype} rtol={a.rtol}")

    def run(name, solve):
        solve()  # warm-up: builds the kernels
        best, out = float("inf"), None
        for _ in range(a.repeats):
            lockstep.synchronize(ctx)
            reads = lockstep.device_reads()
            t = time.perf_counter()
            x, k = solve()
            lockstep.synchronize(ctx)
            dt = time.perf_counter() - t
            if dt < best:
                best, out = dt, (x, k, lockstep.device_reads() - reads)
        x, k, reads = out
        xh = x.get() if isinstance(x, lockstep.Array) else x
        res = np.linalg.norm(bh - A @ xh) / np.linalg.norm(bh)
        print(f"solver={name} iterations={k} ms_per_iteration={1e3 * best / max(k, 1):.4f} "
              f"total_ms={1e3 * best:.1f} reads_per_iteration={reads / max(k, 1):.2f} "
              f"true_residual={res:.3e}")
        return k

    k = run("python-arrays", lambda: device_cg(M, b, a.rtol))
    # lockstep.cg's count is device_cg's (the same iterates in exact arithmetic): a callback
    # would count them but copy x to the host every iteration
    best = float("inf")
    lockstep.cg(M, b, rtol=a.rtol)
    for _ in range(a.repeats):
        lockstep.synchronize(ctx)
        t = time.perf_counter()
        x, info = lockstep.cg(M, b, rtol=a.rtol, maxiter=100000)
        lockstep.synchronize(ctx)
        best = min(best, time.perf_counter() - t)
    res = np.linalg.norm(bh - A @ x.get()) / np.linalg.norm(bh)
    print(f"solver=lockstep.cg info={info} iterations~{k} ms_per_iteration={1e3 * best / k:.4f} "
          f"total_ms={1e3 * best:.1f} true_residual={res:.3e}")


if __name__ == "__main__":
    main()
