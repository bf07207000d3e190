"""Sparse matrices: SpMV, a device-resident matrix, the SpMV tuner, conjugate gradients and the
Matrix Market reader."""
from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
import scipy.sparse as sp

from . import _lockstep
from ._checks import as_csr, as_vector, check_name, check_square, csr_arrays
from ._context import Context, context_or_default
from ._errors import InputError

_VALUE_DTYPES = (np.float32, np.float64)


class Matrix:
    """A CSR matrix resident on the device, for repeated products and CG solves.

    ``Matrix(A, ctx=None)`` uploads a ``scipy.sparse`` matrix of float32 or float64 once (other
    formats are converted to CSR with a ``ConversionWarning``); ``M @ x``, ``M.spmv(...)`` and
    ``M.cg(b)`` then send only the vectors. The automatic SpMV kernel is resolved on first use
    (from the tuning database, see ``lockstep.tune``, else the model) and kept.
    """

    __slots__ = ("_m", "ctx", "shape", "dtype", "nnz")

    def __init__(self, A: Any, ctx: Optional[Context] = None) -> None:
        self.ctx = context_or_default(ctx)
        A = as_csr("lockstep.Matrix", A, _VALUE_DTYPES)
        rows, cols, indptr, indices, data = csr_arrays(A)
        cls = _lockstep._Matrix32 if data.dtype == np.float32 else _lockstep._Matrix64
        self._m = cls(self.ctx, rows, cols, indptr, indices, data)
        self.shape: Tuple[int, int] = (rows, cols)
        self.dtype: np.dtype = data.dtype
        self.nnz: int = int(indices.shape[0])

    def spmv(self, x: np.ndarray, alpha: float = 1.0, beta: float = 0.0,
             y: Optional[np.ndarray] = None, algorithm: str = "auto",
             local_size: int = 0) -> np.ndarray:
        """``alpha * A @ x + beta * y``. Without ``y``: a new array (``beta`` must be 0). With
        ``y``: ``y`` is overwritten with the result and returned. ``x`` and ``y`` must have A's
        dtype. algorithm: "auto", "scalar", "vector", "adaptive" or "merge"; local_size (work-group
        size, a power of two) only with an explicit algorithm."""
        m = self._m
        if not (type(x) is np.ndarray and x.dtype == self.dtype and x.ndim == 1
                and x.flags.c_contiguous):  # the fast path skips this
            x = as_vector("lockstep.spmv", "x", x, self.dtype, self.shape[1])
        if y is None:
            if beta != 0:
                raise InputError("lockstep.spmv: beta != 0 needs y")
            return m.spmv(x, None, alpha, beta, algorithm, local_size)
        if not isinstance(y, np.ndarray):
            raise TypeError(f"lockstep.spmv: y must be a numpy.ndarray, not {type(y).__name__}")
        yc = as_vector("lockstep.spmv", "y", y, self.dtype, self.shape[0])
        if yc is y and y.flags.writeable:  # in place
            return m.spmv(x, y, alpha, beta, algorithm, local_size)
        out = m.spmv(x, yc.copy(), alpha, beta, algorithm, local_size)
        y[...] = out.reshape(y.shape)  # a non-contiguous (or column) y: written back
        return y

    def __matmul__(self, x: np.ndarray) -> np.ndarray:
        return self.spmv(x)

    def cg(self, b: np.ndarray, tol: float = 1e-5, maxiter: Optional[int] = None,
           algorithm: str = "classic", preconditioner: str = "none") -> Tuple[np.ndarray, int]:
        """See ``lockstep.cg``."""
        check_square("lockstep.cg", self.shape)
        b = as_vector("lockstep.cg", "b", b, self.dtype, self.shape[0])
        check_name("lockstep.cg", "algorithm", algorithm)
        check_name("lockstep.cg", "preconditioner", preconditioner)
        x, iterations, converged, breakdown, _ = self._m.cg(
            b, float(tol), 0 if maxiter is None else int(maxiter), algorithm, preconditioner)
        if breakdown:
            warnings.warn(f"lockstep.cg: {breakdown}", RuntimeWarning, stacklevel=2)
            return x, -1
        return x, 0 if converged else max(1, iterations)

    @property
    def algorithm(self) -> str:
        """The configuration ``algorithm="auto"`` resolves to for this matrix on its device."""
        return self._m.automatic()

    def __repr__(self) -> str:
        return (f"<lockstep.Matrix {self.shape[0]}x{self.shape[1]}, {self.nnz} entries, "
                f"{self.dtype} on {self.ctx.name}>")


