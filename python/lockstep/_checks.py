"""Argument checks shared by every call: SciPy formats, dtypes, shapes and contiguity. Each
check raises TypeError (wrong type or dtype, listing the accepted ones) or lockstep.InputError
(a shape or value that cannot work), naming the call and the argument."""
from __future__ import annotations

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


def as_keys(what: str, a: Any, accepted: Sequence[Any]) -> np.ndarray:
    """A contiguous 1-D array of one of the accepted dtypes."""
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{what}: expected a numpy.ndarray of dtype {_names(accepted)}, not "
                        f"{type(a).__name__}")
    check_dtype(what, "the array", a.dtype, accepted)
    if a.ndim != 1:
        raise InputError(f"{what}: expected a 1-D array, not shape {a.shape} (use a.ravel())")
    return np.ascontiguousarray(a)


def check_square(what: str, shape: Tuple[int, ...]) -> None:
    if len(shape) != 2 or shape[0] != shape[1]:
        raise InputError(f"{what}: needs a square matrix, not shape {tuple(shape)}")


def check_name(what: str, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what}: {name} must be a str, not {type(value).__name__}")
    return value
