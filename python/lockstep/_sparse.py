"""Sparse matrices: SpMV and SpMM (host or device operands), a device-resident matrix that is a
SciPy LinearOperator, the SpMV tuner and the Matrix Market reader (conjugate gradients: _cg.py)."""
from __future__ import annotations

from typing import Any, Dict, Optional, Union

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import _lockstep
from ._array import Array, asarray_like_result, is_device, order_before
from ._checks import as_csr, as_operand, csr_arrays
from ._context import Context, context_or_default
from ._creation import asarray, empty
from ._errors import InputError
from ._spmm import spmm

_VALUE_DTYPES = (np.float32, np.float64)


class Matrix(spla.LinearOperator):
    """A CSR matrix resident on the device, for repeated products and CG solves; a
    ``scipy.sparse.linalg.LinearOperator`` (``aslinearoperator(M)``, ``M.matvec``, ``M.matmat``,
    ``scipy.sparse.linalg.cg(M, b)``).

    ``Matrix(A, ctx=None)`` copies a ``scipy.sparse`` matrix of float32 or float64 and uploads it
    once (other formats are converted to CSR with a ``ConversionWarning``; changing A afterwards
    changes nothing in M); ``M @ x`` (SpMV), ``M @ X`` (SpMM, X of shape (n, k)), ``M.spmv(...)``
    and ``M.cg(b)`` then send only the vectors. Operands are converted as NumPy would (lists,
    other byte orders, integers); an operand of a wider dtype (float64 x against a float32 A) is
    computed in that dtype, as ``A @ x`` in SciPy: the float64 copy of A is uploaded on first use
    and kept. ``rmatvec`` (A^T x) runs on the host (SciPy). ``M * c`` and ``c * M`` are SciPy's
    scaled operators; a product of two sparse matrices (``M @ M``, ``M @ A``) raises
    NotImplementedError (no SpGEMM on the device: multiply the SciPy matrices).
    """

    def __init__(self, A: Any, ctx: Optional[Context] = None) -> None:
        self.ctx = context_or_default(ctx)
        given = A
        A = as_csr("lockstep.Matrix", A, _VALUE_DTYPES)
        if A is given:  # M's values are A's at construction, in every dtype
            A = A.copy()
        rows, cols, indptr, indices, data = csr_arrays(A)
        super().__init__(data.dtype, (rows, cols))
        self._host = A  # for the float64 twin and rmatvec (M's own copy)
        self._dev = {data.dtype: self._upload(data.dtype)}
        self._m = self._dev[data.dtype]
        self.nnz: int = int(indices.shape[0])

    def _upload(self, dtype: np.dtype) -> Any:
        rows, cols, indptr, indices, data = csr_arrays(self._host)
        cls = _lockstep._Matrix32 if dtype == np.float32 else _lockstep._Matrix64
        return cls(self.ctx, rows, cols, indptr, indices, np.ascontiguousarray(data, dtype=dtype))

    def _on(self, dtype: np.dtype) -> Any:
        """The device matrix of `dtype` (A's own, or its float64 twin)."""
        m = self._dev.get(dtype)
        if m is None:
            m = self._dev[dtype] = self._upload(dtype)
        return m

    def spmv(self, x: Any, alpha: float = 1.0, beta: float = 0.0, y: Optional[Any] = None,
             algorithm: str = "auto", local_size: int = 0) -> Any:
        """``alpha * A @ x + beta * y``; x of shape (n,) (SpMV) or (n, k) (SpMM, C or Fortran
        order). Without ``y``: a new array (``beta`` must be 0). With ``y``: ``y`` is overwritten
        with the result and returned. algorithm (SpMV): "auto", "scalar", "vector", "adaptive" or
        "merge"; local_size (work-group size, a power of two) only with an explicit algorithm."""
        m = self._m
        if (type(x) is np.ndarray and x.dtype == self.dtype and x.ndim == 1  # the fast path
                and x.flags.c_contiguous and y is None and beta == 0):
            return m.spmv(x, None, alpha, beta, algorithm, local_size)
        if is_device(x) or is_device(y):
            return _device_spmv(self, x, alpha, beta, y, algorithm, local_size)
        x, dtype = as_operand("lockstep.spmv", "x", x, self.dtype, self.shape[1])
        if x.ndim == 2:
            return spmm(self, x, alpha, beta, y, dtype)
        m = self._on(dtype)
        if y is None:
            if beta != 0:
                raise InputError("lockstep.spmv: beta != 0 needs y")
            return m.spmv(x, None, alpha, beta, algorithm, local_size)
        if not isinstance(y, np.ndarray):
            raise TypeError(f"lockstep.spmv: y must be a numpy.ndarray, not {type(y).__name__}")
        yc, _ = as_operand("lockstep.spmv", "y", y, dtype, self.shape[0], ndim=1)
        if yc is y and y.flags.writeable and y.dtype == dtype:  # in place
            return m.spmv(x, y, alpha, beta, algorithm, local_size)
        out = m.spmv(x, np.array(yc, dtype=dtype), alpha, beta, algorithm, local_size)
        y[...] = out.reshape(y.shape)  # a non-contiguous (or column) y: written back
        return y

    # LinearOperator: products through the device; matvec keeps SciPy's (n, 1) -> (n, 1) shape
    def __matmul__(self, x: Any) -> Any:
        if (type(x) is Array and x.ndim == 1 and x.dtype == self.dtype and x.ctx is self.ctx
                and x._foreign_queue is None and x.shape[0] == self.shape[1]):  # the fast path
            y = Array._alloc((self.shape[0],), x.dtype, self.ctx, "C")
            self._m.spmv_buf(x._buf, y._buf, 1.0, 0.0, "auto", 0)
            return y
        if np.isscalar(x):
            raise ValueError("Scalar operands are not allowed, use '*' instead")  # as SciPy
        return self.dot(x)

    def dot(self, x: Any) -> Any:
        """``M @ x`` for an array; SciPy's operator algebra for a scalar (scaled) or another
        LinearOperator (product); NotImplementedError for a sparse matrix or a lockstep.Matrix."""
        if isinstance(x, Matrix) or sp.issparse(x):
            raise NotImplementedError(
                "lockstep.Matrix @ a sparse matrix: no sparse-sparse product (SpGEMM) on the "
                "device; multiply the scipy.sparse matrices (A @ B) and make a Matrix of that")
        if isinstance(x, spla.LinearOperator) or np.isscalar(x):
            return spla.LinearOperator.dot(self, x)
        return self.spmv(x)

    def matvec(self, x: Any) -> Any:
        column = getattr(x, "ndim", 1) == 2
        y = self.spmv(x)
        return y.reshape(-1, 1) if column and isinstance(y, np.ndarray) else y

    def matmat(self, X: Any) -> Any:
        if getattr(X, "ndim", 2) != 2:
            raise InputError(f"lockstep.Matrix.matmat: expected a 2-D array, not {X.ndim}-D")
        return self.spmv(X)

    def _matvec(self, x: np.ndarray) -> np.ndarray:
        return self.spmv(np.ravel(x))

    def _matmat(self, X: np.ndarray) -> np.ndarray:
        return self.spmv(X)

    def _rmatvec(self, x: np.ndarray) -> np.ndarray:
        return self._host.T @ np.ravel(x)  # the host's A^T (A is real: no conjugate needed)

    @property
    def algorithm(self) -> str:
        """The configuration ``algorithm="auto"`` resolves to for this matrix on its device."""
        return self._m.automatic()

    def __repr__(self) -> str:
        return (f"<lockstep.Matrix {self.shape[0]}x{self.shape[1]}, {self.nnz} entries, "
                f"{self.dtype} on {self.ctx.name}>")


