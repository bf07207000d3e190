"""Device arrays: lockstep.Array from NumPy, empty/zeros, get/__array__, chained Matrix @ x, SpMM,
cg and the sorts on device arrays (results stay on the device until get()), and PyOpenCL interop:
a lockstep context in PyOpenCL's context, on its queue (profiling on) and beside a foreign queue
(events order the two), pyopencl arrays in and out, one at an offset."""
import numpy as np
import pytest
import scipy.sparse as sp

import lockstep


@pytest.fixture(scope="module")
def laplace(root):
    return lockstep.read_matrix_market(f"{root}/matrices/laplace2d_64.mtx")


def test_array_basics(ctx, rng):
    h = rng.standard_normal((30, 4))
    a = lockstep.asarray(h)
    assert isinstance(a, lockstep.Array) and a.shape == (30, 4) and a.dtype == np.float64
    assert a.ndim == 2 and a.size == 120 and a.nbytes == 960 and len(a) == 30
    assert a.ctx is ctx and a.queue is ctx and a.order == "C"
    np.testing.assert_array_equal(a.get(), h)
    np.testing.assert_array_equal(np.asarray(a), h)
    f = lockstep.asarray(np.asfortranarray(h))
    assert f.order == "F" and f.get().flags.f_contiguous
    np.testing.assert_array_equal(f.get(), h)
    z = lockstep.zeros((5,), np.int64)
    assert z.get().tolist() == [0] * 5
    e = lockstep.empty(7, np.float32)
    assert e.shape == (7,) and e.dtype == np.float32
    big = lockstep.asarray(h.astype(">f8"))  # other byte order: native on the device
    assert big.dtype == np.float64 and big.dtype.isnative
    assert lockstep.asarray([1, 2, 3]).dtype == np.asarray([1, 2, 3]).dtype
    assert a.reshape(120).shape == (120,)
    assert lockstep.asarray(a) is a
    with pytest.raises(TypeError, match="convert on the device"):
        lockstep.asarray(a, dtype=np.float32)


def test_chained_products_stay_on_the_device(laplace, rng):
    M = lockstep.Matrix(laplace)
    x0 = rng.standard_normal(laplace.shape[1])
    y = lockstep.asarray(x0)
    for _ in range(10):
        y = M @ y
        assert isinstance(y, lockstep.Array)
    lockstep.synchronize()
    want = x0
    for _ in range(10):
        want = laplace @ want
    np.testing.assert_allclose(y.get(), want, rtol=1e-11, atol=1e-11 * np.abs(want).max())
    out = lockstep.zeros(laplace.shape[0])
    r = lockstep.spmv(M, lockstep.asarray(x0), alpha=2.0, beta=0.0, y=out)
    assert r is out
    np.testing.assert_allclose(out.get(), 2 * (laplace @ x0), rtol=1e-12)
    for order in ["C", "F"]:  # SpMM on device arrays
        X = np.asarray(rng.standard_normal((laplace.shape[1], 4)), order=order)
        Y = M @ lockstep.asarray(X)
        assert Y.shape == (laplace.shape[0], 4) and Y.order == order
        np.testing.assert_allclose(Y.get(), laplace @ X, rtol=1e-12, atol=1e-12)
    with pytest.raises(TypeError, match="convert x first"):
        M @ lockstep.asarray(x0.astype(np.float32))


def test_cg_and_sorts_on_device_arrays(laplace, rng):
    M = lockstep.Matrix(laplace)
    b = rng.standard_normal(laplace.shape[0])
    x, info = lockstep.cg(M, lockstep.asarray(b), rtol=1e-9)
    assert info == 0 and isinstance(x, lockstep.Array)
    assert np.linalg.norm(b - laplace @ x.get()) <= 1e-9 * np.linalg.norm(b)
    k = rng.standard_normal(5000)
    k[::9] = np.nan
    kd = lockstep.asarray(k)
    s = lockstep.sort(kd)
    assert isinstance(s, lockstep.Array)
    np.testing.assert_array_equal(s.get(), np.sort(k))
    np.testing.assert_array_equal(kd.get(), k)  # the input is untouched
    p = lockstep.argsort(kd)
    np.testing.assert_array_equal(p.get(), np.argsort(k, kind="stable"))
    v = np.arange(5000, dtype=np.float32)
    sk, sv = lockstep.sort_pairs(kd, lockstep.asarray(v))
    np.testing.assert_array_equal(sv.get(), v[np.argsort(k, kind="stable")])


