#!/usr/bin/env python3
"""Bar chart of one value per labelled line of an experiment file (`label key=value` lines).

A line is `LABEL key=value ...` (the label: the words before the first key=value, or before
key=value of --label-end; an anchor line `anchor=NAME matrix=M ...` or `anchor=NAME ... n=N` is
labelled `NAME M` or `NAME n=N`; with --label-keys K1,K2 the label is the words before the first
key=value plus those keys' values); lines without KEY are skipped. Lines with the
same label (rounds) give one bar at their mean, with their min and max as the error bar.
  plot_bars.py FILE KEY OUT.png [--label-end K | --label-keys K1,K2] [--match REGEX] [--title T]
               [--ylabel Y]
--match keeps the labels that REGEX finds (re.search). Needs matplotlib.
"""
import argparse
import os
import re
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)


def rows(path, key, match, label_end, label_keys):
    out = OrderedDict()
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            continue
        kv = keyvalue.fields(line)
        if key not in kv:
            continue
        label = keyvalue.label(line, label_end)
        if label_keys:
            label = " ".join([keyvalue.label(line)] + [f"{k}={kv[k]}" for k in label_keys if k in kv]).strip()
        elif "anchor" in kv:
            where = kv["matrix"].removesuffix(".mtx") if "matrix" in kv else f"n={kv.get('n', '')}"
            label = f"{kv['anchor']} {where}"
        if match and not re.search(match, label):
            continue
        try:
            out.setdefault(label, []).append(float(kv[key]))
        except ValueError:
            pass
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("key")
    p.add_argument("out")
    p.add_argument("--match")
    p.add_argument("--label-end")
    p.add_argument("--label-keys", type=lambda v: v.split(","))
    p.add_argument("--title", default="")
    p.add_argument("--ylabel")
    a = p.parse_args()
    data = rows(a.file, a.key, a.match, a.label_end, a.label_keys)
    if not data:
        raise SystemExit(f"no line of {a.file} has {a.key}=")
    labels = list(data)
    mean = [sum(v) / len(v) for v in data.values()]
    err = [[m - min(v) for m, v in zip(mean, data.values())], [max(v) - m for m, v in zip(mean, data.values())]]
    fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(labels) + 2), 4.5))
    ax.bar(range(len(labels)), mean, yerr=err, capsize=3, color="tab:blue")
    for i, m in enumerate(mean):
        ax.text(i, m, f"{m:.3g}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel(a.ylabel or a.key)
    ax.set_title(a.title, fontsize=9)
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)


if __name__ == "__main__":
    main()
