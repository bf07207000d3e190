"""The shapes of current SciPy: cg(A, b, x0, *, rtol, atol, maxiter, M, callback) against
scipy.sparse.linalg.cg, Matrix as a LinearOperator, exceptions that subclass SciPy's and Python's,
operands converted and upcast as NumPy does, and pipelined CG past its residual replacement (100
iterations) in float32 and float64 on laplace2d_64, checked on the true residual."""
import inspect
import os
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg
import scipy.sparse.linalg as spla

import lockstep


def scipy_cg(A, b, rtol, **kw):
    """scipy.sparse.linalg.cg with rtol on SciPy >= 1.12, tol (and atol=0) before."""
    if "rtol" in inspect.signature(spla.cg).parameters:
        return spla.cg(A, b, rtol=rtol, **kw)
    return spla.cg(A, b, tol=rtol, atol=kw.pop("atol", 0.0), **kw)


def laplace1d(n, dtype=np.float64):
    return sp.csr_array(sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), dtype=dtype))


def true_residual(A, x, b):
    return np.linalg.norm(b - A @ x.astype(np.float64)) / np.linalg.norm(b)


@pytest.fixture(scope="module")
def laplace64(root):
    return lockstep.read_matrix_market(os.path.join(root, "matrices", "laplace2d_64.mtx"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pipelined_cg_past_100_iterations(laplace64, rng, dtype):
    A = laplace64.astype(dtype)
    M = lockstep.Matrix(A)
    rtol = 1e-5 if dtype == np.float32 else 1e-10
    for _ in range(2):
        b = rng.standard_normal(A.shape[0]).astype(dtype)
        want, winfo = scipy_cg(A.astype(np.float64), b.astype(np.float64), rtol, maxiter=5000)
        assert winfo == 0
        for algorithm in ["pipelined", "classic"]:
            x, info = M.cg(b, rtol=rtol, maxiter=5000, algorithm=algorithm)
            assert info == 0, algorithm
            assert x.dtype == dtype
            assert true_residual(A, x, b) <= 4 * rtol, algorithm
            np.testing.assert_allclose(x, want, atol=50 * rtol * np.abs(want).max())


def test_cg_signature_matches_scipy(rng):
    A = laplace1d(120)
    b = rng.standard_normal(120)
    x0 = rng.standard_normal(120)
    params = inspect.signature(lockstep.cg).parameters
    for name in ["x0", "rtol", "atol", "maxiter", "M", "callback"]:
        assert name in params
    assert params["rtol"].kind == inspect.Parameter.KEYWORD_ONLY
    x, info = lockstep.cg(A, b, x0, rtol=1e-9)
    want, _ = scipy_cg(A, b, 1e-9, x0=x0, maxiter=5000)
    assert info == 0 and true_residual(A, x, b) <= 1e-9
    np.testing.assert_allclose(x, want, atol=1e-6 * np.abs(want).max())
    # atol alone: ||r|| <= atol
    x, info = lockstep.cg(A, b, rtol=0.0, atol=1e-6 * np.linalg.norm(b))
    assert info == 0 and np.linalg.norm(b - A @ x) <= 1e-6 * np.linalg.norm(b)
    with pytest.warns(DeprecationWarning, match="tol"):
        x, info = lockstep.cg(A, b, tol=1e-8)
    assert info == 0 and true_residual(A, x, b) <= 1e-8
    x, info = lockstep.cg(A, b, x0=np.zeros(120), rtol=1e-3, maxiter=2)
    assert info == 2


def test_cg_preconditioners_and_callback(rng):
    n = 150
    d = np.linspace(1, 100, n)  # badly scaled: Jacobi helps
    A = sp.csr_array(sp.diags(d) @ laplace1d(n) @ sp.diags(d) + sp.diags(d * d))
    b = rng.standard_normal(n)
    want = spla.spsolve(A.tocsc(), b)
    jacobi = sp.diags(1.0 / A.diagonal())
    seen = []
    for M, cb in [(jacobi, None), (jacobi, seen.append), (spla.aslinearoperator(jacobi), None),
                  (lambda r: r / A.diagonal(), None), (1.0 / A.diagonal(), None)]:
        x, info = lockstep.cg(A, b, rtol=1e-10, M=M, callback=cb, maxiter=5000)
        assert info == 0 and true_residual(A, x, b) <= 1e-10
        np.testing.assert_allclose(x, want, atol=1e-7 * np.abs(want).max())
    ref = []
    scipy_cg(A, b, 1e-10, M=jacobi, callback=ref.append, maxiter=5000)
    assert abs(len(seen) - len(ref)) <= 2  # one callback per iteration, as SciPy
    np.testing.assert_allclose(seen[-1], ref[-1], atol=1e-7 * np.abs(want).max())
    # a non-diagonal M (incomplete Cholesky's cousin: SSOR-like, symmetric positive definite)
    L = sp.tril(A).tocsc()
    ssor = spla.LinearOperator(A.shape, matvec=lambda r: spla.spsolve_triangular(
        L.T.tocsr(), A.diagonal() * spla.spsolve_triangular(L.tocsr(), r), lower=False))
    x, info = lockstep.cg(A, b, rtol=1e-10, M=ssor)
    assert info == 0 and true_residual(A, x, b) <= 1e-10
    with pytest.raises(lockstep.InputError, match="M has shape"):
        lockstep.cg(A, b, M=spla.aslinearoperator(sp.eye(3)))


def test_matrix_is_a_linear_operator(rng, laplace64):
    M = lockstep.Matrix(laplace64)
    assert isinstance(M, spla.LinearOperator)
    op = spla.aslinearoperator(M)
    x = rng.standard_normal(M.shape[1])
    np.testing.assert_allclose(op.matvec(x), laplace64 @ x, rtol=1e-12, atol=1e-12)
    assert M.matvec(x[:, None]).shape == (M.shape[0], 1)
    X = rng.standard_normal((M.shape[1], 3))
    np.testing.assert_allclose(op.matmat(X), laplace64 @ X, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(M.rmatvec(x), laplace64.T @ x, rtol=1e-12, atol=1e-12)
    b = rng.standard_normal(M.shape[0])
    x, info = scipy_cg(M, b, 1e-8, maxiter=5000)  # SciPy's own cg on lockstep's products
    assert info == 0 and true_residual(laplace64, x, b) <= 1e-8
    assert M.dtype == np.float64 and M.shape == laplace64.shape


def test_operands_converted_as_numpy(rng):
    A32 = sp.csr_array(sp.random(60, 40, density=0.2, random_state=rng, dtype=np.float32))
    M = lockstep.Matrix(A32)
    x64 = rng.standard_normal(40)
    y = M @ x64  # float32 A, float64 x: float64, as A @ x
    assert y.dtype == (A32 @ x64).dtype == np.float64
    np.testing.assert_allclose(y, A32.astype(np.float64) @ x64, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(M @ list(x64.astype(np.float32)), A32 @ x64.astype(np.float32),
                               rtol=1e-5, atol=1e-5)
    big = x64.astype(">f8")  # big-endian
    np.testing.assert_allclose(lockstep.spmv(A32.astype(np.float64), big), A32 @ x64,
                               rtol=1e-12, atol=1e-12)
    xi = np.arange(40, dtype=np.int64)
    assert (M @ xi).dtype == (A32 @ xi).dtype
    with pytest.raises(TypeError, match="complex128"):
        M @ (x64 + 1j)


def test_exceptions_subclass_scipy_and_python(tmp_path):
    missing = str(tmp_path / "nope.mtx")
    with pytest.raises(FileNotFoundError) as e:
        lockstep.read_matrix_market(missing)
    assert e.value.filename == missing and isinstance(e.value, lockstep.InputError)
    with pytest.raises(FileNotFoundError):
        lockstep.read_graph(missing)
    G = np.array([[0, 1.0], [-3.0, 0]])
    with pytest.raises(csg.NegativeCycleError):
        csg.floyd_warshall(G)
    with pytest.raises(csg.NegativeCycleError, match="negative cycle"):
        lockstep.apsp(G)
    with pytest.raises(RuntimeError, match="no OpenCL device matches"):
        lockstep.Context(device="no-such-device")
    assert issubclass(lockstep.DeviceNotFoundError, lockstep.InputError)


def test_apsp_float64_is_warned(rng):
    G = rng.random((20, 20)) * (rng.random((20, 20)) < 0.3)
    with pytest.warns(lockstep.PrecisionWarning, match="float32"):
        d = lockstep.apsp(G)
    np.testing.assert_allclose(d, csg.floyd_warshall(G), rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lockstep.apsp(np.round(G * 8) / 8)  # exact in float32: no warning
