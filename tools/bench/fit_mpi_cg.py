#!/usr/bin/env python3
"""The scaling model of distributed CG from tools/bench/mpi_cg.sh's mpi_cg.txt (its `run` lines):
for each strong or large matrix, algorithm, halo path and partition, the steady iteration time
(iter_ms_steady: residual replacements and the start apart; else ms_per_iteration) fitted by least
squares as t(P) = a / P + b over the GPU counts run above one (one GPU exchanges and reduces
nothing; with a single such count, one GPU's time joins the fit; it is shared by every partition
and halo path, and is the speedups' base), then the exchange priced per halo value (c: the widest run's exchange_ms over its
largest halo of a rank) and the prediction

    t(P) = max(a / P, c h(P)) + b

where h(P) is the largest halo of a rank at P for the partition (planes: two planes; blocks: the
faces of the box of the ranks grid with the fewest shared faces): the exchange hides behind the
interior rows until it is longer than them. One `model ...` line each: a, b, c, the fit's worst
relative error, and t and the speedup at 8 and 64 GPUs (and at 4, for the goal's 3.5x).
Use: fit_mpi_cg.py mpi_cg.txt"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402


def sides(matrix):
    """(dims, nx, ny, nz) of gen:laplace3d:N[xNYxNZ] / gen:laplace2d:N[xNY], else None."""
    m = re.fullmatch(r"gen:laplace([23])d:(\d+)(?:x(\d+))?(?:x(\d+))?", matrix)
    if not m:
        return None
    dims, n = int(m.group(1)), int(m.group(2))
    ny = int(m.group(3) or n)
    nz = int(m.group(4) or n) if dims == 3 else 1
    return dims, n, ny, nz


def ranks_grid(dims, n, ranks):
    """The ranks grid of fewest shared faces (mpi::BlockGrid::make's choice)."""
    best, grid = None, (1, 1, ranks)
    for pz in range(ranks if dims == 3 else 1, 0, -1):
        for py in range(ranks // pz, 0, -1):
            if ranks % (pz * py):
                continue
            px = ranks // (pz * py)
            faces = (px - 1) * n[1] * n[2] + (py - 1) * n[0] * n[2] + (pz - 1) * n[0] * n[1]
            if best is None or faces < best:
                best, grid = faces, (px, py, pz)
    return grid


def halo(partition, shape, ranks):
    """The largest halo of a rank (values): an interior rank's faces."""
    if ranks == 1 or shape is None:
        return 0
    dims, *n = shape
    if partition == "planes":
        return min(2, ranks - 1) * n[0] * n[1] if dims == 3 else min(2, ranks - 1) * n[0]
    grid = ranks_grid(dims, n, ranks)
    box = [n[d] / grid[d] for d in range(3)]
    total = 0.0
    for d in range(3):
        if grid[d] > 1:
            other = [box[e] for e in range(3) if e != d]
            total += min(2, grid[d] - 1) * other[0] * other[1]
    return total


def fit(points):
    """Least squares a, b of t = a / P + b."""
    xs, ts = [1.0 / p for p, _ in points], [t for _, t in points]
    k = len(xs)
    mx, mt = sum(xs) / k, sum(ts) / k
    sxx = sum((x - mx) ** 2 for x in xs)
    a = sum((x - mx) * (t - mt) for x, t in zip(xs, ts)) / sxx if sxx > 0 else 0.0
    return a, mt - a * mx


def main(path):
    runs = {}
    for line in open(path):
        if not line.startswith("run "):
            continue
        kv = keyvalue.fields(line)
        if kv.get("kind") not in ("strong", "large") or not kv.get("ms_per_iteration"):
            continue
        t = float(kv.get("iter_ms_steady") or kv["ms_per_iteration"])
        part = kv.get("partition", "planes")
        key = (kv["kind"], kv["matrix"], kv["algorithm"], kv.get("halo", ""),
               "blocks" if part.startswith("blocks") else part)
        runs.setdefault(key, {})[int(kv["np"])] = (t, float(kv.get("exchange_ms") or 0))
    ones = {k[:3]: v[1] for k, v in runs.items() if 1 in v}
    for key, by_p in sorted(runs.items()):
        kind, matrix, alg, halo_path, partition = key
        if 1 not in by_p and key[:3] in ones:
            by_p[1] = ones[key[:3]]  # one rank exchanges nothing: the same for every path
        if 1 not in by_p or len(by_p) < 2:
            continue
        points = sorted((p, v[0]) for p, v in by_p.items())
        # One GPU has no exchange and no MPI reduction: b is fitted on P > 1 when two such runs
        # exist (the one-GPU time is then the speedup's base only).
        several = [pt for pt in points if pt[0] > 1]
        if len(several) >= 2:
            points = several
        a, b = fit(points)
        worst = max(abs(a / p + b - t) / t for p, t in points)
        shape = sides(matrix)
        widest = max(by_p)
        h = halo(partition, shape, widest)
        c = by_p[widest][1] / h if h > 0 else 0.0  # ms per halo value, the widest run's
        t1 = by_p[1][0]

        def predict(p):
            return max(a / p, c * halo(partition, shape, p)) + b

        out = [f"model kind={kind} matrix={matrix} algorithm={alg} halo={halo_path}",
               f"partition={partition} runs={','.join(str(p) for p, _ in points)}",
               f"a_ms={a:.4f} b_ms={b:.4f} fit_worst={worst:.3f} c_us_per_kvalue={1e6 * c:.3f}"]
        for p in (4, 8, 64):
            out.append(f"halo{p}={int(halo(partition, shape, p))} t{p}_ms={predict(p):.4f} "
                       f"speedup{p}={t1 / predict(p):.2f}")
        # The fixed cost that 3.5x at 4 GPUs allows with this a (t1 / (a / 4 + b) = 3.5).
        out.append(f"b_for_3.5x_at_4={t1 / 3.5 - a / 4:.4f}")
        print(" ".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
