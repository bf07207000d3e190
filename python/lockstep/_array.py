"""Device arrays: ``lockstep.Array`` (an OpenCL buffer of a lockstep.Context with a shape, a dtype
and C or Fortran order), ``asarray``/``empty``/``zeros``, and PyOpenCL interop.

Calls that take a device array (spmv, ``Matrix @``, cg, sort/argsort/sort_pairs) return device
arrays and move nothing through host memory: their kernels are enqueued on the context's in-order
queue and not waited for (sort and cg wait: they time their kernels and read scalars). The
synchronisation points are explicit: ``Array.get()`` / ``numpy.asarray(a)`` (a blocking read),
``lockstep.synchronize(ctx)`` (clFinish). A ``pyopencl.array.Array`` of the context's OpenCL context
(``lockstep.Context.from_pyopencl(context, queue)``) is taken without a copy and the result comes
back as a ``pyopencl.array.Array`` on its queue; when that queue is not lockstep's own, the two are
ordered with OpenCL events (a marker on one, a barrier on the other), never a host wait.

``__dlpack__`` is not offered: DLPack's kDLOpenCL device type carries a raw pointer plus a device
id, but an OpenCL buffer is a cl_mem handle (no device pointer without the SVM or
cl_ext_buffer_device_address extensions, which PoCL's CPU device and NVIDIA's OpenCL lack), and no
consumer (NumPy, PyTorch, CuPy, JAX) imports kDLOpenCL tensors; PyOpenCL's arrays are the interop.
"""
from __future__ import annotations

import weakref
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _lockstep
from ._context import Context, context_or_default
from ._errors import InputError


