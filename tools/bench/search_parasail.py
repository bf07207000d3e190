#!/usr/bin/env python3
"""The CPU anchor of tools/bench/search.sh: parasail (sw_striped_profile_sat, exact scores) on
N processes, the first Q queries against the whole database, top K per query (ties by database
order), and the agreement with lockstep's hit table.
  search_parasail.py QUERIES.fa[.gz] DB.fa[.gz] --queries Q --threads N --top K
                     [--gap-open 11 --gap-extend 1] [--lockstep HITS.tsv]
Prints one line: tool=parasail threads= queries= subjects= cells= seconds= gcups= [agree= checked=]
(agree=1 when every checked query's top-K scores equal lockstep's; checked: queries compared)."""
import argparse
import gzip
import multiprocessing as mp
import time

import parasail

DB = []
ARGS = None


def fasta(path):
    out, name, seq = [], None, []
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith(">"):
                if name is not None and seq:
                    out.append((name, "".join(seq)))
                name, seq = line[1:].split()[0] if line[1:].split() else "", []
            elif not line.startswith(";"):
                seq.append(line.strip())
    if name is not None and seq:
        out.append((name, "".join(seq)))
    return out


def init(db, args):
    global DB, ARGS, MATRIX
    DB, ARGS = db, args
    # NCBI's BLOSUM62 file, as lockstep builds it in (parasail's own X, B and Z columns differ)
    MATRIX = parasail.Matrix(args.matrix) if args.matrix else parasail.blosum62


def one_query(q):
    name, seq = q
    profile = parasail.profile_create_sat(seq, MATRIX)
    scores = [parasail.sw_striped_profile_sat(profile, s, ARGS.gap_open, ARGS.gap_extend).score
              for _, s in DB]
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[: ARGS.top]
    return name, [scores[i] for i in order]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("queries")
    p.add_argument("db")
    p.add_argument("--queries", dest="count", type=int, default=50)
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--gap-open", type=int, default=11)
    p.add_argument("--gap-extend", type=int, default=1)
    p.add_argument("--matrix", default="/usr/share/ncbi/data/BLOSUM62",
                   help="a matrix file (default NCBI's BLOSUM62, as lockstep; '' parasail's)")
    p.add_argument("--lockstep")
    args = p.parse_args()
    queries, db = fasta(args.queries)[: args.count], fasta(args.db)
    t0 = time.perf_counter()
    with mp.Pool(args.threads, initializer=init, initargs=(db, args)) as pool:
        tops = pool.map(one_query, queries, chunksize=1)
    seconds = time.perf_counter() - t0
    cells = sum(len(s) for _, s in queries) * sum(len(s) for _, s in db)
    line = (f"tool=parasail threads={args.threads} queries={len(queries)} subjects={len(db)} "
            f"cells={cells} seconds={seconds:.3f} gcups={cells / seconds / 1e9:.2f}")
    if args.lockstep:
        mine = {}
        for row in open(args.lockstep, encoding="utf-8"):
            if not row.startswith("#"):
                f = row.rstrip("\n").split("\t")
                mine.setdefault(f[0], []).append(int(f[2]))
        checked = [n for n, _ in tops if n in mine]
        agree = all(mine[n] == t for n, t in tops if n in mine) and len(checked) == len(tops)
        line += f" agree={int(agree)} checked={len(checked)}"
        for n, t in tops:
            if n in mine and mine[n] != t:
                print(f"# differs: {n} lockstep={mine[n]} parasail={t}")
    print(line)


if __name__ == "__main__":
    main()
