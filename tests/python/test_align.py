"""align against a plain Gotoh reference written here, and read_fasta."""
import gzip

import numpy as np
import pytest

import lockstep


def gotoh(a, b, match=2, mismatch=-3, gap_open=5, gap_extend=2):
    """Best local score and its ends (smallest end in a, then in b), DNA scoring."""
    def s(x, y):
        return match if x == y and x in "ACGT" else -abs(mismatch)
    a, b = a.upper(), b.upper()
    n, m = len(a), len(b)
    NEG = -10**9
    H = [[0] * (m + 1) for _ in range(n + 1)]
    E = [[NEG] * (m + 1) for _ in range(n + 1)]
    F = [[NEG] * (m + 1) for _ in range(n + 1)]
    best, end = 0, (None, None)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            E[i][j] = max(H[i][j - 1] - gap_open, E[i][j - 1] - gap_extend)
            F[i][j] = max(H[i - 1][j] - gap_open, F[i - 1][j] - gap_extend)
            H[i][j] = max(0, H[i - 1][j - 1] + s(a[i - 1], b[j - 1]), E[i][j], F[i][j])
            if H[i][j] > best:
                best, end = H[i][j], (i - 1, j - 1)
    return best, end


def rescore(a, b, start_a, start_b, cigar, match=2, mismatch=-3, gap_open=5, gap_extend=2):
    import re
    i, j, score = start_a, start_b, 0
    for count, op in re.findall(r"(\d+)([MID])", cigar):
        count = int(count)
        if op == "M":
            for _ in range(count):
                score += match if a[i] == b[j] and a[i] in "ACGT" else -abs(mismatch)
                i, j = i + 1, j + 1
        else:
            score -= gap_open + (count - 1) * gap_extend
            i, j = (i + count, j) if op == "I" else (i, j + count)
    return score, i - 1, j - 1


def random_dna(rng, n, alphabet="ACGT"):
    return "".join(rng.choice(list(alphabet), size=n))


@pytest.mark.parametrize("algorithm", ["auto", "cpu", "barrier", "pipeline", "ssw"])
def test_align_matches_gotoh(rng, algorithm):
    for n, m in [(1, 1), (1, 40), (60, 45), (80, 80)]:
        a = random_dna(rng, n, "ACGTN")
        b = a[n // 4: 3 * n // 4] + random_dna(rng, m) if n > 4 else random_dna(rng, m)
        try:
            r = lockstep.align(a, b, algorithm=algorithm, traceback=True)
        except lockstep.InputError as e:  # a build without libssw says so
            assert algorithm == "ssw" and "libssw" in str(e)
            pytest.skip(f"this build has no libssw: {e}")
        want, (ea, eb) = gotoh(a, b)
        assert r.score == want, (a, b)
        if want > 0:
            assert (r.end_a, r.end_b) == (ea, eb)
            assert rescore(a, b, r.start_a, r.start_b, r.cigar) == (want, ea, eb)
        else:
            assert r.end_a is None and r.cigar == ""


def test_align_scoring_options(rng):
    a, b = "ACGTTGCAAGT", "ACGAATGCAGT"
    r = lockstep.align(a, b, match=1, mismatch=-1, gap_open=2, gap_extend=1)
    assert r.score == gotoh(a, b, 1, -1, 2, 1)[0]
    r = lockstep.align(a.lower().encode(), b.encode())  # bytes, either case
    assert r.score == gotoh(a, b)[0] and r.start_a is None
    p = lockstep.align("HEAGAWGHEE", "PAWHEAE", matrix="blosum62", gap_open=10, gap_extend=1)
    assert p.score > 0  # BLOSUM62 with its own alphabet


def test_align_adversarial():
    assert lockstep.align("", "ACGT").score == 0
    assert lockstep.align("NNNN", "NNNN").score == 0  # N never matches
    with pytest.raises(TypeError, match="must be str or bytes"):
        lockstep.align(["A"], "A")
    with pytest.raises(lockstep.InputError, match="non-ASCII"):
        lockstep.align("ACGTé", "ACGT")
    with pytest.raises(lockstep.InputError, match="unknown algorithm 'fast'"):
        lockstep.align("ACGT", "ACGT", algorithm="fast")
    with pytest.raises(lockstep.InputError, match="penalties"):
        lockstep.align("ACGT", "ACGT", gap_open=-1)
    with pytest.raises(lockstep.InputError, match="nosuch.txt"):
        lockstep.align("ACGT", "ACGT", matrix="nosuch.txt")


def test_read_fasta(tmp_path):
    f = tmp_path / "two.fa.gz"
    with gzip.open(f, "wt") as out:
        out.write(">first one\nACGT\nacgt\n>second\nTTTT\n")
    s = lockstep.read_fasta(str(f))
    assert s.name.startswith("first") and s.residues == "ACGTACGT"
    assert lockstep.read_fasta(str(f), record=2).residues == "TTTT"
    bad = tmp_path / "bad.fa"
    bad.write_text(">x\nAC GT\nAC1T\n")
    with pytest.raises(lockstep.InputError, match=r"bad.fa:3"):
        lockstep.read_fasta(str(bad))
