#!/usr/bin/env python3
"""Bars of tools/bench/anchors.sh's table: anchor time / lockstep time per row (same run; above 1:
lockstep faster). Use: plot_anchors.py anchors.txt out.png"""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = []
for line in open(sys.argv[1]):
    m = re.match(r"# \| (.+?) \| (.+?) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|", line)
    if m:
        rows.append((m.group(1), float(m.group(5))))
fig, ax = plt.subplots(figsize=(8, 0.28 * len(rows) + 1))
names = [r[0] for r in rows][::-1]
ratios = [r[1] for r in rows][::-1]
ax.barh(names, ratios, color=["tab:green" if r >= 1 else "tab:red" for r in ratios])
ax.axvline(1.0, color="black", linewidth=0.8)
ax.set_xscale("log")
ax.set_xlabel("anchor time / lockstep time (same run; > 1: lockstep faster)")
ax.tick_params(axis="y", labelsize=7)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
