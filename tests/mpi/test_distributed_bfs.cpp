// lockstep::mpi::DistributedBfs on 1-4 ranks: levels equal the one-process BFS (lockstep::
// bfs_cpu on the whole graph, which every rank also holds) on hand-made graphs (a rank whose
// vertices have no edges, a rank with no vertices, the source on the last rank), on R-MAT (whose
// distributed build must give rmat_graph's rows and whose search keys the one-GPU picker's; scale
// 15 forced top-down and bottom-up, where ranks once took different directions and hung) and on a
// shared SNAP graph, in each direction (top-down only, bottom-up only, auto); the Graph500
// validation accepts the trees and catches a broken one on any rank; a bad source, or ranks passing
// different sources or directions, ends every rank with the same error. One rank (a communicator of
// rank 0 alone) runs the one-device engine under auto, the kernels when forced. Hubs (a few
// vertices of thousands of edges) take the load-balanced top-down expand under auto and equal the
// one-wave expand's levels. The exchanges' paths (shared memory, MPI messages):
// test_distributed_bfs_exchange.cpp.
#include <doctest/doctest.h>

#include <filesystem>

#include "bfs_graphs.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/generators.hpp"
#include "mpi_support.hpp"

namespace lockstep::test {
namespace {

const mpi::Direction kDirections[] = {mpi::Direction::top_down, mpi::Direction::bottom_up,
                                      mpi::Direction::automatic};

// One search against the host BFS: the tree validates, the levels gathered on rank 0 equal
// bfs_cpu's, reached vertices and traversed edges agree; bfs_cpu's result returned.
BfsResult check_search(const CsrGraph& whole, const mpi::DistributedGraph& g, int32_t s,
                       const mpi::DistributedBfsResult& r) {
  CHECK(mpi::validate_bfs(g, s, r) == "");
  const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
  BfsResult want = bfs_cpu(whole, s, 1);
  if (world_rank() == 0) CHECK(all == want.levels);
  CHECK(r.reached == want.reached);
  CHECK(r.traversed_edges == want.traversed_edges);
  return want;
}

// Every direction from every source in `sources`: the levels gathered on rank 0 equal the
// host BFS's, the tree validates, and reached / traversed edges agree.
void check_levels(const CsrGraph& whole, const mpi::DistributedGraph& g,
                  const std::vector<int32_t>& sources, const char* what) {
  for (mpi::Direction d : kDirections) {
    mpi::DistributedBfsOptions o;
    o.direction = d;
    mpi::DistributedBfs bfs(rank_context(), g, o);
    for (int32_t s : sources) {
      INFO(what, " direction ", mpi::to_string(d), " source ", s);
      const mpi::DistributedBfsResult r = bfs.run(s);
      CHECK(r.max_level == check_search(whole, g, s, r).max_level);
      if (d != mpi::Direction::automatic) CHECK(r.levels_run(d) == int(r.steps.size()));
    }
  }
}

}  // namespace

TEST_CASE("mpi bfs: hand-made graphs, a rank without edges, the source on the last rank") {
  const int p = world_size();
  const int32_t n = 32 * p + 50;
  const CsrGraph whole = hand_made(n);
  REQUIRE(whole.symmetric);
  // rank 0 holds vertices 0..31, none of which has an edge; the last rank holds the source
  const mpi::DistributedGraph g =
      mpi::scatter_graph(world(), world_rank() == 0 ? whole : CsrGraph{}, blocks32(n, p));
  CHECK(g.count == (world_rank() + 1 == p ? n - 32 * (p - 1) : 32));
  if (world_rank() == 0 && p > 1) CHECK(g.adj.empty());
  check_levels(whole, g, {n - 1, 40, 0}, "hand-made");
  // a rank with no vertices at all: rank 0's block is empty
  std::vector<int32_t> b = blocks32(n, p);
  if (p > 1) b[1] = 0;
  const mpi::DistributedGraph empty =
      mpi::scatter_graph(world(), world_rank() == 0 ? whole : CsrGraph{}, b);
  if (world_rank() == 0 && p > 1) CHECK(empty.count == 0);
  check_levels(whole, empty, {n - 1}, "empty rank");
}

TEST_CASE("mpi bfs: R-MAT drawn on the ranks is rmat_graph's graph, same levels") {
  const int32_t scale = 10, ef = 8;
  const CsrGraph whole = rmat_graph(scale, ef, 5);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), scale, ef, 5);
  CHECK(g.global_entries == int64_t(whole.edges()));
  for (int32_t v = 0; v < g.count; ++v) {  // each owned row equals the one-process row
    const int32_t gv = g.first + v;
    REQUIRE(g.degree(v) == whole.degree(gv));
    CHECK(std::equal(g.adj.begin() + g.offsets[size_t(v)], g.adj.begin() + g.offsets[size_t(v) + 1],
                     whole.adj.begin() + whole.offsets[size_t(gv)]));
  }
  check_levels(whole, g, {0, whole.n - 1, 517}, "rmat");
  mpi::DistributedBfs bfs(rank_context(), g);
  const std::vector<int32_t> s = mpi::bfs_sources(bfs, g, 6, 9);
  CHECK(s.size() == 6);
  std::vector<int32_t> root = s;
  MPI_Bcast(root.data(), int(root.size()), MPI_INT32_T, 0, world());
  CHECK(root == s);  // the same keys on every rank
  const BfsResult hub = bfs_cpu(whole, 0, 1);
  for (int32_t v : s) CHECK((whole.degree(v) > 0 && hub.levels[size_t(v)] >= 0));
  // the one-GPU picker's keys for the same seed: `bfs` and `bfs --distributed` time the same
  // searches (a few and all of the candidates)
  CHECK(s == bfs_sources(whole, 6, 9).sources);
  const BfsSources every = bfs_sources(whole, whole.n, 3);
  CHECK(mpi::bfs_sources(bfs, g, whole.n, 3) == every.sources);
}

