"""Database search: the top hits of each query against every database sequence."""
from __future__ import annotations

import os
from typing import Any, Optional, Sequence as Seq, Union

import numpy as np

from . import _lockstep
from ._checks import check_matrix, check_name
from ._context import Context, context_or_default
from ._errors import InputError

Sequences = Union[str, "os.PathLike[str]", Seq[Union[str, bytes, tuple]]]


def _sequences(what: str, src: Any) -> Any:
    """A FASTA path (str), or a list of residues as bytes / (name, bytes) pairs."""
    if isinstance(src, (str, os.PathLike)):
        return os.fspath(src)
    if isinstance(src, (bytes, bytearray)) or not hasattr(src, "__iter__"):
        raise TypeError(f"lockstep.search: {what} must be a FASTA path or a list of sequences "
                        f"(str, bytes, or (name, residues) pairs), not {type(src).__name__}")
    out = []
    for i, s in enumerate(src):
        name = None
        if isinstance(s, tuple):  # (name, residues), e.g. a lockstep.Sequence
            if len(s) != 2:
                raise TypeError(f"lockstep.search: {what}[{i}] must be (name, residues)")
            name, s = str(s[0]), s[1]
        if isinstance(s, str):
            try:
                s = s.encode("ascii")
            except UnicodeEncodeError as e:
                raise InputError(f"lockstep.search: {what}[{i}] has a non-ASCII character at "
                                 f"{e.start}") from None
        elif isinstance(s, (bytes, bytearray, memoryview)):
            s = bytes(s)
        else:
            raise TypeError(f"lockstep.search: {what}[{i}] must be str or bytes, not "
                            f"{type(s).__name__}")
        out.append(s if name is None else (name, s))
    return out


def _devices(devices: Any, ctx: Optional[Context], algorithm: str) -> list:
    """search's devices= as contexts ([]: none given)."""
    if devices is None:
        return []
    if ctx is not None:
        raise InputError("lockstep.search: ctx and devices exclude each other: give one")
    if algorithm == "cpu":
        raise InputError("lockstep.search: devices run on devices, not algorithm='cpu'")
    if isinstance(devices, str):
        return [Context(i) for i in _lockstep._select_devices(devices)]
    out = list(devices)
    if not out or not all(isinstance(c, Context) for c in out):
        raise TypeError("lockstep.search: devices must be a str (\"all\", \"0,1\") or a "
                        "non-empty list of lockstep.Context")
    return out