def test_in_place_sort_and_the_buffer_pool(rng):
    k = rng.standard_normal(3000)
    k[::7] = np.nan
    kd = lockstep.asarray(k)
    assert kd.sort() is None  # in place, as numpy.ndarray.sort
    np.testing.assert_array_equal(kd.get(), np.sort(k))
    kd.sort(descending=True)
    assert np.isnan(kd.get()[-429:]).all()
    np.testing.assert_array_equal(kd.get()[:-429], np.sort(k)[:-429][::-1])
    a = lockstep.empty(1000)
    handle = a._buf.int_ptr  # not exported
    del a
    b = lockstep.empty(1000)  # a dead array's buffer of the same size comes back
    assert b._buf.int_ptr == handle
    c = lockstep.empty(999)  # another size does not take it
    assert c._buf.int_ptr != handle
    lockstep.free_cached_buffers()
    del b
    lockstep.free_cached_buffers()


def test_pyopencl_interop(laplace, rng):
    cl = pytest.importorskip("pyopencl")
    cla = pytest.importorskip("pyopencl.array")
    device = lockstep.default_context().info
    dev = [d for p in cl.get_platforms() for d in p.get_devices()
           if d.name == device["name"]][0]
    c = cl.Context([dev])
    x0 = rng.standard_normal(laplace.shape[1])
    want = laplace @ (laplace @ x0)
    for props in [cl.command_queue_properties.PROFILING_ENABLE, 0]:
        q = cl.CommandQueue(c, properties=props)
        L = lockstep.Context.from_pyopencl(c, q)
        assert L.shares_queue == bool(props)  # a foreign queue: events order the two
        M = lockstep.Matrix(laplace, ctx=L)
        x = cla.to_device(q, x0)
        y = M @ (M @ x)
        assert isinstance(y, cla.Array) and y.queue == q
        np.testing.assert_allclose((y * 2).get(), 2 * want, rtol=1e-11)  # PyOpenCL's own kernel
        k = cla.to_device(q, rng.standard_normal(3000).astype(np.float32))
        s = lockstep.sort(k)
        assert isinstance(s, cla.Array)
        np.testing.assert_array_equal(s.get(), np.sort(k.get()))
        a = lockstep.asarray(x)  # wrapped, no copy
        assert a.int_ptr == x.base_data.int_ptr
        if not props:  # an array handed to PyOpenCL never returns to lockstep's pool
            own = lockstep.empty(4096, ctx=L)
            held = own.to_pyopencl(q)
            del own
            fresh = lockstep.empty(4096, ctx=L)
            assert fresh._buf.int_ptr != held.base_data.int_ptr
        np.testing.assert_array_equal(lockstep.asarray(x0, ctx=L).to_pyopencl().get(), x0)
    part = cla.to_device(q, x0)[8:]  # at an offset: copied on the device
    np.testing.assert_array_equal(lockstep.asarray(part).get(), x0[8:])
    other = lockstep.asarray(x0)  # the default context: another OpenCL context
    with pytest.raises(lockstep.InputError, match="another context"):
        M @ other


def test_warmup_builds_with_progress():
    seen = []
    done = lockstep.warmup("spmm", np.float32, progress=lambda *a: seen.append(a))
    assert done.seconds >= 0 and seen and seen[-1][0] == seen[-1][1] == done.programs
    assert all(f == "spmm" and file in ("spmm.cl", "spmm_merge.cl") for _, _, f, file, _ in seen)
    assert any(file == "spmm_merge.cl" for _, _, _, file, _ in seen)  # the rule's for hub rows
    with pytest.raises(TypeError, match="complex64"):
        lockstep.warmup("spmm", np.complex64)
    with pytest.raises(lockstep.InputError, match="unknown type"):
        lockstep._lockstep._kernel_builds(lockstep.default_context(), ["f16"])
