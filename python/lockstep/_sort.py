"""Sorting NumPy arrays on the device: sort, argsort, sort_pairs. Each returns new arrays.

Keys: uint32, int32, float32 or uint64, 1-D (non-contiguous arrays are copied once). float32
order: -inf < ... < -0.0 < +0.0 < ... < +inf, NaNs last in both orders (as numpy.sort puts them
ascending; each NaN comes back as the quiet NaN 0x7FC00000). descending is the exact reverse order
(NaNs still last). algorithm: "auto" (the tuning database's choice, else radix, and on GPUs
radix-persistent for the mid range), "bitonic" (not stable), "radix" or "radix-persistent" (the
radix sort in one persistent launch; both stable). barrier: the global barrier of bitonic and
radix-persistent ("auto", "relaunch", "lock", ...); local_size bitonic's work-group size.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _lockstep
from ._checks import as_keys, check_name
from ._context import Context, context_or_default
from ._errors import InputError

KEY_DTYPES = (np.uint32, np.int32, np.float32, np.uint64)


def _options(what: str, algorithm: str, barrier: str, local_size: int) -> Tuple[str, str, int]:
    return (check_name(what, "algorithm", algorithm), check_name(what, "barrier", barrier),
            int(local_size))


def sort(a: np.ndarray, descending: bool = False, algorithm: str = "auto", barrier: str = "auto",
         local_size: int = 0, ctx: Optional[Context] = None) -> np.ndarray:
    """A sorted copy of the 1-D array ``a`` (uint32, int32, float32 or uint64), like
    ``numpy.sort``; descending gives the reverse order. See the module docstring for the
    float32 order and the options. A wrong dtype raises TypeError listing the accepted ones."""
    a = as_keys("lockstep.sort", a, KEY_DTYPES)
    opts = _options("lockstep.sort", algorithm, barrier, local_size)
    return _lockstep.sort(context_or_default(ctx), a, None, bool(descending), *opts)[0]


def argsort(a: np.ndarray, descending: bool = False, algorithm: str = "auto",
            barrier: str = "auto", local_size: int = 0,
            ctx: Optional[Context] = None) -> np.ndarray:
    """The permutation (uint32) that sorts ``a``: ``a[p]`` is ``sort(a)``. With algorithm
    "radix" it is stable (equal keys keep their order: ``numpy.argsort(a, kind="stable")``);
    "auto" may pick the bitonic sort, which orders equal keys arbitrarily."""
    a = as_keys("lockstep.argsort", a, KEY_DTYPES)
    opts = _options("lockstep.argsort", algorithm, barrier, local_size)
    return _lockstep.argsort(context_or_default(ctx), a, bool(descending), *opts)


def sort_pairs(keys: np.ndarray, values: np.ndarray, descending: bool = False,
               algorithm: str = "auto", barrier: str = "auto", local_size: int = 0,
               ctx: Optional[Context] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Sorted copies of ``keys`` and of ``values`` moved with their keys (like
    ``p = numpy.argsort(keys); keys[p], values[p]``). values: any 1-D array of the same length;
    4-byte values move on the device, others through argsort. Equal keys keep their values'
    order with algorithm "radix"."""
    keys = as_keys("lockstep.sort_pairs", keys, KEY_DTYPES)
    values = np.asarray(values)
    if values.ndim != 1 or values.shape[0] != keys.shape[0]:
        raise InputError(f"lockstep.sort_pairs: values must have shape ({keys.shape[0]},), not "
                         f"{values.shape}")
    opts = _options("lockstep.sort_pairs", algorithm, barrier, local_size)
    ctx = context_or_default(ctx)
    if values.dtype.itemsize == 4 and values.dtype.kind in "uif":
        k, v = _lockstep.sort(ctx, keys, np.ascontiguousarray(values), bool(descending), *opts)
        return k, v
    perm = _lockstep.argsort(ctx, keys, bool(descending), *opts)
    return keys[perm], values[perm]
