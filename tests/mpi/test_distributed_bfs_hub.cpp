// lockstep::mpi::DistributedBfs's top-down levels whose (vertex, parent) pairs would pass some
// rank's pair buffer (remote_capacity) or shared-memory segment (shared_capacity), forced small
// here: each rank's remote discoveries go to their owners as bitmaps and the owners pick the
// parents among the frontier's in-neighbours (src/mpi/bfs_hub.cpp). On R-MAT under auto and
// forced top-down, one wave a vertex and load-balanced, over every exchange path
// (LOCKSTEP_MPI_HALO), and on a directed graph (parents from the in-rows): the levels equal the
// one-process BFS (bfs_cpu), the trees pass the Graph500 validation and such levels ran; with
// bitmap_discoveries off none does.
#include <doctest/doctest.h>

#include <string>

#include "bfs_graphs.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/generators.hpp"
#include "mpi_support.hpp"

namespace lockstep::test {
namespace {

// Each source: levels equal bfs_cpu's, the tree validates; returns the levels that sent bitmaps
// (each one top-down, and under forced top-down every level is).
int bitmap_levels(const CsrGraph& whole, const mpi::DistributedGraph& g,
                  const mpi::DistributedBfsOptions& o, const std::vector<int32_t>& sources,
                  const std::string& what) {
  int bitmaps = 0;
  for (const mpi::DistributedBfsResult& r : check_sources(whole, g, o, sources, what))
    for (const mpi::DistributedBfsStep& st : r.steps)
      if (st.bitmap) {
        ++bitmaps;
        CHECK(st.direction == mpi::Direction::top_down);
      }
  return bitmaps;
}

}  // namespace

TEST_CASE("mpi bfs: overflowing top-down levels send their discoveries as bitmaps") {
  const CsrGraph whole = rmat_graph(12, 16, 3);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 12, 16, 3);
  const std::vector<int32_t> sources = {0, whole.n - 1, 1000};
  const bool several = world_size() > 1;
  for (const char* path : {"shm", "mpi"}) {
    ScopedEnv halo("LOCKSTEP_MPI_HALO", path);
    const std::string name = path;
    mpi::DistributedBfsOptions o;
    o.shared_capacity = 64;  // auto: the big levels stay top-down where Beamer's rule says so
    int k = bitmap_levels(whole, g, o, sources, name + " auto, small segments");
    if (several) CHECK(k > 0);
    o.direction = mpi::Direction::top_down, o.expand = mpi::Expand::wave;
    o.shared_capacity = 0, o.remote_capacity = 2048;  // the pair buffer itself too small
    k = bitmap_levels(whole, g, o, sources, name + " top-down, wave, small buffer");
    CHECK(k > 0);  // one rank too: its frontier's edges pass 2048
    o.expand = mpi::Expand::lb, o.remote_capacity = 0, o.shared_capacity = 64;
    k = bitmap_levels(whole, g, o, sources, name + " top-down, lb, small segments");
    if (several) CHECK(k > 0);
    o.bitmap_discoveries = false;  // the earlier rule: by MPI or bottom-up, never bitmaps
    CHECK(bitmap_levels(whole, g, o, {0}, name + " bitmaps off") == 0);
  }
}

TEST_CASE("mpi bfs: a directed graph's bitmap levels take parents from the in-rows") {
  const int p = world_size();
  const int32_t n = 32 * p + 3000;
  Graph d;  // hubs 32 q + 3 -> every 3rd vertex, a path forward; no reverse edges
  d.n = n;
  for (int q = 0; q < p; ++q)
    for (int32_t v = 0; v < n; v += 3)
      if (v != 32 * q + 3) d.add_edge(32 * q + 3, v, 1);
  for (int32_t v = 4; v + 1 < n; ++v) d.add_edge(v, v + 1, 1);
  const CsrGraph whole(d);
  REQUIRE(!whole.symmetric);
  const mpi::DistributedGraph g =
      mpi::scatter_graph(world(), world_rank() == 0 ? whole : CsrGraph{}, blocks32(n, p));
  mpi::DistributedBfsOptions o;
  o.direction = mpi::Direction::top_down, o.shared_capacity = 16, o.remote_capacity = 256;
  const int k = bitmap_levels(whole, g, o, {3, 32 * (p - 1) + 3, 4}, "directed hubs");
  CHECK(k > 0);
}

}  // namespace lockstep::test
