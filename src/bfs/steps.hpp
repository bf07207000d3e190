// Internal: the BFS steps the host loop (bfs.cpp) strings together. CPU steps work on host arrays
// (OpenMP); BfsDevice holds the graph, levels, parents and the two frontier queues on the device
// and runs one kernel step at a time, returning the next frontier's size and edges.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "lockstep/bfs.hpp"

namespace lockstep::detail {

/// WAVE_WIDTH of the BFS kernels: `requested` when > 0, else the device's (at least 32).
inline int bfs_wave_width(const DeviceInfo& d, int requested) {
  return requested > 0 ? requested : int(std::max(32u, d.wave_width));
}
/// LOCAL_QUEUE and WAVE_WIDTH, the -D set every BFS kernel shares (cl/bfs_persistent.cl gets
/// LOCAL_SIZE and the barrier's from PersistentKernel; the others LOCAL_SIZE, see BfsDevice).
Defines bfs_defines(int local, int wave);
/// The distributed BFS's -D set (lockstep::mpi, cl/bfs_dist.cl and its bfs_bitmap.cl and
/// bfs_lb.cl kernels): bfs_defines with BfsWide's tile, 64-bit offsets and edge counts.
Defines bfs_dist_defines(int local, int wave);

struct Frontier {
  int64_t count = 0, edges = 0;  // vertices, and the sum of their out-degrees
};

/// Fills reached, max_level, sum_levels and traversed_edges from levels.
void summarize(const CsrGraph& g, BfsResult& r);

/// The host levels' team: one thread per kCpuEdgesPerThread edges of a region's work (a
/// top-down level's frontier out-edges, a bottom-up level's in-edges), at most `threads` (0: the
/// hardware threads), at least one. A region too small to feed a thread runs serially: waking
/// an idle team costs more than it saves there. On the 64-core host (nvidia-h100-x4, a VM),
/// waking even one more thread cost 1-9 ms at times: facebook_combined (176K in-edges, two
/// threads at 65536 edges a thread) took 3-9 ms a search against 0.2 ms serial on the 64-core
/// host. Serially the whole-graph CPU path's graphs (<= 16384 x 16 edges) take
/// 0.05-0.11 ms on the 2-core machine.
constexpr int64_t kCpuEdgesPerThread = int64_t(1) << 18;
int cpu_team(int threads, int64_t work_edges);

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

/// The graph's and the search's device buffers, as the kernels of BfsWide take them.
struct BfsBuffers {
  const cl::Buffer &off, &adj, &in_off, &in_adj, &levels, &parents, &ctr;
};

/// The load-balanced advance's partition (wide.cpp; cl/bfs_lb.cl's bfs_lb_scan, bfs_lb_sums and
/// bfs_lb_path) of a frontier queue's vertices and out-edges into merge-path tiles of tile(local)
/// items, and its scratch, which the expand (bfs_lb_expand, or the distributed BFS's
/// bfs_dist_lb_expand) reads: ends, sums, path. `defines`: cl/bfs_lb.cl's (BfsWide::defines).
class LbPartition {
 public:
  /// Room for frontiers of up to `vertices` vertices and count + edges up to `items` (< 2^31).
  LbPartition(Context& ctx, int64_t vertices, int64_t items, int local, const Defines& defines);
  /// Enqueues the three launches for queue `in` (count vertices, edges out-edges; off: the rows'
  /// offsets); returns the tiles (the expand's work-groups) and, in *first, the first launch.
  int64_t run(const cl::Buffer& off, const cl::Buffer& in, int64_t count, int64_t edges,
              cl::Event* first = nullptr);
  cl::Buffer ends, sums, path;

 private:
  Context& ctx_;
  int local_;
  cl::Kernel scan_, sums_, path_;
};

/// The wide steps (wide.cpp): the load-balanced top-down advance (cl/bfs_lb.cl) and bottom-up on
/// bitmaps (cl/bfs_bitmap.cl), with their scratch (scanned degrees, visited and two frontier
/// bitmaps). Every call enqueues on the context's queue; the caller zeroes and reads ctr.
class BfsWide {
 public:
  BfsWide(Context& ctx, int32_t n, size_t edges, int local, const Defines& defines);
  /// One top-down level from queue `in` (count vertices with `edges` out-edges) into `out`;
  /// ctr[0], ctr[1] += the next frontier's size and edges. Returns the first and last events.
  std::pair<cl::Event, cl::Event> lb(const BfsBuffers& b, const cl::Buffer& in, int64_t count,
                                     int64_t edges, const cl::Buffer& out, int32_t level);
  /// The switch to bottom-up: levels -> visited bitmap and frontier bitmap (level == `level`).
  cl::Event begin(const BfsBuffers& b, int32_t level);
  /// One bottom-up level from the current frontier bitmap; the next one becomes current.
  cl::Event bottom_up(const BfsBuffers& b, int32_t level);
  /// The switch back: the current frontier bitmap -> queue `out` (ctr as in lb()).
  cl::Event to_queue(const BfsBuffers& b, const cl::Buffer& out);
  static int tile(int local);  // merge-path items per work-group of lb()
  /// The -D set of cl/bfs_lb.cl and cl/bfs_bitmap.cl: `base` with LOCAL_SIZE and LB_ITEMS.
  static Defines defines(const Defines& base, int local);

 private:
  Context& ctx_;
  int32_t n_;
  int local_;
  LbPartition part_;
  cl::Kernel expand_, begin_, step_, to_queue_;
  cl::Buffer visited_, cur_, next_;
};

class BfsDevice {
 public:
  BfsDevice(Context& ctx, const CsrGraph& g, const BfsOptions& options, bool bottom_up);
  ~BfsDevice();
  /// levels = parents = -1, then the source at level 0 (its own parent) as the frontier.
  void start(int32_t source);
  Run queue(int64_t count, int32_t level, bool wave);
  /// Load-balanced top-down level (BfsWide::lb).
  Run lb(int64_t count, int64_t edges, int32_t level);
  /// Bottom-up on bitmaps: the first call after top-down steps converts, later ones go on; the
  /// frontier returns to queue a when a queue step follows (to_queue).
  Run bottom_up(int32_t level);
  /// single and multi run levels while the frontier stays in [lo, hi] vertices, <= hi_edges edges.
  Run single(int64_t count, int32_t level, int64_t hi, int64_t hi_edges);
  /// multi with a relaunch barrier runs exactly one level per call.
  Run multi(int64_t count, int32_t level, int64_t lo, int64_t hi, int64_t hi_edges);
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
