"""lockstep.search against parasail (Debian python3-parasail, sw_striped_profile_sat: the exact
Smith-Waterman score with saturation checks) on real proteins (Debian mmseqs2-examples), every
built-in matrix (NCBI's files, Debian ncbi-data, loaded into parasail), DNA, ties, an empty query
and a query longer than every subject. CI-sized: a few queries x a few hundred subjects."""
import gzip
import os

import numpy as np
import pytest

import lockstep

parasail = pytest.importorskip("parasail", reason="python3-parasail is not installed")
EXAMPLES = "/usr/share/doc/mmseqs2/example-data"
NCBI_DATA = "/usr/share/ncbi/data"
# blastp's default gaps in lockstep's (and parasail's) convention: BLAST's a/b is a + b, b
GAPS = {"blosum62": (12, 1), "blosum45": (16, 2), "blosum50": (15, 2), "blosum80": (11, 1)}


def ncbi(matrix):
    """NCBI's matrix file as a parasail matrix (parasail's own X, B, Z columns differ)."""
    path = f"{NCBI_DATA}/{matrix.upper()}"
    if not os.path.exists(path):
        pytest.skip(f"no NCBI matrix files (Debian ncbi-data) in {NCBI_DATA}")
    return parasail.Matrix(path)


def fasta(path, count):
    out, name, seq = [], None, []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith(">"):
                if name is not None:
                    out.append((name, "".join(seq)))
                    if len(out) == count:
                        return out
                name, seq = line[1:].split()[0], []
            else:
                seq.append(line.strip())
    if name is not None and len(out) < count:
        out.append((name, "".join(seq)))
    return out


@pytest.fixture(scope="module")
def proteins():
    if not os.path.exists(f"{EXAMPLES}/DB.fasta.gz"):
        pytest.skip("mmseqs2-examples is not installed (apt-get install mmseqs2-examples)")
    queries = [q for q in fasta(f"{EXAMPLES}/QUERY.fasta.gz", 40) if len(q[1]) <= 300][:3]
    return queries, fasta(f"{EXAMPLES}/DB.fasta.gz", 300)


def parasail_scores(q, subjects, matrix, gap_open, gap_extend):
    profile = parasail.profile_create_sat(q, matrix)
    return np.array([parasail.sw_striped_profile_sat(profile, s, gap_open, gap_extend).score
                     for s in subjects])


def expected_top(scores, top):
    order = np.lexsort((np.arange(len(scores)), -scores))  # score descending, then db order
    return order[:top]


def check_against_parasail(hits, queries, subjects, matrix, gap_open, gap_extend, top):
    assert len(hits) == len(queries) * min(top, len(subjects))
    for qi, q in enumerate(queries):
        mine = hits[hits["query"] == qi]
        want = parasail_scores(q, subjects, matrix, gap_open, gap_extend)
        best = expected_top(want, top)
        np.testing.assert_array_equal(mine["score"], want[best])
        np.testing.assert_array_equal(mine["subject"], best)


def test_parasail_gap_convention():
    # 20 W against the same 20 W with 3 residues inserted: one gap of length 3 costs
    # open + 2 * extend = 13 in lockstep's convention, so 20 * 11 - 13 = 207 (206 if it were
    # open + 3 * extend); parasail agrees.
    a, b = "W" * 20, "W" * 10 + "AAA" + "W" * 10
    assert parasail.sw_striped_profile_sat(
        parasail.profile_create_sat(a, parasail.blosum62), b, 11, 1).score == 207
    hits = lockstep.search([a], [b], gap_open=11, gap_extend=1, algorithm="cpu")
    assert hits["score"][0] == 207
    # blastp's default 11/1 (a + L b: 14 for this gap) is lockstep's default 12/1: 220 - 14
    assert lockstep.search([a], [b], algorithm="cpu")["score"][0] == 206


