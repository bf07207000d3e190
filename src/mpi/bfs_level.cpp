// DistributedBfs::Impl (src/mpi/bfs_impl.hpp): the rank's device state and one level in each
// direction; src/mpi/bfs.cpp runs the level loop.
#include <algorithm>

#include "mpi/bfs_impl.hpp"

namespace lockstep::mpi {
using bfs_detail::clock_type;
using bfs_detail::since;
using bfs_detail::words_of;
namespace {
constexpr int64_t kEarlyPairs = 8192;  // 64 KiB: a download cheaper than a host wait
}  // namespace

DistributedBfs::Impl::Impl(Context& c, const DistributedGraph& graph,
                           const DistributedBfsOptions& opt)
    : ctx(c), g(graph), o(opt), me(rank(graph.comm)), p(size(graph.comm)) {
  if (OneRankBfs::fits(g, o)) {
    one = std::make_unique<OneRankBfs>(c, g, o);
    return;
  }
  local = o.local_size;
  wave = detail::bfs_wave_width(c.info(), o.wave_width);
  if (local % wave || local % 32)
    throw input_error("bfs: the work-group size " + std::to_string(local) +
                      " must be a multiple of the wave width " + std::to_string(wave) +
                      " and of 32");
  const Defines d = detail::bfs_dist_defines(local, wave);
  expand = c.kernel("bfs_dist.cl", "bfs_dist_expand", d);
  lb_expand = c.kernel("bfs_dist.cl", "bfs_dist_lb_expand", d);
  claim = c.kernel("bfs_dist.cl", "bfs_dist_claim", d);
  begin = c.kernel("bfs_bitmap.cl", "bfs_bu_begin", d);
  step = c.kernel("bfs_bitmap.cl", "bfs_bu_step", d);
  to_queue = c.kernel("bfs_bitmap.cl", "bfs_bits_to_queue", d);
  bucket = c.kernel("bfs_dist.cl", "bfs_dist_bucket", d);
  starts = c.kernel("bfs_dist.cl", "bfs_dist_starts", d);
  or_seen = c.kernel("bfs_dist.cl", "bfs_dist_or", d);
  news_k = c.kernel("bfs_dist.cl", "bfs_dist_news", d);
  mask = c.kernel("bfs_dist.cl", "bfs_dist_mask", d);
  bits = c.kernel("bfs_dist.cl", "bfs_dist_bits", d);
  const int64_t entries = int64_t(g.adj.size());
  capacity = o.remote_capacity > 0
                 ? o.remote_capacity
                 : std::max<int64_t>(1 << 16, std::min<int64_t>(entries, 1 << 26));
  capacity = std::min<int64_t>(capacity, (int64_t(1) << 30));  // count + edges < 2^31 in lb
  // The slots of one MPI_Allgather, each at most 2^16 pairs (512 KiB); the same on every rank:
  // a capacity below 2^16 is remote_capacity's, which every rank is given.
  tiny_pairs = p > 1 ? std::min<int64_t>({o.tiny_edges, capacity, 1 << 16}) : 0;
  part = std::make_unique<detail::LbPartition>(c, g.count, int64_t(g.count) + capacity, local, d);
  BfsOptions one_gpu;
  one_gpu.local_size = local, one_gpu.wave_width = o.wave_width;
  rule = bfs_rule(c.info(), one_gpu);
  auto& q = c.queue();
  off = upload(q, g.offsets, CL_MEM_READ_ONLY);
  adj = upload(q, g.adj, CL_MEM_READ_ONLY);
  if (!g.symmetric) {
    in_off = upload(q, g.in_offsets, CL_MEM_READ_ONLY);
    in_adj = upload(q, g.in_adj, CL_MEM_READ_ONLY);
  } else {
    in_off = off, in_adj = adj;
  }
  const size_t n = std::max<size_t>(1, size_t(g.count)), bytes = n * 4;
  for (cl::Buffer* b : {&levels, &parents, &qa, &qb})
    *b = make_buffer(c.context(), CL_MEM_READ_WRITE, bytes);
  ctr = make_buffer(c.context(), CL_MEM_READ_WRITE, ctr_host.size() * 4);
  edges = make_buffer(c.context(), CL_MEM_READ_WRITE, 8);
  remote = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(capacity) * 8);
  const size_t lw = words_of(g.count) + size_t(local);  // whole groups of words
  for (cl::Buffer* b : {&visited, &cur, &next})
    *b = make_buffer(c.context(), CL_MEM_READ_WRITE, lw * 4);
  frontier = make_buffer(c.context(), CL_MEM_READ_WRITE, (words_of(g.n) + 1) * 4);
  seen = make_buffer(c.context(), CL_MEM_READ_WRITE, (words_of(g.n) + 1) * 4);
  news = make_buffer(c.context(), CL_MEM_READ_WRITE, (words_of(g.n) + 1) * 4);
  bucketed = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(capacity) * 8);
  block_buf = upload(q, g.block, CL_MEM_READ_ONLY);
  counts = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(p) * 4);
  cursors = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(p) * 4);
}

