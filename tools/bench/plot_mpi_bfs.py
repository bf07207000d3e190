#!/usr/bin/env python3
"""Plots tools/bench/mpi_bfs.sh's mpi_bfs.txt: GTEPS (Graph500 harmonic mean, min-max as error
bars) against GPUs for strong scaling (RMAT 26) and weak scaling (2^26 vertices a GPU), with the
big runs (RMAT 29 on 4, 30 on 8) and the one-GPU RMAT 24 pair. Use: plot_mpi_bfs.py txt png"""
import re
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse(path):
    runs, tag = {}, None
    for line in open(path):
        m = re.match(r"# (\S+): ", line)
        if m:
            tag = m.group(1)
            continue
        kv = keyvalue.fields(line)
        if tag and "gteps_min" in kv:
            runs[tag] = {k: float(kv[k]) for k in ("gteps", "gteps_min", "gteps_max")}
    return runs


def main(txt, png):
    runs = parse(txt)
    fig, ax = plt.subplots(figsize=(6, 4))
    for label, tags in (("strong, RMAT 26", ["s26x1", "s26x2", "s26x4", "s26x8"]),
                        ("weak, 2^26 vertices / GPU", ["s26x1", "w27x2", "w28x4", "w29x8"])):
        pts = [(int(t[-1]), runs[t]) for t in tags if t in runs]
        if not pts:
            continue
        xs = [p for p, _ in pts]
        ys = [r["gteps"] for _, r in pts]
        err = [[r["gteps"] - r["gteps_min"] for _, r in pts], [r["gteps_max"] - r["gteps"] for _, r in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
    for tag in sorted(t for t in runs if t.startswith("b") and "x" in t):  # the big runs: bSxP
        scale, np_ = tag[1:].split("x")
        ax.plot([int(np_)], [runs[tag]["gteps"]], "k*", markersize=12, label=f"RMAT {scale}")
    for tag, name in (("one-gpu", "RMAT 24, bfs"), ("dist24", "RMAT 24, -np 1")):
        if tag in runs:
            ax.plot([1], [runs[tag]["gteps"]], "x", label=name)
    ax.set_xticks([1, 2, 4, 8] if any(t.endswith("x8") for t in runs) else [1, 2, 4])
    ax.set_xlabel("GPUs (MPI ranks)")
    ax.set_ylabel("GTEPS (harmonic mean; min-max)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
