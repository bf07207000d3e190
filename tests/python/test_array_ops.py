"""Device-array arithmetic (cl/elementwise.cl) against NumPy for every dtype lockstep.Array takes:
+ - * / with arrays and scalars on either side, unary minus, comparisons (device bools), sum, dot,
vdot, norm, copy, astype, fill, the creation functions, slicing, reshape; refused dtypes; the
read counter; and a CG written over lockstep.Array and Matrix (the README's example)."""
import numpy as np
import pytest

import lockstep

DTYPES = [np.bool_, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]


def values(rng, dtype, n=300):
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    if np.dtype(dtype).kind in "iu":
        lo = 0 if np.dtype(dtype).kind == "u" else -1000
        return rng.integers(lo, 1000, n).astype(dtype)
    return (rng.standard_normal(n) * 100).astype(dtype)


def same(dev, expected):
    assert isinstance(dev, lockstep.Array)
    got = dev.get()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_elementwise_matches_numpy(rng, dtype):
    h, g = values(rng, dtype), values(rng, dtype)
    if np.dtype(dtype).kind in "iuf":
        g[g == 0] = 1  # no division by zero
    a, b = lockstep.asarray(h), lockstep.asarray(g)
    ops = [("==", np.equal), ("!=", np.not_equal), ("<", np.less), ("<=", np.less_equal),
           (">", np.greater), (">=", np.greater_equal)]
    if dtype != np.bool_:
        ops += [("+", np.add), ("-", np.subtract), ("*", np.multiply), ("/", np.true_divide)]
    for sym, ufunc in ops:
        with np.errstate(all="ignore"):
            same(eval(f"a {sym} b"), ufunc(h, g))
            same(eval(f"a {sym} 3"), ufunc(h, 3))
            same(eval(f"3 {sym} b"), ufunc(3, g))
            if dtype != np.bool_:
                same(eval(f"a {sym} 2.5"), ufunc(h, 2.5))
    if dtype != np.bool_:
        with np.errstate(all="ignore"):
            same(-a, -h)
    if np.dtype(dtype).kind == "f":
        assert np.isclose(a.sum(), h.sum(), rtol=1e-5)
    else:
        assert a.sum() == h.sum()
    assert a.sum().dtype == h.sum().dtype
    for mine, theirs in ((lockstep.dot(a, b), np.dot(h, g)), (a.dot(b), np.dot(h, g)),
                         (lockstep.vdot(a, b), np.vdot(h, g))):
        assert mine.dtype == theirs.dtype
        if np.dtype(dtype).kind == "f":
            assert np.isclose(mine, theirs, rtol=1e-5)
        else:
            assert mine == theirs
    n = lockstep.norm(a)
    assert n.dtype == np.linalg.norm(h).dtype and np.isclose(n, np.linalg.norm(h), rtol=1e-5)
    for to in DTYPES:  # negative floats to unsigned are undefined in C and NumPy alike
        src = np.abs(h) if np.dtype(dtype).kind == "f" and np.dtype(to).kind == "u" else h
        with np.errstate(all="ignore"):
            same(lockstep.asarray(src).astype(to), src.astype(to))
    c = a.copy()
    c.fill(1)
    same(c, np.ones_like(h))
    same(a, h)  # the copy was filled, not a


def test_mixed_dtypes_and_scalars_follow_numpy(rng):
    h32, h64 = values(rng, np.float32), values(rng, np.float64)
    i32 = values(rng, np.int32)
    a32, a64, ai = lockstep.asarray(h32), lockstep.asarray(h64), lockstep.asarray(i32)
    same(a32 + a64, h32 + h64)
    same(ai / 7, i32 / 7)  # int / int: float64
    same(ai * 1.5, i32 * 1.5)
    same(a32 * np.float64(2), h32 * np.float64(2))
    same(ai + a32, i32 + h32)
    with pytest.raises(TypeError, match="lockstep.asarray"):
        a32 + h32  # a host array is not uploaded silently
    with pytest.raises(TypeError):
        h32 + a32  # NumPy defers to Array (__array_ufunc__ = None), which refuses
    with pytest.raises(lockstep.InputError, match="same shape"):
        a32 + lockstep.asarray(h32[:5])


def test_equality_is_elementwise_not_identity(rng):
    h = values(rng, np.float64, 10)
    a, b = lockstep.asarray(h), lockstep.asarray(h.copy())
    eq = a == b
    assert isinstance(eq, lockstep.Array) and eq.dtype == np.bool_
    assert eq.get().all()
    assert not (a != b).get().any()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(a == b)
    assert bool(lockstep.asarray([2.0]) == 2.0)
    with pytest.raises(TypeError):
        hash(a)


