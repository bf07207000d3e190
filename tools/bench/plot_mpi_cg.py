#!/usr/bin/env python3
"""Plots tools/bench/mpi_cg.sh's mpi_cg.txt: speedup over one GPU against the GPU count for each
strong/large matrix and algorithm (the ideal line beside), weak-scaling efficiency, and the SpMV
timeline of each rank of the widest strong run (exchange: pack, download, MPI or the shared-memory
flags, upload below;
interior and boundary rows above). Use: plot_mpi_cg.py mpi_cg.txt mpi_cg.png"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse(path):
    runs, timelines, pending, last, ones = {}, {}, [], [], {}
    for line in open(path):
        if line.startswith("#") or "=" not in line:
            continue
        kv, first = keyvalue.fields(line), keyvalue.words(line)[0]
        if first == "timeline":
            pending.append({k: float(v) for k, v in kv.items()})
        elif first.startswith("matrix="):
            last = pending
            pending = []
        elif first == "run" and kv.get("ms_per_iteration"):
            boxes = "+blocks" if kv.get("partition", "").startswith("blocks") else ""
            alg = kv["algorithm"] + boxes + (" " + kv["halo"] if "halo" in kv else "")
            key = (kv["kind"], kv["matrix"] if kv["kind"] != "weak" else "laplace3d weak", alg)
            runs.setdefault(key, {})[int(kv["np"])] = float(kv["ms_per_iteration"])
            if int(kv["np"]) == 1:  # one rank exchanges nothing: its time serves every halo path
                ones[key[:2] + (kv["algorithm"],)] = float(kv["ms_per_iteration"])
            if kv["kind"] == "strong":
                timelines[(kv["matrix"], alg, int(kv["np"]))] = last
    for key, t in runs.items():
        one = ones.get(key[:2] + (key[2].split(" ")[0].split("+")[0],))
        if 1 not in t and one is not None:
            t[1] = one
    return runs, timelines


def main(txt, png):
    runs, timelines = parse(txt)
    widest = max(timelines, key=lambda k: (k[2], k[0]), default=None)
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.5))
    ax, wax, tax = axes
    top = 1
    for (kind, m, alg), t in sorted(runs.items()):
        if 1 not in t:
            continue
        ps = sorted(t)
        top = max(top, ps[-1])
        if kind == "weak":
            wax.plot(ps, [100 * t[1] / t[p] for p in ps], "o-", label=alg)
        else:
            ax.plot(ps, [t[1] / t[p] for p in ps], "o-", label=f"{m.replace('gen:', '')} {alg}")
    ax.plot([1, top], [1, top], "k:", label="ideal")
    ax.set_xlabel("GPUs (ranks)")
    ax.set_ylabel("speedup over 1 GPU (ms per CG iteration, fp64)")
    ax.legend(fontsize=7)
    wax.axhline(90, color="k", ls=":", label="goal 90 %")
    wax.set_xlabel("GPUs (16.8M rows each)")
    wax.set_ylabel("weak-scaling efficiency, %")
    wax.legend(fontsize=7)
    colours = {"pack": "C0", "download": "C1", "MPI or flags": "C3", "upload": "C2", "interior": "C7", "boundary": "C4"}
    for t in timelines.get(widest, []):
        r = t["rank"]
        parts = {
            "pack": (0, t["pack_end"]),
            "download": (t["pack_end"], t["download_end"]),
            "MPI or flags": (t["download_end"], t["upload_start"]),
            "upload": (t["upload_start"], t["upload_end"]),
            "interior": (t["interior_start"], t["interior_end"]),
            "boundary": (t["boundary_start"], t["boundary_end"]),
        }
        for k, (a, b) in parts.items():
            y = r + (0.2 if k in ("interior", "boundary") else -0.2)
            tax.barh(y, max(b - a, 0), left=a, height=0.35, color=colours[k], label=k if r == 0 else None)
    if widest:
        tax.set_title(f"{widest[0].replace('gen:', '')} {widest[1]}, {widest[2]} GPUs", fontsize=9)
    tax.set_xlabel("ms from the pack kernel's start (mean of 10 SpMVs)")
    tax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
