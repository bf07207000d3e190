"""cg's edge cases against SciPy's conventions: NaN in b (info > 0, NaN x, a warning; it raised
"tol must be positive"), maxiter 0 (x0 back) and negative (an error; both used to solve fully),
b and x0 as columns (n, 1); and float32 with a tolerance below float's attainable accuracy, which
stops early with a ConvergenceWarning giving the floor and suggesting float64 (it ran 10 n
iterations)."""
import os

import numpy as np
import pytest
import scipy.sparse as sp

import lockstep


@pytest.fixture
def A():
    return sp.csr_array(sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(50, 50)))


def test_nan_in_b(A):
    b = np.ones(50)
    b[3] = np.nan
    with pytest.warns(lockstep.ConvergenceWarning, match="NaN"):
        x, info = lockstep.cg(A, b)
    assert info > 0 and np.isnan(x).all()
    with pytest.warns(lockstep.ConvergenceWarning, match="NaN"):  # b on the device
        x, info = lockstep.cg(A, lockstep.asarray(b))
    assert info > 0 and np.isnan(x.get()).all()


def test_maxiter_zero_and_negative(A):
    b = np.ones(50)
    x0 = np.full(50, 0.25)
    x, info = lockstep.cg(A, b, x0=x0, maxiter=0)
    np.testing.assert_array_equal(x, x0)
    assert info == 1  # not converged: no iteration ran
    x, info = lockstep.cg(A, np.zeros(50), maxiter=0)
    assert info == 0 and not x.any()
    with pytest.raises(lockstep.InputError, match="maxiter"):
        lockstep.cg(A, b, maxiter=-1)
    xd, info = lockstep.cg(A, lockstep.ones(50), maxiter=0)
    assert info == 1 and not xd.get().any()


def test_column_b_and_x0(A):
    b = np.ones((50, 1))
    x, info = lockstep.cg(A, b, rtol=1e-10)
    assert info == 0 and x.shape == (50,)
    np.testing.assert_allclose(A @ x, b[:, 0], atol=1e-8)
    x2, info = lockstep.cg(A, b, x0=np.zeros((50, 1)), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(x2, x, atol=1e-8)
    xd, info = lockstep.cg(A, lockstep.asarray(b), rtol=1e-10)
    assert info == 0
    np.testing.assert_allclose(xd.get(), x, atol=1e-8)


@pytest.mark.parametrize("device_b", [False, True])
def test_float32_below_attainable_accuracy_stops_early(root, device_b):
    A = lockstep.read_matrix_market(os.path.join(root, "matrices", "laplace2d_64.mtx"),
                                    dtype=np.float32)
    b = np.ones(A.shape[0], np.float32)
    with pytest.warns(lockstep.ConvergenceWarning, match=r"stagnation.*float64"):
        x, info = lockstep.cg(A, lockstep.asarray(b) if device_b else b, rtol=1e-5)
    assert 0 < info < A.shape[0]  # it ran 10 n = 40960 iterations
    x = x.get() if device_b else x
    r = np.linalg.norm(b - A.astype(np.float64) @ x.astype(np.float64)) / np.linalg.norm(b)
    assert 1e-5 < r < 1e-4
    x64, info64 = lockstep.cg(A.astype(np.float64), b.astype(np.float64), rtol=1e-5)
    assert info64 == 0