def _matrix(A: Union[Matrix, Any], ctx: Optional[Context]) -> Matrix:
    return A if isinstance(A, Matrix) else Matrix(A, ctx)


def spmv(A: Any, x: np.ndarray, alpha: float = 1.0, beta: float = 0.0,
         y: Optional[np.ndarray] = None, algorithm: str = "auto", local_size: int = 0,
         ctx: Optional[Context] = None) -> np.ndarray:
    """``alpha * A @ x + beta * y`` on the device.

    A: a ``scipy.sparse`` csr_array / csr_matrix of float32 or float64 (other formats are
    converted with a ``ConversionWarning``), or a ``lockstep.Matrix`` (no upload: use one for
    repeated products). x (and y) must have A's dtype; without y a new array is returned, with y
    it is overwritten and returned. algorithm: "auto" (tuning database, else model), "scalar",
    "vector", "adaptive" or "merge". Raises TypeError for a wrong dtype, lockstep.InputError for
    a wrong shape or name, lockstep.OpenCLError when the device fails.
    """
    return _matrix(A, ctx).spmv(x, alpha, beta, y, algorithm, local_size)


def tune(A: Any, budget: float = 60.0, exhaustive: bool = False,
         ctx: Optional[Context] = None) -> Dict[str, Any]:
    """Tunes SpMV for A on the device and stores the best verified configuration in the tuning
    database, where ``algorithm="auto"`` finds it (for Matrix objects created afterwards).

    budget: seconds for the model-led search; exhaustive: time every valid configuration.
    Returns a dict: ``best`` and, when it was timed, ``scalar`` (each with config, algorithm, ms,
    verified, gflops, gbs, pct_copy_bw), ``timed``, ``search_space`` and ``stored``.
    """
    A = as_csr("lockstep.tune", A, _VALUE_DTYPES)
    rows, cols, indptr, indices, data = csr_arrays(A)
    fn = _lockstep.tune_32 if data.dtype == np.float32 else _lockstep.tune_64
    return fn(context_or_default(ctx), rows, cols, indptr, indices, data, float(budget),
              bool(exhaustive))


def cg(A: Any, b: np.ndarray, tol: float = 1e-5, maxiter: Optional[int] = None,
       algorithm: str = "classic", preconditioner: str = "none",
       ctx: Optional[Context] = None) -> Tuple[np.ndarray, int]:
    """Solves ``A x = b`` for symmetric positive definite A by conjugate gradients, like
    ``scipy.sparse.linalg.cg``: returns ``(x, info)`` with info 0 when ``||r|| / ||b|| <= tol``,
    the iteration count when maxiter (default ``max(100, 10 n)``) ran out, and -1 on a breakdown
    (A not positive definite, or NaN: a RuntimeWarning says why). The iteration starts at 0.

    algorithm: "classic" or "pipelined" (one reduction per iteration, Ghysels & Vanroose);
    preconditioner: "none" or "jacobi". A non-square A or a b of the wrong length raises
    lockstep.InputError.
    """
    if not isinstance(A, Matrix):
        if sp.issparse(A):
            check_square("lockstep.cg", A.shape)
        A = Matrix(A, ctx)
    return A.cg(b, tol, maxiter, algorithm, preconditioner)


def read_matrix_market(path: str, dtype: Any = np.float64) -> sp.csr_array:
    """A Matrix Market file (coordinate or array; real, integer or pattern; general, symmetric
    or skew-symmetric; gzip and pipes too) as a ``scipy.sparse.csr_array`` of float64 (or
    float32), duplicates summed. A malformed file raises lockstep.InputError naming the file and
    line."""
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"read_matrix_market: dtype {dtype}; accepted dtypes: float32, float64")
    rows, cols, indptr, indices, data = _lockstep.read_matrix_market(str(path),
                                                                     dtype == np.float32)
    return sp.csr_array((data, indices, indptr), shape=(rows, cols))
