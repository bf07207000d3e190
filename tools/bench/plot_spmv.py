#!/usr/bin/python3
"""Reads the key=value lines of tools/bench/spmv.sh (fp64) and either plots GB/s (minimum-traffic
model) per matrix for lockstep untuned (auto, empty tuning database), tuned, merge-path forced and
cuSPARSE (best of ALG1/ALG2), or with --table prints the markdown table of BENCHMARKS.md.
Usage: plot_spmv.py spmv.txt out.png | plot_spmv.py --table spmv.txt"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)


def parse(path):
    """{matrix name: {"auto"|"tuned"|"merge"|"alg1"|"alg2": key=value dict}}"""
    out, what = {}, None
    for line in open(path):
        line = line.strip()
        if line.startswith("#"):
            what = ("merge" if re.search(r"--(kernel|algorithm) merge", line)
                    else "auto" if re.search(r"--(kernel|algorithm) auto", line) else None)
            continue
        if line.startswith("best "):
            line, what = line[5:], "tuned"
        kv = keyvalue.fields(line)
        if "matrix" not in kv:
            continue
        name = os.path.basename(kv["matrix"]).replace(".mtx", "")
        if kv.get("anchor", "").startswith("cusparse-"):
            out.setdefault(name, {})[kv["anchor"][len("cusparse-"):]] = kv
        elif what and kv.get("precision", "double") == "double":
            out.setdefault(name, {})[what] = kv
    for fn in glob.glob(os.path.join(os.path.dirname(os.path.abspath(path)), "tune_*_double.json")):
        j = json.load(open(fn))  # the merge-path candidates the tuner timed
        t = [c["median_ms"] for c in j["candidates"] if keyvalue.renamed(dict(c)).get("algorithm") == "merge" and c["verified"]]
        name = os.path.basename(j["matrix"]).replace(".mtx", "")
        if t and name in out:
            out[name]["merge_tuned"] = {"median_ms": str(min(t))}
    return out


def ms(d, k):
    return float(d[k]["median_ms"]) if k in d else None


def config(kv):
    algorithm, size = kv.get("algorithm", "?"), kv.get("local_size", "")
    c = algorithm + " " + size
    if algorithm == "vector":
        c += "/" + kv.get("rows_bits", "") + ("s" if kv.get("shuffle") == "1" else "")
    if algorithm == "merge" and "items" in kv:
        c += " x" + kv["items"]
    return c


def table(path):
    rows = parse(path)
    print("| matrix | untuned auto, ms (choice) | tuned, ms (choice) | merge, ms | cuSPARSE ALG1 / ALG2, ms "
          "| best cuSPARSE / tuned | untuned / tuned |")  # merge: forced run, else the tuner's best merge
    print("|---|---|---|---|---|---|---|")
    for name, d in rows.items():
        a, t, m, c1, c2 = (ms(d, k) for k in ("auto", "tuned", "merge", "alg1", "alg2"))
        mt = ms(d, "merge_tuned")
        cus = min(x for x in (c1, c2) if x) if (c1 or c2) else None
        f = lambda x: "%.4f" % x if x else "-"
        print("| %s | %s (%s) | %s (%s) | %s | %s / %s | %s | %s |" % (
            name, f(a), config(d["auto"]) if a else "", f(t), config(d["tuned"]) if t else "",
            f(m) if m else (f(mt) + " (tuner)" if mt else "-"), f(c1), f(c2),
            "%.3f" % (cus / t) if cus and t else "-", "%.3f" % (a / t) if a and t else "-"))


def plot(path, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = parse(path)
    names = [n for n, d in rows.items() if "tuned" in d]
    series = [("lockstep untuned (auto)", "auto"), ("lockstep tuned", "tuned"), ("lockstep merge-path", "merge")]
    w = 0.2
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 1.2), 4.5))
    for i, (label, k) in enumerate(series):
        ax.bar([x + (i - 1.5) * w for x in range(len(names))],
               [float(rows[n][k]["gbs"]) if k in rows[n] else 0 for n in names], w, label=label)
    ax.bar([x + 1.5 * w for x in range(len(names))],
           [max([float(rows[n][k]["gbs_min_traffic"]) for k in ("alg1", "alg2") if k in rows[n]] or [0])
            for n in names], w, label="cuSPARSE (best of ALG1/ALG2)")
    ax.set_xticks(list(range(len(names))))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("GB/s, minimum-traffic model (fp64)")
    ax.set_title("CSR SpMV (OpenCL lockstep vs CUDA cuSPARSE)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--table":
        table(sys.argv[2])
    elif len(sys.argv) == 3:
        plot(sys.argv[1], sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
