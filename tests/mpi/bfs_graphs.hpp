// The distributed BFS tests' hand-made graphs (test_distributed_bfs*.cpp).
#pragma once
#include <algorithm>
#include <vector>

#include "lockstep/graph.hpp"

namespace lockstep::test {

// Blocks of 32 vertices a rank, in order, the last rank taking the rest.
inline std::vector<int32_t> blocks32(int32_t n, int ranks) {
  std::vector<int32_t> b;
  for (int q = 0; q < ranks; ++q) b.push_back(std::min(n, 32 * q));
  b.push_back(n);
  return b;
}

// A path 32..n-1 with chords every 7 vertices and a star at 40; vertices below 32 isolated.
inline CsrGraph hand_made(int32_t n) {
  Graph g;
  g.n = n;
  for (int32_t v = 33; v < n; ++v) g.add_edge(v - 1, v, 1);
  for (int32_t v = 32; v + 7 < n; v += 7) g.add_edge(v, v + 7, 1);
  for (int32_t v = 41; v < n; v += 5) g.add_edge(40, v, 1);
  g.add_edge(n - 1, n - 1, 1);  // a self-loop on the last vertex
  g.add_reverse_edges();
  return CsrGraph(g);
}

// Hubs on every rank: vertex 32 q + 3 of rank q's block joined to every 3rd vertex (thousands of
// edges: many merge-path tiles), a path through the rest; rank 0's vertices 0..2 isolated.
inline CsrGraph hubs(int32_t n, int ranks) {
  Graph g;
  g.n = n;
  for (int q = 0; q < ranks; ++q)
    for (int32_t v = 0; v < n; v += 3)
      if (v != 32 * q + 3) g.add_edge(32 * q + 3, v, 1);
  for (int32_t v = 4; v + 1 < n; ++v) g.add_edge(v, v + 1, 1);
  g.add_reverse_edges();
  return CsrGraph(g);
}

}  // namespace lockstep::test
