#!/usr/bin/env python3
"""Plots Gkeys/s against n for every lockstep sort series (radix, auto, bitonic per barrier
strategy) and the anchors (Thrust, CUB pairs, Boost.Compute) from tools/bench/sort.sh's sort.txt,
and, in a second panel, the seed's comparison (bitonic ms against work-groups, lock and
grouped-lock). Also prints a markdown table (n by series, Gkeys/s) for BENCHMARKS.md.
Use: plot_sort.py sort.txt sort.png"""
import shlex
import sys
from collections import defaultdict


def parse(path):
    """(series -> {n: gkeys}), (seed series -> {groups: ms})."""
    curves, seed = defaultdict(dict), defaultdict(dict)
    series = ""
    for line in open(path):
        if line.startswith("# series="):
            series = line.split()[1].split("=", 1)[1]
            continue
        if line.startswith("#") or "gkeys_per_s=" not in line:
            continue
        kv = dict(t.split("=", 1) for t in shlex.split(line) if "=" in t)
        if "anchor" in kv:
            curves[kv["anchor"]][int(kv["n"])] = float(kv["gkeys_per_s"])
        elif series.startswith("seed-"):
            seed[series[5:]][int(kv["groups"])] = float(kv["ms"])
        elif not series.startswith("verify"):
            curves[series].setdefault(int(kv["n"]), float(kv["gkeys_per_s"]))
    return curves, seed


def table(curves):
    names = sorted(curves)
    ns = sorted({n for c in curves.values() for n in c})
    print("| n | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for n in ns:
        cells = [f"{curves[s][n]:.3g}" if n in curves[s] else "" for s in names]
        print(f"| 2^{n.bit_length() - 1} | " + " | ".join(cells) + " |")


def main():
    curves, seed = parse(sys.argv[1])
    table(curves)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
    for name, pts in sorted(curves.items()):
        xs = sorted(pts)
        style = "k--o" if name in ("thrust-sort", "cub-sort-pairs", "boost-compute-sort") else "-o"
        axes[0].plot(xs, [pts[x] for x in xs], style, label=name, markersize=3)
    axes[0].set_xscale("log", base=2)
    axes[0].set_yscale("log")
    axes[0].set_xlabel("n (u32 keys)")
    axes[0].set_ylabel("Gkeys/s")
    axes[0].grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    for name, pts in sorted(seed.items()):
        xs = sorted(pts)
        axes[1].plot(xs, [pts[x] for x in xs], "-o", label=name)
    axes[1].set_xscale("log", base=2)
    axes[1].set_xlabel("work-groups")
    axes[1].set_ylabel("ms (bitonic, persistent)")
    axes[1].set_title("seed comparison: lock vs grouped-lock")
    axes[1].grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