def _device_spmv(M: Matrix, x: Any, alpha: float, beta: float, y: Any, algorithm: str,
                 local_size: int) -> Any:
    """spmv with a device operand: the result stays on the device (a pyopencl array for one)."""
    xd = asarray(x, ctx=M.ctx)
    dtype = np.result_type(M.dtype, xd.dtype)
    if xd.dtype != dtype or dtype not in (np.float32, np.float64):
        raise TypeError(f"lockstep.spmv: a device x of dtype {xd.dtype} against A's {M.dtype} "
                        f"computes in {dtype}; convert x first (x.astype(numpy.{dtype}))")
    if xd.ndim not in (1, 2) or xd.shape[0] != M.shape[1]:
        raise InputError(f"lockstep.spmv: x must have shape ({M.shape[1]},) or ({M.shape[1]}, k), "
                         f"not {xd.shape}")
    shape = (M.shape[0],) + xd.shape[1:]
    if y is None:
        if beta != 0:
            raise InputError("lockstep.spmv: beta != 0 needs y")
        yd = empty(shape, dtype, M.ctx, xd.order)
    else:
        yd = asarray(y, ctx=M.ctx)
        if yd.shape != shape or yd.dtype != dtype or (yd.ndim == 2 and yd.order != xd.order):
            raise InputError(f"lockstep.spmv: y must be a device array {shape} {dtype} in x's "
                             "order")
        yd._before_use()
    xd._before_use()
    m = M._on(dtype)
    if xd.ndim == 1:
        m.spmv_buf(xd._buf, yd._buf, alpha, beta, algorithm, int(local_size))
    elif xd.shape[1] > 0:
        m.spmm_buf(xd._buf, yd._buf, xd.shape[1], xd.order == "F", alpha, beta)
    if y is None:
        return asarray_like_result(yd, x)
    if not isinstance(y, Array):  # a pyopencl y, written in place: its queue waits for lockstep
        order_before(M.ctx, y.queue)
    return y


