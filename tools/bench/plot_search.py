#!/usr/bin/env python3
"""Bars of tools/bench/search.sh's results: TCUPS end to end (reading included) and on the
device only, per case (example, large) and tool (lockstep, CUDASW++4.0, parasail); the kernel
sweep's runs (case names with L:S:V) are left to the text.
  plot_search.py search.txt OUT.png      (needs matplotlib)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

bars = []
for line in open(sys.argv[1], encoding="utf-8"):
    kv = keyvalue.fields(line)
    case = kv.get("case", "")
    if "tcups" not in kv or kv.get("tool") == "gen" or "-cold" in case or ":" in case:
        continue
    label = f"{kv['case']}\n{kv['tool']}"
    bars.append((label, float(kv["tcups"]), float(kv.get("device_tcups", "nan"))))
if not bars:
    sys.exit("plot_search.py: no results")
fig, ax = plt.subplots(figsize=(1.6 * len(bars) + 2, 4))
x = range(len(bars))
ax.bar([i - 0.2 for i in x], [b[1] for b in bars], 0.4, label="end to end")
ax.bar([i + 0.2 for i in x], [b[2] for b in bars], 0.4, label="device only")
ax.set_xticks(list(x), [b[0] for b in bars])
ax.set_ylabel("TCUPS")
ax.set_title("Protein database search, top 10, BLOSUM62 11/1")
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
print(f"plot={sys.argv[2]}")
