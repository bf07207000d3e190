// DistributedBfs: one rank's rows, levels, parents, frontier queues and bitmaps on its device
// and the per-level loop of lockstep/mpi/bfs.hpp (one rank whose graph fits 32-bit indices runs
// the one-device engine instead: mpi/bfs_one.hpp). Top-down: bfs_dist_expand (cl/bfs_dist.cl,
// one wave a frontier vertex) or, by the one-GPU rule's lb_edges / lb_degree on this rank's
// frontier (hubs), bfs_dist_lb_expand over cl/bfs_lb.cl's merge-path tiles (LbPartition)
// claims the owned neighbours and writes the others, each remote vertex once a search (the
// bitmap `seen`), as (vertex, parent) pairs counted per owner; bfs_dist_bucket groups them by
// owner on the device, PairExchange (mpi/bfs_pairs.hpp: shared memory between ranks of one
// host, MPI_Alltoall / MPI_Alltoallv otherwise) takes each bucket to its owner's device, and
// the owners' bfs_dist_claim takes them. Bottom-up: every rank's frontier bitmap words onto
// every device (BitmapExchange, mpi/bfs_exchange.hpp: shared memory between ranks of one host,
// MPI otherwise), and cl/bfs_bitmap.cl's bfs_bu_step scans this rank's unvisited vertices
// (frontier edges summed in 64 bits: BFS_EDGES_64). The state: bfs_impl.hpp; the constructor
// and one level in each direction: bfs_level.cpp. After each level one MPI_Allreduce gives the
// global frontier size and edges, and whether any rank's frontier edges pass its pair buffer
// (its own capacity) or segment: then every rank runs the level top-down with its discoveries
// as bitmaps (bfs_hub.cpp; or bottom-up, bitmap_discoveries off), so all make the same MPI calls.
// A level of a small frontier (tiny_edges) is one MPI_Allgather of counts and pairs instead
// (bfs_tiny.cpp), and so are the levels after it while their frontier stays small.
#include <algorithm>

#include "mpi/bfs_impl.hpp"

