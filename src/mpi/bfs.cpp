// DistributedBfs: one rank's rows, levels, parents, frontier queues and bitmaps on its device,
// and the per-level loop of lockstep/mpi/bfs.hpp (one rank whose graph fits 32-bit indices runs
// the one-device engine instead: mpi/bfs_one.hpp). Top-down: bfs_dist_expand (cl/bfs_dist.cl,
// one wave a frontier vertex) or, by the one-GPU rule's lb_edges / lb_degree on this rank's
// frontier (hubs), bfs_dist_lb_expand over cl/bfs_lb.cl's merge-path tiles (LbPartition)
// claims the owned neighbours and writes the others, each remote vertex once a search (the
// bitmap `seen`), as (vertex, parent) pairs counted per owner; bfs_dist_bucket groups them by
// owner on the device while MPI_Ialltoall sends the counts; one read into pinned memory,
// MPI_Ialltoallv, and the owners' bfs_dist_claim takes them. Bottom-up: every rank's frontier
// bitmap words onto every device (BitmapExchange, mpi/bfs_exchange.hpp: shared memory between
// ranks of one host, MPI otherwise), and cl/bfs_bitmap.cl's bfs_bu_step scans this rank's
// unvisited vertices (frontier edges summed in 64 bits: BFS_EDGES_64). After each level MPI_Allreduce gives the global
// frontier size and edges, and whether any rank's frontier edges pass its pair buffers (its
// own capacity): then every rank runs the level bottom-up, so all make the same MPI calls.
#include <algorithm>
#include <array>
#include <chrono>

#include "bfs/steps.hpp"
#include "lockstep/mpi/bfs.hpp"
#include "mpi/bfs_exchange.hpp"
#include "mpi/bfs_one.hpp"
#include "mpi/pinned.hpp"

namespace lockstep::mpi {
namespace {
using clock_type = std::chrono::steady_clock;
double since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}
size_t words_of(int64_t vertices) { return size_t((vertices + 31) / 32); }
}  // namespace

struct DistributedBfs::Impl {
  Context& ctx;
  const DistributedGraph& g;
  DistributedBfsOptions o;
  int me = 0, p = 1, local = 256, wave = 32;
  int64_t capacity = 0;
  cl::Buffer off, adj, in_off, in_adj, levels, parents, qa, qb, ctr, edges, remote, recv;
  cl::Buffer visited, cur, next, frontier, seen, block_buf, counts, cursors, bucketed;
  cl::Kernel expand, lb_expand, claim, begin, step, to_queue, bucket, or_seen;
  std::unique_ptr<detail::LbPartition> part;  // the load-balanced expand's tiles
  std::unique_ptr<BitmapExchange> bitmaps;    // bottom-up: the frontier bitmap on every rank
  BfsRule rule;                               // lb_edges, lb_degree: the one-GPU rule's
  std::unique_ptr<OneRankBfs> one;  // one rank, a graph the one-device engine takes
  std::vector<int> zeros, cursor;              // counts' reset, the buckets' starts (async writes)
  std::shared_ptr<int32_t> stage, send, got;  // pinned: pairs read back, bucketed, received
  size_t got_cap = 0;
  std::array<int32_t, 4> ctr_host{};
  int64_t edges_host = 0;

