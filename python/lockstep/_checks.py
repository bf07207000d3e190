"""Argument checks shared by every call: SciPy formats, dtypes, shapes and contiguity. Each
check raises TypeError (wrong type or dtype, listing the accepted ones) or lockstep.InputError
(a shape or value that cannot work), naming the call and the argument."""
from __future__ import annotations

import os
import warnings
from typing import Any, Sequence, Tuple

import numpy as np
import scipy.sparse as sp

from ._errors import InputError

_INT32_MAX = 2**31 - 1


class ConversionWarning(UserWarning):
    """An input was converted (e.g. a COO matrix to CSR) before it could be used: a copy."""


def _names(dtypes: Sequence[Any]) -> str:
    return ", ".join(np.dtype(d).name for d in dtypes)


def check_dtype(what: str, name: str, dtype: np.dtype, accepted: Sequence[Any]) -> None:
    if dtype not in [np.dtype(d) for d in accepted]:
        raise TypeError(f"{what}: {name} has dtype {dtype}; accepted dtypes: {_names(accepted)}")


def as_csr(what: str, A: Any, accepted: Sequence[Any] = (), allow_dense: bool = False) -> Any:
    """A canonical CSR matrix (sorted indices, no duplicates) of A; other SciPy formats are
    converted with a ConversionWarning, dense arrays only when allow_dense."""
    if not sp.issparse(A):
        if allow_dense and isinstance(A, np.ndarray) and A.ndim == 2:
            return sp.csr_array(A)
        raise TypeError(f"{what}: expected a scipy.sparse CSR matrix (csr_array or csr_matrix), "
                        f"not {type(A).__name__}")
    if A.format != "csr":
        warnings.warn(f"{what}: converting a {A.format.upper()} matrix to CSR (a copy; pass a "
                      "scipy.sparse.csr_array to avoid it)", ConversionWarning, stacklevel=3)
        A = A.tocsr()
    if accepted:
        check_dtype(what, "A", A.dtype, accepted)
    if A.shape[0] > _INT32_MAX - 1 or A.shape[1] > _INT32_MAX - 1 or A.nnz > _INT32_MAX - 1:
        raise InputError(f"{what}: shape {A.shape} with {A.nnz} entries does not fit 32-bit indices")
    if not A.has_canonical_format:
        A = A.copy()
        A.sum_duplicates()  # sorts the indices too
    return A


def csr_arrays(A: Any) -> Tuple[int, int, np.ndarray, np.ndarray, np.ndarray]:
    """rows, cols and the three arrays of a canonical CSR matrix as contiguous int32 / values
    (no copy when they already are)."""
    indptr = np.ascontiguousarray(A.indptr, dtype=np.int32)
    indices = np.ascontiguousarray(A.indices, dtype=np.int32)
    return A.shape[0], A.shape[1], indptr, indices, np.ascontiguousarray(A.data)


def as_vector(what: str, name: str, x: Any, dtype: np.dtype, length: int) -> np.ndarray:
    """x as a contiguous 1-D array of exactly `dtype` and `length` (a column (n, 1) is taken as
    its n values); copied only when it is not contiguous."""
    x = np.asarray(x)
    if x.dtype != dtype:
        raise TypeError(f"{what}: {name} has dtype {x.dtype}; accepted dtypes: {dtype} (the "
                        f"dtype of A; convert with {name}.astype(numpy.{dtype}))")
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1 or x.shape[0] != length:
        raise InputError(f"{what}: {name} must have shape ({length},), not {x.shape}")
    return np.ascontiguousarray(x)


def compute_dtype(what: str, name: str, a: np.dtype, x: np.dtype) -> np.dtype:
    """The dtype NumPy computes ``A @ x`` in (np.result_type: float32 with float64 or int64 is
    float64, with int16 float32), in native byte order; TypeError when that is not float32 or
    float64 (complex, object, longdouble)."""
    if x.kind not in "biuf":
        raise TypeError(f"{what}: {name} has dtype {x}; accepted: real numbers (float32, float64 "
                        "or integers, converted as numpy.result_type does)")
    r = np.result_type(a, x).newbyteorder("=")
    if r not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"{what}: {name} of dtype {x} against A's {a} computes in {r}; accepted: "
                        "float32, float64")
    return r


def as_operand(what: str, name: str, x: Any, a_dtype: np.dtype, length: int,
               ndim: int = 0) -> Tuple[np.ndarray, np.dtype]:
    """x as NumPy would take it (lists, other byte orders, integers: ``numpy.asarray``) and the
    dtype ``A @ x`` computes in; x converted to it, contiguous (C order for a vector; a 2-D x keeps
    C or Fortran order). ndim 1 or 2 demands it; 0 takes either. Shape (length,) or (length, k)."""
    x = np.asarray(x)
    dtype = compute_dtype(what, name, np.dtype(a_dtype), x.dtype)
    if x.ndim not in ((1, 2) if ndim == 0 else (ndim,)) or x.shape[0] != length:
        want = f"({length},)" if ndim == 1 else f"({length},) or ({length}, k)"
        raise InputError(f"{what}: {name} must have shape {want}, not {x.shape}")
    if x.ndim == 2 and x.flags.f_contiguous and not x.flags.c_contiguous:
        return np.asfortranarray(x, dtype=dtype), dtype
    return np.ascontiguousarray(x, dtype=dtype), dtype


def check_square(what: str, shape: Tuple[int, ...]) -> None:
    if len(shape) != 2 or shape[0] != shape[1]:
        raise InputError(f"{what}: needs a square matrix, not shape {tuple(shape)}")


def check_name(what: str, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what}: {name} must be a str, not {type(value).__name__}")
    return value


def check_matrix(what: str, matrix: Any, builtin: Any) -> str:
    """A scoring matrix: a built-in name (``builtin(name)``) or a file; a bare name that is
    neither (no directory, no extension: "blosum99") is an unknown matrix, not a missing file."""
    check_name(what, "matrix", matrix)
    bare = os.sep not in matrix and "." not in matrix
    if bare and not builtin(matrix) and not os.path.exists(matrix):
        raise InputError(f"{what}: unknown matrix {matrix!r}: not a built-in matrix (blosum45, "
                         "blosum50, blosum62, blosum80, pam30, pam70, pam250) and no such "
                         "NCBI-format matrix file")
    return matrix
