// Deterministic test and benchmark matrices (same seed, same matrix, on every platform and for
// any thread count: the random numbers come from std::mt19937_64 with lockstep's own
// distributions, R-MAT's from splitmix64 counters, one stream per edge), and the generated graphs
// (grid_graph, rmat_graph for BFS; random_graph for APSP).
#pragma once
#include <cstdint>

#include "lockstep/csr.hpp"
#include "lockstep/graph.hpp"

namespace lockstep::gen {

Csr<double> laplace2d(int32_t n);  // 5-point stencil on an n x n grid
Csr<double> laplace3d(int32_t n);  // 7-point stencil on an n^3 grid
/// Rows begin .. end-1 (global column indices, cols = all rows) of the 7-point (dims 3) or
/// 5-point (dims 2, nz ignored) stencil on an nx x ny x nz grid numbered plane by plane (row
/// (z ny + y) nx + x): laplace3d(n) is dims 3, n x n x n, laplace2d(n) dims 2, n x n. A rank
/// generates its own slab of planes with it.
Csr<double> laplace_rows(int dims, int32_t nx, int32_t ny, int32_t nz, int32_t begin, int32_t end);
Csr<double> uniform(int32_t n, int32_t k, uint64_t seed);  // k distinct uniform columns a row
/// Row lengths from a Pareto law with exponent alpha (minimum 1, capped at n), distinct columns.
Csr<double> powerlaw(int32_t n, double alpha, uint64_t seed);
Csr<double> banded(int32_t n, int32_t w, uint64_t seed);      // |i - j| <= w
Csr<double> dense_rows(int32_t n, int32_t k, uint64_t seed);  // n x n, k random columns a row
/// n x n, k random columns a row, except `hubs` rows spread evenly with hub_len columns each.
Csr<double> hubs(int32_t n, int32_t k, int32_t hubs, int32_t hub_len, uint64_t seed);
/// Block FEM-like: the 7-point stencil on an n^3 grid with a dense b x b block per coupling
/// (n^3 b rows of up to 7b entries in runs of b adjacent columns).
Csr<double> blocks3d(int32_t n, int32_t b, uint64_t seed);
/// Graph500 R-MAT (A=0.57, B=0.19, C=0.19): 2^scale vertices, edgefactor*2^scale edges, each
/// stored in both directions; duplicate edges merged (values: the multiplicity), self-loops kept
/// (value 2 for one self-loop: both directions). Built in parallel (OpenMP).
Csr<double> rmat(int32_t scale, int32_t edgefactor, uint64_t seed);
/// R-MAT edges begin .. end-1 (from[i] -> to[i], i < end - begin), unpermuted (vertex 0 is the
/// largest hub): edge k is a pure function of (scale, seed, k), drawn from outputs 16k+1 ..
/// 16k+13 of the splitmix64 stream seeded with `seed` (two 32-bit uniforms an output, one per
/// level against the thresholds A, A+B, A+B+C), so any block of edges can be drawn alone, in any
/// order. (Drawing all edges from one std::mt19937_64
/// stream in turn would tie the graph to the order of the draws.)
void rmat_edges(int32_t scale, uint64_t seed, int64_t begin, int64_t end, int32_t* from,
                int32_t* to);

}  // namespace lockstep::gen

namespace lockstep {

/// A 2D grid graph, n x n vertices, 4-neighbour, undirected (the laplace2d pattern, whose
/// diagonal gives self-loops): the deep graph of the BFS benchmark.
CsrGraph grid_graph(int32_t n);
/// Graph500 R-MAT (A=0.57, B=0.19, C=0.19), undirected, 2^scale vertices, edgefactor*2^scale
/// edges (gen::rmat's pattern: duplicates merged, self-loops kept), drawn and built in parallel
/// (the same graph for any thread count); scale 25, edge factor 16: ~1.07e9 entries, 4 bytes each.
CsrGraph rmat_graph(int32_t scale, int32_t edgefactor, uint64_t seed);

/// n vertices, each ordered pair (u != v) an edge with probability `density`, integer weights
/// uniform in [min_weight, max_weight] (negative weights allowed: the caller ensures no negative
/// cycle, e.g. min_weight >= 0). Deterministic for a seed.
Graph random_graph(int32_t n, double density, uint64_t seed, int min_weight = 1,
                   int max_weight = 100);

}  // namespace lockstep
