"""lockstep.Matrix as a SciPy LinearOperator: a product of two sparse matrices is a clear
NotImplementedError (it recursed), M * c is SciPy's scaled operator as c * M, an empty block
(n, 0) gives (m, 0) as SciPy, and M keeps the values A had when it was made, in every dtype."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import lockstep


@pytest.fixture
def A():
    return sp.csr_array(sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(6, 6)))


def test_matrix_products_are_not_implemented(A):
    M = lockstep.Matrix(A)
    for f in (lambda: M @ M, lambda: M @ A, lambda: M.dot(M), lambda: M.dot(A),
              lambda: M * M):
        with pytest.raises(NotImplementedError, match="SpGEMM"):
            f()


def test_scalar_products(A):
    M = lockstep.Matrix(A)
    x = np.arange(6.0)
    for S in (M * 2, 2 * M, M.dot(2)):
        assert isinstance(S, spla.LinearOperator)
        np.testing.assert_allclose(S @ x, 2 * (A @ x))
    with pytest.raises(ValueError, match="Scalar operands"):
        M @ 2  # as SciPy's LinearOperator
    P = M @ spla.aslinearoperator(A)  # another LinearOperator: SciPy's product operator
    np.testing.assert_allclose(P @ x, A @ (A @ x))


def test_empty_block(A):
    M = lockstep.Matrix(A)
    assert (M @ np.ones((6, 0))).shape == (6, 0) == (A @ np.ones((6, 0))).shape
    assert M.matmat(np.ones((6, 0), np.float32)).shape == (6, 0)


def test_matrix_copies_at_construction(A):
    B, B32 = A.copy(), A.astype(np.float32)
    M, M32 = lockstep.Matrix(B), lockstep.Matrix(B32)
    B.data[:] = 100.0  # after construction: no effect on M in any dtype
    B32.data[:] = 100.0
    x = np.ones(6)
    np.testing.assert_allclose(M @ x, A @ x)
    np.testing.assert_allclose(M32 @ x, A @ x)  # float64 x: the float64 twin, uploaded now
    np.testing.assert_allclose(M32 @ x.astype(np.float32), A @ x)
    np.testing.assert_allclose(M.rmatvec(x), A.T @ x)
