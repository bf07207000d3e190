// CsrGraph: counting-sort construction from an edge list (in parallel, graph/rows.hpp), sorted
// rows, symmetry detection (then the in-neighbours are the out-neighbours and no reverse copy is
// kept), the reverse adjacency of directed graphs and degree statistics. (The generated graphs,
// grid and R-MAT, are built in src/generators: that module uses this one, not the other way.)
#include <algorithm>
#include <cmath>
#include <limits>

#include "graph/rows.hpp"
#include "lockstep/error.hpp"
#include "lockstep/graph.hpp"

namespace lockstep {

CsrGraph::CsrGraph(const Graph& g, bool reverse) : n(g.n) {
  if (g.src.size() >= size_t(std::numeric_limits<int32_t>::max()))
    throw input_error("graph too large: " + std::to_string(g.src.size()) +
                      " edges (at most 2^31-2)");
  for (size_t e = 0; e < g.src.size(); ++e)
    if (g.src[e] < 0 || g.src[e] >= n || g.dst[e] < 0 || g.dst[e] >= n)
      throw input_error("edge " + std::to_string(e) + " (" + std::to_string(g.src[e]) + " -> " +
                        std::to_string(g.dst[e]) + ") leaves [0, " + std::to_string(n) + ")");
  detail::build_rows(
      n, int64_t(g.src.size()), false, false,
      [&](int64_t b, int64_t e, int32_t* from, int32_t* to) {
        std::copy(g.src.begin() + b, g.src.begin() + e, from);
        std::copy(g.dst.begin() + b, g.dst.begin() + e, to);
      },
      offsets, adj);
  finish(reverse);
}

CsrGraph::CsrGraph(int32_t n_, std::vector<int32_t> offsets_, std::vector<int32_t> adj_,
                   bool reverse)
    : n(n_), offsets(std::move(offsets_)), adj(std::move(adj_)) {
  if (offsets.size() != size_t(n) + 1 || offsets.back() != int32_t(adj.size()))
    throw input_error("CsrGraph: offsets must have n+1 entries ending at the edge count");
  detail::sort_rows(offsets, adj);
  finish(reverse);
}

CsrGraph::CsrGraph(int32_t n_, std::vector<int32_t> offsets_, std::vector<int32_t> adj_,
                   detail::SymmetricRows)
    : n(n_), offsets(std::move(offsets_)), adj(std::move(adj_)), symmetric(true) {}

void CsrGraph::finish(bool reverse) {
  // The transpose: entry e of row v drawn as adj[e] -> v (the row of a block's first entry by
  // binary search, then walked).
  detail::build_rows(
      n, int64_t(adj.size()), false, false,
      [&](int64_t b, int64_t e, int32_t* from, int32_t* to) {
        const auto first = std::upper_bound(offsets.begin(), offsets.end(), int32_t(b));
        size_t v = size_t(first - offsets.begin()) - 1;
        for (int64_t k = b; k < e; ++k) {
          while (offsets[v + 1] <= k) ++v;
          from[k - b] = adj[size_t(k)], to[k - b] = int32_t(v);
        }
      },
      rev_offsets, rev_adj);
  symmetric = rev_offsets == offsets && rev_adj == adj;
  if (symmetric || !reverse) {
    rev_offsets.clear(), rev_offsets.shrink_to_fit();
    rev_adj.clear(), rev_adj.shrink_to_fit();
  }
}

bool CsrGraph::has_edge(int32_t u, int32_t v) const {
  if (u < 0 || u >= n) return false;
  return std::binary_search(adj.begin() + offsets[size_t(u)], adj.begin() + offsets[size_t(u) + 1],
                            v);
}

DegreeStats CsrGraph::stats() const {
  DegreeStats s;
  if (n == 0) return s;
  s.min = std::numeric_limits<int32_t>::max();
  double sum = 0, sq = 0;
  for (int32_t v = 0; v < n; ++v) {
    int32_t d = degree(v);
    s.min = std::min(s.min, d), s.max = std::max(s.max, d);
    sum += d, sq += double(d) * d;
  }
  s.mean = sum / n;
  s.stddev = std::sqrt(std::max(0.0, sq / n - s.mean * s.mean));
  return s;
}

}  // namespace lockstep
