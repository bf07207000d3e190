#!/usr/bin/python3
"""Fits the untuned SpMV rule (predict_spmv_config in src/spmv/parameters.cpp) to exhaustive
tuning data and checks it on matrices it was not fitted on (leave-one-out).

Usage: fit_spmv_rule.py [--features spmv.txt] TUNE_JSON_OR_DIR...   (one fit per device)
  TUNE_JSON: the files of `lockstep tune FILE --exhaustive --json OUT` (every candidate's time).
  --features: key=value lines of `lockstep spmv-model FILE` (tools/bench/spmv.sh writes them);
  the features of the H100 matrices are built in (FEATURES below). Their `choice=`
  (the C++ rule) is checked against this script's mirror of it (CURRENT): MISMATCH on stderr.

The rule (mirrored here exactly): irregular rows (max > 8 mean, std > mean, max > 256) go to
IRREGULAR; small matrices (rows * wave <= compute units * 2048: a wave per row fits on the
device at once, so launch latency and the longest row set the time) give each row
ceil_pow2(max row / SMALL_DIV) items, at most a wave; otherwise each row gets
floor_pow2(mean / L) items, L = LOCAL when the column contiguity >= CONTIG else 1, at most
min(CAP, wave). One item per row is the scalar kernel; groups of 2^GROUP items; warp shuffles
on NVIDIA. The grid search minimises first the number of matrices whose predicted configuration
was never timed, then the worst ratio predicted/best over the matrices that are not
launch-bound (best >= 20 us), then the worst over the launch-bound ones (there one launch's
latency dominates and configurations differ by timing noise of up to ~10 %), then the mean
ratio (all to 1 %, the noise between runs); ties go to the middle of each parameter's tying
values. Pure Python (numpy is not needed).
"""
import glob
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kv as keyvalue  # noqa: E402  (the bench scripts' one key=value parser; old key spellings too)

# `lockstep spmv-model`-equivalent features of the H100 tuning matrices (computed with the
# library's own generators and row_stats/column_contiguity, seeds as in tools/bench/spmv.sh).
FEATURES = {
    "abb313": dict(rows=313, nnz=1557, row_mean=4.9744, row_std=0.8456, row_max=6, contiguity=0.6085),
    "qh1484": dict(rows=1484, nnz=6110, row_mean=4.1173, row_std=1.6005, row_max=13, contiguity=0.2490),
    "tols4000": dict(rows=4000, nnz=8784, row_mean=2.1960, row_std=5.9169, row_max=90, contiguity=0.3198),
    "well1850": dict(rows=1850, nnz=8758, row_mean=4.7341, row_std=0.4598, row_max=5, contiguity=0.0003),
    "west2021": dict(rows=2021, nnz=7353, row_mean=3.6383, row_std=2.3894, row_max=12, contiguity=0.3329),
    "laplace2d_2048": dict(rows=4194304, nnz=20963328, row_mean=4.9980, row_std=0.0442, row_max=5, contiguity=0.5),
    "laplace2d_4096": dict(rows=16777216, nnz=83869696, row_mean=4.9990, row_std=0.0312, row_max=5, contiguity=0.5),
    "laplace3d_160": dict(rows=4096000, nnz=28518400, row_mean=6.9625, row_std=0.1924, row_max=7, contiguity=0.3333),
    "uniform_1m_16": dict(rows=1048576, nnz=16777216, row_mean=16.0, row_std=0.0, row_max=16, contiguity=0.0),
    "uniform_4m_4": dict(rows=4194304, nnz=16777216, row_mean=4.0, row_std=0.0, row_max=4, contiguity=0.0),
    "banded_1m_8": dict(rows=1048576, nnz=17825720, row_mean=16.9999, row_std=0.0197, row_max=17, contiguity=1.0),
    "dense_10000_1000": dict(rows=10000, nnz=10000000, row_mean=1000.0, row_std=0.0, row_max=1000, contiguity=0.0999),
    "powerlaw_1m": dict(rows=1048576, nnz=79749714, row_mean=76.0553, row_std=5460.0315, row_max=1048576,
                        contiguity=0.3789),
    "rmat_21_16": dict(rows=2097152, nnz=63542582, row_mean=30.2995, row_std=298.6306, row_max=102992,
                       contiguity=0.0319),
}
GRID = {  # the C++ constants' candidate values
    "LOCAL": [1, 2, 3, 4, 6, 8],
    "CONTIG": [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.8],
    "CAP": [4, 8, 16, 32],
    "GROUP": [7, 8, 9],
    "IRREGULAR": ["adaptive", "merge"],
    "SMALL_DIV": [1, 2, 4, 8],
}
CURRENT = dict(LOCAL=4, CONTIG=0.15, CAP=16, GROUP=8, IRREGULAR="adaptive", SMALL_DIV=2)  # = the defaults table's portable "spmv" entry
LAUNCH_BOUND_MS = 0.02
NOISE = 0.01
WAVE = 32  # the data's device (NVIDIA): warp width, shuffles valid
RESIDENT = 2048  # work-items resident per compute unit (NVIDIA since Volta; not in OpenCL)