// The ranks' pair buffers differ (each holds its own entries): a level whose largest per-rank
// frontier edges fall between two ranks' capacities once sent one rank bottom-up (gather) and the
// others top-down (all-to-all), a hang on 3 ranks from source 517 at level 2. Forced directions
// must run every level in that direction on every rank; a small uniform capacity (bitmap
// discoveries off) sends levels that overflow on some rank bottom-up on all, the levels exact.
TEST_CASE("mpi bfs: R-MAT 15, forced directions, every rank takes the same direction") {
  const CsrGraph whole = rmat_graph(15, 16, 1);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 15, 16, 1);
  const std::vector<int32_t> sources = {517, 0, 1, 4242, whole.n - 1};
  for (mpi::Direction d : {mpi::Direction::top_down, mpi::Direction::bottom_up}) {
    mpi::DistributedBfsOptions o;
    o.direction = d;
    mpi::DistributedBfs bfs(rank_context(), g, o);
    for (int32_t s : sources) {
      INFO("direction ", mpi::to_string(d), " source ", s);
      const mpi::DistributedBfsResult r = bfs.run(s);
      const BfsResult want = bfs_cpu(whole, s, 1);
      const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
      if (world_rank() == 0) CHECK(all == want.levels);
      CHECK(r.reached == want.reached);
      CHECK(r.levels_run(d) == int(r.steps.size()));
    }
  }
  mpi::DistributedBfsOptions o;
  o.direction = mpi::Direction::top_down, o.remote_capacity = 2048;
  o.bitmap_discoveries = false;  // as bitmaps, all top-down: test_distributed_bfs_hub.cpp
  mpi::DistributedBfs small(rank_context(), g, o);
  const mpi::DistributedBfsResult r = small.run(517);
  const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
  if (world_rank() == 0) CHECK(all == bfs_cpu(whole, 517, 1).levels);
  CHECK(r.levels_run(mpi::Direction::bottom_up) > 0);
  CHECK(r.levels_run(mpi::Direction::top_down) > 0);
  CHECK(mpi::validate_bfs(g, 517, r) == "");
}

// Several ranks: automatic also goes bottom-up while the frontier's edges pass n / gamma (a
// top-down level would move more bytes than the bitmap). Off (gamma 0) and eager (n / gamma
// below one edge), the levels stay exact; eager, every level with a frontier edge is bottom-up.
TEST_CASE("mpi bfs: R-MAT 13, the exchange-volume switch (gamma) off and eager") {
  const CsrGraph whole = rmat_graph(13, 16, 3);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 13, 16, 3);
  for (double gamma : {0.0, 2.0 * whole.n}) {
    mpi::DistributedBfsOptions o;
    o.gamma = gamma;
    mpi::DistributedBfs bfs(rank_context(), g, o);
    for (int32_t s : {0, 77, whole.n - 1}) {
      INFO("gamma ", gamma, " source ", s);
      const mpi::DistributedBfsResult r = bfs.run(s);
      const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
      if (world_rank() == 0) CHECK(all == bfs_cpu(whole, s, 1).levels);
      CHECK(mpi::validate_bfs(g, s, r) == "");
      if (gamma > 0 && world_size() > 1 && !bfs.one_device())
        for (const mpi::DistributedBfsStep& st : r.steps)
          if (st.edges > 0) CHECK(st.direction == mpi::Direction::bottom_up);
    }
  }
}

