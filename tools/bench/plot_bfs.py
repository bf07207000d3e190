#!/usr/bin/env python3
"""Top row: time per BFS level of auto (log scale), one panel per graph, each level's point
coloured by the strategy auto chose. Bottom row: time per level against frontier size for every
strategy forced on all levels (the measurements behind auto's thresholds: where one strategy's
curve crosses another's). Reads OUT/bfs_steps_*.txt (key=value lines from
`lockstep bfs --steps-out`). Use: plot_bfs.py OUT_DIR OUT.png"""
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

COLORS = {"cpu": "tab:gray", "single": "tab:purple", "multi": "tab:blue", "queue": "tab:green",
          "wave": "tab:orange", "bottom-up": "tab:red"}


def read(path, auto=True):
    rows = []
    for line in open(path):
        kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
        if (kv.get("run") == "auto") == auto:
            rows.append(kv)
    return rows


def main(folder, out):
    files = sorted(glob.glob(os.path.join(folder, "bfs_steps_*.txt")))
    panels = [(f, read(f)) for f in files]
    panels = [(f, r) for f, r in panels if r]
    if not panels:
        sys.exit("no auto steps in " + folder)
    fig, axes = plt.subplots(2, len(panels), figsize=(5 * len(panels), 8), squeeze=False)
    for ax, (f, _) in zip(axes[1], panels):
        forced = read(f, auto=False)
        for s, c in COLORS.items():
            pts = sorted((int(r["frontier"]), float(r["ms"])) for r in forced if r["run"] == s)
            if pts:
                ax.scatter([p[0] for p in pts], [max(p[1], 1e-4) for p in pts], s=6, c=c, label=s)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("frontier vertices")
        ax.set_ylabel("ms per level (forced strategy)")
        ax.legend(fontsize=7)
    for ax, (f, rows) in zip(axes[0], panels):
        for s, c in COLORS.items():
            pts = [(int(r["level"]), float(r["ms"])) for r in rows if r["strategy"] == s]
            if pts:
                ax.scatter([p[0] for p in pts], [max(p[1], 1e-4) for p in pts], s=8, c=c, label=s)
        ax.set_yscale("log")
        ax.set_xlabel("level")
        ax.set_ylabel("ms per level")
        ax.set_title(os.path.basename(f)[len("bfs_steps_"):-4] + " (auto)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
