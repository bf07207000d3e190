"""bfs and apsp against scipy.sparse.csgraph, and the graph reader."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import lockstep


def random_graph(rng, n, density):
    return sp.csr_array(sp.random(n, n, density=density, format="csr", random_state=rng,
                                  data_rvs=lambda k: rng.integers(1, 20, size=k).astype(float)))


def scipy_levels(A, source, directed=True):
    A = sp.csr_array((np.ones(A.nnz), A.indices, A.indptr), shape=A.shape)  # the pattern
    d = csg.shortest_path(A, directed=directed, unweighted=True, indices=source)
    return np.where(np.isinf(d), -1, d).astype(np.int32)


def check_bfs(A, source, levels, parents, directed=True):
    np.testing.assert_array_equal(levels, scipy_levels(A, source, directed))
    P = A if directed else (A + A.T)
    P = sp.csr_array(P)
    assert parents[source] == -9999
    for v in np.flatnonzero((levels > 0)):
        u = parents[v]
        assert levels[u] == levels[v] - 1, (u, v)
        row = P.indices[P.indptr[u]:P.indptr[u + 1]]
        assert v in row
    assert (parents[levels == -1] == -9999).all()
    # the same reached set and predecessor convention as scipy
    order, pred = csg.breadth_first_order(A, source, directed=directed)
    assert set(order) == set(np.flatnonzero(levels >= 0))
    assert pred[source] == -9999


@pytest.mark.parametrize("algorithm", ["auto", "cpu", "single", "multi", "queue", "wave",
                                       "bottom-up"])
def test_bfs_matches_scipy(rng, algorithm):
    for n, density in [(1, 1.0), (50, 0.05), (2000, 0.002)]:
        A = random_graph(rng, n, density)
        for source in {0, n - 1}:
            levels, parents = lockstep.bfs(A, source, algorithm=algorithm)
            assert levels.dtype == np.int32 and parents.dtype == np.int32
            check_bfs(A, source, levels, parents)


def test_bfs_undirected_grid(root):
    A = lockstep.read_matrix_market(f"{root}/matrices/laplace2d_64.mtx")
    levels, parents = lockstep.bfs(A, 0)
    assert levels.max() == 126  # corner to corner of a 64 x 64 grid
    check_bfs(A, 0, levels, parents)
    B = sp.csr_array(sp.triu(A))  # one direction only; undirected follows both
    levels, parents = lockstep.bfs(B, 4095, directed=False)
    check_bfs(B, 4095, levels, parents, directed=False)


def test_bfs_unreached_dense_and_errors(rng):
    A = sp.csr_array(([1.0, 1.0], ([0, 1], [1, 2])), shape=(5, 5))  # 0 -> 1 -> 2; 3, 4 alone
    levels, parents = lockstep.bfs(A, 0)
    np.testing.assert_array_equal(levels, [0, 1, 2, -1, -1])
    np.testing.assert_array_equal(parents, [-9999, 0, 1, -9999, -9999])
    levels, _ = lockstep.bfs(A.toarray(), 0)  # dense: nonzeros are edges
    np.testing.assert_array_equal(levels, [0, 1, 2, -1, -1])
    with pytest.raises(lockstep.InputError, match=r"source 5 outside \[0, 5\)"):
        lockstep.bfs(A, 5)
    with pytest.raises(lockstep.InputError, match="square matrix"):
        lockstep.bfs(sp.csr_array((3, 4)), 0)
    with pytest.raises(TypeError, match="source must be an int"):
        lockstep.bfs(A, 1.5)
    with pytest.raises(lockstep.InputError, match="unknown BFS algorithm 'dfs'"):
        lockstep.bfs(A, 0, algorithm="dfs")


@pytest.mark.parametrize("algorithm", ["auto", "naive", "blocked", "generalized"])
def test_apsp_matches_floyd_warshall(rng, algorithm):
    for n in [1, 2, 37, 130]:
        A = random_graph(rng, n, 0.1)
        want, wpred = csg.floyd_warshall(A, return_predecessors=True)
        dist = lockstep.apsp(A, algorithm=algorithm)  # integer-valued floats: exact in float32
        assert dist.dtype == np.float64 and dist.shape == (n, n)
        np.testing.assert_array_equal(dist, want)
        dist, pred = lockstep.apsp(A, paths=True, algorithm=algorithm)
        np.testing.assert_array_equal(dist, want)
        assert pred.dtype == np.int32
        np.testing.assert_array_equal(pred == -9999, wpred == -9999)
        # each predecessor ends a shortest path: dist[i, k] + w(k, j) == dist[i, j]
        Ad = A.toarray()
        i, j = np.nonzero(pred >= 0)
        k = pred[i, j]
        np.testing.assert_array_equal(dist[i, k] + Ad[k, j], dist[i, j])


def test_apsp_dense_integer_float_undirected(rng):
    W = rng.integers(0, 10, size=(40, 40))
    W[rng.random((40, 40)) < 0.7] = 0  # zeros: no edge, as in scipy's dense convention
    np.testing.assert_array_equal(lockstep.apsp(W), csg.floyd_warshall(W))
    F = np.where(W > 0, W + 0.25, np.inf)
    np.testing.assert_allclose(lockstep.apsp(F), csg.floyd_warshall(F), rtol=1e-6)
    np.testing.assert_allclose(lockstep.apsp(F, directed=False),
                               csg.floyd_warshall(F, directed=False), rtol=1e-6)
    N = W.astype(float)
    N[N > 0] -= 2.0  # some negative edges; no cycle below zero in a DAG
    N = np.triu(N, 1)
    np.testing.assert_array_equal(lockstep.apsp(sp.csr_array(N)),
                                  csg.floyd_warshall(sp.csr_array(N)))
    assert lockstep.apsp(np.zeros((0, 0))).shape == (0, 0)


def test_apsp_negative_cycle_and_errors():
    W = np.array([[0, 1, 0], [0, 0, -3], [1, 0, 0]], dtype=float)  # 0 -> 1 -> 2 -> 0: -1
    with pytest.raises(csg.NegativeCycleError):
        csg.floyd_warshall(W)
    with pytest.raises(lockstep.InputError, match="negative cycle"):
        lockstep.apsp(W)
    with pytest.raises(lockstep.InputError, match="negative cycle"):
        lockstep.apsp(sp.csr_array(W).astype(np.int32))
    with pytest.raises(lockstep.InputError, match="square matrix"):
        lockstep.apsp(np.ones((2, 3)))
    with pytest.raises(TypeError, match="accepted dtypes"):
        lockstep.apsp(np.ones((2, 2), dtype=complex))
    with pytest.raises(TypeError, match="numpy.ndarray or scipy.sparse"):
        lockstep.apsp([[0, 1], [1, 0]])
    with pytest.raises(lockstep.InputError, match="NaN"):
        lockstep.apsp(sp.csr_array(np.array([[0, np.nan], [1, 0]])))


def test_read_graph(tmp_path):
    snap = tmp_path / "g.txt"
    snap.write_text("# a comment\n0 1\n1 2\n0 1\n")
    G = lockstep.read_graph(str(snap))
    assert isinstance(G, sp.csr_array) and G.shape == (3, 3) and G.nnz == 2
    levels, _ = lockstep.bfs(G, 0)
    np.testing.assert_array_equal(levels, [0, 1, 2])
    G = lockstep.read_graph(str(snap), undirected=True)
    assert G.nnz == 4
    gr = tmp_path / "g.gr"
    gr.write_text("p sp 2 1\na 1 2 7\na 2 1 x\n")
    with pytest.raises(lockstep.InputError, match=r"g.gr:3"):
        lockstep.read_graph(str(gr))
    with pytest.raises(lockstep.InputError, match="unknown"):
        lockstep.read_graph(str(snap), format="csv")
