// DistributedBfs::Impl::hub (src/mpi/bfs_impl.hpp): a top-down level whose (vertex, parent) pairs
// would pass some rank's pair buffer or shared-memory segment (a frontier with hubs: RMAT 26,
// 1,226 vertices of 25.9 M edges), which ran bottom-up before (a scan of every unvisited vertex's
// in-row, 17 ms on an H200 against the expand's share of 25.9 M edges). Each rank
//   1. gathers the frontier bitmap on every device (BitmapExchange::gather, as bottom-up does);
//   2. expands its frontier queue top-down with no room for pairs (bfs_dist_expand or the
//      load-balanced one, capacity 0): owned neighbours are claimed there, every remote one
//      only sets its bit in `seen`; bfs_dist_news keeps the bits this level set, one per remote
//      vertex this rank discovered;
//   3. ORs those bitmaps over the ranks, each owner getting its own block's words (one
//      MPI_Reduce_scatter, BitmapExchange::scatter_or): the vertices some rank discovered;
//   4. runs cl/bfs_bitmap.cl's bottom-up step over those candidates only (bfs_dist_mask puts the
//      others in its skip mask): each unvisited candidate has an in-neighbour in the frontier,
//      the first one its row holds becomes its parent, so the scan stops early.
// The next frontier then sits in `cur` (bfs_bu_begin from the levels), as after bottom-up.
#include "mpi/bfs_impl.hpp"

namespace lockstep::mpi {
using bfs_detail::clock_type;
using bfs_detail::since;
using bfs_detail::words_of;

bool DistributedBfs::Impl::gather_list(int64_t count, int64_t total) {
  if (total * 32 >= int64_t(g.n)) return false;  // 4 bytes a vertex against n / 8 in all
  auto& q = ctx.queue();
  const size_t np = static_cast<size_t>(p);
  std::vector<int> counts_of(np), displ(np, 0);
  const int c = int(count);
  MPI_Allgather(&c, 1, MPI_INT, counts_of.data(), 1, MPI_INT, g.comm);
  for (size_t r = 1; r < np; ++r) displ[r] = displ[r - 1] + counts_of[r - 1];
  const size_t sum = size_t(displ.back() + counts_of.back());
  flist_mine.resize(size_t(c)), flist_host.resize(std::max<size_t>(sum, 1));
  if (c) check(q.enqueueReadBuffer(qa, CL_TRUE, 0, size_t(c) * 4, flist_mine.data()), "read");
  for (int32_t& v : flist_mine) v += g.first;  // the queue holds local indices
  MPI_Allgatherv(flist_mine.data(), c, MPI_INT32_T, flist_host.data(), counts_of.data(),
                 displ.data(), MPI_INT32_T, g.comm);
  if (flist.get() == nullptr || flist.getInfo<CL_MEM_SIZE>() < flist_host.size() * 4)
    flist = make_buffer(ctx.context(), CL_MEM_READ_ONLY, flist_host.size() * 8);
  const uint32_t none = 0;
  check(q.enqueueFillBuffer(frontier, none, 0, words_of(g.n) * 4), "clEnqueueFillBuffer");
  if (sum) {
    check(q.enqueueWriteBuffer(flist, CL_FALSE, 0, sum * 4, flist_host.data()), "write");
    set_args(bits, flist, int32_t(sum), frontier);
    launch(q, bits, round_up(int64_t(sum)), size_t(local));
  }
  return true;
}

std::pair<int64_t, int64_t> DistributedBfs::Impl::hub(int64_t count, int64_t edges, int32_t level,
                                                      int64_t total, DistributedBfsStep& st) {
  auto& q = ctx.queue();
  const int32_t all = int32_t(words_of(g.n)), mine = int32_t(words_of(g.count));
  st.bitmap = true;
  auto t0 = clock_type::now();
  const bool listed = gather_list(count, total);
  if (!listed) {
    set_args(begin, levels, g.count, level, visited, cur);  // this rank's frontier as a bitmap
    launch(q, begin, round_up(mine), size_t(local));
    bitmaps->gather(cur, frontier);
  }
  st.exchange_ms += since(t0);
  zero_counters();
  check(q.enqueueFillBuffer(counts, int32_t(0), 0, size_t(p) * 4), "clEnqueueFillBuffer");
  check(q.enqueueCopyBuffer(seen, news, 0, 0, size_t(all) * 4), "clEnqueueCopyBuffer");
  st.balanced = expand_queue(count, edges, level, 0);
  set_args(news_k, seen, news, all);
  launch(q, news_k, round_up(all), size_t(local));
  t0 = clock_type::now();
  bitmaps->scatter_or(news, next);  // blocks for the expand: its download waits on the queue
  st.exchange_ms += since(t0);
  // The skip mask: every visited vertex (the expand's claims too) and every one no rank found.
  set_args(begin, levels, g.count, level, visited, cur);
  launch(q, begin, round_up(mine), size_t(local));
  set_args(mask, visited, next, mine);
  launch(q, mask, round_up(mine), size_t(local));
  set_args(step, in_off, in_adj, off, levels, parents, visited, frontier, next, g.count, ctr,
           this->edges, level);
  launch(q, step, round_up(g.count), size_t(local));
  set_args(begin, levels, g.count, level + 1, visited, cur);  // the next frontier, both kinds
  launch(q, begin, round_up(mine), size_t(local));
  read_counters();  // the expand's claims and the owners' (ctr[0] and edges were not reset)
  if (!listed) bitmaps->release();
  st.sent = ctr_host[2];  // the remote vertices this rank discovered (bits, not pairs)
  return {ctr_host[0], edges_host};
}

}  // namespace lockstep::mpi
