#!/usr/bin/env python3
"""Plots tools/bench/mpi_cg.sh's mpi_cg.txt: ms per CG iteration on 1 and 2 ranks (GPUs) per
matrix and algorithm, and the SpMV timeline of each rank of the last 2-rank run of each matrix (exchange:
pack, download, MPI, upload; then interior and boundary rows). Use: plot_mpi_cg.py txt png"""
import shlex
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse(path):
    runs, timelines, pending = {}, {}, []
    for line in open(path):
        if line.startswith("#") or "=" not in line:
            continue
        toks = shlex.split(line)
        kv = dict(t.split("=", 1) for t in toks if "=" in t)
        if toks[0] == "timeline":
            pending.append({k: float(v) for k, v in kv.items()})
        elif "ms_per_iteration" in kv and "ranks" in kv:
            name = kv["matrix"] + (" " + kv["algorithm"] if "algorithm" in kv else "")
            runs[(name, int(kv["ranks"]))] = float(kv["ms_per_iteration"])
            if int(kv["ranks"]) > 1:
                timelines[name] = pending
            pending = []
    return runs, timelines


def main(txt, png):
    runs, timelines = parse(txt)
    matrices = sorted({m for m, _ in runs})
    fig, axes = plt.subplots(1, 1 + len(timelines), figsize=(5 + 5 * len(timelines), 4))
    axes = axes if hasattr(axes, "__len__") else [axes]
    ax = axes[0]
    for i, np_ in enumerate((1, 2)):
        xs = [j + 0.4 * i for j in range(len(matrices))]
        ax.bar(xs, [runs.get((m, np_), 0) for m in matrices], width=0.4, label=f"{np_} GPU")
    ax.set_xticks([j + 0.2 for j in range(len(matrices))], [m.replace("gen:", "") for m in matrices])
    ax.set_ylabel("ms per CG iteration (fp64)")
    ax.legend()
    colours = {"pack": "C0", "download": "C1", "MPI": "C3", "upload": "C2", "interior": "C7", "boundary": "C4"}
    for ax, (m, tl) in zip(axes[1:], sorted(timelines.items())):
        for t in tl:
            r = t["rank"]
            parts = {
                "pack": (0, t["pack_end"]),
                "download": (t["pack_end"], t["download_end"]),
                "MPI": (t["download_end"], t["upload_start"]),
                "upload": (t["upload_start"], t["upload_end"]),
                "interior": (t["interior_start"], t["interior_end"]),
                "boundary": (t["boundary_start"], t["boundary_end"]),
            }
            for k, (a, b) in parts.items():
                y = r + (0.2 if k in ("interior", "boundary") else -0.2)
                ax.barh(y, max(b - a, 0), left=a, height=0.35, color=colours[k], label=k if r == 0 else None)
        ax.set_yticks([t["rank"] for t in tl], [f"rank {int(t['rank'])}" for t in tl])
        ax.set_xlabel("ms from the pack kernel's start (mean of 10 SpMVs)")
        ax.set_title(f"{m.replace('gen:', '')}: exchange (below) vs rows (above)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
