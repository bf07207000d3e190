// The generated graphs: the BFS tests' and benchmarks' grid and R-MAT (the patterns of
// gen::laplace2d and gen::rmat_edges, both symmetric by construction, so no transpose is built to
// find out) and APSP's weighted random graphs. This module uses the graph module (CsrGraph and
// its parallel row builder); the graph module does not use generators.
#include <cmath>
#include <random>

#include "graph/rows.hpp"
#include "lockstep/error.hpp"
#include "lockstep/generators.hpp"

namespace lockstep {

CsrGraph grid_graph(int32_t n) {  // the stencil's rows are sorted and symmetric
  Csr<double> a = gen::laplace2d(n);
  return CsrGraph(a.rows, std::move(a.row_ptr), std::move(a.col_idx), detail::SymmetricRows{});
}

CsrGraph rmat_graph(int32_t scale, int32_t edgefactor, uint64_t seed) {
  if (scale < 0 || scale > 26 || edgefactor < 1 ||
      (int64_t(edgefactor) << (scale + 1)) >= (int64_t(1) << 31))
    throw input_error(
        "rmat needs 0 <= scale <= 26, edgefactor >= 1 and 2*edgefactor*2^scale < 2^31");
  // gen::rmat's pattern without its values: both directions of every edge, repeats once
  std::vector<int32_t> offsets, adj;
  const int32_t n = int32_t(1) << scale;
  detail::build_rows(
      n, int64_t(edgefactor) << scale, true, true,
      [&](int64_t b, int64_t e, int32_t* from, int32_t* to) {
        gen::rmat_edges(scale, seed, b, e, from, to);
      },
      offsets, adj);
  return CsrGraph(n, std::move(offsets), std::move(adj), detail::SymmetricRows{});
}

Graph random_graph(int32_t n, double density, uint64_t seed, int min_weight, int max_weight) {
  if (n < 0) throw input_error("random graph: n must be >= 0, got " + std::to_string(n));
  if (!(density >= 0 && density <= 1))
    throw input_error("random graph: density must be in [0, 1], got " + std::to_string(density));
  Graph g;
  g.n = n;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> w(min_weight, max_weight);
  if (density > 0.3) {  // dense: one coin per pair
    for (int32_t u = 0; u < n; ++u)
      for (int32_t v = 0; v < n; ++v)
        if (u != v && coin(rng) < density) g.add_edge(u, v, w(rng));
  } else if (n > 1) {  // sparse: draw the expected number of edges
    std::uniform_int_distribution<int32_t> vert(0, n - 1);
    size_t m = size_t(std::llround(density * double(n) * double(n - 1)));
    for (size_t e = 0; e < m; ++e) {
      int32_t u = vert(rng), v = vert(rng);
      if (u != v) g.add_edge(u, v, w(rng));
    }
  }
  return g;
}

}  // namespace lockstep
