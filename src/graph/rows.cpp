// Parallel CSR construction (see rows.hpp): a counting pass and a placing pass over blocks of
// drawn edges (relaxed atomic increments on the degrees, then on per-row cursors), the rows
// sorted (long ones by radix) and, for unique rows, copied without repeats. The entries are placed
// into a scratch array that is never zero-filled (each entry is written once by the placing pass);
// only the result, a std::vector, is.
#include "graph/rows.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "lockstep/error.hpp"

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

inline int32_t bump(int32_t* c, int32_t v) {  // c[v]++, atomically; returns the old value
  return __atomic_fetch_add(c + v, 1, __ATOMIC_RELAXED);
}

// each(from, to) for every drawn edge, blocks of kBlock edges spread over the threads.
template <typename Each>
void for_each_edge(int64_t m, const DrawEdges& draw, Each each) {
  const int64_t blocks = (m + kBlock - 1) / kBlock;
#pragma omp parallel
  {
    std::vector<int32_t> from(size_t(std::min(m, kBlock))), to(from.size());
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t begin = b * kBlock, end = std::min(m, begin + kBlock);
      draw(begin, end, from.data(), to.data());
      for (int64_t i = 0; i < end - begin; ++i) each(from[size_t(i)], to[size_t(i)]);
    }
  }
}

// fn(v, scratch) for every row, in the balanced chunks of row_chunks; scratch: one a thread.
template <typename Fn>
void for_each_row(const std::vector<int32_t>& offsets, Fn fn) {
  const std::vector<int32_t> chunks = row_chunks(offsets);
  const int64_t count = int64_t(chunks.size()) - 1;
#pragma omp parallel
  {
    std::vector<int32_t> scratch;
#pragma omp for schedule(dynamic, 1)
    for (int64_t c = 0; c < count; ++c)
      for (int32_t v = chunks[size_t(c)]; v < chunks[size_t(c) + 1]; ++v) fn(v, scratch);
  }
}

// Sorts [b, e) of values in [0, n): std::sort for short rows, else an LSD radix sort of 8 bits
// a pass over the bits of n - 1 (R-MAT 22: three passes; 73 % of its entries lie in rows longer
// than 256; its rows took 3.7 s of one core with std::sort alone, 0.9 s so).
void sort_row(int32_t* b, int32_t* e, int32_t n, std::vector<int32_t>& scratch) {
  const size_t len = size_t(e - b);
  if (len <= 256) {
    std::sort(b, e);
    return;
  }
  if (scratch.size() < len) scratch.resize(len);
  int32_t *src = b, *dst = scratch.data();
  for (int shift = 0; shift < 31 && (uint32_t(std::max(n - 1, 1)) >> shift) != 0; shift += 8) {
    size_t at[257] = {};
    for (const int32_t* p = src; p != src + len; ++p) ++at[((uint32_t(*p) >> shift) & 255) + 1];
    if (std::find(at + 1, at + 257, len) != at + 257) continue;  // one digit for all: in order
    std::partial_sum(at, at + 257, at);
    for (const int32_t* p = src; p != src + len; ++p) dst[at[(uint32_t(*p) >> shift) & 255]++] = *p;
    std::swap(src, dst);
  }
  if (src != b) std::copy(src, src + len, b);
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
  // at: the degrees (shifted by one), their scan, then the cursors of the placing pass.
  std::vector<int32_t> at(size_t(n) + 1, 0);
  int32_t* deg = at.data() + 1;
  for_each_edge(m, draw, [&](int32_t u, int32_t v) {
    bump(deg, u);
    if (both) bump(deg, v);
  });
  std::partial_sum(at.begin(), at.end(), at.begin());
  std::unique_ptr<int32_t[]> raw(new int32_t[size_t(std::max<int64_t>(entries, 1))]);
  int32_t* r = raw.get();
  for_each_edge(m, draw, [&](int32_t u, int32_t v) {
    r[bump(at.data(), u)] = v;
    if (both) r[bump(at.data(), v)] = u;
  });
  // each cursor now stands at its row's end: shift them back into row starts
  std::copy_backward(at.begin(), at.end() - 1, at.end());
  at[0] = 0;

  std::vector<int32_t> kept(size_t(n) + 1, 0);  // the row lengths after dropping repeats
  for_each_row(at, [&](int32_t v, std::vector<int32_t>& scratch) {
    int32_t *b = r + at[size_t(v)], *e = r + at[size_t(v) + 1];
    sort_row(b, e, n, scratch);
    int32_t k = int32_t(e - b);
    if (unique && b != e) {
      k = 1;
      for (const int32_t* p = b + 1; p != e; ++p) k += *p != p[-1];
    }
    kept[size_t(v) + 1] = k;
  });
  std::partial_sum(kept.begin(), kept.end(), kept.begin());
  const size_t total = size_t(kept[size_t(n)]);
  adj = std::vector<int32_t>(total);
  if (counts) *counts = std::vector<int32_t>(total);
  int32_t* out_adj = adj.data();
  int32_t* out_counts = counts ? counts->data() : nullptr;
  for_each_row(at, [&](int32_t v, std::vector<int32_t>&) {
    const int32_t *b = r + at[size_t(v)], *e = r + at[size_t(v) + 1];
    int32_t* out = out_adj + kept[size_t(v)];
    int32_t* c = out_counts ? out_counts + kept[size_t(v)] : nullptr;
    if (!unique) {
      std::copy(b, e, out);
      if (c) std::fill(c, c + (e - b), 1);
      return;
    }
    for (const int32_t* p = b; p != e; ++p) {
      if (p != b && *p == p[-1]) {
        if (c) ++c[-1];
        continue;
      }
      *out++ = *p;
      if (c) *c++ = 1;
    }
  });
  offsets = std::move(kept);
}

}  // namespace lockstep::detail
