// Internal: the BFS steps the host loop (bfs.cpp) strings together. CPU steps work on host arrays
// (OpenMP); BfsDevice holds the graph, levels, parents and the two frontier queues on the device
// and runs one kernel step at a time, returning the next frontier's size and edges.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "lockstep/bfs.hpp"

namespace lockstep::detail {

struct Frontier {
  int64_t count = 0, edges = 0;  // vertices, and the sum of their out-degrees
};

/// Fills reached, max_level, sum_levels and traversed_edges from levels.
void summarize(const CsrGraph& g, BfsResult& r);

/// One top-down level on the host: claims the unvisited out-neighbours of `frontier` for level
/// level+1; returns them (the next frontier) and adds their out-degrees to `edges`.
std::vector<int32_t> cpu_top_down(const CsrGraph& g, std::vector<int32_t>& levels,
                                  std::vector<int32_t>& parents,
                                  const std::vector<int32_t>& frontier, int32_t level,
                                  int64_t& edges, int threads);
/// One bottom-up level on the host (needs g.has_in_edges()).
std::vector<int32_t> cpu_bottom_up(const CsrGraph& g, std::vector<int32_t>& levels,
                                   std::vector<int32_t>& parents,
                                   const std::vector<int32_t>& frontier, int32_t level,
                                   int64_t& edges, int threads);

/// A multi-level launch's outcome: per level run, the next frontier (hist), and the time.
struct Run {
  std::vector<Frontier> next;  // one per level run; next.back() is the current frontier
  double ms = 0;
};

class BfsDevice {
 public:
  BfsDevice(Context& ctx, const CsrGraph& g, const BfsOptions& options, bool bottom_up);
  ~BfsDevice();
  /// levels = parents = -1, then the source at level 0 (its own parent) as the frontier.
  void start(int32_t source);
  Run queue(int64_t count, int32_t level, bool wave);
  Run bottom_up(int64_t count, int32_t level);
  Run single(int64_t count, int32_t level, int64_t hi);
  /// multi with a relaunch barrier runs exactly one level per call.
  Run multi(int64_t count, int32_t level, int64_t lo, int64_t hi);
  /// After CPU steps: `vertices` get their host levels and parents on the device, and
  /// `frontier` becomes the device's frontier.
  void put_vertices(const std::vector<int32_t>& vertices, const std::vector<int32_t>& levels,
                    const std::vector<int32_t>& parents, const std::vector<int32_t>& frontier);
  std::vector<int32_t> get_frontier(int64_t count);
  void get_state(std::vector<int32_t>& levels, std::vector<int32_t>& parents);
  void finish();
  bool multi_in_kernel() const;
  int multi_groups() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

}  // namespace lockstep::detail
