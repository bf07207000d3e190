#!/usr/bin/env python3
"""Plots tools/bench/cg.sh's cg.txt: ms per CG iteration of classic, pipelined (SpMV inside the
update kernel) and pipelined with a separate SpMV, per matrix and preconditioner.
Use: plot_cg.py cg.txt cg.png"""
import shlex
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SERIES = [("classic_ms_per_iteration", "classic"),
          ("pipelined_ms_per_iteration", "pipelined (SpMV in the update)"),
          ("separate_ms_per_iteration", "pipelined, separate SpMV")]


def main(txt, png):
    rows = []
    for line in open(txt):
        if line.startswith("ratio "):
            kv = dict(t.split("=", 1) for t in shlex.split(line)[1:] if "=" in t)
            rows.append(kv)
    if not rows:
        sys.exit("no ratio lines in " + txt)
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / len(SERIES)
    for i, (key, label) in enumerate(SERIES):
        xs = [j + width * i for j in range(len(rows))]
        ax.bar(xs, [float(r[key]) for r in rows], width=width, label=label)
    ax.set_xticks([j + width for j in range(len(rows))],
                  [r["matrix"].replace("gen:", "") + "\n" + r["preconditioner"] for r in rows])
    ax.set_ylabel("ms per CG iteration (fp64)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main(*sys.argv[1:3])
