// Graph500's search keys: the largest connected component (weakly connected for a directed
// graph: out- and in-edges both join) and k random vertices of out-degree >= 1 in it. The
// component of a highest-degree vertex is labelled first with the parallel CPU BFS (symmetric
// graphs: on R-MAT it is the giant component), the rest with one serial sweep.
#include <algorithm>
#include <random>

#include "bfs/steps.hpp"
#include "lockstep/error.hpp"

namespace lockstep {
namespace {

// Labels every vertex of v's component `label` (serial BFS over out- and in-edges).
int32_t label_from(const CsrGraph& g, int32_t v, int32_t label, std::vector<int32_t>& labels,
                   std::vector<int32_t>& queue) {
  queue.assign(1, v);
  labels[size_t(v)] = label;
  const bool in = !g.symmetric && g.has_in_edges();
  for (size_t i = 0; i < queue.size(); ++i) {
    const int32_t u = queue[i];
    auto visit = [&](const std::vector<int32_t>& off, const std::vector<int32_t>& adj) {
      for (int32_t e = off[size_t(u)]; e < off[size_t(u) + 1]; ++e)
        if (labels[size_t(adj[size_t(e)])] < 0)
          labels[size_t(adj[size_t(e)])] = label, queue.push_back(adj[size_t(e)]);
    };
    visit(g.offsets, g.adj);
    if (in) visit(g.rev_offsets, g.rev_adj);
  }
  return int32_t(queue.size());
}

}  // namespace

BfsSources bfs_sources(const CsrGraph& g, int k, uint64_t seed) {
  if (k < 1) throw input_error("bfs: need at least one source");
  BfsSources r;
  if (g.n == 0) return r;
  std::vector<int32_t> labels(size_t(g.n), -1), queue;
  int32_t best = 0, best_size = 0, next = 0;
  if (g.symmetric) {  // the giant component in parallel: a highest-degree vertex's BFS tree
    int32_t hub = 0;
    for (int32_t v = 1; v < g.n; ++v)
      if (g.degree(v) > g.degree(hub)) hub = v;
    const BfsResult t = bfs_cpu(g, hub);
    for (int32_t v = 0; v < g.n; ++v)
      if (t.levels[size_t(v)] >= 0) labels[size_t(v)] = 0;
    best_size = t.reached, next = 1;
  }
  for (int32_t v = 0; v < g.n; ++v)
    if (labels[size_t(v)] < 0) {
      const int32_t size = label_from(g, v, next, labels, queue);
      if (size > best_size) best = next, best_size = size;
      ++next;
    }
  std::vector<int32_t> candidates;
  for (int32_t v = 0; v < g.n; ++v)
    if (labels[size_t(v)] == best) {
      r.component_edges += g.degree(v);
      if (g.degree(v) > 0) candidates.push_back(v);
    }
  if (g.symmetric) r.component_edges /= 2;
  r.component_vertices = best_size;
  if (candidates.empty()) {  // no edges at all: vertex 0 alone
    r.sources.push_back(0);
    return r;
  }
  std::mt19937_64 rng(seed);
  if (size_t(k) >= candidates.size()) {  // all of them, in random order
    std::shuffle(candidates.begin(), candidates.end(), rng);
    r.sources = candidates;
    return r;
  }
  for (int i = 0; i < k; ++i) {  // k distinct: a partial Fisher-Yates shuffle
    const size_t j = size_t(i) + size_t(rng() % uint64_t(candidates.size() - size_t(i)));
    std::swap(candidates[size_t(i)], candidates[j]);
    r.sources.push_back(candidates[size_t(i)]);
  }
  return r;
}

}  // namespace lockstep
