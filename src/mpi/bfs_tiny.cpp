// DistributedBfs::Impl::tiny (src/mpi/bfs_impl.hpp): a level of a small frontier (the global
// frontier's edges at most tiny_edges when the run entered these levels; after one, its bound)
// in one collective. Each rank expands its frontier top-down when it has at most tiny_edges
// edges (a pair each at most, so they fit its slot), and one MPI_Allgather of a slot a rank takes
// both the pairs and the counts to every rank: this frontier's size and edges (the direction
// rule's and the termination's global counts), whether the rank deferred its expand (more
// edges), whether its edges pass its pair buffer or segment, its own claims and its pairs. Each
// rank then claims the pairs it owns out of every slot. No bucketing, no PairExchange, no
// MPI_Allreduce: the next frontier holds at most the claims plus the pairs (`bound`), which
// decides on every rank alike whether the next level is tiny too. Where some rank deferred, the
// caller runs that rank's frontier as an ordinary level (the others' frontiers count 0) and
// rebuilds the next frontier from the levels.
#include "mpi/bfs_impl.hpp"

namespace lockstep::mpi {
using bfs_detail::clock_type;
using bfs_detail::since;
namespace {
constexpr size_t kHead = 8;  // a slot's counts, then its pairs (two int32 an int64)
}  // namespace

DistributedBfs::Impl::TinyLevel DistributedBfs::Impl::tiny(int64_t count, int64_t edges,
                                                           int32_t level, DistributedBfsStep& st) {
  auto& q = ctx.queue();
  const size_t slot = kHead + size_t(tiny_pairs), np = size_t(p);
  if (tiny_send.size() != slot) {
    tiny_send.assign(slot, 0), tiny_recv.assign(slot * np, 0);
    tiny_buf = make_buffer(ctx.context(), CL_MEM_READ_WRITE, std::max<size_t>(1, slot * np) * 8);
  }
  st.gathered = true;
  const bool defer = edges > tiny_pairs;
  zero_counters();
  int64_t* head = tiny_send.data();
  std::fill(head, head + kHead, 0);
  head[0] = count, head[1] = edges, head[2] = defer, head[3] = edges > capacity;
  head[4] = !pairs->fits(edges);
  if (!defer && count) {
    st.balanced = expand_queue(count, edges, level, int32_t(capacity));
    if (edges)  // at most one pair an edge: the first `edges` slots hold them all
      check(q.enqueueReadBuffer(remote, CL_FALSE, 0, size_t(edges) * 8, head + kHead),
            "clEnqueueReadBuffer");
    read_counters();
    head[5] = ctr_host[0], head[6] = edges_host, head[7] = ctr_host[2];
    st.sent = ctr_host[2];
  }
  const auto t0 = clock_type::now();
  MPI_Allgather(tiny_send.data(), int(slot), MPI_INT64_T, tiny_recv.data(), int(slot), MPI_INT64_T,
                g.comm);
  st.exchange_ms += since(t0);
  TinyLevel t;
  tiny_mine.clear();
  for (size_t r = 0; r < np; ++r) {
    const int64_t* h = tiny_recv.data() + r * slot;
    t.frontier += h[0], t.edges += h[1], t.bound += h[5] + h[7];
    if (h[2]) t.deferred = true, t.glob[2] += h[3], t.glob[3] += h[4];
    const int32_t* pr = reinterpret_cast<const int32_t*>(h + kHead);
    for (int64_t i = 0; int(r) != me && i < h[7]; ++i)
      if (pr[2 * i] >= g.first && pr[2 * i] < g.first + g.count)
        tiny_mine.push_back(pr[2 * i]), tiny_mine.push_back(pr[2 * i + 1]);
  }
  const int32_t got = int32_t(tiny_mine.size() / 2);
  if (got) {
    check(q.enqueueWriteBuffer(tiny_buf, CL_FALSE, 0, size_t(got) * 8, tiny_mine.data()),
          "clEnqueueWriteBuffer");
    set_args(claim, off, levels, parents, tiny_buf, got, g.first, qb, ctr, this->edges, level);
    launch(q, claim, round_up(got), size_t(local));
    read_counters();
  }
  t.count = ctr_host[0], t.next_edges = edges_host;  // zero_counters zeroed the host's copies too
  if (!defer) std::swap(qa, qb);  // a deferred rank's frontier stays in qa for the caller
  return t;
}

}  // namespace lockstep::mpi