// Several ranks, automatic, bitmap discoveries off: a level whose top-down pairs would pass some
// rank's shared-memory segment (64 pairs here) runs bottom-up instead of sending every pair by MPI,
// so every top-down level between ranks of one host goes through the segments; the levels stay
// exact.
TEST_CASE("mpi bfs: R-MAT 13, automatic goes bottom-up where the pair segments would overflow") {
  const CsrGraph whole = rmat_graph(13, 16, 3);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 13, 16, 3);
  mpi::DistributedBfsOptions o;
  o.shared_capacity = 64;
  o.bitmap_discoveries = false;  // as bitmaps, top-down: test_distributed_bfs_hub.cpp
  o.tiny_edges = 0;              // no level in one MPI_Allgather: every top-down one by segment
  mpi::DistributedBfs bfs(rank_context(), g, o);
  int top_down = 0, bottom_up = 0;
  for (int32_t s : {0, 77, whole.n - 1}) {
    INFO("source ", s);
    const mpi::DistributedBfsResult r = bfs.run(s);
    const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
    if (world_rank() == 0) CHECK(all == bfs_cpu(whole, s, 1).levels);
    CHECK(mpi::validate_bfs(g, s, r) == "");
    for (const mpi::DistributedBfsStep& st : r.steps) {
      (st.direction == mpi::Direction::top_down ? top_down : bottom_up) += 1;
      if (bfs.shared_peers() > 0 && st.direction == mpi::Direction::top_down) CHECK(st.shared);
    }
  }
  if (world_size() > 1 && !bfs.one_device() && bfs.shared_peers() > 0) {
    CHECK(top_down > 0);  // both kinds ran: the rule chose per level
    CHECK(bottom_up > 0);
  }
}

TEST_CASE("mpi bfs: one rank runs the one-device engine; forced directions keep the kernels") {
  // rank 0 alone (a communicator of one): nothing to exchange
  MPI_Comm self;
  MPI_Comm_split(world(), world_rank() == 0 ? 0 : MPI_UNDEFINED, 0, &self);
  if (world_rank() != 0) return;
  const CsrGraph whole = rmat_graph(10, 8, 5);
  const mpi::DistributedGraph g = mpi::rmat_graph(self, 10, 8, 5);
  for (mpi::Direction d : {mpi::Direction::automatic, mpi::Direction::top_down}) {
    mpi::DistributedBfsOptions o;
    o.direction = d;
    mpi::DistributedBfs bfs(rank_context(), g, o);
    CHECK(bfs.one_device() == (d == mpi::Direction::automatic));
    for (int32_t s : {0, whole.n - 1, 517}) {
      INFO("direction ", mpi::to_string(d), " source ", s);
      const mpi::DistributedBfsResult r = bfs.run(s);
      const BfsResult want = bfs_cpu(whole, s, 1);
      CHECK(r.levels == want.levels);
      CHECK(r.reached == want.reached);
      CHECK(r.traversed_edges == want.traversed_edges);
      CHECK(mpi::validate_bfs(g, s, r) == "");
      CHECK(!r.steps.empty());
    }
  }
  MPI_Comm_free(&self);
}

TEST_CASE("mpi bfs: a shared SNAP graph (skipped when absent)") {
  const auto dir = source_dir().parent_path() / "shared" / "graphs";
  if (!std::filesystem::exists(dir / "wiki-Vote.txt.gz")) {
    return test::skip("no " + dir.string());
  }
  // directed: the ranks get the in-rows too; every rank reads it for the reference
  const CsrGraph wiki(read_graph((dir / "wiki-Vote.txt.gz").string()));
  REQUIRE(!wiki.symmetric);
  const mpi::DistributedGraph g =
      mpi::scatter_graph(world(), world_rank() == 0 ? wiki : CsrGraph{});
  CHECK(!g.symmetric);
  check_levels(wiki, g, {30, wiki.n - 1}, "wiki-Vote");
  const CsrGraph fb(
      read_graph((dir / "facebook_combined.txt.gz").string(), GraphFormat::automatic, true));
  const mpi::DistributedGraph f = mpi::scatter_graph(world(), world_rank() == 0 ? fb : CsrGraph{});
  check_levels(fb, f, {0, fb.n - 1}, "facebook");
}

