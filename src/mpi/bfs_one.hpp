// Internal: DistributedBfs on one rank. With nothing to exchange, the search is the one-device
// engine's (lockstep::Bfs: load-balanced top-down, the multi-level kernels, bottom-up on bitmaps)
// on the rank's rows, which are then the whole graph with 32-bit offsets; src/mpi/bfs.cpp keeps
// its own path for a graph past the one-device engine's 32-bit indices (n + entries >= 2^31).
#pragma once
#include <memory>

#include "lockstep/bfs.hpp"
#include "lockstep/mpi/bfs.hpp"

namespace lockstep::mpi {

class OneRankBfs {
 public:
  /// Whether the one-device engine takes this graph (one rank, 32-bit indices, auto direction).
  static bool fits(const DistributedGraph& g, const DistributedBfsOptions& o);
  OneRankBfs(Context& ctx, const DistributedGraph& g, const DistributedBfsOptions& o);
  ~OneRankBfs();
  DistributedBfsResult run(int32_t source);

 private:
  CsrGraph whole_;  // the rank's rows with 32-bit offsets (a copy: g stays the validator's)
  std::unique_ptr<Bfs> bfs_;
};

}  // namespace lockstep::mpi
