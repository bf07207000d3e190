// The distributed BFS tests' hand-made graphs (test_distributed_bfs*.cpp) and their check of a
// run from each source against the one-process BFS.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lockstep/bfs.hpp"
#include "lockstep/graph.hpp"
#include "lockstep/mpi/bfs.hpp"
#include "mpi_support.hpp"

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

// Each source: the levels equal bfs_cpu's, as do the reached vertices, the traversed edges and
// the depth; the tree passes the Graph500 validation; under forced top-down every level is
// top-down. Returns each source's result.
inline std::vector<mpi::DistributedBfsResult> check_sources(const CsrGraph& whole,
                                                            const mpi::DistributedGraph& g,
                                                            const mpi::DistributedBfsOptions& o,
                                                            const std::vector<int32_t>& sources,
                                                            const std::string& what) {
  mpi::DistributedBfs bfs(rank_context(), g, o);
  std::vector<mpi::DistributedBfsResult> out;
  for (int32_t s : sources) {
    INFO(what, " source ", s);
    mpi::DistributedBfsResult r = bfs.run(s);
    const BfsResult want = bfs_cpu(whole, s, 1);
    const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
    if (world_rank() == 0) CHECK(all == want.levels);
    CHECK(r.reached == want.reached);
    CHECK(r.traversed_edges == want.traversed_edges);
    CHECK(r.max_level == want.max_level);
    CHECK(mpi::validate_bfs(g, s, r) == "");
    if (o.direction == mpi::Direction::top_down)
      CHECK(r.levels_run(mpi::Direction::top_down) == int(r.steps.size()));
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace lockstep::test
