#!/usr/bin/env python3
"""Plots us per barrier against work-groups for the global barrier strategies (one series per
strategy / ordering variant / flag spacing) and CUDA grid.sync() from the key=value lines of
tools/bench/barrier.sh (barrier.txt), one panel per work-group size. Use: plot_barrier.py
barrier.txt barrier.png"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse(path):
    """{local: {series: {groups: us}}}; the first measurement of a point wins."""
    data = defaultdict(lambda: defaultdict(dict))
    command = ""
    for line in open(path):
        if line.startswith("#"):
            command = line
            continue
        if "=" not in line:
            continue
        kv = keyvalue.fields(line)
        if "us_per_barrier" not in kv:
            continue
        if "anchor" in kv:
            series, local = kv["anchor"], int(kv["threads"])
        else:
            barrier = kv["barrier"]
            series, local = barrier, int(kv["local"])
            if kv.get("branch") and barrier == "tree" and "--branch" in command:
                series = "tree B=" + kv["branch"]
            if barrier != "relaunch" and "order" in kv:
                series += " " + kv["order"]
            if kv.get("stride") == "32":
                series += " pad"
            if kv.get("data") == "0":
                series += " nodata"
        data[local][series].setdefault(int(kv["groups"]), float(kv["us_per_barrier"]))
    return data


def main():
    data = parse(sys.argv[1])
    locals_ = sorted(data)
    fig, axes = plt.subplots(1, len(locals_), figsize=(7 * len(locals_), 6), squeeze=False)
    for ax, local in zip(axes[0], locals_):
        for series, points in sorted(data[local].items()):
            xs = sorted(points)
            style = "k--o" if series == "grid.sync" else ("-o" if "fence" in series else ":s")
            ax.plot(xs, [points[x] for x in xs], style, label=series, markersize=3)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("work-groups")
        ax.set_ylabel("us per barrier")
        ax.set_title(f"{local} work-items per group")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