@pytest.mark.parametrize("algorithm", ["auto", "cpu"])
def test_real_proteins_blosum62(proteins, algorithm):
    queries, db = proteins
    hits = lockstep.search(queries, db, top=10, algorithm=algorithm)
    check_against_parasail(hits, [q for _, q in queries], [s for _, s in db], ncbi("blosum62"),
                           12, 1, 10)
    assert list(hits["query_id"][:1]) == [queries[0][0]]
    assert hits["subject_id"][0] == db[hits["subject"][0]][0]
    # the ends are those of the pair's own alignment (align's tie rule: smallest end in the
    # query, then in the subject)
    for h in hits[:5]:
        r = lockstep.align(queries[h["query"]][1], db[h["subject"]][1], matrix="blosum62",
                           gap_open=12, gap_extend=1, algorithm="cpu")
        assert (r.score, r.end_a, r.end_b) == (h["score"], h["query_end"], h["subject_end"])


@pytest.mark.parametrize("matrix", ["blosum45", "blosum50", "blosum80"])
def test_every_builtin_matrix(proteins, matrix):
    queries, db = proteins
    gap_open, gap_extend = GAPS[matrix]
    hits = lockstep.search(queries[:2], db[:100], top=5, matrix=matrix)  # blastp's default gaps
    check_against_parasail(hits, [q for _, q in queries[:2]], [s for _, s in db[:100]],
                           ncbi(matrix), gap_open, gap_extend, 5)


def test_matrix_file_and_fasta_paths(proteins, tmp_path, root):
    queries, db = proteins
    qf, df = tmp_path / "q.fa", tmp_path / "db.fa.gz"
    qf.write_text("".join(f">{n} query\n{s}\n" for n, s in queries[:1]))
    with gzip.open(df, "wt") as f:
        f.write("".join(f">{n}\n{s[:60]}\n{s[60:]}\n" for n, s in db[:50]))
    from_paths = lockstep.search(str(qf), df, top=3, gap_open=10, gap_extend=2)
    from_lists = lockstep.search(queries[:1], db[:50], top=3, gap_open=10, gap_extend=2)
    np.testing.assert_array_equal(from_paths, from_lists)
    check_against_parasail(from_paths, [queries[0][1]], [s for _, s in db[:50]],
                           ncbi("blosum62"), 10, 2, 3)


def test_dna():
    rng = np.random.default_rng(7)
    db = ["".join(rng.choice(list("ACGT"), size=int(n))) for n in rng.integers(20, 200, 60)]
    q = db[5][10:60] + "N" + db[17][:30]
    hits = lockstep.search([q], db, top=8, dna=True, match=2, mismatch=-3, strand="plus")
    m = parasail.matrix_create("ACGTN", 2, -3)
    for i in range(5):  # N scores (3 x -3 + 2) / 4 = -2 against anything, as blastn
        m.set_value(4, i, -2)
        m.set_value(i, 4, -2)
    check_against_parasail(hits, [q], db, m, 7, 2, 8)  # blastn's gaps 5/2
    # both strands (the default): the query's reverse complement finds subject 5 on the minus
    # strand, with the same score
    rc = q[::-1].translate(str.maketrans("ACGTN", "TGCAN"))
    both = lockstep.search([rc], db, top=1, dna=True)
    assert (both["subject"][0], both["score"][0], both["minus"][0]) == (5, hits["score"][0], True)
    assert hits["subject"][0] == 5


def test_ties_by_database_order():
    db = ["MKVLAW", "GGGG", "MKVLAW", "PPPP", "MKVLAW"]
    hits = lockstep.search(["MKVLAW"], db, top=4, algorithm="cpu")
    assert list(hits["subject"]) == [0, 2, 4, 1]
    device = lockstep.search(["MKVLAW"], db, top=4)
    np.testing.assert_array_equal(device, hits)


def test_devices_give_the_hits_of_one(proteins, ctx):
    # Two (and three) contexts of the default device: the database split by residues, the
    # hits merged: the one-context array, ties (the repeated subjects) by database order.
    queries, db = proteins
    subjects = [s for _, s in db][:120] * 2
    one = lockstep.search([q for _, q in queries] + [""], subjects, top=15, ctx=ctx)
    index = str(ctx.info["index"])
    for devices in (f"{index},{index}", [lockstep.Context(int(index)) for _ in range(3)]):
        many = lockstep.search([q for _, q in queries] + [""], subjects, top=15, devices=devices)
        np.testing.assert_array_equal(many, one)
    with pytest.raises(lockstep.InputError, match="ctx and devices exclude each other"):
        lockstep.search(["MKV"], ["MKV"], ctx=ctx, devices="0")
    with pytest.raises(lockstep.InputError, match="a context listed twice"):
        lockstep.search(["MKV"], ["MKV"], devices=[ctx, ctx])