def test_creation_slicing_reshape(ctx, rng):
    same(lockstep.ones(5, np.int32), np.ones(5, np.int32))
    same(lockstep.full((2, 3), 7.5), np.full((2, 3), 7.5))
    same(lockstep.full(4, 3, dtype=np.uint64), np.full(4, 3, np.uint64))
    h = values(rng, np.float64, 12)
    a = lockstep.asarray(h)
    same(lockstep.zeros_like(a), np.zeros_like(h))
    same(lockstep.ones_like(a, dtype=np.float32), np.ones_like(h, dtype=np.float32))
    same(lockstep.full_like(a, -2), np.full_like(h, -2))
    e = lockstep.empty_like(a)
    assert e.shape == a.shape and e.dtype == a.dtype and e.ctx is ctx
    s = a[2:9]  # a copy on the device
    same(s, h[2:9])
    same(a[-3:], h[-3:])
    assert a[4] == h[4] and a[-1] == h[-1]
    with pytest.raises(NotImplementedError, match="step 1"):
        a[::2]
    with pytest.raises(IndexError):
        a[12]
    same(a.reshape(3, 4), h.reshape(3, 4))
    same(a.reshape(-1, 6), h.reshape(-1, 6))
    z = lockstep.asarray(3.0)
    assert z.shape == () and z.get().shape == () and float(z.get()) == 3.0


@pytest.mark.parametrize("bad", [np.dtype(object), np.complex128, np.int8, np.float16, "U3"])
def test_unsupported_dtypes_are_refused(bad):
    with pytest.raises(TypeError, match=str(np.dtype(bad))):
        lockstep.empty(10, dtype=bad)
    with pytest.raises(TypeError, match=str(np.dtype(bad))):
        lockstep.asarray(np.zeros(3, dtype=bad))


def test_object_array_is_refused_not_a_crash():
    o = np.empty(1000, object)
    o[:] = [[i] for i in range(1000)]
    with pytest.raises(TypeError, match="object"):
        lockstep.asarray(o)


def test_no_silent_copy_and_read_counter(rng):
    a = lockstep.asarray(values(rng, np.float64, 8))
    with pytest.raises(ValueError, match="copy=False"):
        a.__array__(copy=False)
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        with pytest.raises(ValueError):
            np.array(a, copy=False)
    before = lockstep.device_reads()
    b = a * 2 + 1 - a  # three kernels, no reads
    assert lockstep.device_reads() == before
    b.get()
    lockstep.norm(b)
    assert lockstep.device_reads() == before + 2


def test_argsort_returns_intp(rng):
    h = values(rng, np.float32, 100)
    p = lockstep.argsort(h, algorithm="radix")
    assert p.dtype == np.intp
    np.testing.assert_array_equal(p, np.argsort(h, kind="stable"))
    d = lockstep.argsort(lockstep.asarray(h))
    assert d.dtype == np.intp
    np.testing.assert_array_equal(d.get(), np.argsort(h, kind="stable"))


def device_cg(A, b, rtol=1e-8, maxiter=1000):
    """The README's example: CG over lockstep.Array and Matrix; the scalars stay on the device
    (0-d arrays), the one read per iteration is the convergence check."""
    x = lockstep.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rr = lockstep.dot(r, r, out=lockstep.empty((), b.dtype))
    stop = rtol**2 * float(rr)
    for k in range(maxiter):
        if float(rr) <= stop:  # the read
            return x, k
        Ap = A @ p
        alpha = rr / lockstep.dot(p, Ap, out=lockstep.empty((), b.dtype))
        x = x + alpha * p
        r = r - alpha * Ap
        rr_new = lockstep.dot(r, r, out=lockstep.empty((), b.dtype))
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x, maxiter


def test_cg_written_over_device_arrays(root):
    A = lockstep.read_matrix_market(f"{root}/matrices/laplace2d_64.mtx")
    M = lockstep.Matrix(A)
    b = lockstep.ones(A.shape[0])
    before = lockstep.device_reads()
    x, iterations = device_cg(M, b)
    reads = lockstep.device_reads() - before
    assert 0 < iterations < 1000
    assert reads == iterations + 2  # ||b||^2 once, then one convergence check per iteration
    xh = x.get()
    assert np.linalg.norm(np.ones(A.shape[0]) - A @ xh) <= 1e-7 * np.sqrt(A.shape[0])
    ref, info = lockstep.cg(M, np.ones(A.shape[0]), rtol=1e-8)
    assert info == 0
    np.testing.assert_allclose(xh, ref, rtol=1e-6, atol=1e-8)


def test_device_scalars_broadcast(rng):
    h = values(rng, np.float64, 50)
    a = lockstep.asarray(h)
    d = lockstep.dot(a, a, out=lockstep.empty((), np.float64))
    assert d.shape == () and np.isclose(float(d), h @ h)
    np.testing.assert_allclose((d * a).get(), (h @ h) * h)
    np.testing.assert_allclose((a / d).get(), h / (h @ h))
    np.testing.assert_allclose((a - d).get(), h - h @ h)