size_t DistributedBfs::Impl::round_up(int64_t items) const {
  return size_t((std::max<int64_t>(items, 1) + local - 1) / local) * size_t(local);
}
// Fills, not blocking writes: no host wait (two a level before), the queue orders them.
void DistributedBfs::Impl::zero_counters() {
  ctr_host = {}, edges_host = 0;
  auto& q = ctx.queue();
  const int32_t zero = 0;
  check(q.enqueueFillBuffer(ctr, zero, 0, ctr_host.size() * 4), "clEnqueueFillBuffer");
  check(q.enqueueFillBuffer(edges, zero, 0, 8), "clEnqueueFillBuffer");
}
void DistributedBfs::Impl::read_counters() {
  auto& q = ctx.queue();
  check(q.enqueueReadBuffer(ctr, CL_FALSE, 0, 16, ctr_host.data()), "clEnqueueReadBuffer");
  check(q.enqueueReadBuffer(edges, CL_TRUE, 0, 8, &edges_host), "clEnqueueReadBuffer");
}

std::pair<int64_t, int64_t> DistributedBfs::Impl::bottom_up(int32_t level, double& exchange_ms) {
  auto& q = ctx.queue();
  const auto t0 = clock_type::now();
  bitmaps->gather(cur, frontier);
  exchange_ms += since(t0);
  set_args(or_seen, seen, frontier, int32_t(words_of(g.n)));
  launch(q, or_seen, round_up(int64_t(words_of(g.n))), size_t(local));
  zero_counters();
  set_args(step, in_off, in_adj, off, levels, parents, visited, frontier, next, g.count, ctr, edges,
           level);
  launch(q, step, round_up(g.count), size_t(local));
  std::swap(cur, next);
  read_counters();
  bitmaps->release();  // the queue is done: the peers' words were uploaded
  return {ctr_host[0], edges_host};
}

bool DistributedBfs::Impl::balanced(int64_t count, int64_t edges) const {
  if (count == 0 || count + edges >= (int64_t(1) << 31) || o.expand == Expand::wave) return false;
  return o.expand == Expand::lb || edges > rule.lb_edges ||
         double(edges) >= rule.lb_degree * double(count);
}

bool DistributedBfs::Impl::expand_queue(int64_t count, int64_t edges, int32_t level, int32_t room) {
  auto& q = ctx.queue();
  if (balanced(count, edges)) {
    const int64_t tiles = part->run(off, qa, count, edges);
    set_args(lb_expand, off, adj, levels, parents, qa, int32_t(count), int32_t(edges), part->ends,
             part->sums, part->path, g.first, g.first + g.count, qb, ctr, this->edges, remote, room,
             level, seen, block_buf, int32_t(p), counts);
    launch(q, lb_expand, size_t(tiles) * size_t(local), size_t(local));
    return true;
  }
  set_args(expand, off, adj, levels, parents, qa, int32_t(count), g.first, g.first + g.count, qb,
           ctr, this->edges, remote, room, level, seen, block_buf, int32_t(p), counts);
  launch(q, expand, round_up(count * wave), size_t(local));
  return false;
}

std::pair<int64_t, int64_t> DistributedBfs::Impl::top_down(int64_t count, int64_t edges,
                                                           int32_t level, bool by_segment,
                                                           DistributedBfsStep& st) {
  auto& q = ctx.queue();
  const size_t np = static_cast<size_t>(p);
  std::vector<int> scount(np, 0);
  zero_counters();
  check(q.enqueueFillBuffer(counts, int32_t(0), 0, np * 4), "clEnqueueFillBuffer");
  st.balanced = expand_queue(count, edges, level, int32_t(capacity));
  // Bucket by owner on the device right behind the expand (the starts and the count on the
  // device too); a level of few possible pairs (at most the frontier's edges) downloads them
  // speculatively with the counters: one host wait for both.
  const int64_t bound =
      std::min<int64_t>(edges, by_segment ? pairs->segment_room() : pairs->room());
  if (p > 1) {
    set_args(starts, counts, int32_t(p), cursors);
    launch(q, starts, 1, 1);
    set_args(bucket, remote, ctr, int32_t(capacity), block_buf, int32_t(p), cursors, bucketed);
    launch(q, bucket, round_up(std::min<int64_t>(bound, 1 << 20)), size_t(local));
  }
  const int64_t early = bound <= kEarlyPairs ? bound : 0;
  if (early)
    check(q.enqueueReadBuffer(bucketed, CL_FALSE, 0, size_t(early) * 8, pairs->stage(by_segment)),
          "clEnqueueReadBuffer");
  check(q.enqueueReadBuffer(counts, CL_FALSE, 0, np * 4, scount.data()), "clEnqueueReadBuffer");
  read_counters();
  const auto t0 = clock_type::now();
  // More pairs than the buffer (the host checked the frontier's edges, so never expected):
  // every rank learns it in the exchange, and all stop with one error.
  const bool over = ctr_host[2] > capacity;
  st.sent = over ? 0 : ctr_host[2];
  const int64_t got = pairs->exchange(bucketed, scount, over, level, by_segment, early);
  st.shared = by_segment && pairs->shared_peers() > 0;
  st.exchange_ms += since(t0);
  if (got) {
    set_args(claim, off, levels, parents, pairs->recv(), int32_t(got), g.first, qb, ctr,
             this->edges, level);
    launch(q, claim, round_up(got), size_t(local));
    read_counters();
  }
  pairs->release();  // the queue is done: the peers' pairs were uploaded
  std::swap(qa, qb);
  return {ctr_host[0], edges_host};
}

}  // namespace lockstep::mpi