def search(queries: Sequences, db: Sequences, top: int = 10, matrix: str = "blosum62",
           gap_open: Optional[int] = None, gap_extend: Optional[int] = None, dna: bool = False,
           match: int = 2, mismatch: int = -3, algorithm: str = "auto",
           max_device_mib: int = 0, ctx: Optional[Context] = None,
           evalue: Optional[float] = None, max_target_seqs: Optional[int] = None,
           strand: str = "both",
           devices: Union[None, str, Seq[Context]] = None) -> np.ndarray:
    """The ``top`` best Smith-Waterman hits (affine gaps: a gap of length L costs
    ``gap_open + (L-1) * gap_extend``, BLAST's ``-gapopen gap_open-gap_extend -gapextend
    gap_extend``) of every query against every database sequence, best first, ties by database
    order.

    queries, db: a FASTA path (gzip too) or a prepared database (`lockstep makedb`), or a list
    of sequences (str or bytes; or (name, residues) pairs such as lockstep.read_fasta's
    Sequence); list entries are named by their index. matrix: NCBI's "blosum62", "blosum45",
    "blosum50", "blosum80", "pam30", "pam70", "pam250" or an NCBI-format file: every letter of
    it scored as written, U and O (where the matrix lacks them) as blastp scores them (U as C, O
    as X), any other letter an InputError. gap_open / gap_extend: None takes blastp's default
    for the matrix (BLOSUM62 12/1 = BLAST 11/1, BLOSUM45 16/2, BLOSUM50 15/2, BLOSUM80 11/1,
    PAM30 10/1, PAM70 11/1, PAM250 16/2; DNA 7/2 = blastn 5/2). dna=True: A C G T score
    ``match``, other pairs ``-|mismatch|``, N and the other IUPAC letters as blastn scores them;
    ``strand``: "both" (as blastn), "plus" or "minus". evalue: keep hits with an E-value (as
    BLAST+ computes it) at most this (None: no cutoff; BLAST's default is 10). max_target_seqs:
    BLAST's name for ``top``. algorithm: "auto", "inter", "intra" (device) or "cpu" (the host
    reference, no device). devices: several devices of this host instead of ``ctx``: "all"
    (every GPU; none: the default device), a list of ``lockstep devices`` words such as "0,1"
    ("0,0": two contexts of device 0), or a list of lockstep.Context (each listed once); the
    database is split over them by residues and the hits are the same as on one device.

    Returns a NumPy structured array, one row per hit, queries in order: query (int32, index),
    subject (int64, index into db), score (int32), query_end and subject_end (int64, 0-based
    inclusive; -1 when the score is 0; a minus-strand hit's query_end counted on the query's
    reverse complement), query_id and subject_id (str: the first word of the FASTA header, or
    the list index), evalue and bitscore (float64, as BLAST+; NaN where NCBI publishes no
    statistics for the scoring), minus (bool: a hit of the query's reverse complement).
    """
    check_name("lockstep.search", "algorithm", algorithm)
    check_matrix("lockstep.search", matrix, _lockstep._is_builtin_matrix)
    check_name("lockstep.search", "strand", strand)
    if max_target_seqs is not None:
        if top != 10 and top != max_target_seqs:
            raise InputError("lockstep.search: top and max_target_seqs name the same cutoff: "
                             "give one")
        top = max_target_seqs
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise InputError(f"lockstep.search: top must be an integer >= 1, got {top!r}")
    if evalue is not None and not evalue > 0:
        raise InputError(f"lockstep.search: evalue must be > 0, got {evalue!r}")
    if strand not in ("both", "plus", "minus"):
        raise InputError(f"lockstep.search: strand must be both, plus or minus, got {strand!r}")
    if strand != "both" and not dna:
        raise InputError("lockstep.search: strand is for DNA (dna=True)")
    if dna and matrix.lower() != "blosum62":
        raise InputError("lockstep.search: dna=True and a matrix exclude each other")
    q, d = _sequences("queries", queries), _sequences("db", db)
    contexts = _devices(devices, ctx, algorithm)
    device = None if algorithm == "cpu" else contexts[0] if contexts else context_or_default(ctx)
    (qi, si, score, qend, send, qnames, dnames, _alg, _ms, _cells, _skipped, evalues, bits,
     minus) = _lockstep.search(
        device, q, d, int(top), str(matrix), bool(dna), int(match), int(mismatch),
        -1 if gap_open is None else int(gap_open), -1 if gap_extend is None else int(gap_extend),
        algorithm, int(max_device_mib), -1.0 if evalue is None else float(evalue), strand,
        contexts)
    qn, dn = np.array(qnames, dtype=str), np.array(dnames, dtype=str)
    qid, sid = qn[qi] if len(qi) else qn[:0], dn[si] if len(si) else dn[:0]
    out = np.empty(len(qi), dtype=[("query", np.int32), ("subject", np.int64),
                                   ("score", np.int32), ("query_end", np.int64),
                                   ("subject_end", np.int64), ("query_id", qid.dtype),
                                   ("subject_id", sid.dtype), ("evalue", np.float64),
                                   ("bitscore", np.float64), ("minus", np.bool_)])
    out["query"], out["subject"], out["score"] = qi, si, score
    out["query_end"], out["subject_end"] = qend, send
    out["query_id"], out["subject_id"] = qid, sid
    out["evalue"], out["bitscore"], out["minus"] = evalues, bits, minus.astype(bool)
    return out
