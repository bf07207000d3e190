"""Sorting on the device: sort, argsort, sort_pairs, on NumPy arrays (new arrays returned) or on
device arrays (``lockstep.Array``, ``pyopencl.array.Array``: the result stays on the device).

Keys: uint32, int32, float32, uint64, int64 or float64 (the 64-bit types are one radix sort with
bit transforms), 1-D. Anything else NumPy holds as integers or floats is taken as NumPy would:
lists and tuples (``numpy.asarray``), other byte orders, bool/uint8/uint16 (sorted as uint32),
int8/int16 (int32), float16 (float32); the result has the input's dtype (native byte order).
Float order: -inf < ... < -0.0 < +0.0 < ... < +inf, NaNs last in both orders (as numpy.sort puts
them ascending; each NaN comes back as the canonical quiet NaN, payload not kept); numpy.sort does
not order -0.0 before +0.0 (it holds them equal). descending is the exact reverse order (NaNs
still last). algorithm: "auto" (the tuning database's choice, else radix, and on GPUs
radix-persistent for the mid range), "bitonic" (not stable), "radix" or "radix-persistent" (the
radix sort in one persistent launch; both stable). barrier: the global barrier of bitonic and
radix-persistent ("auto", "relaunch", "lock", ...); local_size bitonic's work-group size.
argsort's indices are numpy.intp, as numpy.argsort's (on the device: int64).
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _lockstep
from ._array import KEY_DTYPES, Array, asarray_like_result, device_keys, is_device
from ._checks import check_name
from ._context import Context, context_or_default
from ._creation import asarray
from ._errors import InputError

_iota: "dict[int, Array]" = {}  # per context: 0, 1, 2, ... (argsort's values), grown as needed
_WIDEN = {"b": np.uint32, "u": np.uint32, "i": np.int32, "f": np.float32}


def as_keys(what: str, a: Any) -> Tuple[np.ndarray, np.dtype]:
    """The keys as a contiguous 1-D array of a device key dtype, and the dtype to return."""
    a = np.asarray(a)
    if a.dtype.kind not in "buif" or a.dtype.itemsize > 8:
        raise TypeError(f"{what}: keys of dtype {a.dtype}; accepted: integers and floats of at "
                        "most 64 bits (uint32, int32, float32, uint64, int64, float64 on the "
                        "device; narrower ones widened)")
    if a.ndim != 1:
        raise InputError(f"{what}: expected a 1-D array, not shape {a.shape} (use a.ravel())")
    native = a.dtype.newbyteorder("=")
    device = (native if native in [np.dtype(d) for d in KEY_DTYPES]
              else np.dtype(_WIDEN[a.dtype.kind]))
    return np.ascontiguousarray(a, dtype=device), native


def _options(what: str, algorithm: str, barrier: str, local_size: int) -> Tuple[str, str, int]:
    return (check_name(what, "algorithm", algorithm), check_name(what, "barrier", barrier),
            int(local_size))


def sort(a: Any, descending: bool = False, algorithm: str = "auto", barrier: str = "auto",
         local_size: int = 0, ctx: Optional[Context] = None) -> Any:
    """A sorted copy of the 1-D array ``a``, like ``numpy.sort``; descending gives the reverse
    order. See the module docstring for the dtypes, the float order and the options. A device
    array is sorted into a new device array (no host transfer)."""
    if is_device(a):
        return _device_sort(a, None, descending, algorithm, barrier, local_size, ctx)[0]
    a, out = as_keys("lockstep.sort", a)
    opts = _options("lockstep.sort", algorithm, barrier, local_size)
    k = _lockstep.sort(context_or_default(ctx), a, None, bool(descending), *opts)[0]
    return k if k.dtype == out else k.astype(out)


def argsort(a: Any, descending: bool = False, algorithm: str = "auto", barrier: str = "auto",
            local_size: int = 0, ctx: Optional[Context] = None) -> Any:
    """The permutation (numpy.intp, as numpy.argsort's) that sorts ``a``: ``a[p]`` is
    ``sort(a)``. With algorithm "radix" it is stable (equal keys keep their order:
    ``numpy.argsort(a, kind="stable")``); "auto" may pick the bitonic sort on host arrays, which
    orders equal keys arbitrarily (device arrays: radix)."""
    if is_device(a):
        return _device_argsort(a, descending, algorithm, barrier, local_size, ctx)
    a, _ = as_keys("lockstep.argsort", a)
    opts = _options("lockstep.argsort", algorithm, barrier, local_size)
    return _lockstep.argsort(context_or_default(ctx), a, bool(descending), *opts).astype(np.intp)


def sort_pairs(keys: Any, values: Any, descending: bool = False, algorithm: str = "auto",
               barrier: str = "auto", local_size: int = 0,
               ctx: Optional[Context] = None) -> Tuple[Any, Any]:
    """Sorted copies of ``keys`` and of ``values`` moved with their keys (like
    ``p = numpy.argsort(keys); keys[p], values[p]``). values: any 1-D array of the same length;
    4-byte values move on the device, others through argsort. Equal keys keep their values'
    order with algorithm "radix". Device arrays (keys and 4-byte values): new device arrays."""
    if is_device(keys) or is_device(values):
        return _device_sort(keys, values, descending, algorithm, barrier, local_size, ctx)
    keys, out = as_keys("lockstep.sort_pairs", keys)
    values = np.asarray(values)
    if values.ndim != 1 or values.shape[0] != keys.shape[0]:
        raise InputError(f"lockstep.sort_pairs: values must have shape ({keys.shape[0]},), not "
                         f"{values.shape}")
    opts = _options("lockstep.sort_pairs", algorithm, barrier, local_size)
    ctx = context_or_default(ctx)
    if values.dtype.itemsize == 4 and values.dtype.kind in "uif":
        k, v = _lockstep.sort(ctx, keys, np.ascontiguousarray(values), bool(descending), *opts)
    else:
        perm = _lockstep.argsort(ctx, keys, bool(descending), *opts)
        k, v = keys[perm], values[perm]
    return (k if k.dtype == out else k.astype(out)), v


def _device_sort(keys: Any, values: Any, descending: bool, algorithm: str, barrier: str,
                 local_size: int, ctx: Optional[Context]) -> Tuple[Any, Any]:
    """sort / sort_pairs of device arrays: sorted copies on the device."""
    k = device_keys("lockstep.sort", asarray(keys, ctx=ctx))
    out = k.copy()
    v = None
    if values is not None:
        vd = asarray(values, ctx=k.ctx)
        if vd.shape != k.shape or vd.dtype.itemsize != 4:
            raise InputError(f"lockstep.sort_pairs: device values must be {k.shape} of 4 bytes "
                             "each")
        v = vd.copy()
    _lockstep.sort_buffer(k.ctx, out.dtype, out._buf, out.size, v._buf if v is not None else None,
                          bool(descending), algorithm, barrier, int(local_size))
    return (asarray_like_result(out, keys),
            asarray_like_result(v, values) if v is not None else None)


def _device_argsort(keys: Any, descending: bool, algorithm: str, barrier: str, local_size: int,
                    ctx: Optional[Context]) -> Any:
    k = device_keys("lockstep.argsort", asarray(keys, ctx=ctx))
    n = k.size
    iota = _iota.get(id(k.ctx))
    if iota is None or iota.size < n:  # uploaded once per context and size, then copied
        iota = _iota[id(k.ctx)] = asarray(np.arange(max(n, 1), dtype=np.uint32), ctx=k.ctx)
    perm = iota[:n]
    scratch = k.copy()
    if algorithm == "auto":
        algorithm = "radix"  # stable, as the host argsort
    _lockstep.sort_buffer(k.ctx, k.dtype, scratch._buf, n, perm._buf, bool(descending),
                          algorithm, barrier, int(local_size))
    return asarray_like_result(perm.astype(np.intp), keys)
