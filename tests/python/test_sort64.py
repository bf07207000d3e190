"""float64 and int64 keys (NumPy's default dtypes) against NumPy, with NaN, -0.0 and the extremes;
keys converted as NumPy takes them (lists, big-endian, narrow integers, float16). Few kernel
builds: f64 and i64 ascending keys, f64 pairs (argsort), f64 descending."""
import numpy as np
import pytest

import lockstep


def adversarial_f64(rng, n):
    a = rng.standard_normal(n) * 1e300
    a[::7] = np.nan
    a[1::11] = -0.0
    a[2::11] = 0.0
    a[3::13] = np.inf
    a[4::13] = -np.inf
    if n > 6:
        a[5] = -np.nan
        a[6] = np.finfo(np.float64).tiny / 4  # subnormal
    return a


def test_f64_sort_and_argsort_match_numpy(rng):
    for n in [0, 1, 93, 20000]:
        a = adversarial_f64(rng, n)
        s = lockstep.sort(a)
        assert s.dtype == np.float64
        np.testing.assert_array_equal(s, np.sort(a))  # NaNs last, as NumPy
        z = s[s == 0]  # -0.0 before +0.0 (NumPy holds them equal)
        assert np.all(np.signbit(z[:np.count_nonzero(np.signbit(z))]))
        p = lockstep.argsort(a, algorithm="radix")
        np.testing.assert_array_equal(a[p], np.sort(a))
        finite = np.where(np.isnan(a), 0.5, np.abs(a))  # no NaN, no -0: stable order is NumPy's
        np.testing.assert_array_equal(lockstep.argsort(finite, algorithm="radix"),
                                      np.argsort(finite, kind="stable"))


def test_f64_descending(rng):
    a = adversarial_f64(rng, 1000)
    d = lockstep.sort(a, descending=True)
    nan = np.isnan(a).sum()
    assert np.isnan(d[len(a) - nan:]).all()  # NaNs still last
    np.testing.assert_array_equal(d[:len(a) - nan], np.sort(a[~np.isnan(a)])[::-1])


def test_i64_sort_matches_numpy(rng):
    info = np.iinfo(np.int64)
    for n in [0, 3, 5000]:
        a = rng.integers(info.min, info.max, size=n, dtype=np.int64, endpoint=True)
        if n:
            a[0], a[-1] = info.max, info.min
        np.testing.assert_array_equal(lockstep.sort(a), np.sort(a))


def test_conversions_as_numpy(rng):
    assert lockstep.sort([3, -1, 2]).tolist() == [-1, 2, 3]  # a list: int64, as numpy.asarray
    assert lockstep.sort([0.5, -2.0]).dtype == np.float64
    big = rng.standard_normal(50).astype(">f8")
    s = lockstep.sort(big)
    assert s.dtype == np.float64 and s.dtype.isnative
    np.testing.assert_array_equal(s, np.sort(big))
    for dtype in [np.int16, np.uint8, np.bool_, np.float16, np.dtype(">u4")]:
        a = (rng.standard_normal(40) * 100).astype(dtype)
        s = lockstep.sort(a)
        assert s.dtype == np.dtype(dtype).newbyteorder("=")
        np.testing.assert_array_equal(s, np.sort(a))
    k, v = lockstep.sort_pairs([2.0, 1.0, 3.0], np.array([20, 10, 30], np.int64))
    assert k.tolist() == [1.0, 2.0, 3.0] and v.tolist() == [10, 20, 30]
