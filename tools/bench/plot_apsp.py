#!/usr/bin/python3
"""The K sweep of the generalized blocked Floyd-Warshall (time against K at the benchmark's n,
r = 32; K = 1 is classic blocked), read from the key=value lines of tools/bench/apsp.sh, with
the other variants as horizontal reference lines; or, for SET=micro, one stacked bar per
micro-tile case (bulk ms_rest + ms_rest_next, the rest serial phases). Usage: plot_apsp.py
apsp.txt out.png"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(path):
    for line in open(path):
        kv = keyvalue.fields(line)
        if "ms" in kv and "case" in kv and "algorithm" in kv:
            yield kv


def main(src, out):
    sweep, refs, device, n = [], [], "", ""
    all_rows = list(rows(src))
    for kv in all_rows:
        if kv["case"] == "k_sweep":
            sweep.append((int(kv["K"]), float(kv["ms"])))
            device, n = kv.get("device", ""), kv["n"]
    for kv in all_rows:
        if kv["case"] in ("variant", "tile") and kv.get("type") == "f32" and kv["n"] == n:
            refs.append((f'{kv["algorithm"]} r={kv["tile"]} K={kv["K"]}', float(kv["ms"])))
    if not sweep:
        micro = [kv for kv in all_rows if kv["case"].startswith(("micro", "old_rule", "rule"))]
        if not micro:
            sys.exit(f"{src}: no case=k_sweep or micro lines")
        return bars(micro, out)
    sweep.sort()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot([k for k, _ in sweep], [ms for _, ms in sweep], "o-", color="C0",
            label="generalized, r = 32")
    for i, (name, ms) in enumerate(r for r in refs if not r[0].startswith("naive")):
        ax.axhline(ms, ls="--", lw=0.8, color=f"C{i + 1}", label=name)
    ax.set_xscale("log", base=2)
    ax.set_xticks([k for k, _ in sweep])
    ax.set_xticklabels([str(k) for k, _ in sweep])
    ax.set_xlabel("K (tiles fused per multi-tile; K = 1 is classic blocked)")
    ax.set_ylabel("time (ms)")
    ax.set_title(f"Floyd-Warshall n = {n}, f32 — {device}")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def bars(cases, out):
    fig, ax = plt.subplots(figsize=(11, 4.5))
    names = [kv["case"] for kv in cases]
    bulk = [float(kv.get("ms_rest", 0)) + float(kv.get("ms_rest_next", 0)) for kv in cases]
    total = [float(kv["ms"]) for kv in cases]
    ax.bar(names, bulk, label="bulk min-plus (fw_rest)")
    ax.bar(names, [t - b for t, b in zip(total, bulk)], bottom=bulk, label="serial phases, gaps")
    ax.axhline(45, ls="--", color="k", lw=0.8, label="goal 45 ms")
    ax.set_ylabel("ms (n = %s, f32)" % cases[0].get("n", "?"))
    ax.set_title("Floyd-Warshall micro-tiles: RxC outputs per work-item, unroll u, overlap o, K — "
                 + cases[0].get("device", ""))
    ax.tick_params(axis="x", rotation=70, labelsize=7)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main(*sys.argv[1:3])
