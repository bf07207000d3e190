// lockstep::mpi::DistributedBfs's tiny levels (tiny_edges, src/mpi/bfs_tiny.cpp): a level of a
// small frontier is one MPI_Allgather of every rank's counts and pairs. On R-MAT (auto and forced
// top-down) and on hubs reached from a path (a tiny level whose next frontier holds hubs: the
// ranks with more edges than their slot defer to an ordinary level, bottom-up, top-down or with
// bitmap discoveries): the levels equal the one-process BFS (bfs_cpu), the trees pass the
// Graph500 validation, every level's global counts (frontier, edges) are bfs_cpu's, tiny levels
// ran on several ranks and none with tiny_edges 0.
#include <doctest/doctest.h>

#include <string>

#include "bfs_graphs.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/generators.hpp"
#include "mpi_support.hpp"

namespace lockstep::test {
namespace {

struct Tiny {
  int gathered = 0, deferred = 0, bitmap = 0;  // tiny levels; of those, deferred; with bitmaps
};

// Each source: levels equal bfs_cpu's, the tree validates; counts the tiny levels.
Tiny tiny_levels(const CsrGraph& whole, const mpi::DistributedGraph& g,
                 const mpi::DistributedBfsOptions& o, const std::vector<int32_t>& sources,
                 const std::string& what) {
  Tiny k;
  const std::vector<mpi::DistributedBfsResult> runs = check_sources(whole, g, o, sources, what);
  for (size_t i = 0; i < runs.size(); ++i) {
    const mpi::DistributedBfsResult& r = runs[i];
    const BfsResult want = bfs_cpu(whole, sources[i], 1);
    INFO(what, " source ", sources[i]);
    // every level's global counts (the rule's and the termination's, from the one collective):
    // the vertices at that level and their edges
    REQUIRE(r.steps.size() == size_t(want.max_level) + 1);
    std::vector<int64_t> front(r.steps.size(), 0), edges(r.steps.size(), 0);
    for (int32_t v = 0; v < whole.n; ++v)
      if (want.levels[size_t(v)] >= 0)
        ++front[size_t(want.levels[size_t(v)])],
            edges[size_t(want.levels[size_t(v)])] += whole.degree(v);
    for (const mpi::DistributedBfsStep& st : r.steps) {
      INFO("level ", st.level);
      CHECK(st.frontier == front[size_t(st.level)]);
      CHECK(st.edges == edges[size_t(st.level)]);
      if (!st.gathered) continue;
      ++k.gathered;
      // more frontier edges than a slot: some rank deferred to an ordinary level
      if (st.edges > o.tiny_edges) ++k.deferred, k.bitmap += st.bitmap;
    }
  }
  return k;
}

}  // namespace

TEST_CASE("mpi bfs: tiny levels in one MPI_Allgather on R-MAT") {
  const CsrGraph whole = rmat_graph(12, 16, 3);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 12, 16, 3);
  const bool several = world_size() > 1;
  const std::vector<int32_t> sources = {0, whole.n - 1, 1000, 7};
  mpi::DistributedBfsOptions o;  // tiny_edges 1024 by default
  CHECK((tiny_levels(whole, g, o, sources, "auto").gathered > 0) == several);
  o.direction = mpi::Direction::top_down;
  CHECK((tiny_levels(whole, g, o, sources, "top-down").gathered > 0) == several);
  o.tiny_edges = 0;
  CHECK(tiny_levels(whole, g, o, sources, "off").gathered == 0);
}

TEST_CASE("mpi bfs: a tiny level whose frontier reaches hubs defers them to an ordinary level") {
  const int p = world_size();
  const int32_t n = 32 * p + 3000;
  const CsrGraph whole = hubs(n, p);
  const mpi::DistributedGraph g =
      mpi::scatter_graph(world(), world_rank() == 0 ? whole : CsrGraph{}, blocks32(n, p));
  // from 4: 5, then 6, then every hub (each joined to 6) with thousands of edges
  mpi::DistributedBfsOptions o;
  o.tiny_edges = 64;
  for (mpi::Direction d : {mpi::Direction::automatic, mpi::Direction::top_down}) {
    o.direction = d;
    const Tiny k = tiny_levels(whole, g, o, {4, n - 1}, mpi::to_string(d));
    if (p > 1) CHECK(k.deferred > 0);
  }
  o.shared_capacity = 64;  // the deferred hubs' pairs pass the segments: bitmap discoveries
  const Tiny k = tiny_levels(whole, g, o, {4}, "top-down, small segments");
  if (p > 1) CHECK(k.bitmap > 0);
}

}  // namespace lockstep::test
