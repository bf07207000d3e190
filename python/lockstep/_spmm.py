"""SpMM: ``A @ X`` for a dense X of k columns, one launch of the library's lockstep::spmm (one
pass over A for every column; the kernel's shape tuned by ``lockstep spmm FILE --k K --tune``,
else a rule). X in C order gives a C-order result, in Fortran order a Fortran-order result."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._errors import InputError


def spmm(M: Any, X: np.ndarray, alpha: float, beta: float, Y: Optional[np.ndarray],
         dtype: np.dtype) -> np.ndarray:
    if X.shape[1] == 0 and (Y is None or Y.shape == (M.shape[0], 0)):  # as SciPy: (m, 0)
        return np.zeros((M.shape[0], 0), dtype) if Y is None else Y
    m = M._on(dtype)
    if Y is None:
        if beta != 0:
            raise InputError("lockstep.spmv: beta != 0 needs y")
        return m.spmm(X, None, alpha, beta)
    if not isinstance(Y, np.ndarray) or Y.shape != (M.shape[0], X.shape[1]):
        raise InputError(f"lockstep.spmv: y must be an array of shape {(M.shape[0], X.shape[1])}")
    order = "F" if X.flags.f_contiguous and not X.flags.c_contiguous else "C"
    ok = (Y.dtype == dtype and Y.flags.writeable and
          (Y.flags.f_contiguous if order == "F" else Y.flags.c_contiguous))
    out = m.spmm(X, Y if ok else np.array(Y, dtype=dtype, order=order), alpha, beta)
    if out is not Y:
        Y[...] = out
    return Y