def name_of(path):
    return os.path.basename(path).replace(".mtx", "")


def config_key(c):
    """(algorithm, log2 local_size, ...) of a candidate or choice (old spellings read by kv.py)."""
    c = keyvalue.renamed(dict(c))
    k = c["algorithm"]
    g = int(c["local_size"]).bit_length() - 1
    if k == "vector":
        return (k, g, int(c["rows_bits"]), int(c["shuffle"]))
    if k == "merge":
        return (k, g, int(c.get("items", 7)))
    return (k, g)


def predict(f, p):
    g = p["GROUP"]
    if f["row_max"] > 8 * max(1.0, f["row_mean"]) and f["row_std"] > f["row_mean"] and f["row_max"] > 256:
        return (p["IRREGULAR"], g) if p["IRREGULAR"] == "adaptive" else ("merge", g, 7)
    t = 0
    if f["rows"] * WAVE <= f["compute_units"] * RESIDENT:  # small: a wave per row fits at once
        while 2 ** t < f["row_max"] / p["SMALL_DIV"] and 2 ** (t + 1) <= WAVE and t < g:
            t += 1
    else:
        per_item = p["LOCAL"] if f["contiguity"] >= p["CONTIG"] else 1.0
        cap = min(p["CAP"], WAVE)
        while 2 ** (t + 1) <= f["row_mean"] / per_item and 2 ** (t + 1) <= cap and t < g:
            t += 1
    return ("scalar", g) if t == 0 else ("vector", g, g - t, 1)


def check_mirror(name, f, kv):
    """Warns when this script's rule (CURRENT) and the C++ choice printed by spmv-model differ."""
    if "choice" not in kv or kv.get("wave_width") != "32":
        return
    c = keyvalue.fields(kv["choice"])
    got = config_key(dict(c, rows_bits=c.get("rows_bits", 0), shuffle=c.get("shuffle", 0)))
    want = predict(dict(f, compute_units=float(kv["compute_units"])), CURRENT)
    if got != want:
        print("MISMATCH %s: C++ chose %s, this script's rule %s" % (name, fmt(got), fmt(want)), file=sys.stderr)


def load(paths, feature_file):
    feats = dict(FEATURES)
    if feature_file:
        for line in open(feature_file):
            kv = keyvalue.fields(line)
            if "model" in kv:
                f = {k: float(kv[k]) for k in ("rows", "nnz", "row_mean", "row_std", "row_max", "contiguity")}
                feats[name_of(kv["model"])] = f
                check_mirror(name_of(kv["model"]), f, kv)
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "tune_*.json"))) if os.path.isdir(p) else [p]
    data = {}
    for fn in files:
        j = json.load(open(fn))
        n = name_of(j["matrix"])
        times = {}
        for c in j["candidates"]:
            if c.get("verified"):
                k = config_key(c)
                times[k] = min(times.get(k, 1e30), c["median_ms"])
        if n not in feats:
            print("no features for %s (run lockstep spmv-model on it): skipped" % n, file=sys.stderr)
            continue
        key = (n, j.get("precision", "double"))
        data[key] = dict(times=times, best=min(times.values()), complete=len(j["candidates"]) >= j["search_space"],
                         features=dict(feats[n], compute_units=j.get("device", {}).get("compute_units", 132)),
                         device=j.get("device", {}).get("name", "?"))
    return data


def ratio(d, p):
    t = d["times"].get(predict(d["features"], p))
    return None if t is None else t / d["best"]


def score(data, keys, p):
    """(never timed, worst not launch-bound, worst launch-bound, mean), ratios to NOISE."""
    q = lambda x: round(x / NOISE) * NOISE  # re-measured tuned times differ by ~1 %
    rs = {k: ratio(data[k], p) for k in keys}
    big = [r for k, r in rs.items() if r is not None and data[k]["best"] >= LAUNCH_BOUND_MS]
    small = [r for k, r in rs.items() if r is not None and data[k]["best"] < LAUNCH_BOUND_MS]
    known = big + small
    return (len(rs) - len(known), q(max(big, default=1.0)), q(max(small, default=1.0)),
            q(sum(known) / max(1, len(known))))


