#!/usr/bin/env python3
"""BFS benchmark plots and table (tools/bench/bfs.sh).

plot_bfs.py OUT_DIR OUT.png: one row per graph (OUT_DIR/bfs_steps_*.txt, key=value lines from
`lockstep bfs --steps-out`). Left: time per level of auto (log scale), each level's point coloured
by the strategy auto chose. Right: time per level against frontier size for every strategy forced
on all levels (the measurements behind auto's thresholds: where one strategy's curve crosses
another's), auto's levels as black crosses.

plot_bfs.py --check bfs.txt: one `bfs_check` line a graph: auto's ms_median (the median over
sources of each source's median run, as bfs.sh compares algorithms; the mean ms beside it) against
the fastest forced algorithm's, verdict ok within 10 %, auto's whole-graph CPU race
where it ran (cpu_graph= cpu_graph_ms= device_graph_ms=), and a count of the slower ones.

plot_bfs.py --ratios OUT.png LABEL=CHECK.txt ...: auto's ratio for each graph in each saved
`--check` output (one group of bars a graph, one bar a run), the 1.10 goal as a line, bars hatched
where auto ran every level on the fastest algorithm's path (same_levels=1).

plot_bfs.py --table bfs.txt: the algorithms' table in Markdown from the summary lines of bfs.txt:
one row per command, one column per strategy, GTEPS (harmonic mean over sources; Graph500 edge
count) and mean ms per search."""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kv import fields as keyvalues  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

COLORS = {"cpu": "tab:gray", "single": "tab:purple", "multi": "tab:blue", "queue": "tab:green",
          "wave": "tab:orange", "lb": "tab:brown", "bottom-up": "tab:red"}
ORDER = ["auto", "cpu", "lb", "bottom-up", "multi", "wave", "queue", "single", "relaunch"]


def table(path, check=False):
    rows, cur = [], None
    for line in open(path):
        if line.startswith("# lockstep bfs"):
            words = line.split()[3:]
            name = (f"RMAT {words[words.index('--rmat') + 1]}" if "--rmat" in words else
                    f"grid {words[words.index('--grid') + 1]}" if "--grid" in words else
                    os.path.basename(words[0]).split(".")[0])
            relaunch = "relaunch" in words
            cur = {"name": name, "cells": {}}
            rows.append(cur)
        elif cur is not None and " runs=" in line and "algorithm" in keyvalues(line):
            kv = keyvalues(line)
            s = "relaunch" if relaunch else kv["algorithm"]
            cur["cells"][s] = (float(kv["gteps"]), float(kv["ms"]),
                               float(kv.get("ms_median", kv["ms"])))
            cur.setdefault("levels", {})[s] = {k: v for k, v in kv.items()
                                               if k.endswith("_levels") and v != "0"}
            if s == "auto" and "cpu_graph" in kv:  # auto's whole-graph CPU race, as reported
                cur["race"] = " ".join(f"{k}={kv[k]}" for k in
                                       ("cpu_graph", "cpu_graph_ms", "device_graph_ms") if k in kv)
    merged, races, levels = {}, {}, {}
    for r in rows:  # the grid's relaunch command joins the grid row
        merged.setdefault(r["name"], {}).update(r["cells"])
        levels.setdefault(r["name"], {}).update(r.get("levels", {}))
        if "race" in r:
            races[r["name"]] = " " + r["race"]
    if check:  # auto within 10 % of the fastest forced algorithm (cpu included), by ms_median:
        # one slow run (the GPU's first search after the CPU algorithm's) moves a mean, not a median
        bad = other = 0
        for name, cells in merged.items():
            forced = {c: v[2] for c, v in cells.items() if c != "auto"}
            if "auto" not in cells or not forced:
                continue
            best = min(forced, key=forced.get)
            ratio = cells["auto"][2] / forced[best] if forced[best] > 0 else 1.0
            # same_levels=1: auto ran every level of every search on the fastest algorithm's path
            # (its per-algorithm level counts are the best's), so a ratio off 1 is the spread
            # between two blocks of the same code, not a choice
            lv = levels.get(name, {})
            same = int(bool(lv.get("auto")) and lv.get("auto") == lv.get(best))
            bad += ratio > 1.10
            other += ratio > 1.10 and not same
            mean = cells["auto"][1] / cells[best][1] if cells[best][1] > 0 else 1.0
            print(f"bfs_check graph={name.replace(' ', '_')} auto_ms={cells['auto'][2]:.4g} "
                  f"best={best} best_ms={forced[best]:.4g} ratio={ratio:.3f} mean_ratio={mean:.3f} "
                  f"verdict={'ok' if ratio <= 1.10 else 'SLOWER'} same_levels={same}"
                  f"{races.get(name, '')}")
        # slower_choice: slower by over 10 % on another path than the fastest algorithm's
        print(f"bfs_check graphs={len(merged)} slower={bad} slower_choice={other}")
        return
    cols = [c for c in ORDER if any(c in cells for cells in merged.values())]
    print("| graph | " + " | ".join(cols) + " | auto vs cpu |")
    print("| --- " * (len(cols) + 2) + "|")
    for name, cells in merged.items():
        out = []
        for c in cols:
            if c in cells:
                g, ms = cells[c][:2]
                out.append(f"{g:.3g} ({ms:.3g} ms)")
            else:
                out.append("")
        ratio = (f"{cells['cpu'][1] / cells['auto'][1]:.2f}x" if "cpu" in cells and "auto" in cells
                 and cells["auto"][1] > 0 else "")
        print(f"| {name} | " + " | ".join(out) + f" | {ratio} |")


