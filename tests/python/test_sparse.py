"""spmv, Matrix, cg and tune against SciPy, on random and adversarial inputs."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import lockstep

ALGORITHMS = ["auto", "scalar", "vector", "adaptive", "merge"]


def random_csr(rng, rows, cols, density, dtype):
    A = sp.random(rows, cols, density=density, format="csr", dtype=np.float64, random_state=rng)
    return sp.csr_array(A.astype(dtype))


def tol(dtype):
    return 1e-4 if dtype == np.float32 else 1e-11


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_spmv_matches_scipy(rng, dtype, algorithm):
    for rows, cols, density in [(300, 200, 0.05), (1, 1, 1.0), (50, 1, 0.5), (1, 80, 0.5)]:
        A = random_csr(rng, rows, cols, density, dtype)
        x = rng.standard_normal(cols).astype(dtype)
        y = lockstep.spmv(A, x, algorithm=algorithm)
        assert y.dtype == dtype and y.shape == (rows,)
        np.testing.assert_allclose(y, A @ x, rtol=tol(dtype), atol=tol(dtype))


def test_spmv_alpha_beta_y_in_place(rng):
    A = random_csr(rng, 120, 90, 0.1, np.float64)
    x, y0 = rng.standard_normal(90), rng.standard_normal(120)
    y = y0.copy()
    out = lockstep.spmv(A, x, alpha=2.5, beta=-0.5, y=y)
    assert out is y
    np.testing.assert_allclose(y, 2.5 * (A @ x) - 0.5 * y0, rtol=1e-12, atol=1e-12)


def test_spmv_non_contiguous_vectors(rng):
    A = random_csr(rng, 64, 64, 0.1, np.float64)
    xs = rng.standard_normal(128)[::2]  # a strided view
    ys = np.zeros((64, 2))[:, 1]
    assert not xs.flags.c_contiguous and not ys.flags.c_contiguous
    ys[:] = 1.0
    lockstep.spmv(A, xs, beta=1.0, y=ys)
    np.testing.assert_allclose(ys, A @ xs + 1.0, rtol=1e-12, atol=1e-12)


def test_spmv_empty_and_zero_matrices():
    for shape in [(0, 0), (0, 5), (5, 0), (4, 4)]:
        A = sp.csr_array(shape, dtype=np.float64)
        y = lockstep.spmv(A, np.ones(shape[1]))
        assert y.shape == (shape[0],) and not y.any()


def test_spmv_non_canonical_csr(rng):
    # unsorted column indices and duplicates: summed, as SciPy does
    data, indices, indptr = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2, 0, 2, 1]), np.array([0, 3, 4])
    A = sp.csr_array((data, indices, indptr), shape=(2, 3))
    x = np.array([1.0, 10.0, 100.0])
    np.testing.assert_allclose(lockstep.spmv(A, x), A @ x)


def test_other_formats_are_converted_with_a_warning(rng):
    A = sp.random(40, 30, density=0.2, format="coo", random_state=rng)
    x = rng.standard_normal(30)
    with pytest.warns(lockstep.ConversionWarning, match="converting a COO matrix to CSR"):
        y = lockstep.spmv(A, x)
    np.testing.assert_allclose(y, A @ x, rtol=1e-12)
    y = lockstep.spmv(sp.csr_matrix(A), x)  # the old matrix class too, without a warning
    np.testing.assert_allclose(y, A @ x, rtol=1e-12)


def test_spmv_wrong_dtypes_and_shapes():
    A = sp.csr_array(np.eye(3))
    with pytest.raises(TypeError, match=r"A has dtype int64; accepted dtypes: float32, float64"):
        lockstep.spmv(sp.csr_array(np.eye(3, dtype=np.int64)), np.ones(3))
    with pytest.raises(TypeError, match=r"x has dtype complex128; accepted: real numbers"):
        lockstep.spmv(A, np.ones(3, np.complex128))
    with pytest.raises(TypeError, match=r"x has dtype object"):
        lockstep.spmv(A, np.array([None] * 3))
    with pytest.raises(TypeError, match="scipy.sparse CSR matrix"):
        lockstep.spmv(np.eye(3), np.ones(3))
    with pytest.raises(lockstep.InputError, match=r"x must have shape \(3,\).*not \(4,\)"):
        lockstep.spmv(A, np.ones(4))
    with pytest.raises(lockstep.InputError, match="beta != 0 needs y"):
        lockstep.spmv(A, np.ones(3), beta=1.0)
    with pytest.raises(lockstep.InputError, match="unknown SpMV algorithm 'fast'.*scalar, vector"):
        lockstep.spmv(A, np.ones(3), algorithm="fast")
    with pytest.raises(lockstep.InputError, match="local_size needs an explicit algorithm"):
        lockstep.spmv(A, np.ones(3), local_size=64)
    with pytest.raises(lockstep.InputError, match="power of two"):
        lockstep.spmv(A, np.ones(3), algorithm="scalar", local_size=100)
    assert issubclass(lockstep.InputError, ValueError)


def test_spmv_local_size(rng):
    A = random_csr(rng, 500, 500, 0.02, np.float64)
    x = rng.standard_normal(500)
    for algorithm in ["scalar", "vector", "adaptive", "merge"]:
        y = lockstep.spmv(A, x, algorithm=algorithm, local_size=64)
        np.testing.assert_allclose(y, A @ x, rtol=1e-11, atol=1e-11)


def test_matrix_repeated_products(rng, root):
    A = lockstep.read_matrix_market(f"{root}/matrices/laplace2d_64.mtx")
    M = lockstep.Matrix(A)
    assert M.shape == A.shape and M.nnz == A.nnz and M.dtype == np.float64
    assert "algorithm=" in M.algorithm and "local_size=" in M.algorithm
    for _ in range(3):
        x = rng.standard_normal(A.shape[1])
        np.testing.assert_allclose(M @ x, A @ x, rtol=1e-12, atol=1e-12)
    assert "4096x4096" in repr(M)


def laplace1d(n, dtype=np.float64):
    return sp.csr_array(sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), dtype=dtype))


@pytest.mark.parametrize("algorithm", ["classic", "pipelined"])
@pytest.mark.parametrize("preconditioner", ["none", "jacobi"])
def test_cg_matches_scipy(rng, algorithm, preconditioner):
    A = laplace1d(200)
    b = rng.standard_normal(200)
    x, info = lockstep.cg(A, b, rtol=1e-10, maxiter=2000, algorithm=algorithm,
                          preconditioner=preconditioner)
    assert info == 0
    want, winfo = spla.spsolve(A.tocsc(), b), 0
    np.testing.assert_allclose(x, want, rtol=1e-6, atol=1e-6 * np.abs(want).max())
    assert np.linalg.norm(b - A @ x) <= 1e-9 * np.linalg.norm(b)


def test_cg_info_and_errors(rng):
    A = laplace1d(100)
    b = rng.standard_normal(100)
    x, info = lockstep.cg(A, b, rtol=1e-12, maxiter=3)
    assert info == 3  # like scipy: the iterations done without convergence
    with pytest.raises(lockstep.InputError, match=r"square matrix, not shape \(3, 4\)"):
        lockstep.cg(sp.csr_array(np.ones((3, 4))), np.ones(3))
    with pytest.raises(lockstep.InputError, match=r"b must have shape \(100,\)"):
        lockstep.cg(A, np.ones(99))
    with pytest.raises(lockstep.InputError, match="unknown"):
        lockstep.cg(A, b, algorithm="fastest")
    x, info = lockstep.cg(sp.csr_array((0, 0)), np.ones(0))
    assert info == 0 and x.shape == (0,)
    # indefinite: a breakdown, reported as info -1 with the reason, never a silent NaN
    with pytest.warns(RuntimeWarning, match="lockstep.cg"):
        x, info = lockstep.cg(sp.csr_array(-np.eye(5)), np.ones(5))
    assert info == -1


def test_cg_float32(rng):
    A = laplace1d(50, np.float32)
    b = rng.standard_normal(50).astype(np.float32)
    x, info = lockstep.cg(A, b, rtol=1e-5)
    assert info == 0 and x.dtype == np.float32
    assert np.linalg.norm(b - A @ x) <= 1e-4 * np.linalg.norm(b)


def test_tune_stores_a_verified_best(rng, tmp_path, monkeypatch):
    monkeypatch.setenv("LOCKSTEP_TUNING_DB", str(tmp_path / "tuning.json"))
    A = random_csr(rng, 400, 400, 0.02, np.float64)
    r = lockstep.tune(A, budget=1.0)
    assert r["best"]["verified"] and r["best"]["ms"] > 0 and r["timed"] >= 1
    assert (tmp_path / "tuning.json").exists()
    y = lockstep.Matrix(A) @ np.ones(400)  # automatic now reads the stored entry
    np.testing.assert_allclose(y, A @ np.ones(400), rtol=1e-12)
    with pytest.raises(lockstep.InputError, match="no entries"):
        lockstep.tune(sp.csr_array((3, 3)))


def test_read_matrix_market(tmp_path, root):
    A = lockstep.read_matrix_market(f"{root}/matrices/banded_1000_3.mtx", dtype=np.float32)
    assert isinstance(A, sp.csr_array) and A.dtype == np.float32 and A.shape[0] == 1000
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 x 3.0\n")
    with pytest.raises(lockstep.InputError, match=r"bad.mtx:3"):
        lockstep.read_matrix_market(str(bad))
    with pytest.raises(lockstep.InputError, match="cannot open"):
        lockstep.read_matrix_market(str(tmp_path / "missing.mtx"))