def test_empty_query_and_long_query(proteins):
    _, db = proteins
    subjects = [s for _, s in db if len(s) < 400][:40]
    long_query = subjects[7][::-1] + "".join(subjects[:3])  # longer than every subject
    assert len(long_query) > max(map(len, subjects))
    hits = lockstep.search(["", long_query], subjects, top=4)
    empty = hits[hits["query"] == 0]
    assert list(empty["score"]) == [0] * 4 and list(empty["subject"]) == [0, 1, 2, 3]
    assert list(empty["query_end"]) == [-1] * 4
    long_hits = hits[hits["query"] == 1]
    long_hits["query"] = 0
    check_against_parasail(long_hits, [long_query], subjects, ncbi("blosum62"), 12, 1, 4)


def test_letters_exactly_as_the_matrix_has_them():
    # X, B, Z, J and * are scored as NCBI's table says (X-X = -1, B-B = 4, Z-Z = 4, *-* = 1, B-D
    # = 4): BZ* scores 9 against itself, XBZ* against D 4 (parasail's own X column differs) ...
    hits = lockstep.search(["XBZ*"], ["XBZ*", "D"], top=2, algorithm="cpu")
    assert list(hits["score"]) == [9, 4]
    np.testing.assert_array_equal(
        hits["score"], parasail_scores("XBZ*", ["XBZ*", "D"], ncbi("blosum62"), 12, 1))
    # ... U as C and O as X, as blastp scores them ...
    same = lockstep.search(["MKUVO"], ["MKCVX"], algorithm="cpu")
    assert same["score"][0] == lockstep.search(["MKCVX"], ["MKCVX"], algorithm="cpu")["score"][0]
    # ... and a character outside the matrix is refused, naming the sequence and the position
    with pytest.raises(lockstep.InputError, match=r"db\[1\]: residue 3: '1' is not in the matrix"):
        lockstep.search(["MKV"], ["MKV", "MK1"], algorithm="cpu")


def test_blast_options(proteins):
    # evalue (BLAST's -evalue) keeps the hits at most that E-value; max_target_seqs is top
    queries, db = proteins
    every = lockstep.search(queries[:1], db, top=20, algorithm="cpu")
    assert np.all(np.isfinite(every["evalue"])) and np.all(every["bitscore"] > 0)
    assert every["evalue"][0] < 3.0 < every["evalue"][-1]
    cut = lockstep.search(queries[:1], db, top=20, evalue=3.0, algorithm="cpu")
    np.testing.assert_array_equal(cut, every[every["evalue"] <= 3.0])
    np.testing.assert_array_equal(
        lockstep.search(queries[:1], db, max_target_seqs=20, algorithm="cpu"), every)
    with pytest.raises(lockstep.InputError, match="same cutoff"):
        lockstep.search(queries[:1], db, top=5, max_target_seqs=20)
    with pytest.raises(lockstep.InputError, match="strand must be"):
        lockstep.search(["ACGT"], ["ACGT"], dna=True, strand="up")
    with pytest.raises(lockstep.InputError, match="strand is for DNA"):
        lockstep.search(["MKV"], ["MKV"], strand="plus")


def test_bad_arguments():
    with pytest.raises(lockstep.InputError, match="top must be"):
        lockstep.search(["MKV"], ["MKV"], top=0)
    with pytest.raises(lockstep.InputError, match="no sequences"):
        lockstep.search(["MKV"], [], algorithm="cpu")
    with pytest.raises(TypeError):
        lockstep.search(["MKV"], [3], algorithm="cpu")
    with pytest.raises(lockstep.InputError, match="exclude"):
        lockstep.search(["ACGT"], ["ACGT"], dna=True, matrix="blosum45")