class Array:
    """An n-dimensional array in device memory (see the module docstring). Attributes: ``shape``,
    ``dtype``, ``ndim``, ``size``, ``nbytes``, ``order`` ("C" or "F"), ``ctx`` and ``queue`` (the
    lockstep.Context whose in-order queue orders its work, or the PyOpenCL queue it came with)."""

    def __init__(self, buffer: Any, shape: Sequence[int], dtype: Any, order: str = "C",
                 queue: Any = None, owner: Any = None) -> None:
        self._buf = buffer
        self.shape: Tuple[int, ...] = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.order = "F" if order == "F" and len(self.shape) > 1 else "C"
        self.ctx: Context = buffer.ctx
        self._foreign_queue = queue  # a PyOpenCL queue other than lockstep's
        self._owner = owner          # keeps a wrapped PyOpenCL array alive
        if self.nbytes > buffer.nbytes:
            raise InputError(f"lockstep.Array: {self.nbytes} bytes do not fit a buffer of "
                             f"{buffer.nbytes}")

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))
    nbytes = property(lambda self: self.size * self.dtype.itemsize)
    queue = property(lambda self: self._foreign_queue or self.ctx)
    int_ptr = property(lambda self: self._buf.export(),
                       doc="the cl_mem handle, as PyOpenCL's (the buffer then never returns to "
                           "lockstep's pool of free buffers)")

    def __len__(self) -> int:
        return self.shape[0]

    def get(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The values in a NumPy array (a blocking read: a synchronisation point)."""
        if out is None:
            out = np.empty(self.shape, self.dtype, order=self.order)
        elif out.shape != self.shape or out.dtype != self.dtype:
            raise InputError(f"lockstep.Array.get: out must be {self.shape} {self.dtype}")
        self._before_use()
        self._buf.read(out.reshape(-1, order="A") if out.ndim else out, 0)
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    def sort(self, descending: bool = False, algorithm: str = "auto", barrier: str = "auto",
             local_size: int = 0) -> None:
        """Sorts a 1-D array in place, like ``numpy.ndarray.sort`` (lockstep.sort's keys, order
        and options; no copy, no host transfer)."""
        from ._device_ops import device_sort_in_place
        device_sort_in_place(self, descending, algorithm, barrier, local_size)

    def reshape(self, *shape: Any, order: str = "C") -> "Array":
        """The same buffer seen with another shape (no copy; the layout must allow it)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if (int(np.prod(shape, dtype=np.int64)) != self.size
                or (self.ndim > 1 and order != self.order)):
            raise InputError(f"lockstep.Array.reshape: {self.shape} -> {shape} needs a copy")
        return Array(self._buf, shape, self.dtype, order, self._foreign_queue, self._owner)

    def to_pyopencl(self, queue: Any = None) -> Any:
        """The same buffer as a ``pyopencl.array.Array`` on ``queue`` (default: the PyOpenCL queue
        of Context.from_pyopencl), ordered after lockstep's pending work by an event."""
        import pyopencl as cl
        import pyopencl.array as cla
        queue = queue or getattr(self.ctx, "_pyopencl_queue", None) or self._foreign_queue
        if queue is None:
            raise InputError("lockstep.Array.to_pyopencl: no PyOpenCL queue (create the context "
                             "with lockstep.Context.from_pyopencl, or pass queue=)")
        _order_before(self.ctx, queue)
        data = cl.Buffer.from_int_ptr(self.int_ptr, retain=True)
        return cla.Array(queue, self.shape, self.dtype, order=self.order, data=data)

    def _before_use(self) -> None:
        if self._foreign_queue is not None:
            _order_after(self.ctx, self._foreign_queue)

    def __repr__(self) -> str:
        return (f"lockstep.Array(shape={self.shape}, dtype={self.dtype}, order={self.order!r}) "
                f"on {self.ctx.name}")


def _queue_ptr(ctx: Context) -> int:
    return _lockstep._context_handles(ctx)[2]


def _order_after(ctx: Context, queue: Any) -> None:
    if queue.int_ptr != _queue_ptr(ctx):
        _lockstep._order_after(ctx, queue.int_ptr)


def _order_before(ctx: Context, queue: Any) -> None:
    if queue.int_ptr != _queue_ptr(ctx):
        _lockstep._order_before(ctx, queue.int_ptr)


def empty(shape: Any, dtype: Any = np.float64, ctx: Optional[Context] = None,
          order: str = "C") -> Array:
    """A new device array, uninitialised."""
    shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
    dtype = np.dtype(dtype)
    ctx = context_or_default(ctx)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    return Array(_lockstep._Buffer(ctx, nbytes), shape, dtype, order)


def zeros(shape: Any, dtype: Any = np.float64, ctx: Optional[Context] = None,
          order: str = "C") -> Array:
    """A new device array of zero bytes (clEnqueueFillBuffer: 0 and 0.0 for every dtype)."""
    a = empty(shape, dtype, ctx, order)
    a._buf.fill_zero()
    return a


def is_device(a: Any) -> bool:
    return isinstance(a, Array) or type(a).__module__.startswith("pyopencl")


def asarray(a: Any, dtype: Any = None, ctx: Optional[Context] = None) -> Array:
    """A device array of ``a``: a lockstep.Array as it is; a ``pyopencl.array.Array`` of the
    context's OpenCL context wrapped without a copy (one at an offset is copied on the device);
    anything NumPy takes (native byte order, C or Fortran order kept) written to the device."""
    if isinstance(a, Array):
        if dtype is not None and np.dtype(dtype) != a.dtype:
            raise TypeError(f"lockstep.asarray: the device array is {a.dtype}, not "
                            f"{np.dtype(dtype)} (convert on the host: lockstep.asarray(a.get().astype(...)))")
        return a
    if type(a).__module__.startswith("pyopencl"):
        return _wrap_pyopencl(a, ctx)
    h = np.asarray(a, dtype=dtype)
    h = h.astype(h.dtype.newbyteorder("="), copy=False)
    order = "F" if h.ndim > 1 and h.flags.f_contiguous and not h.flags.c_contiguous else "C"
    h = np.asfortranarray(h) if order == "F" else np.ascontiguousarray(h)
    out = empty(h.shape, h.dtype, ctx, order)
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
        arr = empty(a.shape, a.dtype, ctx, order)
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
