"""In-place operators of lockstep.Array (``+= -= *= /=``) against NumPy's ``ufunc(a, b, out=a)``
for every dtype the device arrays take (same array and buffer afterwards, NumPy's values, NumPy's
casting errors), the buffer pool under many live arrays (no two share a buffer; a reused buffer
gives the same results), long dots, and Matrix @ a device vector."""
import numpy as np
import pytest
import scipy.sparse as sp

import lockstep

DTYPES = [np.bool_, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]
OPS = [("+=", np.add), ("-=", np.subtract), ("*=", np.multiply), ("/=", np.true_divide)]


def values(rng, dtype, n=100):
    if np.dtype(dtype).kind in "iu":
        v = rng.integers(1 if np.dtype(dtype).kind == "u" else -1000, 1000, n).astype(dtype)
        v[v == 0] = 1
        return v
    return (rng.standard_normal(n) * 100).astype(dtype)


def numpy_in_place(h, ufunc, other):
    """NumPy's answer: the values, or the exception type it raises."""
    h = h.copy()
    try:
        with np.errstate(all="ignore"):
            ufunc(h, other, out=h)
    except TypeError:
        return TypeError
    return h


def check(a, sym, other, expected):
    before, handle = a, a._buf.int_ptr
    if expected is TypeError:
        with pytest.raises(TypeError):
            exec(f"a {sym} other")
        return
    scope = {"a": a, "other": other}
    exec(f"a {sym} other", scope)
    assert scope["a"] is before and a._buf.int_ptr == handle  # the same array, in place
    got = a.get()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", DTYPES[1:], ids=lambda d: np.dtype(d).name)
def test_in_place_matches_numpy(rng, dtype):
    h = values(rng, dtype)
    for sym, ufunc in OPS:
        for other_dtype in DTYPES[1:]:  # an array of each dtype (casts into a's as NumPy's)
            g = values(rng, other_dtype)
            check(lockstep.asarray(h), sym, lockstep.asarray(g), numpy_in_place(h, ufunc, g))
        for s in (3, 2.5, np.float32(1.5), np.int64(7)):  # scalars
            check(lockstep.asarray(h), sym, s, numpy_in_place(h, ufunc, s))
        d = lockstep.asarray(h[:1].reshape(()))  # a 0-d device array: alpha * p's kind
        check(lockstep.asarray(h), sym, d, numpy_in_place(h, ufunc, h[:1]))
        z = lockstep.asarray(h[:1].reshape(()))  # a 0-d array in place (rr /= pAp)
        check(z, sym, d, numpy_in_place(h[:1].reshape(()), ufunc, h[:1].reshape(())))


def test_in_place_refusals(rng):
    a = lockstep.asarray(values(rng, np.float64, 10))
    with pytest.raises(lockstep.InputError, match=r"shapes \(10,\) and \(5,\)"):
        a += lockstep.asarray(values(rng, np.float64, 5))
    z = lockstep.asarray(np.float64(2.0))
    with pytest.raises(lockstep.InputError, match="non-broadcastable"):
        z += a  # NumPy refuses to broadcast into a 0-d out too
    b = lockstep.asarray(np.array([True, False]))
    with pytest.raises(TypeError, match="bool"):
        b += b
    with pytest.raises(TypeError, match="lockstep.asarray"):
        a += np.ones(10)  # no silent upload
    i = lockstep.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError, match="same_kind"):
        i /= 2  # NumPy's UFuncTypeError and message
    np.testing.assert_array_equal(i.get(), np.arange(4, dtype=np.int32))  # untouched


def test_in_place_keeps_the_reads_at_zero(rng):
    x = lockstep.asarray(values(rng, np.float64))
    p = lockstep.asarray(values(rng, np.float64))
    alpha = lockstep.dot(p, p, out=lockstep.empty((), np.float64))
    before = lockstep.device_reads()
    x += alpha * p
    x -= p
    x *= alpha
    x /= alpha
    assert lockstep.device_reads() == before


