"""lockstep.Array's arithmetic on the device (cl/elementwise.cl through lockstep._lockstep):
``+ - * /`` and the comparisons with an array of the same shape, a scalar or a 0-d device array,
in the dtype NumPy gives (asked of NumPy once per pair of dtypes, and for each scalar); the
in-place ``+= -= *= /=``; unary minus; sum, dot, vdot and norm. Installs the operators on
lockstep.Array (bottom of this file)."""
from __future__ import annotations

import math
import numbers
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _lockstep
from ._array import Array, _reads, array_dtype, order_before
from ._errors import InputError

_SUM_TYPES = {"float": np.float32, "double": np.float64, "long": np.int64, "ulong": np.uint64}
_ARITH = {"add": 0, "subtract": 1, "multiply": 2, "true_divide": 3}
_COMPARE = {"equal": 0, "not_equal": 1, "less": 2, "less_equal": 3, "greater": 4,
            "greater_equal": 5}


def _scalar(x: Any) -> bool:
    return isinstance(x, (numbers.Number, np.generic)) and not isinstance(x, (complex,
                                                                              np.complexfloating))


# (work dtype, its name, result dtype, kernel entry, op code, a zero scalar of work's bytes) of
# `self op other`, for a pair of device dtypes: NumPy's answer, asked once per pair (a scalar's
# depends on its value under NumPy 1's casting rules, so those are asked each time)
_Spec = Tuple[np.dtype, str, np.dtype, Any, int, bytes]
_SPECS: Dict[Tuple[str, bool, np.dtype, np.dtype], _Spec] = {}


def _spec(name: str, reflected: bool, dtype: np.dtype, probe: Any) -> _Spec:
    """How `x op probe` (`probe op x` when reflected) runs for x of `dtype`: NumPy's result
    dtype, computed in a dtype the kernels take; TypeError for arithmetic of bools."""
    ufunc = getattr(np, name)
    compare = name in _COMPARE
    like = np.ones(1, dtype)
    out_dtype = (ufunc(probe, like) if reflected else ufunc(like, probe)).dtype
    work = np.result_type(like, probe) if compare else out_dtype
    if work == np.bool_ and not compare:
        raise TypeError(f"lockstep.Array: {name} of bool arrays (convert with astype first)")
    work = array_dtype(f"lockstep.Array {name}", _widened(work))
    if compare:
        return work, work.name, np.dtype(np.bool_), _lockstep._ew_compare, _COMPARE[name], \
            np.zeros((), work).tobytes()
    return work, work.name, work, _lockstep._ew_binary, _ARITH[name], np.zeros((), work).tobytes()


def _array_spec(name: str, reflected: bool, a: Array, b: Array) -> _Spec:
    key = (name, reflected, a.dtype, b.dtype)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _spec(name, reflected, a.dtype, np.ones(1, b.dtype))
    return spec


def _check_pair(self: Array, other: Array, name: str) -> None:
    if (other.shape != self.shape and () not in (self.shape, other.shape)) or \
            other.ctx is not self.ctx or (self.ndim > 1 and other.ndim > 1
                                          and other.order != self.order):
        raise InputError(f"lockstep.Array: {name} of shapes {self.shape} and "
                         f"{other.shape} (the same shape, or a 0-d array, in one "
                         "context and order)")


def _operands(self: Array, other: Any, name: str, reflected: bool) -> Any:
    """(spec, other is an array): NotImplemented for what Array does not combine with."""
    if isinstance(other, Array):
        _check_pair(self, other, name)
        return _array_spec(name, reflected, self, other), True
    if _scalar(other):
        return _spec(name, reflected, self.dtype, other), False
    if isinstance(other, (np.ndarray, list, tuple)):
        raise TypeError(f"lockstep.Array: {name} with a host {type(other).__name__} (upload "
                        "it with lockstep.asarray first: no silent transfer)")
    return NotImplemented