namespace lockstep::mpi {
using bfs_detail::clock_type;
using bfs_detail::since;
using bfs_detail::words_of;

DistributedBfs::DistributedBfs(Context& ctx, const DistributedGraph& g,
                               const DistributedBfsOptions& o) {
  // The options that pick each level's direction must agree, or the ranks' MPI calls part.
  const double bits = o.bitmap_discoveries, tiny = double(o.tiny_edges);
  double most[12] = {double(int(o.direction)),  o.alpha,  o.beta,  o.gamma,  bits,  tiny,
                     -double(int(o.direction)), -o.alpha, -o.beta, -o.gamma, -bits, -tiny};
  MPI_Allreduce(MPI_IN_PLACE, most, 12, MPI_DOUBLE, MPI_MAX, g.comm);
  collective(g.comm, [&] {
    if (o.tiny_edges < 0)
      throw input_error("bfs: tiny_edges " + std::to_string(o.tiny_edges) + " below 0");
    for (int i = 0; i < 6; ++i)
      if (most[i] != -most[i + 6])
        throw input_error(
            "bfs: the ranks passed different options (direction, alpha, beta, gamma, "
            "bitmap discoveries, tiny edges)");
    p_ = std::make_unique<Impl>(ctx, g, o);
  });
  if (p_->one) return;
  p_->bitmaps = std::make_unique<BitmapExchange>(ctx, g.comm, g.block);
  p_->pairs =
      std::make_unique<PairExchange>(ctx, g.comm, p_->capacity, o.shared_capacity, g.n, g.count);
}
DistributedBfs::~DistributedBfs() = default;
bool DistributedBfs::one_device() const { return p_->one != nullptr; }
int DistributedBfs::shared_peers() const {
  return p_->bitmaps ? std::min(p_->bitmaps->shared_peers(), p_->pairs->shared_peers()) : 0;
}

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
  // glob: the global frontier and its edges, and how many ranks' frontier edges pass their
  // own capacity (the ranks' capacities differ: each holds its own entries). Every rank takes
  // the same direction from glob alone: a rank deciding from its capacity would go bottom-up
  // (MPI_Iallgatherv) while the others go top-down (MPI_Alltoall), and all would wait forever.
  // glob[3]: how many ranks' pairs could pass their shared-memory segments (then a top-down
  // level's pairs all go by MPI).
  int64_t glob[4] = {0, 0, 0, 0};
  const auto reduce = [&] {  // one MPI_Allreduce a level
    glob[0] = local_count, glob[1] = local_edges, glob[2] = local_edges > d.capacity;
    glob[3] = !d.pairs->fits(local_edges);
    MPI_Allreduce(MPI_IN_PLACE, glob, 4, MPI_INT64_T, MPI_SUM, g.comm);
  };
  reduce();
  int64_t mu = g.global_entries - glob[1];
  bool bottom = false, in_bitmap = false;
  const Direction forced = d.o.direction;
  // Whether the next level is tiny (one MPI_Allgather, bfs_tiny.cpp): `small` from the counts
  // every rank has, so all make the same MPI calls. counted: mu has the frontier's edges out.
  const auto tiny_next = [&](bool small) {
    return d.tiny_pairs > 0 && forced != Direction::bottom_up && small;
  };
  // gamma > 0: no tiny level whose frontier's edges could pass n / gamma (those go bottom-up); an
  // empty frontier is none (the loop ends without one more collective)
  const auto small = [&] {
    return glob[0] > 0 && glob[1] <= d.tiny_pairs &&
           !(d.o.gamma > 0 && double(glob[1]) > double(g.n) / d.o.gamma);
  };
  bool tiny = tiny_next(small()), counted = true;
  for (int32_t level = 0;; ++level) {
    const auto s0 = clock_type::now();
    DistributedBfsStep st{level, Direction::top_down, glob[0], glob[1]};
    std::pair<int64_t, int64_t> found{0, 0};  // a tiny level's claims before its deferred part
    bool rebuild = false;
    if (tiny) {
      if (in_bitmap) {
        d.zero_counters();
        set_args(d.to_queue, d.off, d.cur, g.count, d.qa, d.ctr);
        launch(q, d.to_queue, d.round_up(g.count), size_t(d.local));
        in_bitmap = false;
      }
      const Impl::TinyLevel t = d.tiny(local_count, local_edges, level, st);
      if (t.frontier == 0) break;
      st.frontier = t.frontier, st.edges = t.edges;
      if (!counted) mu -= t.edges;
      bottom = false;
      if (!t.deferred) {
        local_count = t.count, local_edges = t.next_edges;
        tiny = tiny_next(t.bound <= d.tiny_pairs && d.o.gamma <= 0), counted = !tiny;
        if (!tiny) reduce(), mu -= glob[1];
        st.ms = since(s0);
        r.steps.push_back(st);
        if (t.bound == 0 || (!tiny && glob[0] == 0)) break;
        continue;
      }
      // Some rank had more edges than its slot: the deferred frontiers run as an ordinary level
      // (the others' count 0: they expanded), with the whole frontier's counts for the rule.
      glob[0] = t.frontier, glob[1] = t.edges, glob[2] = t.glob[2], glob[3] = t.glob[3];
      found = {t.count, t.next_edges};
      if (local_edges <= d.tiny_pairs) local_count = 0, local_edges = 0;
      rebuild = true, tiny = false;
    } else if (glob[0] == 0) {
      break;
    }
    if (forced != Direction::automatic)
      bottom = forced == Direction::bottom_up;
    else  // with gamma > 0, several ranks: also bottom-up while the frontier's edges pass n / gamma
      bottom = (bottom ? double(glob[0]) >= double(g.n) / d.o.beta
                       : double(glob[1]) > double(mu) / d.o.alpha) ||
               (d.p > 1 && d.o.gamma > 0 && double(glob[1]) > double(g.n) / d.o.gamma);
    // A top-down level whose pairs would pass some rank's buffer (glob[2]) or, several ranks,
    // its shared-memory segment (glob[3]: then they would all go by MPI; RMAT 26 on 2 H200s,
    // one source's level 1 took 33 ms that way): its discoveries go as bitmaps (hub), or, with
    // bitmap_discoveries off, the level runs bottom-up (11.5 ms there, 5.5 ms on one GPU).
    const bool overflow = glob[2] > 0 || (d.p > 1 && glob[3] > 0);
    const bool hub = !bottom && overflow && d.o.bitmap_discoveries;
    if (overflow && !d.o.bitmap_discoveries && (forced == Direction::automatic || glob[2]))
      bottom = true;
    st.direction = bottom ? Direction::bottom_up : Direction::top_down;
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
      next = hub ? d.hub(local_count, local_edges, level, glob[0], st)
                 : d.top_down(local_count, local_edges, level, glob[3] == 0, st);
      in_bitmap = hub;  // the hub level leaves the next frontier in `cur`
    }
    if (rebuild) {  // the next frontier: the tiny part's claims and this level's, from the levels
      next.first += found.first, next.second += found.second;
      set_args(d.begin, d.levels, g.count, level + 1, d.visited, d.cur);
      launch(q, d.begin, d.round_up(int64_t(words_of(g.count))), size_t(d.local));
      in_bitmap = true;
    }
    local_count = next.first, local_edges = next.second;
    reduce();
    mu -= glob[1];
    tiny = tiny_next(small()), counted = true;
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