def as_matrix(A: Union[Matrix, Any], ctx: Optional[Context]) -> Matrix:
    return A if isinstance(A, Matrix) else Matrix(A, ctx)


def spmv(A: Any, x: Any, alpha: float = 1.0, beta: float = 0.0, y: Optional[Any] = None,
         algorithm: str = "auto", local_size: int = 0, ctx: Optional[Context] = None) -> Any:
    """``alpha * A @ x + beta * y`` on the device; x of shape (n,) (SpMV) or (n, k) (SpMM: k
    right-hand sides, C or Fortran order), a NumPy array (or anything ``numpy.asarray`` takes) or
    a device array (``lockstep.Array``, ``pyopencl.array.Array``: the result stays on the device).

    A: a ``scipy.sparse`` csr_array / csr_matrix of float32 or float64 (other formats are
    converted with a ``ConversionWarning``), or a ``lockstep.Matrix`` (no upload: use one for
    repeated products). x is converted as NumPy would; a wider dtype than A's is computed in that
    dtype (``A @ x``'s). Without y a new array is returned, with y it is overwritten and
    returned. algorithm: "auto" (tuning database, else model), "scalar", "vector", "adaptive" or
    "merge". Raises TypeError for a dtype NumPy cannot make floating (complex, object),
    lockstep.InputError for a wrong shape or name, lockstep.OpenCLError when the device fails.
    """
    return as_matrix(A, ctx).spmv(x, alpha, beta, y, algorithm, local_size)


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


def read_matrix_market(path: str, dtype: Any = np.float64) -> sp.csr_array:
    """A Matrix Market file (coordinate or array; real, integer or pattern; general, symmetric
    or skew-symmetric; gzip and pipes too) as a ``scipy.sparse.csr_array`` of float64 (or
    float32), duplicates summed. A malformed file raises lockstep.InputError naming the file and
    line; a missing one lockstep.MissingFileError (a FileNotFoundError)."""
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"read_matrix_market: dtype {dtype}; accepted dtypes: float32, float64")
    rows, cols, indptr, indices, data = _lockstep.read_matrix_market(str(path),
                                                                     dtype == np.float32)
    return sp.csr_array((data, indices, indptr), shape=(rows, cols))