def fit(data, keys):
    names = list(GRID)
    combos = [dict(zip(names, v)) for v in itertools.product(*GRID.values())]
    scored = [(score(data, keys, p), p) for p in combos]
    best = min(s for s, _ in scored)
    ties = [p for s, p in scored if all(abs(a - b) < 1e-9 for a, b in zip(s, best))]
    # towards the middle of each parameter's tying values
    mids = {}
    for n in names:
        vals = sorted({p[n] for p in ties}, key=GRID[n].index)
        mids[n] = (GRID[n].index(vals[0]) + GRID[n].index(vals[-1])) / 2
    chosen = min(ties, key=lambda p: sum(abs(GRID[n].index(p[n]) - mids[n]) for n in names))
    ranges = {n: sorted({p[n] for p in ties}, key=GRID[n].index) for n in names}
    return chosen, best, ranges


def fmt(k):
    return " ".join(str(x) for x in k)


def main(argv):
    feature_file = None
    if "--features" in argv:
        i = argv.index("--features")
        feature_file = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if not argv:
        print(__doc__)
        return 2
    everything = load(argv, feature_file)
    for device in sorted({d["device"] for d in everything.values()}):
        print("=== %s" % device)
        report({k: d for k, d in everything.items() if d["device"] == device}, device)
    return 0


def report(data, device):
    big = [k for k in sorted(data) if data[k]["best"] >= LAUNCH_BOUND_MS]
    small = [k for k in sorted(data) if k not in big]
    print("matrices: %d (%d complete sweeps), %d not launch-bound" %
          (len(data), sum(d["complete"] for d in data.values()), len(big)))
    p, s, ranges = fit(data, big + small)
    print("fit on all %d: never timed=%d worst=%.2f (launch-bound %.2f) mean=%.2f" % (len(data), *s))
    for n, v in p.items():
        print("  %-9s = %-9s (tying values: %s)" % (n, v, ", ".join(map(str, ranges[n]))))
    print("\n%-18s %-6s %-26s %9s  %-26s %s" % ("matrix", "prec", "best", "best_ms", "rule", "ratio"))
    for k in big + small:
        d = data[k]
        b = min(d["times"], key=d["times"].get)
        r = ratio(d, p)
        print("%-18s %-6s %-26s %9.5f  %-26s %s%s" % (k[0], k[1], fmt(b), d["best"], fmt(predict(d["features"], p)),
                                                   "not timed" if r is None else "%.3f" % r,
                                                   "  (launch-bound)" if k in small else ""))
    print("\nleave-one-out (fit without the matrix, then predict it):")
    worst = 1.0
    for k in big + small:
        rest = [q for q in big + small if q != k]
        q, _, _ = fit(data, rest)
        r = ratio(data[k], q)
        if k in big:
            worst = max(worst, r or 1.0)
        print("  %-18s %-6s rule %-24s -> %s%s" % (k[0], k[1], fmt(predict(data[k]["features"], q)),
                                                   "not timed in the data" if r is None else "%.3f of best" % r,
                                                   "  (launch-bound)" if k in small else ""))
    print("held-out worst ratio (timed, not launch-bound): %.3f" % worst)
    print("\n" + table_entry(device, p))


def table_entry(device, p):
    """The fit as an entry of the defaults table's Spmv rule (src/runtime/defaults.cpp), keyed by the device
    the data came from: paste it there, then widen the key (architecture, vendor) once the same
    values hold on other devices of it. IRREGULAR is the rule's code, not the table's."""
    low = device.lower()
    vendor = next((v for v in ("nvidia", "amd", "intel") if v in low), "")
    values = [("local_entries", "%s" % float(p["LOCAL"])), ("contiguous", "%s" % float(p["CONTIG"])),
              ("max_per_row", "%d" % int(p["CAP"])), ("local_size_bits", "%d" % int(p["GROUP"])),
              ("small_div", "%s" % float(p["SMALL_DIV"]))]
    entry = ("{Key{\"GPU\", \"%s\", \"\", %s},\n       \"tools/bench/fit_spmv_rule.py on `lockstep tune spmv` data of %s\",\n"
             "       {%s}},") % (vendor, json.dumps(device), device,
                                 ", ".join("set(&S::%s, %s)" % (n, v) for n, v in values))
    note = "" if p["IRREGULAR"] == "adaptive" else \
        "\n(the fit prefers IRREGULAR = %s: spmv_rule::kIrregular in src/spmv/parameters.cpp)" % p["IRREGULAR"]
    return "defaults table entry (src/runtime/defaults.cpp):\n      " + entry + note

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
