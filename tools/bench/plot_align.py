#!/usr/bin/python3
"""GCUPS against pair size for each alignment algorithm and barrier strategy, from the
key=value lines of tools/bench/align.sh (case=size lines; host runs as markers). Prints a table
(one `table ...` line per run), the best shape of the sweep, and consistent=1 when every run of
one pair size on the device or CPU reports the same score and ends (libssw's slices excluded).
Usage: plot_align.py align.txt out.png (the plot is skipped without matplotlib)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)


def rows(path):
    for line in open(path):
        if line.startswith("#") or "gcups=" not in line:
            continue
        kv = keyvalue.fields(line)
        if "algorithm" not in kv:  # the summary table lines
            continue
        barrier = kv.get("barrier", "")
        kv["label"] = kv["algorithm"] + ("/" + barrier if kv["algorithm"] == "barrier" else "")
        if kv["algorithm"] == "ssw":
            kv["label"] = f'libssw x{kv.get("threads", "1")}'
        yield kv


def main(src, out):
    all_rows = list(rows(src))
    if not all_rows:
        sys.exit(f"{src}: no result lines")
    consistent, seen = 1, {}
    for kv in all_rows:
        print(f'table case={kv["case"]} n={kv["n"]} m={kv["m"]} label={kv["label"]} '
              f'cells_per_item={kv.get("cells_per_item", "-")} tile_cols={kv.get("tile_cols", "-")} '
              f'ms={kv["ms"]} gcups={kv["gcups"]}')
        if kv["algorithm"] == "ssw":
            continue
        key, val = (kv["n"], kv["m"]), (kv["score"], kv["end_a"], kv["end_b"])
        if seen.setdefault(key, val) != val:
            consistent = 0
            print(f"MISMATCH n={kv['n']} m={kv['m']} {kv['label']}: {val} vs {seen[key]}")
    shape = [kv for kv in all_rows if kv["case"] == "shape"]
    if shape:
        best = max(shape, key=lambda kv: float(kv["gcups"]))
        print(f'best_shape label={best["label"]} cells_per_item={best["cells_per_item"]} '
              f'tile_cols={best["tile_cols"]} local_size={best["local_size"]} gcups={best["gcups"]}')
    print(f"consistent={consistent}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot skipped: no matplotlib")
        return
    series = {}
    for kv in all_rows:
        if kv["case"] == "size":
            x = math.sqrt(float(kv["n"]) * float(kv["m"]))
            series.setdefault(kv["label"], []).append((x, float(kv["gcups"])))
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for label, pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label)
    for i, kv in enumerate(k for k in all_rows if k["case"] == "host"):
        x = math.sqrt(float(kv["n"]) * float(kv["m"]))
        ax.plot([x], [float(kv["gcups"])], "s", color=f"C{9 - i}", label=f'{kv["label"]} (host)')
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("sqrt(n * m) (residues)")
    ax.set_ylabel("GCUPS")
    ax.set_title(f'Smith-Waterman, E. coli x V. cholerae slices — {all_rows[0].get("device", "")}')
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