def _launch(self: Array, other: Any, spec: _Spec, is_array: bool, reflected: bool,
            out: Optional[Array]) -> Array:
    """Enqueues self op other (other op self when reflected) into `out` (None: a new array)."""
    work, wname, out_dtype, fn, code, scalar = spec
    a = self if self.dtype == work else self.astype(work)
    a._before_use()
    if is_array:
        o = other if other.dtype == work else other.astype(work)
        o._before_use()
        if reflected:  # other op self
            a, o = o, a
        if a.shape == o.shape:
            b, mode = o, 0
        elif o.shape == ():  # x = a[i], y = the device value o[0]
            b, mode = o, 3
        else:  # x = the device value a[0], y = o[i]
            a, b, mode = o, a, 4
        b = b._buf
    else:
        b, mode = None, (2 if reflected else 1)
        scalar = np.array(other).astype(work).tobytes()
    if out is None:
        out = Array._alloc(a.shape, out_dtype, self.ctx, a.order)
    fn(self.ctx, wname, code, mode, a._buf, b, scalar, out._buf, math.prod(a.shape))
    return out


def _operation(self: Array, other: Any, name: str, reflected: bool = False) -> Any:
    """self op other (other op self when reflected) on the device, in NumPy's result dtype."""
    how = _operands(self, other, name, reflected)
    if how is NotImplemented:
        return how
    return _launch(self, other, how[0], how[1], reflected, None)


def _in_place(self: Array, other: Any, name: str) -> Any:
    """self op= other as NumPy's ``ufunc(self, other, out=self)``: the result dtype must cast to
    self's under "same_kind" (else NumPy's TypeError), other of self's shape or 0-d."""
    how = _operands(self, other, name, False)
    if how is NotImplemented:
        return how
    spec, is_array = how
    if is_array and other.shape != self.shape and other.shape != ():
        raise InputError(f"lockstep.Array: {name} in place: non-broadcastable output operand "
                         f"with shape {self.shape} doesn't match the broadcast shape "
                         f"{other.shape}")
    if spec[2] != self.dtype:
        like = np.ones(1, self.dtype)  # NumPy's own check and message
        with np.errstate(all="ignore"):
            getattr(np, name)(like, np.ones(1, other.dtype) if is_array else other, out=like)
    if spec[0] == self.dtype:
        _launch(self, other, spec, is_array, False, self)  # out is self: elementwise, in order
    else:  # computed in the wider dtype, then cast into self as NumPy's out= does
        r = _launch(self, other, spec, is_array, False, None)
        _lockstep._ew_cast(self.ctx, r.dtype.name, self.dtype.name, r._buf, self._buf, self.size)
    if self._foreign_queue is not None:  # written on lockstep's queue: the owner's waits
        order_before(self.ctx, self._foreign_queue)
    return self


def _neg(self: Array) -> Array:
    if self.dtype == np.bool_:
        raise TypeError("lockstep.Array: negative of a bool array (NumPy refuses it too)")
    minus_one = self.dtype.type(-1) if self.dtype.kind != "u" else np.iinfo(self.dtype).max
    return _operation(self, minus_one, "multiply")


def _pos(self: Array) -> Array:
    return self.copy()


def _sum(self: Array) -> Any:
    """The sum of all elements, a NumPy scalar of ``numpy.sum``'s dtype (a blocking read;
    floats are added in float64 where the device has it)."""
    return reduce_sum(self, None, np.sum(np.ones(1, self.dtype)).dtype)


def _dot_method(self: Array, other: Array) -> Any:
    """``numpy.dot`` of two 1-D device arrays: a NumPy scalar (a blocking read)."""
    return dot(self, other)


def _widened(d: np.dtype) -> np.dtype:
    """A dtype the kernels take that computes `d`'s results: int8/int16 as int32, uint8/uint16
    as uint32, float16 as float32 (comparisons of a bool array with a small int, say)."""
    if d.kind in "iu" and d.itemsize < 4:
        return np.dtype(np.int32 if d.kind == "i" else np.uint32)
    if d.kind == "f" and d.itemsize < 4:
        return np.dtype(np.float32)
    return d


def reduce_sum(a: Array, b: Optional[Array], dtype: np.dtype) -> Any:
    """sum(a) (b None) or sum(a * b) on the device, as a NumPy scalar of `dtype`."""
    a._before_use()
    if b is not None:
        b._before_use()
    data, kind = _lockstep._ew_sum(a.ctx, a.dtype.name, a._buf, None if b is None else b._buf,
                                   a.size)
    _reads[0] += 1
    total = np.frombuffer(data, _SUM_TYPES[kind]).sum()
    return np.array(total).astype(dtype)[()]


# (work dtype, its name, result dtype) of dot/vdot for a pair of dtypes, asked of NumPy once
_PAIRS: Dict[Tuple[Any, np.dtype, np.dtype], Tuple[np.dtype, str, np.dtype]] = {}


