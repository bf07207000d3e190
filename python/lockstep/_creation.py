"""Creating device arrays: asarray (from NumPy data, or a PyOpenCL array without a copy), empty,
zeros, ones, full and their ``*_like`` forms, and the PyOpenCL interop of contexts.

A ``pyopencl.array.Array`` of the context's OpenCL context (``lockstep.Context.from_pyopencl(
context, queue)``) is taken without a copy and results come back as ``pyopencl.array.Array`` on
its queue; when that queue is not lockstep's own, the two are ordered with OpenCL events (a marker
on one, a barrier on the other), never a host wait.

``__dlpack__`` is not offered: DLPack's kDLOpenCL device type carries a raw pointer plus a device
id, but an OpenCL buffer is a cl_mem handle (no device pointer without the SVM or
cl_ext_buffer_device_address extensions, which PoCL's CPU device and NVIDIA's OpenCL lack), and no
consumer (NumPy, PyTorch, CuPy, JAX) imports kDLOpenCL tensors; PyOpenCL's arrays are the interop.
"""
from __future__ import annotations

import numbers
import weakref
from typing import Any, Optional

import numpy as np

from . import _lockstep
from ._array import Array, array_dtype
from ._context import Context, context_or_default
from ._errors import InputError


def _shape(what: str, shape: Any) -> tuple:
    try:
        shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
        shape = tuple(int(s) for s in shape)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: shape must be an int or a tuple of ints, not {shape!r}") \
            from None
    if any(s < 0 for s in shape):
        raise InputError(f"{what}: negative dimensions are not allowed (shape {shape})")
    return shape


def empty(shape: Any, dtype: Any = np.float64, ctx: Optional[Context] = None,
          order: str = "C") -> Array:
    """A new device array, uninitialised (its dtype one of lockstep.Array's, else TypeError)."""
    shape = _shape("lockstep.empty", shape)
    return Array._new(shape, array_dtype("lockstep.empty", dtype), context_or_default(ctx), order)


def zeros(shape: Any, dtype: Any = np.float64, ctx: Optional[Context] = None,
          order: str = "C") -> Array:
    """A new device array of zeros (clEnqueueFillBuffer: 0 and 0.0 for every dtype)."""
    a = empty(shape, dtype, ctx, order)
    a._buf.fill_zero()
    return a


def full(shape: Any, fill_value: Any, dtype: Any = None, ctx: Optional[Context] = None,
         order: str = "C") -> Array:
    """A new device array of `fill_value` (dtype: NumPy's for it when None)."""
    a = empty(shape, np.array(fill_value).dtype if dtype is None else dtype, ctx, order)
    a.fill(fill_value)
    return a


def ones(shape: Any, dtype: Any = np.float64, ctx: Optional[Context] = None,
         order: str = "C") -> Array:
    return full(shape, 1, dtype, ctx, order)


def empty_like(a: Array, dtype: Any = None) -> Array:
    """A new device array of a's shape, order and context (and dtype unless given)."""
    return empty(a.shape, a.dtype if dtype is None else dtype, a.ctx, a.order)


def zeros_like(a: Array, dtype: Any = None) -> Array:
    return zeros(a.shape, a.dtype if dtype is None else dtype, a.ctx, a.order)


def ones_like(a: Array, dtype: Any = None) -> Array:
    return ones(a.shape, a.dtype if dtype is None else dtype, a.ctx, a.order)


def full_like(a: Array, fill_value: Any, dtype: Any = None) -> Array:
    return full(a.shape, fill_value, a.dtype if dtype is None else dtype, a.ctx, a.order)


