#!/usr/bin/env python3
"""The distributed BFS's scaling model, fitted from tools/bench/mpi_bfs.sh's mpi_bfs.txt (the first
search's `timeline level=` lines of every run). On several ranks a level costs

    ms = a + a_p log2(P) + b E / P + c B

a, a_p: the fixed per-level cost (kernel launches, host waits, the level's MPI_Allreduce: the
tree's depth); E: the level's global frontier edges, b the per-edge cost of one GPU's share; B:
the MiB each rank moves through host memory in that level (bottom-up: the whole frontier bitmap,
n / 8 bytes; a level whose discoveries went as bitmaps: that for the MPI_Reduce_scatter of the
discoveries, plus the gathered frontier, 4 bytes a vertex or n / 8 where that is less; top-down: 16 bytes a pair, down and up, of the rank that
sent most). One GPU (the one-device engine) fits ms = a1 + b1 E. Predictions for 8 and 64 GPUs
replay the level profile of the largest measured run (weak: 2^26 vertices a GPU; strong: RMAT 26)
with E, n and the pairs scaled to the target, and again with c / 10 for GPU-direct transfers (the
bitmap and pairs over NVLink between devices instead of PCIe down, host memory, PCIe up; OpenCL
has no peer copies on NVIDIA). Prints `model ...` and `predict ...` lines.
Use: fit_mpi_bfs.py mpi_bfs.txt [more mpi_bfs.txt: the runs of several calls together]"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser)


def parse(path):
    """{tag: {np, scale, n, levels: [dict], gteps, traversed}} from the runs with timelines."""
    runs, tag = {}, None
    for line in open(path):
        m = re.match(r"# (\S+): (.*)", line)
        if m:
            tag, cmd = m.group(1), m.group(2)
            np_ = re.search(r"-np (\d+)", cmd)
            sc = re.search(r"--rmat (\d+)", cmd)
            runs[tag] = {"np": int(np_.group(1)) if np_ else 1, "scale": int(sc.group(1)) if sc else 0,
                         "n": 0, "levels": []}
            continue
        if tag is None:
            continue
        f = keyvalue.fields(line)
        run = runs[tag]
        if "n" in f and "ranks" in f and "graph_s" in f:
            run["n"] = float(f["n"])
        elif "level" in f and "direction" in f:
            run["levels"].append(f)
        elif "gteps_min" in f:
            run["gteps"], run["traversed"] = float(f["gteps"]), float(f.get("traversed_edges", 0))
    return {t: r for t, r in runs.items() if r["levels"] and "gteps" in r}


def mib(level, n):
    if level.get("direction") == "bottom-up":
        return n / 8 / 2**20
    if level.get("bitmap") == "1":  # the discoveries' bitmap, and the frontier: list or bitmap
        frontier = float(level.get("frontier", 0))
        return (n / 8 + (4 * frontier if frontier * 32 < n else n / 8)) / 2**20
    return 16 * float(level.get("sent_max", 0)) / 2**20


def row(level, p, n):
    return [1.0, math.log2(p), float(level["edges"]) / p / 1e6, mib(level, n)]


def lstsq(rows, ys):
    """Least squares by the normal equations (a few unknowns); a column of zeros gets 0."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(k)]
    for i in range(k):
        a[i][i] += 1e-9 * (1 + a[i][i])  # a ridge: log2(P) constant when only one P ran
    for i in range(k):  # Gaussian elimination with partial pivoting
        p = max(range(i, k), key=lambda r: abs(a[r][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for r in range(i + 1, k):
            f = a[r][i] / a[i][i]
            a[r] = [x - f * y for x, y in zip(a[r], a[i])]
            b[r] -= f * b[i]
    x = [0.0] * k
    for i in reversed(range(k)):
        x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, k))) / a[i][i]
    return x


def nonnegative(rows, ys):
    """lstsq with every coefficient >= 0: the most negative one is dropped (0) and the rest refit."""
    active = list(range(len(rows[0])))
    while True:
        x = lstsq([[r[i] for i in active] for r in rows], ys)
        worst = min(range(len(x)), key=lambda i: x[i])
        if x[worst] >= 0 or len(active) == 1:
            coef = [0.0] * len(rows[0])
            for i, v in zip(active, x):
                coef[i] = max(v, 0.0)
            return coef
        del active[worst]


def predict(coef, base, p, scale, c_scale=1.0):
    """One search's ms and GTEPS for p GPUs at `scale` from run `base`'s level profile."""
    grow = 2.0 ** (scale - base["scale"])
    n = base["n"] * grow
    ms = 0.0
    for lv in base["levels"]:
        e = float(lv["edges"]) * grow
        b = mib(lv, n)
        if lv.get("direction") == "top-down" and lv.get("bitmap") != "1":
            b *= grow * base["np"] / p
        ms += coef[0] + coef[1] * math.log2(p) + coef[2] * e / p / 1e6 + coef[3] * c_scale * b
    traversed = base["traversed"] * grow
    return ms, traversed / (ms * 1e6)


def main(paths):
    runs = {}
    for i, path in enumerate(paths):  # several calls' files (tags may repeat across them)
        runs.update({(f"{i}:{t}" if i else t): r for t, r in parse(path).items()})
    multi = [(lv, r) for r in runs.values() if r["np"] > 1 for lv in r["levels"]]
    one = [lv for r in runs.values() if r["np"] == 1 for lv in r["levels"]]
    if one:
        a1, b1 = lstsq([[1.0, float(lv["edges"]) / 1e6] for lv in one], [float(lv["ms"]) for lv in one])
        print(f"model one_gpu level_ms={a1:.4f} ms_per_medge={b1:.5f} levels={len(one)}")
    if len(multi) < 4:
        print("model skipped: fewer than 4 levels on several GPUs")
        return
    rows = [row(lv, r["np"], r["n"]) for lv, r in multi]
    ys = [float(lv["ms"]) for lv, _ in multi]
    coef = nonnegative(rows, ys)
    fit = [sum(c * x for c, x in zip(coef, rw)) for rw in rows]
    mean = sum(ys) / len(ys)
    ss = sum((y - f) ** 2 for y, f in zip(ys, fit))
    tot = sum((y - mean) ** 2 for y in ys) or 1.0
    print(f"model several level_ms={coef[0]:.4f} level_ms_per_log2p={coef[1]:.4f} "
          f"ms_per_medge_per_gpu={coef[2]:.5f} ms_per_mib_staged={coef[3]:.5f} "
          f"r2={1 - ss / tot:.3f} levels={len(ys)}")
    one26 = next((r["gteps"] for r in runs.values() if r["np"] == 1 and r["scale"] == 26), None)
    several = [r for r in runs.values() if r["np"] > 1]
    for kind in ("weak", "strong"):
        pool = [r for r in several if (r["scale"] == 26) == (kind == "strong")] or several
        base = max(pool, key=lambda r: (r["np"], r["scale"]))
        for p in (8, 64):
            scale = 26 if kind == "strong" else 26 + int(math.log2(p))
            ms, g = predict(coef, base, p, scale)
            _, gd = predict(coef, base, p, scale, 0.1)
            eff = ""
            if one26:
                eff = (f" speedup={g / one26:.2f}" if kind == "strong"
                       else f" efficiency={g / one26 / p:.3f}")
            print(f"predict {kind} np={p} scale={scale} ms={ms:.2f} gteps={g:.1f}{eff} "
                  f"gteps_gpu_direct={gd:.1f} from={base['np']}x{base['scale']}")


if __name__ == "__main__":
    main(sys.argv[1:])
