"""Device arrays: ``lockstep.Array``, an OpenCL buffer of a lockstep.Context with a shape, a dtype
(bool, int32, uint32, int64, uint64, float32 or float64) and C or Fortran order. Creating them
(asarray, empty, zeros, ones, full, the ``*_like`` functions, PyOpenCL interop): _creation.py;
their operators and reductions: _arith.py (which installs the operators on Array).

Arithmetic runs on the device (cl/elementwise.cl) and returns new device arrays: ``+ - * /`` with
an array of the same shape or a scalar (either side), unary ``-``, and the comparisons ``== != <
<= > >=`` (device arrays of bool); ``+= -= *= /=`` write into the array itself, as NumPy's
``ufunc(a, b, out=a)`` (its "same_kind" casting rule and TypeError). Result dtypes are NumPy's
(asked of NumPy itself, once per pair of dtypes and for each scalar: ``int32 / int32`` is
float64, ``float32 * 2.5`` float32); operands are converted on the device. No broadcasting
beyond scalars and 0-d device arrays (a value kept on the device: ``alpha * p``). Reductions
return NumPy scalars on the host (each is one blocking read): ``sum``, ``dot``, ``vdot``,
``norm``; ``dot``/``vdot`` with ``out=`` (a 0-d array) keep the result on the
device instead. ``a[i:j]`` (1-D, step 1) is a copy on the device; ``a[i]``, ``float(a)`` and
``bool(a)`` (one element) read a host scalar. ``lockstep.device_reads()`` counts the reads.

Calls that take a device array (spmv, ``Matrix @``, cg, the sorts) return device arrays; their
kernels are enqueued on the context's in-order queue and not waited for. The synchronisation points
are explicit: ``Array.get()`` / ``numpy.asarray(a)`` (a blocking read), the reductions,
``lockstep.synchronize(ctx)`` (clFinish). ``numpy.array(a, copy=False)`` raises (NumPy 2's
protocol: a device array has no host memory to view).
"""
from __future__ import annotations

import math
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from . import _lockstep
from ._context import Context
from ._errors import InputError

DTYPES = tuple(np.dtype(d) for d in (np.bool_, np.int32, np.uint32, np.int64, np.uint64,
                                      np.float32, np.float64))
KEY_DTYPES = tuple(dtype.type for _, dtype in _lockstep.key_types())  # the sorts' keys
_reads = [0]


def device_reads() -> int:
    """How many blocking device-to-host reads lockstep.Array has made in this process (``get``,
    ``numpy.asarray(a)``, ``a[i]``, ``bool(a)``, sum/dot/vdot/norm): count an iteration's."""
    return _reads[0]


_accepted: Dict[Any, np.dtype] = {}  # what array_dtype took, by the argument: its answer


def array_dtype(what: str, dtype: Any) -> np.dtype:
    """`dtype` in native byte order when device arrays take it, else TypeError naming it."""
    try:
        return _accepted[dtype]
    except (KeyError, TypeError):  # not seen yet, or not hashable
        pass
    d = np.dtype(dtype)
    d = d.newbyteorder("=") if d.byteorder not in "=|" else d
    if d not in DTYPES:
        raise TypeError(f"{what}: dtype {d} is not supported on the device; accepted: "
                        f"{', '.join(t.name for t in DTYPES)}")
    try:
        _accepted[dtype] = d
    except TypeError:
        pass
    return d


