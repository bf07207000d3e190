// Graph500's search keys: the largest connected component and k random vertices of out-degree
// >= 1 in it. Symmetric graphs: the component of a highest-degree vertex is labelled first with
// the parallel CPU BFS (on R-MAT the giant component), the rest with one serial sweep. Directed
// graphs: the largest strongly connected component (Kosaraju, iterative), so that every source
// reaches at least all of it (a weakly connected source may reach only itself).
#include <algorithm>
#include <random>

#include "bfs/steps.hpp"
#include "lockstep/error.hpp"

namespace lockstep {
namespace {

// Labels `label` every unlabelled vertex reachable from v over (off, adj) (serial BFS).
int32_t label_from(const std::vector<int32_t>& off, const std::vector<int32_t>& adj, int32_t v,
                   int32_t label, std::vector<int32_t>& labels, std::vector<int32_t>& queue) {
  queue.assign(1, v);
  labels[size_t(v)] = label;
  for (size_t i = 0; i < queue.size(); ++i) {
    const int32_t u = queue[i];
    for (int32_t e = off[size_t(u)]; e < off[size_t(u) + 1]; ++e)
      if (labels[size_t(adj[size_t(e)])] < 0)
        labels[size_t(adj[size_t(e)])] = label, queue.push_back(adj[size_t(e)]);
  }
  return int32_t(queue.size());
}

// Kosaraju pass 1: the vertices in order of DFS finishing time over out-edges (iterative).
std::vector<int32_t> finish_order(const CsrGraph& g) {
  std::vector<int32_t> order, stack, next(size_t(g.n));
  std::vector<uint8_t> seen(size_t(g.n), 0);
  order.reserve(size_t(g.n));
  for (int32_t r = 0; r < g.n; ++r) {
    if (seen[size_t(r)]) continue;
    seen[size_t(r)] = 1, next[size_t(r)] = g.offsets[size_t(r)], stack.assign(1, r);
    while (!stack.empty()) {
      const int32_t u = stack.back();
      if (next[size_t(u)] < g.offsets[size_t(u) + 1]) {
        const int32_t w = g.adj[size_t(next[size_t(u)]++)];
        if (!seen[size_t(w)])
          seen[size_t(w)] = 1, next[size_t(w)] = g.offsets[size_t(w)], stack.push_back(w);
      } else {
        order.push_back(u), stack.pop_back();
      }
    }
  }
  return order;
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
  auto label = [&](const std::vector<int32_t>& off, const std::vector<int32_t>& adj, int32_t v) {
    const int32_t size = label_from(off, adj, v, next, labels, queue);
    if (size > best_size) best = next, best_size = size;
    ++next;
  };
  if (g.symmetric || !g.has_in_edges()) {  // components (out-edges only without in-edges)
    for (int32_t v = 0; v < g.n; ++v)
      if (labels[size_t(v)] < 0) label(g.offsets, g.adj, v);
  } else {  // Kosaraju pass 2: in-edges, in reverse finishing order
    const std::vector<int32_t> order = finish_order(g);
    for (auto it = order.rbegin(); it != order.rend(); ++it)
      if (labels[size_t(*it)] < 0) label(g.rev_offsets, g.rev_adj, *it);
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