  Impl(Context& c, const DistributedGraph& graph, const DistributedBfsOptions& opt)
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
    Defines d = detail::BfsWide::defines(detail::bfs_defines(local, wave), local);
    d.set("BFS_OFFSET", "long").set("BFS_EDGES_64", 1);
    expand = c.kernel("bfs_dist.cl", "bfs_dist_expand", d);
    lb_expand = c.kernel("bfs_dist.cl", "bfs_dist_lb_expand", d);
    claim = c.kernel("bfs_dist.cl", "bfs_dist_claim", d);
    begin = c.kernel("bfs_bitmap.cl", "bfs_bu_begin", d);
    step = c.kernel("bfs_bitmap.cl", "bfs_bu_step", d);
    to_queue = c.kernel("bfs_bitmap.cl", "bfs_bits_to_queue", d);
    bucket = c.kernel("bfs_dist.cl", "bfs_dist_bucket", d);
    or_seen = c.kernel("bfs_dist.cl", "bfs_dist_or", d);
    const int64_t entries = int64_t(g.adj.size());
    capacity = o.remote_capacity > 0 ? o.remote_capacity
                                     : std::max<int64_t>(1 << 16, std::min<int64_t>(entries, 1 << 26));
    capacity = std::min<int64_t>(capacity, (int64_t(1) << 30));  // count + edges < 2^31 in lb
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
    bucketed = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(capacity) * 8);
    block_buf = upload(q, g.block, CL_MEM_READ_ONLY);
    counts = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(p) * 4);
    cursors = make_buffer(c.context(), CL_MEM_READ_WRITE, size_t(p) * 4);
    zeros.assign(size_t(p), 0), cursor.assign(size_t(p), 0);
    stage = pinned<int32_t>(q, size_t(capacity) * 2);
    send = pinned<int32_t>(q, size_t(capacity) * 2);
  }

  size_t round_up(int64_t items) const {
    return size_t((std::max<int64_t>(items, 1) + local - 1) / local) * size_t(local);
  }
  void zero_counters() {
    ctr_host = {}, edges_host = 0;
    auto& q = ctx.queue();
    check(q.enqueueWriteBuffer(ctr, CL_TRUE, 0, 16, ctr_host.data()), "clEnqueueWriteBuffer");
    check(q.enqueueWriteBuffer(edges, CL_TRUE, 0, 8, &edges_host), "clEnqueueWriteBuffer");
  }
  void read_counters() {
    auto& q = ctx.queue();
    check(q.enqueueReadBuffer(ctr, CL_FALSE, 0, 16, ctr_host.data()), "clEnqueueReadBuffer");
    check(q.enqueueReadBuffer(edges, CL_TRUE, 0, 8, &edges_host), "clEnqueueReadBuffer");
  }

  // Bottom-up level from bitmap `cur`: returns this rank's next frontier size and edges.
  std::pair<int64_t, int64_t> bottom_up(int32_t level, double& exchange_ms) {
    auto& q = ctx.queue();
    const auto t0 = clock_type::now();
    bitmaps->gather(cur, frontier);
    exchange_ms += since(t0);
    set_args(or_seen, seen, frontier, int32_t(words_of(g.n)));
    launch(q, or_seen, round_up(int64_t(words_of(g.n))), size_t(local));
    zero_counters();
    set_args(step, in_off, in_adj, off, levels, parents, visited, frontier, next, g.count, ctr,
             edges, level);
    launch(q, step, round_up(g.count), size_t(local));
    std::swap(cur, next);
    read_counters();
    bitmaps->release();  // the queue is done: the peers' words were uploaded
    return {ctr_host[0], edges_host};
  }

  // Whether this rank's top-down level of `count` vertices and `edges` out-edges is
  // load-balanced: forced, or the one-GPU rule (BfsRule: hubs, or a high mean degree).
  bool balanced(int64_t count, int64_t edges) const {
    if (count == 0 || count + edges >= (int64_t(1) << 31) || o.expand == Expand::wave) return false;
    return o.expand == Expand::lb || edges > rule.lb_edges ||
           double(edges) >= rule.lb_degree * double(count);
  }

  // Top-down level from queue qa (count vertices, edges out-edges): the next frontier in qa.
  std::pair<int64_t, int64_t> top_down(int64_t count, int64_t edges, int32_t level,
                                       DistributedBfsStep& st) {
    auto& q = ctx.queue();
    const size_t np = static_cast<size_t>(p);
    std::vector<int> scount(np, 0), sdispl(np, 0), rcount(np, 0), rdispl(np, 0);
    zero_counters();
    check(q.enqueueWriteBuffer(counts, CL_FALSE, 0, np * 4, zeros.data()), "clEnqueueWriteBuffer");
    st.balanced = balanced(count, edges);
    if (st.balanced) {
      const int64_t tiles = part->run(off, qa, count, edges);
      set_args(lb_expand, off, adj, levels, parents, qa, int32_t(count), int32_t(edges), part->ends,
               part->sums, part->path, g.first, g.first + g.count, qb, ctr, this->edges, remote,
               int32_t(capacity), level, seen, block_buf, int32_t(p), counts);
      launch(q, lb_expand, size_t(tiles) * size_t(local), size_t(local));
    } else {
      set_args(expand, off, adj, levels, parents, qa, int32_t(count), g.first, g.first + g.count,
               qb, ctr, this->edges, remote, int32_t(capacity), level, seen, block_buf, int32_t(p),
               counts);
      launch(q, expand, round_up(count * wave), size_t(local));
    }
    check(q.enqueueReadBuffer(counts, CL_FALSE, 0, np * 4, scount.data()), "clEnqueueReadBuffer");
    read_counters();
    const auto t0 = clock_type::now();
    // More pairs than the buffer (the host checked the frontier's edges, so never expected):
    // counts of -1 tell every rank in the same MPI_Alltoall, and all stop with one error.
    const bool over = ctr_host[2] > capacity;
    const int64_t pairs = over ? 0 : ctr_host[2];
    if (over) std::fill(scount.begin(), scount.end(), -1);
    st.sent = pairs;
    if (pairs) {  // bucket by owner on the device, one read
      for (int r = 1; r < p; ++r) sdispl[size_t(r)] = sdispl[size_t(r) - 1] + scount[size_t(r) - 1];
      cursor = sdispl;
      check(q.enqueueWriteBuffer(cursors, CL_FALSE, 0, np * 4, cursor.data()),
            "clEnqueueWriteBuffer");
      set_args(bucket, remote, int32_t(pairs), block_buf, int32_t(p), cursors, bucketed);
      launch(q, bucket, round_up(pairs), size_t(local));
      check(q.enqueueReadBuffer(bucketed, CL_TRUE, 0, size_t(pairs) * 8, send.get()),
            "clEnqueueReadBuffer");
    }
    MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, g.comm);
    for (int r = 0; r < p; ++r)
      if (rcount[size_t(r)] < 0)
        throw collective_error(4, "rank " + std::to_string(r) + ": bfs: level " +
                                      std::to_string(level) + ": remote pairs past the buffer");
    for (int r = 1; r < p; ++r) rdispl[size_t(r)] = rdispl[size_t(r) - 1] + rcount[size_t(r) - 1];
    const size_t total = size_t(rdispl.back() + rcount.back());
    if (total > got_cap) {  // grow the receive side (pinned and device) to twice what came
      got_cap = std::max<size_t>(total * 2, 1 << 16);
      got = pinned<int32_t>(q, got_cap * 2);
      recv = make_buffer(ctx.context(), CL_MEM_READ_WRITE, got_cap * 8);
    }
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT32_T, &pair);
    MPI_Type_commit(&pair);
    MPI_Request req;
    MPI_Ialltoallv(send.get(), scount.data(), sdispl.data(), pair, got.get(), rcount.data(),
                   rdispl.data(), pair, g.comm, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Type_free(&pair);
    if (total)
      check(q.enqueueWriteBuffer(recv, CL_FALSE, 0, total * 8, got.get()), "clEnqueueWriteBuffer");
    st.exchange_ms += since(t0);
    if (total) {
      set_args(claim, off, levels, parents, recv, int32_t(total), g.first, qb, ctr, this->edges,
               level);
      launch(q, claim, round_up(int64_t(total)), size_t(local));
      read_counters();
    }
    std::swap(qa, qb);
    return {ctr_host[0], edges_host};
  }
};

