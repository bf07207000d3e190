#!/usr/bin/python3
"""GB/s (minimum-traffic model) per matrix for lockstep (tuned, fp64), cuSPARSE and ViennaCL,
read from the key=value lines of tools/bench/spmv.sh. Usage: plot_spmv.py spmv.txt out.png"""
import os
import shlex
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(path):
    for line in open(path):
        line = line.strip()
        if line.startswith("best "):
            line = line[5:]
        kv = dict(t.split("=", 1) for t in shlex.split(line) if "=" in t)
        if "matrix" in kv:
            kv["name"] = os.path.basename(kv["matrix"]).replace(".mtx", "")
            yield kv


def main(src, out):
    lock, cus, vcl = {}, {}, {}
    for kv in rows(src):
        n = kv["name"]
        if kv.get("anchor", "").startswith("cusparse"):
            cus[n] = max(cus.get(n, 0), float(kv["gbs_min_traffic"]))
        elif kv.get("anchor") == "viennacl-csr":
            vcl[n] = float(kv["gbs_min_traffic"])
        elif kv.get("precision") == "double" and "pct_copy_bw" in kv:
            lock[n] = float(kv["gbs"])
    names = [n for n in lock if n in cus]
    x = range(len(names))
    w = 0.27
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 1.1), 4.5))
    ax.bar([i - w for i in x], [lock[n] for n in names], w, label="lockstep (tuned)")
    ax.bar(list(x), [cus[n] for n in names], w, label="cuSPARSE (best of ALG1/ALG2)")
    ax.bar([i + w for i in x], [vcl.get(n, 0) for n in names], w, label="ViennaCL")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("GB/s, minimum-traffic model (fp64)")
    ax.set_yscale("log")
    ax.set_title("CSR SpMV on NVIDIA H100 (OpenCL lockstep vs CUDA cuSPARSE vs OpenCL ViennaCL)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
