// The distributed BFS's exchanges between ranks, on every path (LOCKSTEP_MPI_HALO: shm, shared
// memory between the ranks of this host with the segments registered with OpenCL; shm-plain,
// without; mpi, MPI messages only): the bottom-up frontier bitmap (BitmapExchange) and the
// top-down (vertex, parent) pairs (PairExchange), each forced in its direction so that every
// level uses it, over more exchanges than the segments' two halves, with a rank that holds no
// vertices, the source on the last rank, hubs whose pairs fill many buckets, and a pair buffer
// too small for some levels (those go bottom-up on every rank, the others stay top-down), and
// segments too small for some levels (those send every pair by MPI on every rank), with
// bitmap_discoveries and tiny levels off (test_distributed_bfs_hub.cpp and _tiny.cpp). Levels
// equal the one-process BFS (bfs_cpu); the Graph500 validation passes.
#include <doctest/doctest.h>

#include <string>

#include "bfs_graphs.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/generators.hpp"
#include "mpi_support.hpp"

namespace lockstep::test {

namespace {

// Both exchanges' graphs: R-MAT 11 (whole, distributed as g), and the hand-made graph of n
// vertices (made, distributed as empty) where at 3+ ranks rank 1 holds no vertices.
struct Graphs {
  const int p = world_size();
  const CsrGraph whole = rmat_graph(11, 8, 2);
  const mpi::DistributedGraph g = mpi::rmat_graph(world(), 11, 8, 2);
  const int32_t n = 32 * p + 50;
  const CsrGraph made = hand_made(n);
  const mpi::DistributedGraph empty =
      mpi::scatter_graph(world(), world_rank() == 0 ? made : CsrGraph{}, blocks());
  std::vector<int32_t> blocks() const {
    std::vector<int32_t> b = blocks32(n, p);
    if (p > 2) b[2] = b[1];  // rank 1: no vertices, nothing to send
    return b;
  }
};

}  // namespace

TEST_CASE_FIXTURE(Graphs,
                  "mpi bfs: the bottom-up bitmap through shared memory and through MPI messages") {
  for (const char* path : {"shm", "mpi", "shm-plain"}) {
    ScopedEnv halo("LOCKSTEP_MPI_HALO", path);
    mpi::DistributedBfsOptions o;
    o.direction = mpi::Direction::bottom_up;
    mpi::DistributedBfs bfs(rank_context(), g, o);
    CHECK(bfs.shared_peers() == (std::string(path) == "mpi" ? 0 : p - 1));  // one host
    for (int32_t s : {0, 517, whole.n - 1, 33, 1500}) {  // 5 searches: both halves reused
      INFO(path, " source ", s);
      const mpi::DistributedBfsResult r = bfs.run(s);
      const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
      if (world_rank() == 0) CHECK(all == bfs_cpu(whole, s, 1).levels);
      CHECK(r.levels_run(mpi::Direction::bottom_up) == int(r.steps.size()));
      CHECK(mpi::validate_bfs(g, s, r) == "");
    }
    mpi::DistributedBfs other(rank_context(), empty, o);
    for (int32_t s : {n - 1, 40}) {
      INFO(path, " rank without vertices, source ", s);
      const mpi::DistributedBfsResult r = other.run(s);
      const std::vector<int32_t> all = mpi::gather_levels(empty, r.levels);
      if (world_rank() == 0) CHECK(all == bfs_cpu(made, s, 1).levels);
      CHECK(mpi::validate_bfs(empty, s, r) == "");
    }
  }
}

namespace {

// Over all searches: the pairs this rank sent, its top-down levels through shared memory and
// those through MPI.
struct Sent {
  int64_t pairs = 0;
  int shared = 0, messages = 0;
};

// Forced top-down from each source: levels equal bfs_cpu's, the tree validates, every level is
// top-down unless the pair buffer is too small (then `mixed`: both directions ran).
Sent top_down_levels(const CsrGraph& whole, const mpi::DistributedGraph& g,
                     const std::vector<int32_t>& sources, const std::string& what,
                     int64_t capacity = 0, bool mixed = false, int64_t shared_capacity = 0) {
  mpi::DistributedBfsOptions o;
  o.direction = mpi::Direction::top_down, o.remote_capacity = capacity;
  o.shared_capacity = shared_capacity;
  o.bitmap_discoveries = false;  // levels that overflow as before (as bitmaps: ..._bfs_hub.cpp)
  o.tiny_edges = 0;  // every level through the pair exchange (one MPI_Allgather: ..._tiny.cpp)
  mpi::DistributedBfs bfs(rank_context(), g, o);
  const bool mpi_only = what.rfind("mpi", 0) == 0;
  CHECK(bfs.shared_peers() == (mpi_only ? 0 : world_size() - 1));  // one host
  Sent sent;
  for (int32_t s : sources) {
    INFO(what, " source ", s);
    const mpi::DistributedBfsResult r = bfs.run(s);
    const std::vector<int32_t> all = mpi::gather_levels(g, r.levels);
    const BfsResult want = bfs_cpu(whole, s, 1);
    if (world_rank() == 0) CHECK(all == want.levels);
    CHECK(r.reached == want.reached);
    CHECK(r.traversed_edges == want.traversed_edges);
    CHECK(mpi::validate_bfs(g, s, r) == "");
    if (mixed) {
      CHECK(r.levels_run(mpi::Direction::bottom_up) > 0);
      CHECK(r.levels_run(mpi::Direction::top_down) > 0);
    } else {
      CHECK(r.levels_run(mpi::Direction::top_down) == int(r.steps.size()));
    }
    for (const mpi::DistributedBfsStep& st : r.steps) {
      sent.pairs += st.sent;
      if (st.direction == mpi::Direction::top_down) ++(st.shared ? sent.shared : sent.messages);
    }
  }
  if (mpi_only || world_size() == 1) CHECK(sent.shared == 0);
  return sent;
}

}  // namespace

TEST_CASE_FIXTURE(Graphs,
                  "mpi bfs: the top-down pairs through shared memory and through MPI messages") {
  const int32_t nh = 32 * p + 3000;
  const CsrGraph hub = hubs(nh, p);
  const mpi::DistributedGraph h =
      mpi::scatter_graph(world(), world_rank() == 0 ? hub : CsrGraph{}, blocks32(nh, p));
  for (const char* path : {"shm", "mpi", "shm-plain"}) {
    ScopedEnv halo("LOCKSTEP_MPI_HALO", path);
    const std::string name = path;
    const bool shm = name != "mpi" && p > 1;
    // 5 searches of several top-down levels each: both halves of every segment reused
    Sent sent = top_down_levels(whole, g, {0, 517, whole.n - 1, 33, 1500}, name + " rmat");
    if (p > 1) CHECK(sent.pairs > 0);  // pairs did travel
    if (shm) CHECK(sent.messages == 0);
    top_down_levels(made, empty, {n - 1, 40}, name + " rank without vertices");
    // the last rank's hub first, then a path vertex: buckets for every owner at once
    sent = top_down_levels(hub, h, {32 * (p - 1) + 3, nh - 1}, name + " hubs");
    if (p > 1) CHECK(sent.pairs > 0);
    // 64 pairs a rank: the levels whose frontier edges pass it on some rank go bottom-up on all
    top_down_levels(whole, g, {517, 0}, name + " small buffer", 64, true);
    // segments of 64 pairs: the levels whose frontier edges pass them on some rank go by MPI on
    // all, the others through the segments, alternating within a search
    sent = top_down_levels(whole, g, {517, 0, whole.n - 1}, name + " small segments", 0, false, 64);
    if (shm) CHECK((sent.shared > 0 && sent.messages > 0));
  }
}

}  // namespace lockstep::test
