"""sort, argsort and sort_pairs against NumPy, on random and adversarial inputs."""
import numpy as np
import pytest

import lockstep

DTYPES = [np.uint32, np.int32, np.float32, np.uint64]
SIZES = [0, 1, 2, 3, 1000, 70_000]  # 70 000: past the bitonic rule, so "auto" runs radix too


def keys(rng, dtype, n):
    if dtype == np.float32:
        return rng.standard_normal(n).astype(np.float32) * 1e3
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)


# Each (key type, algorithm, order, pairs) is a kernel build, seconds each on PoCL: the C++ suite
# covers the kernels; these tests cover what the binding passes (types, order, pairs, shapes).
@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_matches_numpy(rng, dtype):
    for n in SIZES:
        a = keys(rng, dtype, n)
        before = a.copy()
        s = lockstep.sort(a)
        assert s.dtype == dtype and s.shape == (n,)
        np.testing.assert_array_equal(s, np.sort(a))
        np.testing.assert_array_equal(a, before)  # a new array; the input is untouched


@pytest.mark.parametrize("algorithm", ["bitonic", "radix"])
def test_sort_algorithms_descending(rng, algorithm):
    for n in [0, 1, 3, 1000]:
        a = keys(rng, np.uint32, n)
        np.testing.assert_array_equal(lockstep.sort(a, algorithm=algorithm), np.sort(a))
        np.testing.assert_array_equal(lockstep.sort(a, descending=True, algorithm=algorithm),
                                      np.sort(a)[::-1])


def test_sort_few_distinct_keys(rng):
    a = rng.integers(0, 3, size=5000).astype(np.uint32)
    np.testing.assert_array_equal(lockstep.sort(a), np.sort(a))


def test_float_order_nan_inf_signed_zero():
    a = np.array([np.nan, 1.0, -np.inf, -0.0, 0.0, np.inf, -1.0, np.nan], np.float32)
    s = lockstep.sort(a)
    np.testing.assert_array_equal(s[:6], [-np.inf, -1.0, -0.0, 0.0, 1.0, np.inf])
    assert np.signbit(s[2]) and not np.signbit(s[3])
    assert np.isnan(s[6:]).all()
    d = lockstep.sort(a, descending=True)  # the reverse order, NaNs still last
    np.testing.assert_array_equal(d[:6], [np.inf, 1.0, 0.0, -0.0, -1.0, -np.inf])
    assert np.isnan(d[6:]).all()


def test_non_contiguous_input(rng):
    base = keys(rng, np.int32, 2001)
    a = base[::2]
    assert not a.flags.c_contiguous
    np.testing.assert_array_equal(lockstep.sort(a), np.sort(a))
    np.testing.assert_array_equal(a[lockstep.argsort(a, algorithm="radix")], np.sort(a))


@pytest.mark.parametrize("dtype", [np.uint32, np.float32])
def test_argsort(rng, dtype):
    for n in [0, 1, 1000]:
        a = keys(rng, dtype, n)
        if n > 10:
            a[: n // 2] = a[n // 2: 2 * (n // 2)]  # many ties
        p = lockstep.argsort(a, algorithm="radix")
        assert p.dtype == np.intp and p.shape == (n,)
        np.testing.assert_array_equal(p, np.argsort(a, kind="stable"))  # radix is stable
        p = lockstep.argsort(a)  # auto: a sorting permutation, ties in any order
        np.testing.assert_array_equal(np.sort(p), np.arange(n))
        np.testing.assert_array_equal(a[p], np.sort(a))
        p = lockstep.argsort(a, descending=True, algorithm="radix")
        np.testing.assert_array_equal(a[p], np.sort(a)[::-1])


@pytest.mark.parametrize("vdtype", [np.uint32, np.float32, np.int64])
def test_sort_pairs(rng, vdtype):
    for n in [0, 1, 5000]:
        k = keys(rng, np.uint32, n) % 1000  # ties
        v = np.arange(n).astype(vdtype)
        sk, sv = lockstep.sort_pairs(k, v, algorithm="radix")
        p = np.argsort(k, kind="stable")
        np.testing.assert_array_equal(sk, k[p])
        np.testing.assert_array_equal(sv, v[p])
        assert sv.dtype == vdtype
        sk, sv = lockstep.sort_pairs(k, v)  # auto: any order of ties, values move with keys
        np.testing.assert_array_equal(sk, np.sort(k))
        np.testing.assert_array_equal(k[sv.astype(np.int64)], sk)


def test_wrong_inputs():
    for bad in [np.complex64, np.longdouble, object]:
        with pytest.raises(TypeError, match=r"accepted: integers and floats of at most 64 bits"):
            lockstep.sort(np.zeros(4, bad))
    with pytest.raises(TypeError, match=r"argsort: keys of dtype complex128"):
        lockstep.argsort(np.zeros(4, np.complex128))
    with pytest.raises(lockstep.InputError, match=r"1-D array, not shape \(2, 2\)"):
        lockstep.sort(np.zeros((2, 2), np.uint32))
    with pytest.raises(lockstep.InputError, match=r"values must have shape \(3,\)"):
        lockstep.sort_pairs(np.zeros(3, np.uint32), np.zeros(4, np.uint32))
    with pytest.raises(lockstep.InputError, match="unknown sort algorithm 'quick'"):
        lockstep.sort(np.zeros(3, np.uint32), algorithm="quick")
    with pytest.raises(lockstep.InputError, match="unknown barrier 'spin'"):
        lockstep.sort(np.zeros(3, np.uint32), barrier="spin")


def test_barrier_choice(rng):
    a = keys(rng, np.uint32, 4096)
    barrier = "relaunch"
    np.testing.assert_array_equal(lockstep.sort(a, algorithm="bitonic", barrier=barrier),
                                  np.sort(a))
