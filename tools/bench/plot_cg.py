#!/usr/bin/env python3
"""Plots tools/bench/cg.sh's cg.txt: ms per CG iteration of classic, pipelined (SpMV inside the
update kernel) and pipelined with a separate SpMV, per matrix and preconditioner.
Use: plot_cg.py cg.txt cg.png"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

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
            rows.append(keyvalue.fields(line))
    if not rows:
        sys.exit("no ratio lines in " + txt)
    fig, ax = plt.subplots(figsize=(8, 4))
    series = [s for s in SERIES if all(s[0] in r for r in rows)]  # older files: no separate SpMV
    width = 0.8 / len(series)
    for i, (key, label) in enumerate(series):
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
