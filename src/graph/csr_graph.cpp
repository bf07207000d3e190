// CsrGraph: counting-sort construction from an edge list, sorted rows, symmetry detection (then
// the in-neighbours are the out-neighbours and no reverse copy is kept), the reverse adjacency of
// directed graphs, degree statistics, and the generated graphs of the BFS tests and benchmarks
// (grid and R-MAT patterns from lockstep/generators.hpp: one home for generators).
#include <algorithm>
#include <cmath>

#include "lockstep/error.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/graph.hpp"

namespace lockstep {
namespace {

// Rows of (from[e] -> to[e]) in CSR, each row sorted.
void build_rows(int32_t n, const std::vector<int32_t>& from, const std::vector<int32_t>& to,
                std::vector<int32_t>& offsets, std::vector<int32_t>& adj) {
  offsets.assign(size_t(n) + 1, 0);
  for (int32_t u : from) ++offsets[size_t(u) + 1];
  for (size_t v = 0; v < size_t(n); ++v) offsets[v + 1] += offsets[v];
  adj.resize(from.size());
  std::vector<int32_t> at(offsets.begin(), offsets.end() - 1);
  for (size_t e = 0; e < from.size(); ++e) adj[size_t(at[size_t(from[e])]++)] = to[e];
  for (size_t v = 0; v < size_t(n); ++v)
    std::sort(adj.begin() + offsets[v], adj.begin() + offsets[v + 1]);
}

}  // namespace

CsrGraph::CsrGraph(const Graph& g, bool reverse) : n(g.n) {
  if (g.src.size() >= size_t(std::numeric_limits<int32_t>::max()))
    throw input_error("graph too large: " + std::to_string(g.src.size()) +
                      " edges (at most 2^31-2)");
  for (size_t e = 0; e < g.src.size(); ++e)
    if (g.src[e] < 0 || g.src[e] >= n || g.dst[e] < 0 || g.dst[e] >= n)
      throw input_error("edge " + std::to_string(e) + " (" + std::to_string(g.src[e]) + " -> " +
                        std::to_string(g.dst[e]) + ") leaves [0, " + std::to_string(n) + ")");
  build_rows(n, g.src, g.dst, offsets, adj);
  finish(reverse);
}

CsrGraph::CsrGraph(int32_t n_, std::vector<int32_t> offsets_, std::vector<int32_t> adj_,
                   bool reverse)
    : n(n_), offsets(std::move(offsets_)), adj(std::move(adj_)) {
  if (offsets.size() != size_t(n) + 1 || offsets.back() != int32_t(adj.size()))
    throw input_error("CsrGraph: offsets must have n+1 entries ending at the edge count");
  for (size_t v = 0; v < size_t(n); ++v)
    std::sort(adj.begin() + offsets[v], adj.begin() + offsets[v + 1]);
  finish(reverse);
}

void CsrGraph::finish(bool reverse) {
  std::vector<int32_t> from(adj.size());
  for (size_t v = 0; v < size_t(n); ++v)
    std::fill(from.begin() + offsets[v], from.begin() + offsets[v + 1], int32_t(v));
  build_rows(n, adj, from, rev_offsets, rev_adj);  // the transpose
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

CsrGraph grid_graph(int32_t n) {
  Csr<double> a = gen::laplace2d(n);
  return CsrGraph(a.rows, std::move(a.row_ptr), std::move(a.col_idx));
}

CsrGraph rmat_graph(int32_t scale, int32_t edgefactor, uint64_t seed) {
  Csr<double> a = gen::rmat(scale, edgefactor, seed);
  return CsrGraph(a.rows, std::move(a.row_ptr), std::move(a.col_idx));
}

}  // namespace lockstep
