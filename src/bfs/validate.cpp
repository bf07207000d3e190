// Graph500-style validation of a BFS result: the parent tree is a BFS tree of the graph, every
// edge respects the levels, and nothing reachable was missed. Returns the first violation.
#include <algorithm>
#include <sstream>

#include "graph/rows.hpp"
#include "lockstep/bfs.hpp"

namespace lockstep {

namespace {

// The checks of one vertex: its level and parent, and its out-edges. Writes the violation to
// `why` when given.
bool vertex_ok(const CsrGraph& g, int32_t source, const std::vector<int32_t>& levels,
               const std::vector<int32_t>& parents, int32_t v, std::ostringstream* why) {
  const int32_t l = levels[size_t(v)], p = parents[size_t(v)];
  if (l < 0) {
    if (l != -1 || p != -1) {
      if (why) *why << "vertex " << v << ": unreached (level " << l << ") but parent " << p;
      return false;
    }
    return true;
  }
  if (v != source) {
    if (p < 0 || p >= g.n || levels[size_t(p)] != l - 1) {
      if (why)
        *why << "vertex " << v << " at level " << l << ": parent " << p << " is not one level up";
      return false;
    }
    if (!g.has_edge(p, v)) {
      if (why) *why << "vertex " << v << ": parent " << p << " -> " << v << " is not an edge";
      return false;
    }
  }
  for (int32_t e = g.offsets[size_t(v)]; e < g.offsets[size_t(v) + 1]; ++e) {
    const int32_t w = g.adj[size_t(e)], lw = levels[size_t(w)];
    if (lw < 0 || lw > l + 1) {
      if (why)
        *why << "edge " << v << " -> " << w << ": levels " << l << " and " << lw
             << (lw < 0 ? " (reachable but unreached)" : " (more than one apart)");
      return false;
    }
  }
  return true;
}

}  // namespace

std::string validate_bfs(const CsrGraph& g, int32_t source, const std::vector<int32_t>& levels,
                         const std::vector<int32_t>& parents) {
  std::ostringstream why;
  if (levels.size() != size_t(g.n) || parents.size() != size_t(g.n)) {
    why << "levels/parents have " << levels.size() << "/" << parents.size()
        << " entries, the graph " << g.n << " vertices";
    return why.str();
  }
  if (source < 0 || source >= g.n) return "source outside the graph";
  if (levels[size_t(source)] != 0 || parents[size_t(source)] != source) {
    why << "source " << source << ": level " << levels[size_t(source)] << ", parent "
        << parents[size_t(source)] << " (expected 0 and itself)";
    return why.str();
  }
  // Parallel over chunks of about equal rows + edges (OpenMP where built with it: R-MAT's hubs
  // sit at the lowest ids); the first bad vertex is re-checked serially for its message.
  const std::vector<int32_t> chunks = detail::row_chunks(g.offsets);
  const int64_t count = int64_t(chunks.size()) - 1;
  int32_t bad = g.n;
#pragma omp parallel for schedule(dynamic, 1) reduction(min : bad)
  for (int64_t c = 0; c < count; ++c)
    for (int32_t v = chunks[size_t(c)]; v < chunks[size_t(c) + 1]; ++v)
      if (!vertex_ok(g, source, levels, parents, v, nullptr)) {
        bad = std::min(bad, v);
        break;
      }
  if (bad < g.n) vertex_ok(g, source, levels, parents, bad, &why);
  return why.str();
}

}  // namespace lockstep