def _pair(what: str, product: Any, a: Any, b: Any) -> Tuple[Array, Array, str, np.dtype]:
    """a and b in the dtype `product` (numpy.dot or numpy.vdot) computes them in, that dtype's
    name, and the result's dtype."""
    if not (isinstance(a, Array) and isinstance(b, Array)):
        raise TypeError(f"{what}: expected two lockstep.Array, not {type(a).__name__} and "
                        f"{type(b).__name__}")
    if a.size != b.size or a.ctx is not b.ctx:
        raise InputError(f"{what}: sizes {a.size} and {b.size} (same size and context only)")
    key = (product, a.dtype, b.dtype)
    spec = _PAIRS.get(key)
    if spec is None:
        work = array_dtype(what, np.result_type(a.dtype, b.dtype))
        spec = _PAIRS[key] = (work, work.name, product(np.ones(1, work), np.ones(1, work)).dtype)
    work, name, dtype = spec
    return (a if a.dtype == work else a.astype(work), b if b.dtype == work else b.astype(work),
            name, dtype)


def _sum_to(a: Array, b: Array, out: Array, name: str, dtype: np.dtype) -> Array:
    if not (isinstance(out, Array) and out.shape == () and out.dtype == dtype
            and out.ctx is a.ctx) or dtype == np.bool_:
        raise InputError(f"lockstep.dot: out must be a 0-d lockstep.Array of {dtype} in the "
                         "operands' context (numeric dtypes)")
    a._before_use()
    b._before_use()
    out._before_use()
    _lockstep._ew_sum_to(a.ctx, name, a._buf, b._buf, a.size, out._buf)
    return out


def dot(a: Array, b: Array, out: Optional[Array] = None) -> Any:
    """``numpy.dot`` of two 1-D device arrays of the same length: a NumPy scalar (one read), or
    with ``out`` (a 0-d device array of the result dtype) kept on the device and ``out``
    returned: no read (device scalars combine with arrays: ``alpha * p``)."""
    if a.ndim != 1 or getattr(b, "ndim", 1) != 1:
        raise InputError("lockstep.dot: 1-D arrays only")
    a, b, name, dtype = _pair("lockstep.dot", np.dot, a, b)
    return reduce_sum(a, b, dtype) if out is None else _sum_to(a, b, out, name, dtype)


def vdot(a: Array, b: Array, out: Optional[Array] = None) -> Any:
    """``numpy.vdot``: the dot product of the flattened arrays (real: no conjugate); ``out`` as
    in lockstep.dot."""
    a, b, name, dtype = _pair("lockstep.vdot", np.vdot, a, b)
    return reduce_sum(a, b, dtype) if out is None else _sum_to(a, b, out, name, dtype)


def norm(x: Array, ord: Any = None) -> Any:
    """``numpy.linalg.norm(x)`` of a device array: the 2-norm of a vector, Frobenius of a
    matrix (ord None, 2 for vectors, "fro"); one read. Other orders: NotImplementedError."""
    if not isinstance(x, Array):
        raise TypeError(f"lockstep.norm: expected a lockstep.Array, not {type(x).__name__}")
    if not (ord is None or (ord == 2 and x.ndim == 1) or (ord == "fro" and x.ndim == 2)):
        raise NotImplementedError(f"lockstep.norm: ord={ord!r} (None, 2 for vectors, 'fro')")
    dtype = np.linalg.norm(np.ones(1, x.dtype)).dtype
    squares = reduce_sum(x, x, np.float64 if x.dtype.kind in "biu" else x.dtype)
    return dtype.type(np.sqrt(np.float64(squares)))


def _install() -> None:
    def op(name: str, reflected: bool = False) -> Any:
        return lambda self, other: _operation(self, other, name, reflected)

    def in_place(name: str) -> Any:
        return lambda self, other: _in_place(self, other, name)

    for dunder, name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                         ("truediv", "true_divide")):
        setattr(Array, f"__{dunder}__", op(name))
        setattr(Array, f"__r{dunder}__", op(name, True))
        setattr(Array, f"__i{dunder}__", in_place(name))
    for dunder, name in (("eq", "equal"), ("ne", "not_equal"), ("lt", "less"),
                         ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
        setattr(Array, f"__{dunder}__", op(name))
    Array.__neg__ = _neg
    Array.__pos__ = _pos
    Array.sum = _sum
    Array.dot = _dot_method


_install()