def test_live_arrays_never_share_a_buffer(rng):
    lockstep.free_cached_buffers()  # the pool holds none of this size from earlier tests
    h = values(rng, np.float64, 257)
    base = lockstep.asarray(h)
    live = [base + float(i) for i in range(100)]  # 100 results alive at once, one size
    assert len({a._buf.int_ptr for a in live}) == 100
    for i, a in enumerate(live):
        np.testing.assert_array_equal(a.get(), h + float(i))
    freed = {a._buf.int_ptr for a in live[::2]}
    del live[::2]  # 50 buffers back to the pool
    again = [base * float(i) for i in range(50)]  # take them again
    assert {a._buf.int_ptr for a in again} <= freed | {base._buf.int_ptr}
    held = {a._buf.int_ptr for a in live}
    assert not held & {a._buf.int_ptr for a in again}
    for i, a in zip(range(1, 100, 2), live):  # the survivors kept their values
        np.testing.assert_array_equal(a.get(), h + float(i))
    for i, a in enumerate(again):  # reused buffers hold the new results
        np.testing.assert_array_equal(a.get(), h * float(i))


def test_a_reused_buffer_gives_the_same_results(rng):
    h, g = values(rng, np.float32, 1000), values(rng, np.float32, 1000)
    a, b = lockstep.asarray(h), lockstep.asarray(g)
    first = (a * b).get()
    lockstep.free_cached_buffers()  # so the next result's buffer is the one freed below
    t = a + b
    handle = t._buf.int_ptr
    del t
    r = a * b  # takes the dead result's buffer
    assert r._buf.int_ptr == handle
    np.testing.assert_array_equal(r.get(), first)
    np.testing.assert_array_equal(first, h * g)


def test_buffers_come_back_while_their_commands_are_pending(rng):
    # nothing waits in this loop: each dead result's kernel may still be queued (the driver then
    # holds a reference to its buffer), and the in-order queue orders the buffer's next use
    h = np.round(values(rng, np.float64, 1 << 16))  # integers: the sums are exact
    a = lockstep.asarray(h)
    lockstep.free_cached_buffers()
    t, handles = a.copy(), set()
    for _ in range(50):
        t = t + a
        handles.add(t._buf.int_ptr)
    assert len(handles) <= 3
    np.testing.assert_array_equal(t.get(), h * 51)


@pytest.mark.parametrize("dtype", [np.int64, np.float64], ids=lambda d: np.dtype(d).name)
def test_long_dots_cover_every_element(rng, dtype):
    n = 1024 * 256 * 3 + 7  # more elements than the partial sums' work-items: grid-stride
    h, g = values(rng, dtype, n), values(rng, dtype, n)
    a, b = lockstep.asarray(h), lockstep.asarray(g)
    out = lockstep.empty((), np.dtype(dtype))
    lockstep.dot(a, b, out=out)
    if np.dtype(dtype).kind == "i":
        assert out.get()[()] == np.dot(h, g) and lockstep.dot(a, b) == np.dot(h, g)
    else:
        np.testing.assert_allclose(out.get(), np.dot(h, g), rtol=1e-12)
        np.testing.assert_allclose(lockstep.dot(a, b), np.dot(h, g), rtol=1e-12)


def test_matrix_times_device_vector_checks_its_operand(rng):
    A = sp.random(30, 20, density=0.3, random_state=7, format="csr")
    M = lockstep.Matrix(A)
    x = rng.standard_normal(20)
    y = M @ lockstep.asarray(x)  # a rectangular A: y has A.shape[0] values
    assert y.shape == (30,) and y.dtype == np.float64
    np.testing.assert_allclose(y.get(), A @ x, rtol=1e-12, atol=1e-12)
    with pytest.raises(lockstep.InputError, match=r"shape \(20,\)"):
        M @ lockstep.asarray(np.ones(30))
    with pytest.raises(TypeError, match="convert x first"):
        M @ lockstep.asarray(x.astype(np.float32))
