#!/usr/bin/env python3
"""lockstep against SciPy / NumPy on the local device: SpMV, sort and BFS, each timed end to end
from NumPy memory to NumPy memory (lockstep's times include the transfers), then the Python call
overhead of a small SpMV (laplace2d 64) against the same C++ call.

  pip install . && python3 examples/python/compare_scipy.py            # or, from a build tree:
  tools/run.sh --help >/dev/null && PYTHONPATH=build/python python3 examples/python/compare_scipy.py

Options: --device SPEC (else LOCKSTEP_DEVICE, else the first GPU), --quick (small sizes, for a
CPU device), --matrix PATH... and --graph PATH... (Matrix Market / graph files to add).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import lockstep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def best_time(fn, repeats, inner=1):
    """Median over `repeats` of the mean time of `inner` calls, in seconds (after one warm-up)."""
    fn()
    samples = []
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t) / inner)
    return statistics.median(samples)


def row(name, size, t_ref, t_ls, ok):
    print(f"  {name:<34} {size:>14} {t_ref * 1e3:>10.3f} {t_ls * 1e3:>10.3f} {t_ref / t_ls:>7.2f}x"
          f"  {'ok' if ok else 'MISMATCH'}")


def header(what, ref):
    print(f"\n{what}\n  {'case':<34} {'size':>14} {ref + ' ms':>10} {'lockstep':>10} {'speedup':>8}")


def laplace2d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    return sp.csr_array(sp.kronsum(t, t, format="csr"))


def spmv_section(ctx, args):
    header("SpMV y = A x (float64; lockstep: Matrix @ x, x and y copied to and from the device)", "scipy")
    cases = [("laplace2d_64.mtx", lockstep.read_matrix_market(f"{ROOT}/matrices/laplace2d_64.mtx"))]
    cases.append((f"laplace2d {args.grid}", laplace2d(args.grid)))
    cases += [(os.path.basename(p), lockstep.read_matrix_market(p)) for p in args.matrix]
    for name, A in cases:
        x = np.random.default_rng(1).standard_normal(A.shape[1])
        M = lockstep.Matrix(A, ctx)
        ok = np.allclose(M @ x, A @ x, rtol=1e-9, atol=1e-9)
        row(name, f"{A.nnz} nnz", best_time(lambda: A @ x, 7, 5), best_time(lambda: M @ x, 7, 5), ok)


def sort_section(ctx, args):
    header("sort (lockstep: a new array, keys copied to and from the device)", "numpy")
    rng = np.random.default_rng(2)
    for n in args.sort_sizes:
        for dtype in (np.uint32, np.float32):
            a = (rng.integers(0, 2**32, n, dtype=np.uint32) if dtype == np.uint32
                 else rng.standard_normal(n).astype(np.float32))
            ok = np.array_equal(lockstep.sort(a, ctx=ctx), np.sort(a))
            row(f"sort {np.dtype(dtype).name}", n, best_time(lambda: np.sort(a), 5),
                best_time(lambda: lockstep.sort(a, ctx=ctx), 5), ok)
        a = rng.integers(0, 2**32, n, dtype=np.uint32)
        ok = np.array_equal(lockstep.argsort(a, algorithm="radix", ctx=ctx), np.argsort(a, kind="stable"))
        row("argsort uint32 (stable)", n, best_time(lambda: np.argsort(a, kind="stable"), 5),
            best_time(lambda: lockstep.argsort(a, algorithm="radix", ctx=ctx), 5), ok)


def bfs_section(ctx, args):
    header("BFS from vertex 0 (scipy: breadth_first_order; lockstep: levels and parents)", "scipy")
    G = laplace2d(args.grid)
    cases = [(f"grid {args.grid} x {args.grid}", G)]
    cases.append((f"random n={args.random_n} deg 8", sp.csr_array(sp.random(
        args.random_n, args.random_n, density=8 / args.random_n, format="csr", random_state=3))))
    cases += [(os.path.basename(p), lockstep.read_graph(p)) for p in args.graph]
    for name, A in cases:
        levels, _ = lockstep.bfs(A, 0, ctx=ctx)
        order, _ = csg.breadth_first_order(A, 0)
        ok = set(order) == set(np.flatnonzero(levels >= 0))
        row(name, f"{A.nnz} edges", best_time(lambda: csg.breadth_first_order(A, 0), 5),
            best_time(lambda: lockstep.bfs(A, 0, ctx=ctx), 5), ok)


def overhead_section(ctx):
    """Python M @ x against the C++ loop under it (same matrix, buffers and device), taking the
    minimum of interleaved rounds so that load on the machine hits both sides alike."""
    A = lockstep.read_matrix_market(f"{ROOT}/matrices/laplace2d_64.mtx")
    M = lockstep.Matrix(A, ctx)
    x = np.random.default_rng(4).standard_normal(A.shape[1])
    reps, py_t, core_t, pub_t = 300, [], [], []
    M @ x
    for _ in range(15):
        t = time.perf_counter()
        for _ in range(reps):
            M @ x
        py_t.append((time.perf_counter() - t) / reps)
        c = M._m.time_cpp(x, reps)
        core_t.append(c["core_s"])
        pub_t.append(c["public_s"])
    py, core, pub = min(py_t), min(core_t), min(pub_t)
    # Everything but the device work: the same call on a 0 x 4096 matrix (checks, pybind11, the
    # result array, GIL release, the context's lock); the C++ side of it does nothing.
    Z = lockstep.Matrix(A[:0], ctx)
    bind = min(best_time(lambda: Z @ x, 1, reps) for _ in range(15))
    print("\nCall overhead, SpMV laplace2d 64 (4096 rows, 20224 nnz, float64), min of 15 rounds "
          f"of {reps} calls:")
    print(f"  Python  M @ x                                    {py * 1e6:9.1f} us/call")
    print(f"  C++     the same path (write x, spmv, read y)    {core * 1e6:9.1f} us/call")
    print(f"  C++     lockstep::spmv(ctx, A, std::vector...)   {pub * 1e6:9.1f} us/call")
    print(f"  Python overhead over the C++ path: {(py - core) * 1e6:.1f} us "
          f"(over the public std::vector call: {(py - pub) * 1e6:.1f} us)")
    print(f"  the binding alone (Z @ x, Z a 0 x 4096 Matrix: all but the device work): "
          f"{bind * 1e6:.1f} us/call")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default=None)
    p.add_argument("--quick", action="store_true", help="small sizes (a CPU device)")
    p.add_argument("--matrix", nargs="*", default=[])
    p.add_argument("--graph", nargs="*", default=[])
    p.add_argument("--only", choices=["spmv", "sort", "bfs", "overhead"], nargs="*")
    args = p.parse_args()
    args.grid = 256 if args.quick else 2000
    args.random_n = 20_000 if args.quick else 2_000_000
    args.sort_sizes = [2**16] if args.quick else [2**20, 2**24]
    ctx = lockstep.Context(args.device)
    d = ctx.info
    print(f"device: {d['name']} ({d['platform']}, {d['type']}); numpy {np.__version__}, "
          f"scipy {__import__('scipy').__version__}, python {sys.version.split()[0]}")
    sections = {"spmv": spmv_section, "sort": sort_section, "bfs": bfs_section,
                "overhead": lambda c, a: overhead_section(c)}
    for name in args.only or list(sections):
        sections[name](ctx, args)


if __name__ == "__main__":
    main()
