// Deterministic test and benchmark matrices (same seed, same matrix, on every platform: the
// random numbers come from std::mt19937_64 with lockstep's own distributions).
#pragma once
#include <cstdint>

#include "lockstep/csr.hpp"

namespace lockstep::gen {

Csr<double> laplace2d(int32_t n);                        // 5-point stencil on an n x n grid
Csr<double> laplace3d(int32_t n);                        // 7-point stencil on an n^3 grid
Csr<double> uniform(int32_t n, int32_t k, uint64_t seed);  // k distinct uniform columns a row
/// Row lengths from a Pareto law with exponent alpha (minimum 1, capped at n), distinct columns.
Csr<double> powerlaw(int32_t n, double alpha, uint64_t seed);
Csr<double> banded(int32_t n, int32_t w, uint64_t seed);  // |i - j| <= w
Csr<double> dense_rows(int32_t n, int32_t k, uint64_t seed);  // n x n, k random columns a row
/// n x n, k random columns a row, except `hubs` rows spread evenly with hub_len columns each.
Csr<double> hubs(int32_t n, int32_t k, int32_t hubs, int32_t hub_len, uint64_t seed);
/// Block FEM-like: the 7-point stencil on an n^3 grid with a dense b x b block per coupling
/// (n^3 b rows of up to 7b entries in runs of b adjacent columns).
Csr<double> blocks3d(int32_t n, int32_t b, uint64_t seed);
/// Graph500 R-MAT (A=0.57, B=0.19, C=0.19): 2^scale vertices, edgefactor*2^scale edges, each
/// stored in both directions; duplicate edges merged (values summed), self-loops kept.
Csr<double> rmat(int32_t scale, int32_t edgefactor, uint64_t seed);

}  // namespace lockstep::gen
