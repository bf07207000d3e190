// DistributedGraph: the entry-balanced vertex blocks, root's graph scattered (MPI_Scatterv of
// row lengths and rows, forward and, for a directed graph, reverse), and R-MAT drawn on every
// rank (OpenMP): the degrees counted from the counter-based edge stream, each rank a share of
// it, summed by MPI_Allreduce (so every rank picks the same blocks); then every rank draws its
// share again, round by round, buckets both directions of each edge by the owner of the row
// (MPI_Alltoall of the counts, MPI_Alltoallv of the (row, column) pairs), and scatters what it
// receives into buckets of its rows, each then sorted and stripped of repeats in cache
// (graph/row_buckets.hpp, as graph/rows.cpp builds the one-GPU graph; 64-bit offsets here).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <memory>
#include <numeric>

#include "graph/build_clock.hpp"
#include "graph/row_buckets.hpp"
#include "lockstep/generators.hpp"
#include "lockstep/mpi/bfs.hpp"
#include "mpi/mpi_type.hpp"
#include "runtime/parallel_errors.hpp"

namespace lockstep::mpi {

int DistributedGraph::owner(int32_t v) const {
  return int(std::upper_bound(block.begin(), block.end(), v) - block.begin()) - 1;
}

std::vector<int32_t> partition_by_entries(const std::vector<int64_t>& prefix, int parts) {
  const int32_t n = int32_t(prefix.size()) - 1;
  const int64_t total = prefix.back();
  std::vector<int32_t> b(size_t(parts) + 1, n);
  b[0] = 0;
  for (int p = 1; p < parts; ++p) {
    const int64_t target = total * p / parts;
    int32_t v = int32_t(std::lower_bound(prefix.begin(), prefix.end(), target) - prefix.begin());
    if (total == 0) v = int32_t(int64_t(n) * p / parts);
    v = std::min(n, (v + 16) / 32 * 32);  // the nearest multiple of 32
    b[size_t(p)] = std::max(b[size_t(p) - 1], v);
  }
  return b;
}

namespace {

void check_block(const std::vector<int32_t>& b, int parts, int32_t n) {
  bool ok = b.size() == size_t(parts) + 1 && b.front() == 0 && b.back() == n &&
            std::is_sorted(b.begin(), b.end());
  for (size_t q = 1; ok && q + 1 < b.size(); ++q) ok = b[q] % 32 == 0;
  if (!ok)
    throw input_error("vertex blocks must be " + std::to_string(parts + 1) +
                      " ascending offsets from 0 to " + std::to_string(n) +
                      ", the inner ones multiples of 32");
}

// Rows [b[q], b[q+1]) of root's (offsets, adj) to rank q: lengths, then entries (int counts:
// one rank's share of a CsrGraph is below 2^31 entries).
void scatter_rows(MPI_Comm comm, int root, const std::vector<int32_t>& block,
                  const std::vector<int32_t>& off, const std::vector<int32_t>& adj,
                  std::vector<int64_t>& my_off, std::vector<int32_t>& my_adj) {
  const int me = rank(comm), p = size(comm);
  const size_t np = static_cast<size_t>(p);
  std::vector<int> rc(np), rd(np), ec(np), ed(np);
  std::vector<int32_t> len;
  if (me == root) {
    len.resize(off.size() - 1);
    for (size_t v = 0; v + 1 < off.size(); ++v) len[v] = off[v + 1] - off[v];
    for (int q = 0; q < p; ++q) {
      rd[size_t(q)] = block[size_t(q)], rc[size_t(q)] = block[size_t(q) + 1] - block[size_t(q)];
      ed[size_t(q)] = off[size_t(block[size_t(q)])];
      ec[size_t(q)] = off[size_t(block[size_t(q) + 1])] - ed[size_t(q)];
    }
  }
  const int count = block[size_t(me) + 1] - block[size_t(me)];
  std::vector<int32_t> mine(static_cast<size_t>(count));
  MPI_Scatterv(len.data(), rc.data(), rd.data(), MPI_INT32_T, mine.data(), count, MPI_INT32_T, root,
               comm);
  my_off.assign(size_t(count) + 1, 0);
  for (int v = 0; v < count; ++v) my_off[size_t(v) + 1] = my_off[size_t(v)] + mine[size_t(v)];
  my_adj.resize(size_t(my_off.back()));
  MPI_Scatterv(adj.data(), ec.data(), ed.data(), MPI_INT32_T, my_adj.data(), int(my_off.back()),
               MPI_INT32_T, root, comm);
}

}  // namespace

DistributedGraph scatter_graph(MPI_Comm comm, const CsrGraph& global, std::vector<int32_t> block,
                               int root) {
  const int me = rank(comm), p = size(comm);
  DistributedGraph g;
  g.comm = comm;
  int64_t head[3] = {global.n, int64_t(global.edges()), global.symmetric || global.n == 0};
  collective(comm, [&] {
    if (me != root) return;
    if (!global.symmetric && !global.has_in_edges() && global.n > 0)
      throw input_error("a directed graph needs its in-neighbours (CsrGraph with reverse = true)");
    if (block.empty()) {
      std::vector<int64_t> prefix(global.offsets.begin(), global.offsets.end());
      if (!global.symmetric)  // bottom-up scans the in-rows: balance both
        for (size_t v = 0; v < prefix.size(); ++v) prefix[v] += global.rev_offsets[v];
      block = partition_by_entries(prefix, p);
    }
    check_block(block, p, global.n);
  });
  MPI_Bcast(head, 3, MPI_INT64_T, root, comm);
  g.n = int32_t(head[0]), g.global_entries = head[1], g.symmetric = head[2] != 0;
  block.resize(size_t(p) + 1);
  MPI_Bcast(block.data(), p + 1, MPI_INT32_T, root, comm);
  g.block = block;
  g.first = block[size_t(me)], g.count = block[size_t(me) + 1] - g.first;
  scatter_rows(comm, root, block, global.offsets, global.adj, g.offsets, g.adj);
  if (!g.symmetric)
    scatter_rows(comm, root, block, global.rev_offsets, global.rev_adj, g.in_offsets, g.in_adj);
  return g;
}

DistributedGraph rmat_graph(MPI_Comm comm, int32_t scale, int32_t edgefactor, uint64_t seed,
                            std::vector<int32_t> block) {
  const int me = rank(comm), p = size(comm);
  DistributedGraph g;
  g.comm = comm;
  collective(comm, [&] {
    if (scale < 0 || scale > 30 || edgefactor < 1 || edgefactor > 64)
      throw input_error("rmat needs 0 <= scale <= 30 and 1 <= edgefactor <= 64");
  });
  const int32_t n = int32_t(int64_t(1) << scale);
  const int64_t m = int64_t(edgefactor) << scale, kBlock = int64_t(1) << 14;
  const int64_t blocks = (m + kBlock - 1) / kBlock;
  // fn(u, v) for every edge of blocks [b0, b1) of kBlock edges, the blocks over the threads
  auto each_edge = [&](int64_t b0, int64_t b1, auto&& fn) {
    ParallelErrors errors;
#pragma omp parallel
    {
      std::vector<int32_t> from, to;
      errors.run([&] { from.resize(size_t(std::min(m, kBlock))), to.resize(from.size()); });
#pragma omp for schedule(dynamic, 1)
      for (int64_t b = b0; b < b1; ++b)
        errors.run([&] {
          const int64_t begin = b * kBlock, end = std::min(m, begin + kBlock);
          gen::rmat_edges(scale, seed, begin, end, from.data(), to.data());
          for (int64_t i = 0; i < end - begin; ++i) fn(from[size_t(i)], to[size_t(i)]);
        });
    }
    errors.rethrow();
  };
  // Every degree (both directions, repeats counted): each rank counts its share of the
  // blocks, one MPI_Allreduce sums them, so every rank picks the same vertex blocks.
  detail::BuildClock clock("distributed rank=" + std::to_string(me));
  std::vector<int64_t> prefix(size_t(n) + 1, 0);
  {
    std::vector<uint32_t> deg(size_t(n), 0);
    uint32_t* d = deg.data();
    each_edge(blocks * me / p, blocks * (me + 1) / p, [&](int32_t u, int32_t v) {
      __atomic_fetch_add(d + u, 1u, __ATOMIC_RELAXED);
      __atomic_fetch_add(d + v, 1u, __ATOMIC_RELAXED);
    });
    clock.lap("count");
    MPI_Allreduce(MPI_IN_PLACE, deg.data(), n, MPI_UINT32_T, MPI_SUM, comm);
    clock.lap("count_allreduce");
    // the scan in parallel: each thread's slice summed, the sums scanned, each slice scanned
    const int parts = omp_get_max_threads();
    std::vector<int64_t> part(size_t(parts) + 1, 0);
#pragma omp parallel for schedule(static, 1)
    for (int t = 0; t < parts; ++t)
      for (int64_t v = int64_t(n) * t / parts; v < int64_t(n) * (t + 1) / parts; ++v)
        part[size_t(t) + 1] += deg[size_t(v)];
    std::partial_sum(part.begin(), part.end(), part.begin());
#pragma omp parallel for schedule(static, 1)
    for (int t = 0; t < parts; ++t) {
      int64_t sum = part[size_t(t)];
      for (int64_t v = int64_t(n) * t / parts; v < int64_t(n) * (t + 1) / parts; ++v)
        prefix[size_t(v) + 1] = sum += deg[size_t(v)];
    }
  }
  clock.lap("count_scan");
  collective(comm, [&] {
    if (block.empty()) block = partition_by_entries(prefix, p);
    check_block(block, p, n);
  });
  g.n = n, g.block = block, g.symmetric = true;
  g.first = block[size_t(me)], g.count = block[size_t(me) + 1] - g.first;
  const int32_t lo = g.first, hi = g.first + g.count;
  // The owned rows in buckets of consecutive rows (graph/row_buckets.hpp), their sizes known
  // from the degrees: every rank draws its share of the stream again, kRound blocks a round,
  // sends both directions of each edge to the row's owner (MPI_Alltoallv of (row, column)
  // pairs) and scatters what it receives into the buckets' staging slices (per-thread cursors,
  // no atomics); each bucket is then sorted and stripped of repeats in cache.
  detail::RowBuckets buckets;
  {
    const int shift = detail::key_shift(g.count);
    std::vector<int64_t> key_entries(g.count > 0 ? size_t(((g.count - 1) >> shift) + 1) : 0);
    for (size_t k = 0; k < key_entries.size(); ++k)
      key_entries[k] = prefix[size_t(std::min<int64_t>(hi, lo + (int64_t(k + 1) << shift)))] -
                       prefix[size_t(lo) + (k << shift)];
    buckets = detail::make_buckets(lo, g.count, shift, key_entries);
  }
  prefix = {};
  std::unique_ptr<int32_t[]> stage(
      new int32_t[size_t(std::max<int64_t>(1, 2 * buckets.at.back()))]);
  {
    const int64_t b0 = blocks * me / p, b1 = blocks * (me + 1) / p, kRound = 512;
    int64_t rounds = (b1 - b0 + kRound - 1) / kRound;
    MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_INT64_T, MPI_MAX, comm);
    clock.lap("buckets");
    std::vector<int64_t> fill(buckets.at.begin(), buckets.at.end() - 1);  // next free pair
    const size_t np = size_t(p), cap = size_t(std::min(m, kRound * kBlock));
    std::vector<int32_t> from(cap), to(cap), pairs(4 * cap), got;
    std::vector<int> scount(np), sdispl(np), rcount(np), rdispl(np);
    const Int32Pair pair;
    const int chunks = 4 * omp_get_max_threads();  // each pass's edges in these slices
    std::vector<int64_t> tcount(size_t(chunks) * np);
    std::vector<int32_t> owner_of(2 * cap);  // each drawn entry's owner, found once
    auto owner = [&](int32_t v) {  // few ranks: the inner block starts at or below v, counted
      if (p <= 8) {
        int q = 0;
        for (int i = 1; i < p; ++i) q += v >= block[size_t(i)];
        return q;
      }
      return g.owner(v);
    };
    for (int64_t round = 0; round < rounds; ++round) {
      const int64_t r0 = std::min(b1, b0 + round * kRound), r1 = std::min(b1, r0 + kRound);
      const int64_t e0 = std::min(m, r0 * kBlock), edges = std::min(m, r1 * kBlock) - e0;
#pragma omp parallel for schedule(dynamic, 1)
      for (int64_t b = r0; b < r1; ++b) {
        const int64_t begin = b * kBlock, end = std::min(m, begin + kBlock);
        gen::rmat_edges(scale, seed, begin, end, from.data() + (begin - e0),
                        to.data() + (begin - e0));
      }
      clock.tally("round_draw");
      // per slice and owner counts, then each slice's entries at its own offsets
      std::fill(tcount.begin(), tcount.end(), 0);
#pragma omp parallel for schedule(dynamic, 1)
      for (int t = 0; t < chunks; ++t) {
        int64_t* c = tcount.data() + size_t(t) * np;
        for (int64_t i = edges * t / chunks; i < edges * (t + 1) / chunks; ++i) {
          const int qu = owner(from[size_t(i)]), qv = owner(to[size_t(i)]);
          owner_of[size_t(2 * i)] = qu, owner_of[size_t(2 * i + 1)] = qv;
          ++c[qu], ++c[qv];
        }
      }
      int64_t sum = 0;
      for (size_t q = 0; q < np; ++q) {
        sdispl[q] = int(sum);
        for (int t = 0; t < chunks; ++t) {
          const int64_t k = tcount[size_t(t) * np + q];
          tcount[size_t(t) * np + q] = sum, sum += k;
        }
        scount[q] = int(sum - sdispl[q]);
      }
#pragma omp parallel for schedule(dynamic, 1)
      for (int t = 0; t < chunks; ++t) {
        int64_t* c = tcount.data() + size_t(t) * np;
        int32_t* out = pairs.data();
        for (int64_t i = edges * t / chunks; i < edges * (t + 1) / chunks; ++i) {
          const int32_t u = from[size_t(i)], v = to[size_t(i)];
          int64_t k = c[owner_of[size_t(2 * i)]]++;
          out[2 * k] = u, out[2 * k + 1] = v;
          k = c[owner_of[size_t(2 * i + 1)]]++;
          out[2 * k] = v, out[2 * k + 1] = u;
        }
      }
      clock.tally("round_pack");
      // this rank's own pairs stay out of the exchange (no copy through MPI to itself)
      const int64_t own = scount[size_t(me)];
      const int32_t* mine = pairs.data() + 2 * int64_t(sdispl[size_t(me)]);
      scount[size_t(me)] = 0;
      MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, comm);
      int64_t total = 0;
      for (size_t q = 0; q < np; ++q) rdispl[q] = int(total), total += rcount[q];
      got.resize(size_t(2 * total));
      MPI_Alltoallv(pairs.data(), scount.data(), sdispl.data(), pair.type, got.data(),
                    rcount.data(), rdispl.data(), pair.type, comm);
      clock.tally("round_exchange");
      // the received pairs, then the own ones, into their buckets (per-thread counts, then
      // cursors)
      detail::append_pairs(buckets, got.data(), total, mine, own, fill, stage.get());
      clock.tally("round_scatter");
    }
  }
  clock.lap("rounds_end");
  detail::finish_rows(buckets, stage.get(), n, true, g.offsets, g.adj);
  stage.reset();
  clock.lap("finish");
  g.global_entries = int64_t(g.adj.size());
  MPI_Allreduce(MPI_IN_PLACE, &g.global_entries, 1, MPI_INT64_T, MPI_SUM, comm);
  return g;
}

}  // namespace lockstep::mpi