DistributedBfs::DistributedBfs(Context& ctx, const DistributedGraph& g,
                               const DistributedBfsOptions& o) {
  // The options that pick each level's direction must agree, or the ranks' MPI calls part.
  double most[8] = {double(int(o.direction)), o.alpha, o.beta, o.gamma,
                    -double(int(o.direction)), -o.alpha, -o.beta, -o.gamma};
  MPI_Allreduce(MPI_IN_PLACE, most, 8, MPI_DOUBLE, MPI_MAX, g.comm);
  collective(g.comm, [&] {
    for (int i = 0; i < 4; ++i)
      if (most[i] != -most[i + 4])
        throw input_error(
            "bfs: the ranks passed different options (direction, alpha, beta, gamma)");
    p_ = std::make_unique<Impl>(ctx, g, o);
  });
  if (!p_->one) p_->bitmaps = std::make_unique<BitmapExchange>(ctx, g.comm, g.block);
}
DistributedBfs::~DistributedBfs() = default;
bool DistributedBfs::one_device() const { return p_->one != nullptr; }
int DistributedBfs::shared_peers() const { return p_->bitmaps ? p_->bitmaps->shared_peers() : 0; }

DistributedBfsResult DistributedBfs::run(int32_t source) {
  Impl& d = *p_;
  const DistributedGraph& g = d.g;
  int64_t most[2] = {source, -int64_t(source)};
  MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_INT64_T, MPI_MAX, g.comm);
  collective(g.comm, [&] {
    if (most[0] != -most[1])
      throw input_error("bfs: the ranks passed different sources (" + std::to_string(-most[1]) +
                        " to " + std::to_string(most[0]) + ")");
    if (source < 0 || source >= g.n)
      throw input_error("bfs: source " + std::to_string(source) + " outside [0, " +
                        std::to_string(g.n) + (g.n ? ")" : "): the graph is empty"));
  });
  if (d.one) return d.one->run(source);
  auto& q = d.ctx.queue();
  const bool mine = source >= g.first && source < g.first + g.count;
  const int32_t minus = -1, zero = 0, s_local = source - g.first;
  collective(g.comm, [&] {  // a device failure here ends every rank, not only this one
    if (g.count) {
      check(q.enqueueFillBuffer(d.levels, minus, 0, size_t(g.count) * 4), "clEnqueueFillBuffer");
      check(q.enqueueFillBuffer(d.parents, minus, 0, size_t(g.count) * 4), "clEnqueueFillBuffer");
    }
    const uint32_t none = 0;
    check(q.enqueueFillBuffer(d.seen, none, 0, (words_of(g.n) + 1) * 4), "clEnqueueFillBuffer");
    if (mine) {
      check(q.enqueueWriteBuffer(d.levels, CL_FALSE, size_t(s_local) * 4, 4, &zero), "write");
      check(q.enqueueWriteBuffer(d.parents, CL_FALSE, size_t(s_local) * 4, 4, &source), "write");
      check(q.enqueueWriteBuffer(d.qa, CL_FALSE, 0, 4, &s_local), "clEnqueueWriteBuffer");
    }
    check(q.finish(), "clFinish");
  });
  DistributedBfsResult r;
  MPI_Barrier(g.comm);
  const auto t0 = clock_type::now();
  int64_t local_count = mine, local_edges = mine ? g.degree(s_local) : 0;
  // glob: the global frontier and its edges, and whether any rank's frontier edges pass its
  // own capacity (the ranks' capacities differ: each holds its own entries). Every rank takes
  // the same direction from glob alone: a rank deciding from its capacity would go bottom-up
  // (MPI_Iallgatherv) while the others go top-down (MPI_Alltoall), and all would wait forever.
  int64_t glob[3] = {0, 0, 0};
  const auto reduce = [&] {
    int64_t sums[2] = {local_count, local_edges}, over = local_edges > d.capacity;
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INT64_T, MPI_SUM, g.comm);
    MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT64_T, MPI_MAX, g.comm);
    glob[0] = sums[0], glob[1] = sums[1], glob[2] = over;
  };
  reduce();
  int64_t mu = g.global_entries - glob[1];
  bool bottom = false, in_bitmap = false;
  for (int32_t level = 0; glob[0] > 0; ++level) {
    const Direction forced = d.o.direction;
    if (forced != Direction::automatic)
      bottom = forced == Direction::bottom_up;
    else
      bottom = (bottom ? double(glob[0]) >= double(g.n) / d.o.beta
                       : double(glob[1]) > double(mu) / d.o.alpha) ||
               (d.p > 1 && d.o.gamma > 0 && double(glob[1]) > double(g.n) / d.o.gamma);
    if (glob[2]) bottom = true;  // some rank's pairs would not fit: bottom-up is exact too
    const auto s0 = clock_type::now();
    DistributedBfsStep st{level, bottom ? Direction::bottom_up : Direction::top_down, glob[0],
                          glob[1]};
    std::pair<int64_t, int64_t> next;
    if (bottom) {
      if (!in_bitmap) {
        set_args(d.begin, d.levels, g.count, level, d.visited, d.cur);
        launch(q, d.begin, d.round_up(int64_t(words_of(g.count))), size_t(d.local));
        in_bitmap = true;
      }
      next = d.bottom_up(level, st.exchange_ms);
    } else {
      if (in_bitmap) {
        d.zero_counters();
        set_args(d.to_queue, d.off, d.cur, g.count, d.qa, d.ctr);
        launch(q, d.to_queue, d.round_up(g.count), size_t(d.local));
        in_bitmap = false;
      }
      next = d.top_down(local_count, local_edges, level, st);
    }
    local_count = next.first, local_edges = next.second;
    reduce();
    mu -= glob[1];
    st.ms = since(s0);
    r.steps.push_back(st);
  }
  r.ms = since(t0);
  MPI_Allreduce(MPI_IN_PLACE, &r.ms, 1, MPI_DOUBLE, MPI_MAX, g.comm);
  r.levels = download<int32_t>(q, d.levels, size_t(g.count));
  r.parents = download<int32_t>(q, d.parents, size_t(g.count));
  int64_t sums[2] = {0, 0};
  for (int32_t v = 0; v < g.count; ++v)
    if (r.levels[size_t(v)] >= 0) {
      ++sums[0], sums[1] += g.degree(v);
      r.max_level = std::max(r.max_level, r.levels[size_t(v)]);
    }
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_INT64_T, MPI_SUM, g.comm);
  MPI_Allreduce(MPI_IN_PLACE, &r.max_level, 1, MPI_INT32_T, MPI_MAX, g.comm);
  r.reached = sums[0], r.traversed_edges = g.symmetric ? sums[1] / 2 : sums[1];
  return r;
}

int DistributedBfsResult::levels_run(Direction dir) const {
  int k = 0;
  for (const DistributedBfsStep& s : steps) k += s.direction == dir;
  return k;
}

Direction parse_direction(const std::string& name) {
  for (Direction d : {Direction::automatic, Direction::top_down, Direction::bottom_up})
    if (name == to_string(d)) return d;
  throw input_error("unknown direction '" + name + "' (expected auto, top-down or bottom-up)");
}

const char* to_string(Direction d) {
  return d == Direction::top_down ? "top-down" : d == Direction::bottom_up ? "bottom-up" : "auto";
}

}  // namespace lockstep::mpi
