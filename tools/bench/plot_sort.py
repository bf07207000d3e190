#!/usr/bin/env python3
"""Plots, from tools/bench/sort.sh's sort.txt: Gkeys/s against n of lockstep's fastest series per
kind (u32 keys, u32 pairs, u64 keys: the best of its radix, radix-persistent, auto and bitonic
series at each n; the ITEMS sweeps left out) beside the anchors of that kind (CUB SortKeys and
Thrust, CUB SortPairs, Thrust u64; Boost.Compute); lockstep's ratio to the faster anchor per
kind; and, when present, the seed's comparison (bitonic ms against work-groups, lock and
grouped-lock). Also prints a markdown table (n by series, Gkeys/s) for BENCHMARKS.md.
Use: plot_sort.py sort.txt sort.png"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)
from collections import defaultdict


def parse(path):
    """(series -> {n: gkeys}), (seed series -> {groups: ms})."""
    curves, seed = defaultdict(dict), defaultdict(dict)
    series = ""
    for line in open(path):
        if line.startswith("# series="):
            series = keyvalue.get(line, "series")
            continue
        if line.startswith("#") or "gkeys_per_s=" not in line:
            continue
        kv = keyvalue.fields(line)
        if "anchor" in kv:
            name = kv["anchor"] + ("-u64" if kv.get("keys") == "u64" else "")
            curves[name][int(kv["n"])] = float(kv["gkeys_per_s"])
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


KINDS = {  # kind: (lockstep series suffix, anchors, colour)
    "u32 keys": ("keys", ("cub-sort-keys", "thrust-sort"), "tab:blue"),
    "u32 pairs": ("pairs", ("cub-sort-pairs",), "tab:orange"),
    "u64 keys": ("u64", ("thrust-sort-u64",), "tab:green"),
}


def best(curves, suffix):
    """n -> the fastest lockstep series of one kind (items sweeps excluded)."""
    out = {}
    for name, pts in curves.items():
        if name.startswith(("items-", "cub", "thrust", "boost")) or "-items-" in name:
            continue
        if not name.endswith("-" + suffix):
            continue
        for n, g in pts.items():
            out[n] = max(out.get(n, 0.0), g)
    return out


def main():
    curves, seed = parse(sys.argv[1])
    table(curves)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 3 if seed else 2
    fig, axes = plt.subplots(1, panels, figsize=(6.5 * panels, 4.8))
    for kind, (suffix, anchors, colour) in KINDS.items():
        mine = best(curves, suffix)
        if not mine:
            continue
        xs = sorted(mine)
        axes[0].plot(xs, [mine[x] for x in xs], "-o", color=colour, label="lockstep " + kind,
                     markersize=3)
        fastest = {}
        for a, style in zip(anchors, ("--s", ":^")):
            pts = curves.get(a, {})
            ax = sorted(pts)
            if ax:
                axes[0].plot(ax, [pts[x] for x in ax], style, color=colour, label=a, markersize=3)
            for n, g in pts.items():
                fastest[n] = max(fastest.get(n, 0.0), g)
        rx = [n for n in xs if n in fastest]
        if rx:
            axes[1].plot(rx, [mine[n] / fastest[n] for n in rx], "-o", color=colour,
                         label=kind + " / " + " or ".join(anchors))
    boost = curves.get("boost-compute-sort", {})
    if boost:
        bx = sorted(boost)
        axes[0].plot(bx, [boost[x] for x in bx], "k-.x", label="boost-compute-sort (u32 keys)")
    axes[0].set_yscale("log")
    axes[1].axhline(1.0, color="k", linewidth=0.8)
    if seed:
        for name, pts in sorted(seed.items()):
            xs = sorted(pts)
            axes[2].plot(xs, [pts[x] for x in xs], "-o", label=name)
        axes[2].set_title("seed comparison: lock vs grouped-lock")
    labels = [("n", "Gkeys/s"), ("n", "lockstep / faster anchor (same run)"),
              ("work-groups", "ms (bitonic, persistent)")]
    for ax, (x, y) in zip(axes, labels):
        ax.set_xscale("log", base=2)
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
