// Internal: DistributedBfs's state on one rank (src/mpi/bfs.cpp, the level loop; src/mpi/
// bfs_level.cpp, the constructor and one level in each direction).
#pragma once
#include <array>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "bfs/steps.hpp"
#include "lockstep/mpi/bfs.hpp"
#include "mpi/bfs_exchange.hpp"
#include "mpi/bfs_one.hpp"
#include "mpi/bfs_pairs.hpp"

namespace lockstep::mpi {

namespace bfs_detail {
using clock_type = std::chrono::steady_clock;
inline double since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}
inline size_t words_of(int64_t vertices) { return size_t((vertices + 31) / 32); }
}  // namespace bfs_detail

struct DistributedBfs::Impl {
  Context& ctx;
  const DistributedGraph& g;
  DistributedBfsOptions o;
  int me = 0, p = 1, local = 256, wave = 32;
  int64_t capacity = 0;
  cl::Buffer off, adj, in_off, in_adj, levels, parents, qa, qb, ctr, edges, remote;
  cl::Buffer visited, cur, next, frontier, seen, block_buf, counts, cursors, bucketed, news;
  cl::Kernel expand, lb_expand, claim, begin, step, to_queue, bucket, starts, or_seen, news_k, mask,
      bits;
  cl::Buffer flist;  // a short frontier's global vertices (hub levels)
  std::vector<int32_t> flist_host, flist_mine;
  std::unique_ptr<detail::LbPartition> part;  // the load-balanced expand's tiles
  std::unique_ptr<BitmapExchange> bitmaps;    // bottom-up: the frontier bitmap on every rank
  std::unique_ptr<PairExchange> pairs;        // top-down: the pairs to their owners
  BfsRule rule;                               // lb_edges, lb_degree: the one-GPU rule's
  std::unique_ptr<OneRankBfs> one;            // one rank, a graph the one-device engine takes
  int64_t tiny_pairs = 0;                     // a tiny level's slot: pairs (0: no tiny levels)
  std::vector<int64_t> tiny_send, tiny_recv;  // the slots (counts, then pairs)
  std::vector<int32_t> tiny_mine;             // the pairs this rank owns, uploaded to tiny_buf
  cl::Buffer tiny_buf;
  std::array<int32_t, 4> ctr_host{};
  int64_t edges_host = 0;

  Impl(Context& c, const DistributedGraph& graph, const DistributedBfsOptions& opt);
  size_t round_up(int64_t items) const;
  void zero_counters();
  void read_counters();
  // Bottom-up level from bitmap `cur`: returns this rank's next frontier size and edges.
  std::pair<int64_t, int64_t> bottom_up(int32_t level, double& exchange_ms);
  // Whether this rank's top-down level of `count` vertices and `edges` out-edges is
  // load-balanced: forced, or the one-GPU rule (BfsRule: hubs, or a high mean degree).
  bool balanced(int64_t count, int64_t edges) const;
  // Top-down expand of queue qa (count vertices, edges out-edges) into qb, remote pairs up to
  // `room` into `remote`: whether it was load-balanced.
  bool expand_queue(int64_t count, int64_t edges, int32_t level, int32_t room);
  // Top-down level from queue qa (count vertices, edges out-edges): the next frontier in qa.
  // by_segment: the pairs of same-host peers through shared memory (PairExchange).
  std::pair<int64_t, int64_t> top_down(int64_t count, int64_t edges, int32_t level, bool by_segment,
                                       DistributedBfsStep& st);
  // Top-down level from queue qa whose pairs would not fit (src/mpi/bfs_hub.cpp): remote
  // discoveries go to their owners as bitmaps, the owners pick the parents. The next frontier
  // in `cur` (and `visited` exact), as after a bottom-up level.
  // total: the global frontier's vertices (the same on every rank).
  std::pair<int64_t, int64_t> hub(int64_t count, int64_t edges, int32_t level, int64_t total,
                                  DistributedBfsStep& st);
  // The whole frontier bitmap on every device (`frontier`) from the frontier's lists; false
  // (nothing done) when the lists would pass the bitmap's bytes. Collective.
  bool gather_list(int64_t count, int64_t total);
  // A level of a small frontier in one MPI_Allgather (src/mpi/bfs_tiny.cpp).
  struct TinyLevel {
    int64_t frontier = 0, edges = 0;    // global: this level's frontier and its edges
    int64_t bound = 0;                  // global: the next frontier holds at most this many
    bool deferred = false;              // some rank did not expand (more than tiny_pairs edges)
    int64_t glob[4] = {0, 0, 0, 0};     // [2], [3]: deferred ranks past their buffer, segment
    int64_t count = 0, next_edges = 0;  // this rank: the next frontier's vertices found, edges
  };
  TinyLevel tiny(int64_t count, int64_t edges, int32_t level, DistributedBfsStep& st);
};

}  // namespace lockstep::mpi
