"""SpMM (Matrix @ X and spmv with a 2-D X: k right-hand sides, C and Fortran order) against
SciPy; alpha/beta with y; the float32/float64 mix computed as NumPy. Few k (each a build)."""
import numpy as np
import pytest
import scipy.sparse as sp

import lockstep


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matrix_matmul_2d_matches_scipy(rng, root, dtype):
    A = lockstep.read_matrix_market(f"{root}/matrices/laplace2d_64.mtx").astype(dtype)
    M = lockstep.Matrix(A)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for k, order in [(8, "C"), (8, "F"), (3, "C")]:
        X = np.asarray(rng.standard_normal((A.shape[1], k)), dtype=dtype, order=order)
        Y = M @ X
        assert Y.shape == (A.shape[0], k) and Y.dtype == dtype
        assert Y.flags.f_contiguous if order == "F" else Y.flags.c_contiguous
        np.testing.assert_allclose(Y, A @ X, rtol=tol, atol=tol)


def test_spmv_2d_alpha_beta_and_upcast(rng):
    A = sp.csr_array(sp.random(200, 150, density=0.05, random_state=rng, dtype=np.float64))
    X = rng.standard_normal((150, 8))
    Y0 = rng.standard_normal((200, 8))
    Y = Y0.copy()
    out = lockstep.spmv(A, X, alpha=2.0, beta=-1.0, y=Y)
    assert out is Y
    np.testing.assert_allclose(Y, 2.0 * (A @ X) - Y0, rtol=1e-12, atol=1e-12)
    Ys = np.zeros((400, 8))[::2]  # a strided y: written back
    Ys[...] = Y0
    lockstep.spmv(A, X, beta=1.0, y=Ys)
    np.testing.assert_allclose(Ys, A @ X + Y0, rtol=1e-12, atol=1e-12)
    A32 = A.astype(np.float32)
    Z = lockstep.Matrix(A32) @ X  # float32 A, float64 X: float64, as SciPy
    assert Z.dtype == (A32 @ X).dtype == np.float64
    np.testing.assert_allclose(Z, A32.astype(np.float64) @ X, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lockstep.Matrix(A).matmat(X.tolist()), A @ X, rtol=1e-12)
    with pytest.raises(lockstep.InputError, match="shape"):
        lockstep.spmv(A, np.ones((149, 8)))
    empty = sp.csr_array((0, 150))
    assert lockstep.spmv(empty, X).shape == (0, 8)
