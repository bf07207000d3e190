"""Conjugate gradients in the shape of ``scipy.sparse.linalg.cg`` (SciPy >= 1.12):
``cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None)``.

Where it runs: without ``M`` (or with ``M`` the Jacobi preconditioner, ``1 / diag(A)``) and without
``callback``, the whole iteration runs on the device (the library's ``lockstep::cg``: classic or
pipelined, preconditioner none or jacobi), one call. Any other ``M`` (a LinearOperator, a sparse or
dense matrix, a callable: SciPy's ``M`` approximates ``A^-1``) or a ``callback`` (called with
``x_k`` after every iteration, as SciPy does) runs a host-side preconditioned CG loop: the products
``A p`` on the device (``Matrix @``), ``M r``, the dot products and the vector updates on the host.
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, Optional, Tuple

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ._arith import norm
from ._array import asarray_like_result, is_device
from ._checks import as_operand, check_name, check_square
from ._context import Context
from ._creation import asarray, empty, zeros
from ._errors import ConvergenceWarning, InputError
from ._sparse import Matrix, as_matrix

_TINY = 1e-300  # the library needs a positive tolerance; rtol = atol = 0 runs maxiter iterations


def _diagonal_of(M: Any, n: int) -> Optional[np.ndarray]:
    """M's diagonal when M is a diagonal matrix (sparse with entries on the diagonal only, or
    a 1-D array taken as the diagonal), else None."""
    if isinstance(M, np.ndarray) and M.ndim == 1 and M.shape == (n,):
        return M
    if sp.issparse(M) and M.shape == (n, n):
        C = M.tocoo()
        if np.all(C.row == C.col):
            return M.diagonal()
    return None


def _operator(M: Any, n: int) -> Callable[[np.ndarray], np.ndarray]:
    d = _diagonal_of(M, n)
    if d is not None:
        return lambda r: d * r
    if callable(M) and not hasattr(M, "shape"):
        return M
    op = spla.aslinearoperator(M)
    if op.shape != (n, n):
        raise InputError(f"lockstep.cg: M has shape {op.shape}, A needs ({n}, {n})")
    return op.matvec


def _host_pcg(A: Any, b: np.ndarray, x: np.ndarray, atol: float, maxiter: int,
              M: Callable[[np.ndarray], np.ndarray],
              callback: Optional[Callable[[np.ndarray], None]]) -> Tuple[np.ndarray, int]:
    """Preconditioned CG with A p on the device and the rest on the host (SciPy's loop)."""
    r = b - A.spmv(x) if x.any() else b.copy()
    rho_prev, p = None, None
    for k in range(maxiter):
        if np.linalg.norm(r) < atol:
            return x, 0
        z = np.asarray(M(r), dtype=b.dtype).reshape(-1)
        rho = float(np.dot(r, z))
        p = z.copy() if p is None else z + (rho / rho_prev) * p
        q = A.spmv(p)
        pq = float(np.dot(p, q))
        if not (pq > 0 and np.isfinite(pq)):
            warnings.warn(f"lockstep.cg: breakdown at iteration {k}: p'Ap = {pq} (A or M not "
                          "positive definite)", RuntimeWarning, stacklevel=3)
            return x, -1
        alpha = rho / pq
        x = x + alpha * p
        r = r - alpha * q
        rho_prev = rho
        if callback is not None:
            callback(x)
    return x, 0 if np.linalg.norm(r) < atol else maxiter


def _column(x: Any) -> Any:
    """A column (n, 1) as its n values (SciPy takes b and x0 so)."""
    if x is None:
        return x
    if not is_device(x):
        x = np.asarray(x)
    if x.ndim == 2 and x.shape[1] == 1:
        return x.reshape(x.shape[0])
    return x


def _warn_stagnation(stagnation: str) -> None:
    if stagnation:
        warnings.warn(f"lockstep.cg: {stagnation}", ConvergenceWarning, stacklevel=3)


def _device_cg(M: Matrix, b: Any, rtol: float, atol: float, maxiter: int, algorithm: str,
               preconditioner: str) -> Tuple[Any, int]:
    """cg of a device b from x0 = 0: x on the device; reads ||b|| only for atol or maxiter 0."""
    bd = asarray(b, ctx=M.ctx)
    if bd.dtype not in (np.float32, np.float64) or bd.shape != (M.shape[0],):
        raise InputError(f"lockstep.cg: b must be a device array ({M.shape[0]},) float32/float64")
    bd._before_use()
    if maxiter == 0:
        bnorm = float(norm(bd))
        return asarray_like_result(zeros(bd.shape, bd.dtype, M.ctx), b), \
            0 if bnorm <= atol else 1
    tol = rtol
    if atol > 0:  # atol / ||b||: the one value read back
        tol = max(rtol, atol / max(float(norm(bd)), 1e-300))
    x = empty(bd.shape, bd.dtype, M.ctx)
    iterations, converged, breakdown, stagnation, b_finite = M._on(bd.dtype).cg_buf(
        bd._buf, x._buf, max(tol, _TINY), maxiter, algorithm, preconditioner)
    if not b_finite:  # as the host path (SciPy's info)
        warnings.warn("lockstep.cg: b holds NaN or Inf", ConvergenceWarning, stacklevel=3)
        x.fill(np.nan)
        return asarray_like_result(x, b), max(1, maxiter)
    if breakdown:
        warnings.warn(f"lockstep.cg: {breakdown}", RuntimeWarning, stacklevel=3)
    _warn_stagnation(stagnation)
    info = -1 if breakdown else (0 if converged else max(1, iterations))
    return asarray_like_result(x, b), info


def cg(A: Any, b: Any, x0: Optional[Any] = None, *, rtol: float = 1e-5, atol: float = 0.0,
       maxiter: Optional[int] = None, M: Any = None, callback: Optional[Callable] = None,
       algorithm: str = "classic", preconditioner: str = "none", tol: Optional[float] = None,
       ctx: Optional[Context] = None) -> Tuple[np.ndarray, int]:
    """Solves ``A x = b`` for symmetric positive definite A by conjugate gradients, like
    ``scipy.sparse.linalg.cg``: returns ``(x, info)``, info 0 when ``||b - A x|| <= max(rtol *
    ||b||, atol)``, maxiter (default ``max(100, 10 n)``) when it ran out, -1 on a breakdown (A or M
    not positive definite, or NaN: a RuntimeWarning says why).

    A: a ``scipy.sparse`` matrix or a ``lockstep.Matrix``. x0: the starting guess (default 0).
    M: a preconditioner approximating ``A^-1`` (see the module docstring for where each kind
    runs); callback(xk) after each iteration. ``tol=`` (SciPy < 1.12) is taken as rtol with a
    DeprecationWarning. algorithm: "classic", "pipelined" (one reduction per iteration, Ghysels
    & Vanroose) or "single-reduction" (one per iteration, Chronopoulos & Gear); preconditioner:
    "none" or "jacobi" (the device's own diagonal scaling).
    b (and x0) of shape (n,) or (n, 1) is converted as NumPy would; float64 b against a float32
    A solves in float64 (SciPy's result dtype). A non-square A or a b of the wrong length raises
    lockstep.InputError. maxiter=0 returns x0 (info 0 when it meets the tolerance, else 1);
    a negative maxiter raises lockstep.InputError. A b holding NaN or Inf returns NaN with info
    = maxiter (as SciPy) and a lockstep.ConvergenceWarning. When the true residual stagnates
    above the tolerance (float32 with a tolerance below its attainable accuracy) the device
    iteration stops early: info > 0 and a ConvergenceWarning giving the floor reached.
    """
    if tol is not None:
        warnings.warn("lockstep.cg: 'tol' is deprecated (as in SciPy 1.12); use rtol",
                      DeprecationWarning, stacklevel=2)
        rtol = tol
    if not isinstance(A, Matrix) and sp.issparse(A):
        check_square("lockstep.cg", A.shape)
    A = as_matrix(A, ctx)
    check_square("lockstep.cg", A.shape)
    n = A.shape[0]
    check_name("lockstep.cg", "algorithm", algorithm)
    check_name("lockstep.cg", "preconditioner", preconditioner)
    if rtol < 0 or atol < 0:
        raise InputError("lockstep.cg: rtol and atol must be >= 0")
    maxiter = max(100, 10 * n) if maxiter is None else int(maxiter)
    if maxiter < 0:
        raise InputError(f"lockstep.cg: maxiter must be >= 0 or None, not {maxiter}")
    b, x0 = _column(b), _column(x0)
    if M is None and callback is None and is_device(b):
        if x0 is not None:
            raise InputError("lockstep.cg: a device b starts from x0 = 0 (pass x0=None)")
        return _device_cg(A, b, rtol, atol, maxiter, algorithm, preconditioner)
    b, dtype = as_operand("lockstep.cg", "b", b, A.dtype, n, ndim=1)
    x = np.zeros(n, dtype) if x0 is None else \
        np.array(as_operand("lockstep.cg", "x0", x0, dtype, n, ndim=1)[0], dtype=dtype)
    bnorm = float(np.linalg.norm(b))
    if not np.isfinite(bnorm):
        warnings.warn("lockstep.cg: b holds NaN or Inf", ConvergenceWarning, stacklevel=2)
        return np.full(n, np.nan, dtype), max(1, maxiter)
    if bnorm == 0:
        return np.zeros(n, dtype), 0
    goal = max(rtol * bnorm, atol)
    if maxiter == 0:
        return x, 0 if float(np.linalg.norm(b - A.spmv(x) if x.any() else b)) <= goal else 1
    if M is not None:
        d = _diagonal_of(M, n)
        diag = A._host.diagonal()
        if d is not None and callback is None and np.allclose(d * diag, 1, rtol=1e-6, atol=0):
            M, preconditioner = None, "jacobi"  # SciPy's Jacobi: the device's own diagonal
    if M is not None or callback is not None:
        op = _operator(M, n) if M is not None else (lambda r: r)
        return _host_pcg(A, b, x, goal, maxiter, op, callback)
    r = b if x0 is None else b - A.spmv(x)
    rnorm = float(np.linalg.norm(r)) if x0 is not None else bnorm
    if rnorm <= goal:
        return x, 0
    d, iterations, converged, breakdown, _, stagnation = A._on(dtype).cg(
        np.ascontiguousarray(r, dtype=dtype), max(goal / rnorm, _TINY), maxiter, algorithm,
        preconditioner)
    _warn_stagnation(stagnation)
    if breakdown:
        warnings.warn(f"lockstep.cg: {breakdown}", RuntimeWarning, stacklevel=2)
        return x + d, -1
    return x + d, 0 if converged else max(1, iterations)


def _matrix_cg(self: Matrix, b: Any, x0: Optional[Any] = None, **kwargs: Any) -> Tuple[Any, int]:
    """See ``lockstep.cg``."""
    return cg(self, b, x0, **kwargs)


Matrix.cg = _matrix_cg
