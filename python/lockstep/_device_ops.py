"""The device-array paths of spmv / Matrix @, cg and sort/argsort/sort_pairs: each returns
NotImplemented when no operand is a device array (the caller then takes its NumPy path)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _lockstep
from ._array import Array, _order_before, asarray, empty, is_device
from ._context import Context, context_or_default
from ._errors import InputError
from ._sort import KEY_DTYPES

_iota: "dict[int, Array]" = {}  # per context: 0, 1, 2, ... (argsort's values), grown as needed


def _result(out: Array, like: Any) -> Any:
    """A pyopencl array on the input's queue when the input was one, else the lockstep.Array."""
    if type(like).__module__.startswith("pyopencl"):
        return out.to_pyopencl(like.queue)
    return out


def device_spmv(M: Any, x: Any, alpha: float, beta: float, y: Any, algorithm: str,
                local_size: int) -> Any:
    if not (is_device(x) or is_device(y)):
        return NotImplemented
    xd = asarray(x, ctx=M.ctx)
    dtype = np.result_type(M.dtype, xd.dtype)
    if xd.dtype != dtype or dtype not in (np.float32, np.float64):
        raise TypeError(f"lockstep.spmv: a device x of dtype {xd.dtype} against A's {M.dtype} "
                        f"computes in {dtype}; convert x first (no conversion runs on the device)")
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
        return _result(yd, x)
    if not isinstance(y, Array):  # a pyopencl y, written in place: its queue waits for lockstep
        _order_before(M.ctx, y.queue)
    return y


def device_cg(M: Any, b: Any, x0: Any, rtol: float, atol: float, maxiter: int, algorithm: str,
              preconditioner: str) -> Any:
    """(x, info, breakdown) on the device, or NotImplemented for a host b."""
    if not is_device(b):
        return NotImplemented
    if x0 is not None:
        raise InputError("lockstep.cg: a device b starts from x0 = 0 (pass x0=None)")
    bd = asarray(b, ctx=M.ctx)
    if bd.dtype not in (np.float32, np.float64) or bd.shape != (M.shape[0],):
        raise InputError(f"lockstep.cg: b must be a device array ({M.shape[0]},) float32/float64")
    bd._before_use()
    tol = rtol
    if atol > 0:  # atol / ||b||: the one value read back
        tol = max(rtol, atol / max(float(np.linalg.norm(bd.get())), 1e-300))
    x = empty(bd.shape, bd.dtype, M.ctx)
    iterations, converged, breakdown = M._on(bd.dtype).cg_buf(
        bd._buf, x._buf, max(tol, 1e-300), maxiter, algorithm, preconditioner)
    info = -1 if breakdown else (0 if converged else max(1, iterations))
    return _result(x, b), info, breakdown


def _copy(a: Array) -> Array:
    out = empty(a.shape, a.dtype, a.ctx)
    out._buf.copy_from(a._buf, 0, a.nbytes)
    return out


def _keys(what: str, keys: Any, ctx: Optional[Context]) -> Array:
    k = asarray(keys, ctx=ctx)
    if k.ndim != 1:
        raise InputError(f"{what}: expected a 1-D array, not shape {k.shape}")
    names = [np.dtype(d).name for d in KEY_DTYPES]
    if k.dtype.name not in names:
        raise TypeError(f"{what}: device keys of dtype {k.dtype}; accepted: {', '.join(names)}")
    k._before_use()
    return k


def device_sort(keys: Any, values: Any, descending: bool, algorithm: str, barrier: str,
                local_size: int, ctx: Optional[Context]) -> Any:
    if not (is_device(keys) or is_device(values)):
        return NotImplemented
    k = _keys("lockstep.sort", keys, ctx)
    out = _copy(k)
    v = None
    if values is not None:
        vd = asarray(values, ctx=k.ctx)
        if vd.shape != k.shape or vd.dtype.itemsize != 4:
            raise InputError(f"lockstep.sort_pairs: device values must be {k.shape} of 4 bytes "
                             "each")
        vd._before_use()
        v = _copy(vd)
    _lockstep.sort_buffer(k.ctx, out.dtype, out._buf, out.size, v._buf if v else None,
                          bool(descending), algorithm, barrier, int(local_size))
    return (_result(out, keys), _result(v, values) if v is not None else None)


def device_sort_in_place(a: Array, descending: bool, algorithm: str, barrier: str,
                         local_size: int) -> None:
    k = _keys("lockstep.Array.sort", a, None)
    _lockstep.sort_buffer(k.ctx, k.dtype, k._buf, k.size, None, bool(descending), algorithm,
                          barrier, int(local_size))


def device_argsort(keys: Any, descending: bool, algorithm: str, barrier: str, local_size: int,
                   ctx: Optional[Context]) -> Any:
    if not is_device(keys):
        return NotImplemented
    k = _keys("lockstep.argsort", keys, ctx)
    n = k.size
    iota = _iota.get(id(k.ctx))
    if iota is None or iota.size < n:  # uploaded once per context and size, then copied
        iota = _iota[id(k.ctx)] = asarray(np.arange(max(n, 1), dtype=np.uint32), ctx=k.ctx)
    perm = empty((n,), np.uint32, k.ctx)
    perm._buf.copy_from(iota._buf, 0, perm.nbytes)
    scratch = _copy(k)
    if algorithm == "auto":
        algorithm = "radix"  # stable, as the host argsort
    _lockstep.sort_buffer(k.ctx, k.dtype, scratch._buf, n, perm._buf, bool(descending),
                          algorithm, barrier, int(local_size))
    return _result(perm, keys)
