#!/usr/bin/env python3
"""Plots tools/bench/search_scaling.sh's search_scaling.txt: the speedup over one GPU of the
search's device phase (ms=) and of the process's wall time against the GPU count, one process
(--devices) and MPI (--distributed), the ideal line beside; runs whose hits differ from one GPU's
are marked. Use: plot_search_scaling.py search_scaling.txt search_scaling.png"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def parse(path):
    runs = {}  # case -> {n: (ms, wall_s, same)}
    for line in open(path):
        kv = keyvalue.fields(line)
        if "case" not in kv or "ms" not in kv or "wall_s" not in kv:
            continue
        runs.setdefault(kv["case"], {})[int(kv["n"])] = (
            float(kv["ms"]), float(kv["wall_s"]), kv.get("same_hits") == "1")
    return runs


def main(txt, png):
    runs = parse(txt)
    one = runs.get("devices", {}).get(1)
    if one is None:
        print("plot_search_scaling.py: no one-GPU run in", txt, file=sys.stderr)
        return 1
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    top = 1
    for ax, k, title in ((axes[0], 0, "search (ms=)"), (axes[1], 1, "wall time")):
        for case, label in (("devices", "one process, --devices"), ("mpi", "mpirun --distributed")):
            t = runs.get(case, {})
            ns = sorted(t)
            if not ns:
                continue
            top = max(top, ns[-1])
            ax.plot(ns, [one[k] / t[n][k] for n in ns], "o-", label=label)
            for n in ns:
                if not t[n][2]:
                    ax.annotate("hits differ", (n, one[k] / t[n][k]), color="red")
        ax.plot([1, top], [1, top], "k:", label="ideal")
        ax.set_xlabel("GPUs")
        ax.set_ylabel("speedup over one GPU")
        ax.set_title(title)
        ax.legend()
    fig.suptitle("lockstep search: mmseqs2 example DB x50 (453 M residues) x 50 queries")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
