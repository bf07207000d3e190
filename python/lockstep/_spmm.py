"""SpMM: ``A @ X`` for a dense X of k columns (the library's lockstep::spmm)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np


def spmm(M: Any, X: np.ndarray, alpha: float, beta: float, Y: Optional[np.ndarray],
         dtype: np.dtype) -> np.ndarray:
    out = np.empty((M.shape[0], X.shape[1]), dtype)
    for j in range(X.shape[1]):
        out[:, j] = M._on(dtype).spmv(np.ascontiguousarray(X[:, j]), None, alpha, 0.0, "auto", 0)
    if Y is not None:
        Y[...] = out + beta * Y
        return Y
    return out
