"""Graphs: breadth-first search, all-pairs shortest paths and the graph reader, in the
conventions of ``scipy.sparse.csgraph`` (predecessor -9999 where there is none)."""
from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple, Union

import numpy as np
import scipy.sparse as sp

from . import _lockstep
from ._checks import as_csr, check_name, check_square, csr_arrays
from ._context import Context, context_or_default
from ._errors import InputError, PrecisionWarning

NO_PREDECESSOR = -9999  # scipy.sparse.csgraph's value


def bfs(graph: Any, source: int, directed: bool = True, algorithm: str = "auto",
        barrier: str = "auto", local_size: int = 0,
        ctx: Optional[Context] = None) -> Tuple[np.ndarray, np.ndarray]:
    """Breadth-first search from ``source`` over a square adjacency matrix: every stored entry
    (i, j) of a ``scipy.sparse`` matrix is an edge i -> j, whatever its value (a dense array: every
    nonzero). directed=False follows edges both ways.

    Returns ``(levels, predecessors)``, int32: levels[v] is the hop count from source (-1:
    unreached); predecessors[v] is v's parent in a BFS tree, -9999 for the source and unreached
    vertices, as ``scipy.sparse.csgraph.breadth_first_order(..., return_predecessors=True)``
    (when several parents are one level up, any of them may be chosen). algorithm: "auto"
    (chosen per level), "cpu", "single", "multi", "queue", "wave" or "bottom-up"; barrier:
    multi's global barrier.
    """
    A = as_csr("lockstep.bfs", graph, allow_dense=True)
    check_square("lockstep.bfs", A.shape)
    if not directed:  # the pattern and its transpose (values could cancel in A + A.T)
        P = sp.csr_array((np.ones(A.nnz, np.int8), A.indices, A.indptr), shape=A.shape)
        A = as_csr("lockstep.bfs", (P + P.T).tocsr())
    n, _, indptr, indices, _ = csr_arrays(A)
    if isinstance(source, (bool, np.bool_)) or not isinstance(source, (int, np.integer)):
        raise TypeError(f"lockstep.bfs: source must be an int, not {type(source).__name__}")
    check_name("lockstep.bfs", "algorithm", algorithm)
    check_name("lockstep.bfs", "barrier", barrier)
    levels, parents = _lockstep.bfs(context_or_default(ctx), n, indptr, indices, int(source),
                                    algorithm, barrier, int(local_size))
    parents[parents < 0] = NO_PREDECESSOR
    parents[int(source)] = NO_PREDECESSOR
    return levels, parents


def _edges(graph: Any) -> Tuple[int, np.ndarray, np.ndarray, np.ndarray, bool]:
    """n, src, dst, weight and whether the weights are integers."""
    if sp.issparse(graph):
        check_square("lockstep.apsp", graph.shape)
        coo = graph.tocoo()
        src, dst, w = coo.row, coo.col, coo.data
    elif isinstance(graph, np.ndarray):
        check_square("lockstep.apsp", graph.shape)
        w = graph
        if w.dtype.kind in "fc":
            mask = (w != 0) & np.isfinite(w)
        else:
            mask = w != 0
        src, dst = np.nonzero(mask)
        w = w[src, dst]
    else:
        raise TypeError("lockstep.apsp: expected a square numpy.ndarray or scipy.sparse matrix, "
                        f"not {type(graph).__name__}")
    if w.dtype.kind not in "biuf":
        raise TypeError(f"lockstep.apsp: weights have dtype {w.dtype}; accepted dtypes: any "
                        "integer or floating dtype (bool too)")
    if w.dtype.kind == "f" and np.isnan(w).any():
        raise InputError("lockstep.apsp: a weight is NaN")
    integer = w.dtype.kind in "biu"
    if w.dtype == np.float64 and np.any(w.astype(np.float32).astype(np.float64) != w):
        warnings.warn("lockstep.apsp: float64 weights are added in float32 on the device (the "
                      "distances are float32 sums returned as float64; relative error ~1e-7 per "
                      "hop); use scipy.sparse.csgraph for float64 sums", PrecisionWarning,
                      stacklevel=3)
    return (graph.shape[0], np.ascontiguousarray(src, dtype=np.int32),
            np.ascontiguousarray(dst, dtype=np.int32),
            np.ascontiguousarray(w, dtype=np.float64), integer)


def apsp(graph: Any, paths: bool = False, directed: bool = True, algorithm: str = "auto",
         ctx: Optional[Context] = None) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    """All-pairs shortest paths (blocked Floyd-Warshall on the device), like
    ``scipy.sparse.csgraph.floyd_warshall``.

    graph: a square dense array (edges: entries that are nonzero and finite) or ``scipy.sparse``
    matrix (edges: the stored entries); duplicate edges keep the smaller weight; directed=False
    makes every edge two-way. Integer weights are added as int32 (``(n-1) * max|w| < 2^28``),
    floating weights as float32 (float64 weights that float32 does not hold exactly are
    warned about with a lockstep.PrecisionWarning). Returns the float64 distances (inf:
    unreachable), and with
    paths=True also the int32 predecessors (-9999 on the diagonal and where unreachable). A
    negative cycle raises lockstep.NegativeCycleError (scipy.sparse.csgraph.NegativeCycleError's
    subclass, and an InputError) naming a vertex on it. algorithm: "auto",
    "naive", "blocked" or "generalized".
    """
    n, src, dst, w, integer = _edges(graph)
    if not directed:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
    check_name("lockstep.apsp", "algorithm", algorithm)
    dist, pred = _lockstep.apsp(context_or_default(ctx), n, src, dst, w, integer, bool(paths),
                                algorithm)
    return (dist, pred) if paths else dist


def read_graph(path: str, format: str = "auto", undirected: bool = False) -> sp.csr_array:
    """A graph file as a weighted ``scipy.sparse.csr_array`` (entry (u, v) = weight of u -> v,
    duplicate edges keep the smaller weight): Matrix Market, SNAP edge lists (weight 1) or
    DIMACS .gr, each optionally gzip-compressed; format "auto" (from the extension), "mtx",
    "snap" or "dimacs". undirected adds every edge's reverse. A malformed file raises
    lockstep.InputError naming the file and line."""
    check_name("lockstep.read_graph", "format", format)
    rows, cols, indptr, indices, data = _lockstep.read_graph(str(path), format, bool(undirected))
    return sp.csr_array((data, indices, indptr), shape=(rows, cols))
