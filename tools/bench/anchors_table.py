#!/usr/bin/env python3
"""The table of tools/bench/anchors.sh: each row's lockstep time beside its anchor's, from the
row=NAME key=value lines of anchors.txt. ratio = anchor time / lockstep time (same run)."""
import re
import sys
from collections import defaultdict

rows = defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"row=(\S+) (.*)", line)
    if m:
        rows[m.group(1)].append(dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(2))))


def num(d, *keys):
    for k in keys:
        if k in d:
            try:
                return float(d[k])
            except ValueError:
                pass
    return None


out = ["| row | anchor | anchor ms | lockstep ms | ratio |", "| --- | --- | --- | --- | --- |"]


def add(name, anchor, a, lk):
    ratio = f"{a / lk:.3f}" if a and lk else "-"
    fa = f"{a:.4f}" if a else "-"
    fl = f"{lk:.4f}" if lk else "-"
    out.append(f"| {name} | {anchor} | {fa} | {fl} | {ratio} |")


# sort: lockstep's auto choice against CUB (keys, pairs) and Thrust (u64)
anchors = rows.get("sort_anchor", [])
for k in (24, 26):
    n = 1 << k
    for kind, anchor, key in (("keys", "cub-sort-keys", "keys"), ("pairs", "cub-sort-pairs", "pairs")):
        lk = [num(d, "ms") for d in rows.get(f"sort_{kind}_{k}", []) if "ms" in d]
        a = [num(d, "ms") for d in anchors if d.get("anchor") == anchor and d.get("n") == str(n)]
        add(f"sort u32 {kind} 2^{k}", anchor, min(a) if a else None, lk[-1] if lk else None)
lk = [num(d, "ms") for d in rows.get("sort_u64_24", []) if "ms" in d]
a = [num(d, "ms") for d in anchors if d.get("keys") == "u64" and d.get("n") == str(1 << 24)]
add("sort u64 keys 2^24", "thrust-sort", min(a) if a else None, lk[-1] if lk else None)
# spmv: the untuned rule against the faster cuSPARSE algorithm
for n in ("powerlaw_1m", "rmat_21_16", "laplace2d_4096"):
    lk = [num(d, "median_ms") for d in rows.get(f"spmv_{n}", []) if "median_ms" in d]
    a = [num(d, "median_ms") for d in rows.get(f"spmv_{n}_anchor", []) if "median_ms" in d]
    add(f"spmv fp64 {n} (untuned)", "cuSPARSE best of ALG1/2", min(a) if a else None,
        lk[-1] if lk else None)
# spmm: float, rmat21, per layout and k, against the fastest supported cuSPARSE algorithm
for layout in ("row", "col"):
    for d in rows.get(f"spmm_{layout}", []):
        if "median_ms" not in d:
            continue
        k = d.get("k")
        a = [num(e, "median_ms") for e in rows.get("spmm_anchor", [])
             if e.get("k") == k and e.get("layout") == layout and "median_ms" in e]
        add(f"spmm float rmat21 {layout}-major k={k}", "cuSPARSE best", min(a) if a else None,
            num(d, "median_ms"))
# barrier: the fastest barrier per shape against grid.sync() (us, not ms)
for tag, local in (("barrier_256", "256"), ("barrier_1024", "1024")):
    best = {}
    for d in rows.get(tag, []):
        us = num(d, "us_per_barrier")
        if us is not None and d.get("errors", "0") == "0":
            g = d.get("groups")
            if g not in best or us < best[g][0]:
                best[g] = (us, d.get("barrier"))
    for g, (us, b) in sorted(best.items(), key=lambda x: int(x[0])):
        a = [num(e, "us_per_barrier") for e in rows.get("barrier_anchor", [])
             if e.get("threads") == local and e.get("groups") == g]
        add(f"barrier {g} x {local} (us, {b})", "grid.sync()", min(a) if a else None, us)
# apsp: against the goal
for t in ("f32", "i32"):
    lk = [num(d, "ms") for d in rows.get(f"apsp_{t}", []) if "ms" in d and "sum_dist" in d]
    if not lk:
        lk = [num(d, "ms") for d in rows.get(f"apsp_{t}", []) if "ms" in d]
    add(f"Floyd-Warshall n=8192 {t}", "goal 45 ms", 45.0, min(lk) if lk else None)
# bfs: auto against the best forced algorithm (median ms over the sources)
for name in sorted(r for r in rows if r.startswith("bfs_")):
    summary = {d["algorithm"]: num(d, "ms_median") for d in rows[name]
               if "ms_median" in d and "algorithm" in d}
    if "auto" in summary:
        forced = {a: v for a, v in summary.items() if a not in ("auto", "cpu") and v}
        best = min(forced, key=forced.get) if forced else None
        add(f"bfs {name[4:]} auto", f"forced {best}" if best else "-",
            forced[best] if best else None, summary["auto"])
# align: GCUPS, no anchor in the run
for name in ("align_dna_200k", "align_protein"):
    for d in rows.get(name, []):
        if "gcups" in d:
            out.append(f"| {name} | - | - | {num(d, 'ms'):.3f} | {num(d, 'gcups'):.1f} GCUPS |")
print("\n".join(out))