def asarray(a: Any, dtype: Any = None, ctx: Optional[Context] = None) -> Array:
    """A device array of ``a``: a lockstep.Array as it is; a ``pyopencl.array.Array`` of the
    context's OpenCL context wrapped without a copy (one at an offset is copied on the device);
    anything NumPy takes (native byte order, C or Fortran order and 0-d kept) written to the
    device. A dtype the device arrays do not take (object, complex, int8, ...) is a TypeError."""
    if isinstance(a, Array):
        if dtype is not None and np.dtype(dtype) != a.dtype:
            raise TypeError(f"lockstep.asarray: the device array is {a.dtype}, not "
                            f"{np.dtype(dtype)} (convert on the device: a.astype(...))")
        return a
    if type(a).__module__.startswith("pyopencl"):
        array_dtype("lockstep.asarray", a.dtype)
        return _wrap_pyopencl(a, ctx)
    h = np.asarray(a, dtype=dtype)
    native = array_dtype("lockstep.asarray", h.dtype)  # before any copy of an object array
    order = "F" if h.ndim > 1 and h.flags.f_contiguous and not h.flags.c_contiguous else "C"
    h = np.require(h.astype(native, copy=False), requirements=order)
    out = Array._new(h.shape, native, context_or_default(ctx), order)
    out._buf.write(h.reshape(-1, order="A") if h.ndim else h.reshape(1), 0)
    return out


def _wrap_pyopencl(a: Any, ctx: Optional[Context]) -> Array:
    ctx = ctx or getattr(a, "_lockstep_ctx", None) or _context_of(a.context, a.queue)
    order = "F" if a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        raise InputError("lockstep.asarray: the pyopencl array is not contiguous")
    buf = _lockstep._Buffer.from_int_ptr(ctx, a.base_data.int_ptr)
    arr = Array(buf, a.shape, a.dtype, order, a.queue, a) if a.offset == 0 else None
    if arr is None:  # at an offset: a device-side copy into a buffer of its own
        src = Array(buf, (buf.nbytes,), np.uint8, "C", a.queue, a)
        src._before_use()
        arr = Array._new(a.shape, a.dtype, ctx, order)
        arr._buf.copy_from(buf, a.offset, arr.nbytes)
        arr._foreign_queue, arr._owner = a.queue, a
    return arr


_contexts: "weakref.WeakValueDictionary[int, Context]" = weakref.WeakValueDictionary()


def _context_of(context: Any, queue: Any) -> Context:
    """The lockstep context of a PyOpenCL context (one per OpenCL context, kept while used)."""
    c = _contexts.get(context.int_ptr)
    if c is None:
        c = from_pyopencl(context, queue)
    return c


def from_pyopencl(context: Any, queue: Any = None) -> Context:
    """A lockstep.Context in a PyOpenCL context: on ``queue`` itself when it is in order with
    profiling enabled (``pyopencl.CommandQueue(ctx, properties=PROFILING_ENABLE)``), else on a
    queue of its own in that context, ordered against ``queue`` with events."""
    if queue is not None and queue.context.int_ptr != context.int_ptr:
        raise InputError("lockstep.Context.from_pyopencl: the queue belongs to another OpenCL "
                         "context")
    device = queue.device if queue is not None else context.devices[0]
    c = Context._from_handles(context.int_ptr, device.int_ptr, queue.int_ptr if queue else 0)
    c._pyopencl_context, c._pyopencl_queue = context, queue
    _contexts[context.int_ptr] = c
    return c


def free_cached_buffers(ctx: Optional[Context] = None) -> None:
    """Releases the device buffers lockstep keeps from dead arrays for the next array of the same
    size (at most 1/8 of the device memory; as CuPy's ``MemoryPool.free_all_blocks``)."""
    _lockstep._free_cached_buffers(context_or_default(ctx))


def synchronize(ctx: Optional[Context] = None) -> None:
    """Waits until every command lockstep enqueued on the context has finished (clFinish)."""
    _lockstep._finish(context_or_default(ctx))


Context.from_pyopencl = staticmethod(from_pyopencl)
Context.synchronize = lambda self: synchronize(self)
Context.shares_queue = property(lambda self: _lockstep._context_handles(self)[3])