class Array:
    """An n-dimensional array in device memory (see the module docstring). Attributes: ``shape``,
    ``dtype``, ``ndim``, ``size``, ``nbytes``, ``order`` ("C" or "F"), ``ctx`` and ``queue`` (the
    lockstep.Context whose in-order queue orders its work, or the PyOpenCL queue it came with)."""

    __array_ufunc__ = None  # NumPy defers to Array's operators (no silent read to the host)
    __hash__ = None  # type: ignore[assignment]  # == is elementwise (_arith.py)

    def __init__(self, buffer: Any, shape: Sequence[int], dtype: Any, order: str = "C",
                 queue: Any = None, owner: Any = None) -> None:
        self._buf = buffer
        self.shape: Tuple[int, ...] = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        if self.dtype.hasobject:
            raise TypeError("lockstep.Array: dtype object is not supported on the device")
        self.order = "F" if order == "F" and len(self.shape) > 1 else "C"
        self.ctx: Context = buffer.ctx
        self._foreign_queue = queue  # a PyOpenCL queue other than lockstep's
        self._owner = owner          # keeps a wrapped PyOpenCL array alive
        if self.nbytes > buffer.nbytes:
            raise InputError(f"lockstep.Array: {self.nbytes} bytes do not fit a buffer of "
                             f"{buffer.nbytes}")

    @classmethod
    def _new(cls, shape: Sequence[int], dtype: Any, ctx: Context, order: str = "C") -> "Array":
        shape = tuple(int(s) for s in shape)
        if any(s < 0 for s in shape):
            raise InputError(f"lockstep.Array: negative dimensions in shape {shape}")
        dtype = np.dtype(dtype)
        if dtype.hasobject:
            raise TypeError("lockstep.Array: dtype object is not supported on the device")
        return cls._alloc(shape, dtype, ctx, "F" if order == "F" and len(shape) > 1 else "C")

    @classmethod
    def _alloc(cls, shape: Tuple[int, ...], dtype: np.dtype, ctx: Context, order: str) -> "Array":
        """A new array of checked arguments (shape a tuple of ints >= 0, dtype a device dtype,
        order "C" or "F" as the array keeps it): the operators' path, without __init__'s
        conversions and checks."""
        a = object.__new__(cls)
        a._buf = _lockstep._Buffer(ctx, math.prod(shape) * dtype.itemsize)
        a.shape, a.dtype, a.order, a.ctx = shape, dtype, order, ctx
        a._foreign_queue = a._owner = None
        return a

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: math.prod(self.shape))
    nbytes = property(lambda self: self.size * self.dtype.itemsize)
    queue = property(lambda self: self._foreign_queue or self.ctx)
    int_ptr = property(lambda self: self._buf.export(),
                       doc="the cl_mem handle, as PyOpenCL's (the buffer then never returns to "
                           "lockstep's pool of free buffers)")

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d lockstep.Array")
        return self.shape[0]

    def get(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The values in a NumPy array (a blocking read: a synchronisation point)."""
        if out is None:
            out = np.empty(self.shape, self.dtype, order=self.order)
        elif out.shape != self.shape or out.dtype != self.dtype:
            raise InputError(f"lockstep.Array.get: out must be {self.shape} {self.dtype}")
        self._before_use()
        self._buf.read(out.reshape(-1, order="A") if out.ndim else out.reshape(1), 0)
        _reads[0] += 1
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if copy is False:
            raise ValueError("lockstep.Array: device memory cannot be viewed as a NumPy array "
                             "without a copy (copy=False); use a.get()")
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError("The truth value of a lockstep.Array with more than one element "
                             "is ambiguous (use (a == b).get().all())")
        return bool(self._one("bool"))

    def __getitem__(self, key: Any) -> Any:
        """``a[i]``: a host scalar (a read); ``a[i:j]`` (1-D, step 1): a device copy."""
        if self.ndim != 1:
            raise NotImplementedError("lockstep.Array: indexing is 1-D only (reshape first)")
        if isinstance(key, slice):
            start, stop, step = key.indices(self.shape[0])
            if step != 1:
                raise NotImplementedError("lockstep.Array: slices with step 1 only")
            n = max(0, stop - start)
            out = Array._new((n,), self.dtype, self.ctx)
            self._before_use()
            out._buf.copy_from(self._buf, start * self.dtype.itemsize, out.nbytes)
            return out
        i = int(key)
        if not -self.shape[0] <= i < self.shape[0]:
            raise IndexError(f"index {i} is out of bounds for a lockstep.Array of {self.shape[0]}")
        return self[i % self.shape[0]:i % self.shape[0] + 1].get()[0]

    def copy(self) -> "Array":
        """A new device array with the same values (a device-side copy, C or F order kept)."""
        out = Array._new(self.shape, self.dtype, self.ctx, self.order)
        self._before_use()
        out._buf.copy_from(self._buf, 0, self.nbytes)
        return out

    def astype(self, dtype: Any, copy: bool = True) -> "Array":
        """The values converted to `dtype` on the device, as NumPy's astype (floats to integers
        truncate; to bool: x != 0); the array itself when the dtype is the same and copy=False."""
        d = array_dtype("lockstep.Array.astype", dtype)
        if d == self.dtype:
            return self.copy() if copy else self
        out = Array._new(self.shape, d, self.ctx, self.order)
        self._before_use()
        _lockstep._ew_cast(self.ctx, self.dtype.name, d.name, self._buf, out._buf, self.size)
        return out

    def fill(self, value: Any) -> None:
        """Sets every element to `value` (converted as NumPy's ``a.fill``), on the device."""
        v = np.array(value).astype(self.dtype)
        self._before_use()
        self._buf.fill(v.tobytes(), self.nbytes)

    def reshape(self, *shape: Any, order: str = "C") -> "Array":
        """The same buffer seen with another shape (no copy; one dimension may be -1; a 2-D
        array keeps its order)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(s) for s in shape)
        if shape.count(-1) == 1:
            rest = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
            shape = tuple(self.size // rest if s == -1 and rest else s for s in shape)
        if (int(np.prod(shape, dtype=np.int64)) != self.size
                or (self.ndim > 1 and len(shape) > 1 and order != self.order)):
            raise InputError(f"lockstep.Array.reshape: {self.shape} -> {shape} needs a copy")
        return Array(self._buf, shape, self.dtype, order, self._foreign_queue, self._owner)

    def sort(self, descending: bool = False, algorithm: str = "auto", barrier: str = "auto",
             local_size: int = 0) -> None:
        """Sorts a 1-D array in place, like ``numpy.ndarray.sort`` (lockstep.sort's keys, order
        and options; no copy, no host transfer)."""
        k = device_keys("lockstep.Array.sort", self)
        _lockstep.sort_buffer(k.ctx, k.dtype, k._buf, k.size, None, bool(descending), algorithm,
                              barrier, int(local_size))

    def __float__(self) -> float:
        return float(self._one("float"))

    def __int__(self) -> int:
        return int(self._one("int"))

    def _one(self, what: str) -> Any:
        if self.size != 1:
            raise TypeError(f"only a lockstep.Array of one element converts to {what}")
        return self.get().reshape(())

    def to_pyopencl(self, queue: Any = None) -> Any:
        """The same buffer as a ``pyopencl.array.Array`` on ``queue`` (default: the PyOpenCL queue
        of Context.from_pyopencl), ordered after lockstep's pending work by an event."""
        import pyopencl as cl  # optional: only this method needs it
        import pyopencl.array as cla
        queue = queue or getattr(self.ctx, "_pyopencl_queue", None) or self._foreign_queue
        if queue is None:
            raise InputError("lockstep.Array.to_pyopencl: no PyOpenCL queue (create the context "
                             "with lockstep.Context.from_pyopencl, or pass queue=)")
        order_before(self.ctx, queue)
        data = cl.Buffer.from_int_ptr(self.int_ptr, retain=True)
        return cla.Array(queue, self.shape, self.dtype, order=self.order, data=data)

    def _before_use(self) -> None:
        if self._foreign_queue is not None:
            order_after(self.ctx, self._foreign_queue)

    def __repr__(self) -> str:
        return (f"lockstep.Array(shape={self.shape}, dtype={self.dtype}, order={self.order!r}) "
                f"on {self.ctx.name}")


def device_keys(what: str, k: Array) -> Array:
    """A 1-D device array of a sort key dtype, ordered after its foreign queue."""
    if k.ndim != 1:
        raise InputError(f"{what}: expected a 1-D array, not shape {k.shape}")
    names = [np.dtype(d).name for d in KEY_DTYPES]
    if k.dtype.name not in names:
        raise TypeError(f"{what}: device keys of dtype {k.dtype}; accepted: {', '.join(names)}")
    k._before_use()
    return k


def asarray_like_result(out: Array, like: Any) -> Any:
    """A pyopencl array on the input's queue when the input was one, else the lockstep.Array."""
    if type(like).__module__.startswith("pyopencl"):
        return out.to_pyopencl(like.queue)
    return out


def is_device(a: Any) -> bool:
    return isinstance(a, Array) or type(a).__module__.startswith("pyopencl")


def _queue_ptr(ctx: Context) -> int:
    return _lockstep._context_handles(ctx)[2]


def order_after(ctx: Context, queue: Any) -> None:
    """lockstep's queue waits for what the PyOpenCL `queue` holds now (an event, no host wait)."""
    if queue.int_ptr != _queue_ptr(ctx):
        _check_same_context(ctx, queue)
        _lockstep._order_after(ctx, queue.int_ptr)


def order_before(ctx: Context, queue: Any) -> None:
    """The PyOpenCL `queue` waits for what lockstep's queue holds now."""
    if queue.int_ptr != _queue_ptr(ctx):
        _check_same_context(ctx, queue)
        _lockstep._order_before(ctx, queue.int_ptr)


def _check_same_context(ctx: Context, queue: Any) -> None:
    if queue.context.int_ptr != _lockstep._context_handles(ctx)[0]:
        raise InputError("lockstep: the PyOpenCL queue belongs to another OpenCL context than "
                         f"the array's ({ctx.name}); use lockstep.Context.from_pyopencl(context, "
                         "queue) and arrays of that context")