TEST_CASE("mpi bfs: validation catches a broken tree on any rank; bad sources end every rank") {
  const int p = world_size();
  const int32_t n = 32 * p + 50;
  const CsrGraph whole = hand_made(n);
  const mpi::DistributedGraph g =
      mpi::scatter_graph(world(), world_rank() == 0 ? whole : CsrGraph{}, blocks32(n, p));
  mpi::DistributedBfs bfs(rank_context(), g);
  mpi::DistributedBfsResult r = bfs.run(n - 1);
  REQUIRE(mpi::validate_bfs(g, n - 1, r) == "");
  mpi::DistributedBfsResult broken = r;
  if (world_rank() + 1 == p) broken.parents[size_t(n - 2 - g.first)] = n - 3;  // no such edge
  const std::string why = mpi::validate_bfs(g, n - 1, broken);
  CHECK(why.find("vertex " + std::to_string(n - 2)) != std::string::npos);
  broken = r;
  if (world_rank() == 0) broken.levels[0] = 3;  // an isolated vertex with a level
  CHECK(mpi::validate_bfs(g, n - 1, broken) != "");
  for (int32_t bad : {-1, n}) {
    std::string message;
    try {
      bfs.run(bad);
    } catch (const mpi::collective_error& e) {
      message = e.what();
    }
    CHECK(message.find("source " + std::to_string(bad) + " outside") != std::string::npos);
  }
  // ranks that disagree (a source, a direction) end every rank with one error, not a hang
  if (p > 1) {
    std::string message;
    try {
      bfs.run(world_rank() == 0 ? n - 1 : 40);
    } catch (const mpi::collective_error& e) {
      message = e.what();
    }
    CHECK(message.find("different sources (40 to " + std::to_string(n - 1) + ")") !=
          std::string::npos);
    mpi::DistributedBfsOptions o;
    o.direction = world_rank() == 0 ? mpi::Direction::top_down : mpi::Direction::automatic;
    message.clear();
    try {
      mpi::DistributedBfs mixed(rank_context(), g, o);
    } catch (const mpi::collective_error& e) {
      message = e.what();
    }
    CHECK(message.find("different options") != std::string::npos);
  }
}

TEST_CASE("mpi bfs: hubs take the load-balanced top-down expand, levels as one wave a vertex") {
  const int p = world_size();
  const int32_t n = 32 * p + 6000;
  const CsrGraph whole = hubs(n, p);
  const mpi::DistributedGraph g =
      mpi::scatter_graph(world(), world_rank() == 0 ? whole : CsrGraph{}, blocks32(n, p));
  for (mpi::Expand e : {mpi::Expand::automatic, mpi::Expand::wave, mpi::Expand::lb}) {
    mpi::DistributedBfsOptions o;
    o.direction = mpi::Direction::top_down, o.expand = e;
    mpi::DistributedBfs bfs(rank_context(), g, o);
    for (int32_t s : {3, n - 1, 32 * (p - 1) + 3}) {  // a hub, the last vertex, the last rank's hub
      INFO("expand ", int(e), " source ", s);
      const mpi::DistributedBfsResult r = bfs.run(s);
      check_search(whole, g, s, r);
      // forced: every rank's frontier meets its hub at some level; auto: the source hub's level
      // (one vertex of thousands of edges) passes the rule on any device
      int balanced = 0;
      for (const mpi::DistributedBfsStep& st : r.steps) balanced += st.balanced;
      if (e == mpi::Expand::wave) CHECK(balanced == 0);
      if (e == mpi::Expand::lb) CHECK(balanced > 0);
      if (e == mpi::Expand::automatic && s == 3 && world_rank() == 0) CHECK(r.steps[0].balanced);
    }
  }
  // the bottom-up and automatic directions around a balanced top-down start
  mpi::DistributedBfsOptions o;
  o.expand = mpi::Expand::lb;
  mpi::DistributedBfs bfs(rank_context(), g, o);
  const mpi::DistributedBfsResult r = bfs.run(n - 1);
  const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
  if (world_rank() == 0) CHECK(all == bfs_cpu(whole, n - 1, 1).levels);
  CHECK(mpi::validate_bfs(g, n - 1, r) == "");
}

TEST_CASE("mpi bfs: R-MAT load-balanced top-down equals the one-process levels") {
  const CsrGraph whole = rmat_graph(12, 16, 3);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 12, 16, 3);
  mpi::DistributedBfsOptions o;
  o.direction = mpi::Direction::top_down, o.expand = mpi::Expand::lb;
  mpi::DistributedBfs bfs(rank_context(), g, o);
  for (int32_t s : {0, whole.n - 1, 1000}) {
    INFO("source ", s);
    const mpi::DistributedBfsResult r = bfs.run(s);
    const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
    if (world_rank() == 0) CHECK(all == bfs_cpu(whole, s, 1).levels);
    CHECK(mpi::validate_bfs(g, s, r) == "");
  }
}

}  // namespace lockstep::test
