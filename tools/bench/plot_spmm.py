"""The SpMM benchmark's plot and table (tools/gpu/spmm_bench.sh): median ms against k
for each matrix, lockstep's rule (untuned) and tuned shapes beside cuSPARSE SpMM's fastest CSR
algorithm, from the `bench=spmm_rule`, `bench=spmm_tuned` and `anchor=cusparse-spmm` lines.

  plot_spmm.py RESULTS.txt OUT.png      the plot (needs matplotlib), then the table
  plot_spmm.py --table RESULTS.txt      the Markdown table only (lockstep / cuSPARSE per k)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kv import fields  # noqa: E402  (the bench scripts' one key=value parser)


def collect(path):
    """{matrix: {series: {k: ms}}}; the matrix is the file's name without the extension."""
    out = {}
    for line in open(path):
        kv = fields(line)
        if "median_ms" not in kv or "k" not in kv or "matrix" not in kv:
            continue
        # rmat21.mtx -> rmat21; gen:laplace2d:4096 (lockstep) and laplace4096.mtx (cuSPARSE) alike
        name = os.path.basename(kv["matrix"]).split(".")[0].replace("gen:laplace2d:", "laplace")
        if kv.get("anchor") == "cusparse-spmm":
            series = "cuSPARSE (best CSR algorithm)"
        elif kv.get("bench") == "spmm_rule":
            series = "lockstep rule"
        elif kv.get("bench") == "spmm_tuned":
            series = "lockstep tuned"
        else:
            continue
        k, ms = int(kv["k"]), float(kv["median_ms"])
        cell = out.setdefault(name, {}).setdefault(series, {})
        cell[k] = min(ms, cell.get(k, ms))  # cuSPARSE: the fastest of its algorithms
    return out


def table(data):
    print("| matrix | k | lockstep rule, ms | lockstep tuned, ms | cuSPARSE best, ms | rule / tuned "
          "speedup over cuSPARSE |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, series in data.items():
        cus = series.get("cuSPARSE (best CSR algorithm)", {})
        for k in sorted(cus):
            rule = series.get("lockstep rule", {}).get(k)
            tuned = series.get("lockstep tuned", {}).get(k)
            cell = lambda v: f"{v:.3f}" if v else "-"  # noqa: E731
            ratio = " / ".join(f"{cus[k] / v:.2f}x" for v in (rule, tuned) if v)
            print(f"| {name} | {k} | {cell(rule)} | {cell(tuned)} | {cus[k]:.3f} | {ratio} |")


def plot(data, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(data), figsize=(5.5 * len(data), 4.2), squeeze=False)
    for ax, (name, series) in zip(axes[0], data.items()):
        for label, points in series.items():
            ks = sorted(points)
            ax.plot(ks, [points[k] for k in ks], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("k (right-hand sides, row-major, float)")
        ax.set_ylabel("median ms")
        ax.set_title(name)
        ax.set_ylim(bottom=0)
        ax.legend()
    fig.suptitle("CSR SpMM on the H100: lockstep vs cuSPARSE (same run)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    if sys.argv[1] == "--table":
        table(collect(sys.argv[2]))
    else:
        data = collect(sys.argv[1])
        plot(data, sys.argv[2])
        table(data)