def read(path):
    return [keyvalues(line) for line in open(path) if "run=" in line]


def plot(folder, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    files = sorted(glob.glob(os.path.join(folder, "bfs_steps_*.txt")))
    panels = [(f, read(f)) for f in files]
    panels = [(f, r) for f, r in panels if r]
    if not panels:
        sys.exit("no steps in " + folder)
    fig, axes = plt.subplots(len(panels), 2, figsize=(11, 3.2 * len(panels)), squeeze=False)
    for (left, right), (f, rows) in zip(axes, panels):
        name = os.path.basename(f)[len("bfs_steps_"):-4]
        auto = [r for r in rows if r["run"] == "auto"]
        for s, c in COLORS.items():
            pts = [(int(r["level"]), float(r["ms"])) for r in auto if r.get("algorithm") == s]
            if pts:
                left.scatter([p[0] for p in pts], [max(p[1], 1e-4) for p in pts], s=8, c=c, label=s)
            pts = sorted((int(r["frontier"]), float(r["ms"])) for r in rows if r["run"] == s)
            if pts:
                right.scatter([p[0] for p in pts], [max(p[1], 1e-4) for p in pts], s=6, c=c, label=s)
        pts = [(int(r["frontier"]), float(r["ms"])) for r in auto]
        right.scatter([p[0] for p in pts], [max(p[1], 1e-4) for p in pts], s=12, c="k", marker="x",
                      label="auto")
        left.set_yscale("log")
        left.set_xlabel("level")
        left.set_ylabel("ms per level")
        left.set_title(name + " (auto)")
        right.set_xscale("log")
        right.set_yscale("log")
        right.set_xlabel("frontier vertices")
        right.set_ylabel("ms per level")
        right.set_title(name + " (forced strategies)")
        for ax in (left, right):
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def ratios(out, runs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    data = []  # (label, {graph: (ratio, same)})
    for arg in runs:
        label, path = arg.split("=", 1)
        rows = [keyvalues(line) for line in open(path) if line.startswith("bfs_check graph=")]
        data.append((label, {r["graph"]: (float(r["ratio"]), r.get("same_levels") == "1")
                             for r in rows}))
    graphs = list(dict.fromkeys(g for _, d in data for g in d))
    fig, ax = plt.subplots(figsize=(1.6 * len(graphs) + 2, 3.6))
    width = 0.8 / max(1, len(data))
    for k, (label, d) in enumerate(data):
        xs = [i + k * width for i, g in enumerate(graphs) if g in d]
        ys = [d[g][0] for g in graphs if g in d]
        bars = ax.bar(xs, ys, width, label=label)
        for b, g in zip(bars, [g for g in graphs if g in d]):
            if d[g][1]:
                b.set_hatch("//")
    ax.axhline(1.10, color="k", ls="--", lw=1, label="goal 1.10")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(graphs))])
    ax.set_xticklabels(graphs, fontsize=8)
    ax.set_ylabel("auto ms / fastest forced ms")
    ax.set_title("BFS auto against the fastest forced algorithm (hatched: same path on every level)",
                 fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--ratios":
        ratios(sys.argv[2], sys.argv[3:])
        sys.exit(0)
    if len(sys.argv) == 3 and sys.argv[1] == "--table":
        table(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--check":
        table(sys.argv[2], check=True)
    elif len(sys.argv) == 3:
        plot(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
