// Parallel CSR construction (see rows.hpp), two passes over the drawn edges in fixed chunks (one
// a thread): the first counts each chunk's entries per key (row >> shift, at most 2^16 keys, a
// private histogram in L2), the keys are gathered into buckets of about an L2 of entries, and
// the second pass scatters the (row, column) pairs into their bucket's staging slice at the
// chunk's own cursor (no atomics, a few thousand write streams); graph/row_buckets.cpp then
// finishes each bucket in cache. (The earlier build: atomic degree counts, entries placed with
// atomic cursors anywhere among the n rows, then the rows sorted: R-MAT 22 in 7.4 s on 2 cores.)
#include "graph/rows.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "graph/build_clock.hpp"
#include "graph/row_buckets.hpp"
#include "lockstep/error.hpp"
#include "runtime/parallel_errors.hpp"

namespace lockstep::detail {
namespace {

constexpr int64_t kBlock = int64_t(1) << 14;  // edges a thread draws at a time (128 KiB)

int threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// fn(v, scratch) for every row, in the balanced chunks of row_chunks; scratch: one a thread.
template <typename Fn>
void for_each_row(const std::vector<int32_t>& offsets, Fn fn) {
  const std::vector<int32_t> chunks = row_chunks(offsets);
  const int64_t count = int64_t(chunks.size()) - 1;
  ParallelErrors errors;
#pragma omp parallel
  {
    std::vector<int32_t> scratch;
#pragma omp for schedule(dynamic, 1)
    for (int64_t c = 0; c < count; ++c)
      errors.run([&] {
        for (int32_t v = chunks[size_t(c)]; v < chunks[size_t(c) + 1]; ++v) fn(v, scratch);
      });
  }
  errors.rethrow();
}

}  // namespace

std::vector<int32_t> row_chunks(const std::vector<int32_t>& offsets, int64_t per) {
  const int32_t n = int32_t(offsets.size()) - 1;
  auto cost = [&](int32_t v) { return int64_t(offsets[size_t(v)]) + v; };  // rows + entries
  if (per <= 0) per = std::max<int64_t>(4096, (n > 0 ? cost(n) : 0) / (64 * int64_t(threads())));
  std::vector<int32_t> b{0};
  while (b.back() < n) {
    const int64_t target = cost(b.back()) + per;
    int32_t lo = b.back() + 1, hi = n;  // the first row end at or past target (at least one row)
    while (lo < hi) {
      const int32_t mid = lo + (hi - lo) / 2;
      if (cost(mid) >= target)
        hi = mid;
      else
        lo = mid + 1;
    }
    b.push_back(lo);
  }
  return b;
}

void sort_rows(const std::vector<int32_t>& offsets, std::vector<int32_t>& adj) {
  int32_t* a = adj.data();
  for_each_row(offsets, [&](int32_t v, std::vector<int32_t>&) {  // values unchecked: std::sort
    std::sort(a + offsets[size_t(v)], a + offsets[size_t(v) + 1]);
  });
}

void build_rows(int32_t n, int64_t m, bool both, bool unique, const DrawEdges& draw,
                std::vector<int32_t>& offsets, std::vector<int32_t>& adj,
                std::vector<int32_t>* counts) {
  const int64_t entries = (both ? 2 : 1) * m;
  if (n < 0 || m < 0 || entries >= int64_t(INT32_MAX))
    throw input_error("graph too large: " + std::to_string(entries) +
                      " adjacency entries (at most 2^31-2 with 32-bit offsets)");
  BuildClock clock("rows");
  const int shift = key_shift(n);
  const size_t keys = n > 0 ? size_t(((n - 1) >> shift) + 1) : 0;
  const int chunks = threads();
  const int64_t blocks = (m + kBlock - 1) / kBlock;
  // each(chunk, from, to) for every edge of the chunk's blocks, drawn kBlock at a time
  auto each_edge = [&](auto&& each) {
    ParallelErrors errors;
#pragma omp parallel for schedule(static, 1)
    for (int c = 0; c < chunks; ++c)
      errors.run([&] {
        std::vector<int32_t> from(size_t(std::min(m, kBlock))), to(from.size());
        for (int64_t b = blocks * c / chunks; b < blocks * (c + 1) / chunks; ++b) {
          const int64_t begin = b * kBlock, end = std::min(m, begin + kBlock);
          draw(begin, end, from.data(), to.data());
          for (int64_t i = 0; i < end - begin; ++i) each(c, from[size_t(i)], to[size_t(i)]);
        }
      });
    errors.rethrow();
  };
  std::vector<int32_t> hist(size_t(chunks) * keys, 0);  // entries per chunk and key
  each_edge([&](int c, int32_t u, int32_t v) {
    int32_t* h = hist.data() + size_t(c) * keys;
    ++h[uint32_t(u) >> shift];
    if (both) ++h[uint32_t(v) >> shift];
  });
  std::vector<int64_t> key_entries(keys, 0);
  for (int c = 0; c < chunks; ++c)
    for (size_t k = 0; k < keys; ++k) key_entries[k] += hist[size_t(c) * keys + k];
  const RowBuckets buckets = make_buckets(0, n, shift, key_entries);
  clock.lap("count");
  // cursor[c * nb + b]: where chunk c writes its next pair of bucket b
  const size_t nb = size_t(buckets.count());
  std::vector<int64_t> cursor(size_t(chunks) * nb, 0);
  for (int c = 0; c < chunks; ++c)
    for (size_t k = 0; k < keys; ++k)
      cursor[size_t(c) * nb + size_t(buckets.key_bucket[k])] += hist[size_t(c) * keys + k];
  hist = {};
  for (size_t b = 0; b < nb; ++b) {
    int64_t at = buckets.at[b];
    for (int c = 0; c < chunks; ++c) {
      const int64_t k = cursor[size_t(c) * nb + b];
      cursor[size_t(c) * nb + b] = at, at += k;
    }
  }
  std::unique_ptr<int32_t[]> pairs(new int32_t[size_t(std::max<int64_t>(2 * entries, 1))]);
  int32_t* p = pairs.get();
  const int32_t* key_bucket = buckets.key_bucket.data();
  each_edge([&](int c, int32_t u, int32_t v) {
    int64_t* at = cursor.data() + size_t(c) * nb;
    int64_t k = at[key_bucket[uint32_t(u) >> shift]]++;
    p[2 * k] = u, p[2 * k + 1] = v;
    if (!both) return;
    k = at[key_bucket[uint32_t(v) >> shift]]++;
    p[2 * k] = v, p[2 * k + 1] = u;
  });
  clock.lap("scatter");
  finish_rows(buckets, p, n, unique, offsets, adj, counts);
  clock.lap("finish");
}

}  // namespace lockstep::detail
