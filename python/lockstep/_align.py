"""Smith-Waterman local alignment of one pair, and the FASTA reader."""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Union

from . import _lockstep
from ._checks import check_matrix, check_name
from ._context import Context, context_or_default
from ._errors import InputError


class Alignment(NamedTuple):
    """score; end_a, end_b: 0-based positions of the best cell (None when nothing scores above
    0); with traceback: start_a, start_b (0-based) and cigar (M pair, I only in a, D only in b);
    algorithm: what ran."""
    score: int
    end_a: Optional[int]
    end_b: Optional[int]
    start_a: Optional[int]
    start_b: Optional[int]
    cigar: Optional[str]
    algorithm: str


class Sequence(NamedTuple):
    name: str
    residues: str


def _residues(name: str, s: Any) -> bytes:
    if isinstance(s, str):
        try:
            return s.encode("ascii")
        except UnicodeEncodeError as e:
            raise InputError(f"lockstep.align: {name} has a non-ASCII character at {e.start}") \
                from None
    if isinstance(s, (bytes, bytearray, memoryview)):
        return bytes(s)
    raise TypeError(f"lockstep.align: {name} must be str or bytes, not {type(s).__name__}")


def align(a: Union[str, bytes], b: Union[str, bytes], match: int = 2, mismatch: int = -3,
          gap_open: int = 5, gap_extend: int = 2, matrix: Optional[str] = None,
          traceback: bool = False, algorithm: str = "auto", barrier: str = "auto",
          local_size: int = 0, ctx: Optional[Context] = None) -> Alignment:
    """Best local alignment score of ``a`` and ``b`` (Smith-Waterman, affine gaps: a gap of
    length L scores ``-(gap_open + (L-1) * gap_extend)``). Ties: the smallest end in a, then in b.

    matrix: None for DNA (A C G T score ``match``, any other pair ``-|mismatch|``, N never
    matches), "blosum62" (or "blosum45", "blosum50", "blosum80"), or the path of an NCBI matrix
    file. traceback: also start_a, start_b and the CIGAR. algorithm: "auto", "cpu", "ssw" (these
    two need no device), "barrier" or "pipeline"; barrier and local_size shape the device kernels.
    Returns an Alignment.
    """
    a_bytes, b_bytes = _residues("a", a), _residues("b", b)
    check_name("lockstep.align", "algorithm", algorithm)
    check_name("lockstep.align", "barrier", barrier)
    if matrix is not None:
        check_matrix("lockstep.align", matrix, _lockstep._is_builtin_matrix)
    device = None if algorithm in ("cpu", "ssw") else context_or_default(ctx)
    r = _lockstep.align(device, a_bytes, b_bytes, int(match), int(mismatch), int(gap_open),
                        int(gap_extend), None if matrix is None else str(matrix), bool(traceback),
                        algorithm, barrier, int(local_size))
    return Alignment(*r)


def read_fasta(path: str, record: int = 1) -> Sequence:
    """Record ``record`` (1-based) of a FASTA file (multi-line, gzip too), or the whole file as one
    sequence when it has no '>' header: ``Sequence(name, residues)``, residues upper case."""
    name, residues = _lockstep.read_fasta(str(path), int(record))
    return Sequence(name, residues)
