// Bucketed CSR finishing (see row_buckets.hpp): one bucket a thread (largest first, dynamic),
// its rows counted and its columns placed in a thread-private scratch, each row sorted (LSD
// radix for long rows) and stripped of repeats; the kept columns (and multiplicities) written
// back over the bucket's own staging pairs, then copied to their final offsets.
#include "graph/row_buckets.hpp"

#include <algorithm>
#include <numeric>

#include "graph/build_clock.hpp"
#include "runtime/parallel_errors.hpp"
#ifdef _OPENMP
#include <omp.h>
#endif

namespace lockstep::detail {

int key_shift(int32_t rows) {
  int s = 0;
  while (rows > 0 && ((int64_t(rows) - 1) >> s) >= (int64_t(1) << 16)) ++s;
  return s;
}

RowBuckets make_buckets(int32_t first, int32_t rows, int shift,
                        const std::vector<int64_t>& key_entries, int64_t target) {
  RowBuckets b;
  b.first = first, b.shift = shift, b.row = {0}, b.at = {0};
  const int64_t total = std::accumulate(key_entries.begin(), key_entries.end(), int64_t(0));
  if (target <= 0) target = std::max<int64_t>(int64_t(1) << 15, total / 2048);
  b.key_bucket.resize(key_entries.size());
  int64_t sum = 0, in_bucket = 0;
  for (size_t k = 0; k < key_entries.size(); ++k) {
    b.key_bucket[k] = b.count();
    sum += key_entries[k], in_bucket += key_entries[k];
    if (in_bucket >= target || k + 1 == key_entries.size()) {
      b.row.push_back(int32_t(std::min<int64_t>(rows, int64_t(k + 1) << shift)));
      b.at.push_back(sum);
      in_bucket = 0;
    }
  }
  return b;
}

void append_pairs(const RowBuckets& buckets, const int32_t* a, int64_t na, const int32_t* b,
                  int64_t nb, std::vector<int64_t>& fill, int32_t* pairs) {
#ifdef _OPENMP
  const int slices = omp_get_max_threads();
#else
  const int slices = 1;
#endif
  const size_t count = size_t(buckets.count()), all = size_t(na + nb);
  std::vector<int64_t> cursor(size_t(slices) * count, 0);
  // each(pair) for the pairs [i0, i1) of a then b
  auto each_pair = [&](size_t i0, size_t i1, auto&& each) {
    for (const int32_t *e = a + 2 * std::min(i0, size_t(na)),
                       *end = a + 2 * std::min(i1, size_t(na));
         e < end; e += 2)
      each(e);
    for (const int32_t *e = b + 2 * (std::max(i0, size_t(na)) - size_t(na)),
                       *end = b + 2 * (std::max(i1, size_t(na)) - size_t(na));
         e < end; e += 2)
      each(e);
  };
#pragma omp parallel for schedule(static, 1)
  for (int t = 0; t < slices; ++t) {
    int64_t* c = cursor.data() + size_t(t) * count;
    each_pair(all * size_t(t) / size_t(slices), all * size_t(t + 1) / size_t(slices),
              [&](const int32_t* e) { ++c[buckets.bucket_of(e[0])]; });
  }
  for (size_t k = 0; k < count; ++k)
    for (int t = 0; t < slices; ++t) {
      const int64_t len = cursor[size_t(t) * count + k];
      cursor[size_t(t) * count + k] = fill[k], fill[k] += len;
    }
#pragma omp parallel for schedule(static, 1)
  for (int t = 0; t < slices; ++t) {
    int64_t* c = cursor.data() + size_t(t) * count;
    each_pair(all * size_t(t) / size_t(slices), all * size_t(t + 1) / size_t(slices),
              [&](const int32_t* e) {
                const int64_t k = c[buckets.bucket_of(e[0])]++;
                pairs[2 * k] = e[0], pairs[2 * k + 1] = e[1];
              });
  }
}

// R-MAT 22: 73 % of its entries lie in rows longer than 256; an LSD radix sort of 8 bits a pass
// over the bits of n - 1 sorts them about 4x faster than std::sort.
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

template <typename Offset>
void finish_rows(const RowBuckets& buckets, int32_t* pairs, int32_t n, bool unique,
                 std::vector<Offset>& offsets, std::vector<int32_t>& adj,
                 std::vector<int32_t>* counts) {
  BuildClock clock("finish");
  const int32_t nb = buckets.count(), rows = buckets.row.back();
  const int64_t* at = buckets.at.data();
  offsets.assign(size_t(rows) + 1, 0);  // row lengths (shifted by one), then their scan
  Offset* off = offsets.data();
  std::vector<int64_t> kept(size_t(nb), 0);  // entries kept in each bucket
  std::vector<int32_t> order(static_cast<size_t>(nb));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t x, int32_t y) { return at[x + 1] - at[x] > at[y + 1] - at[y]; });
  const bool multiplicities = counts != nullptr;
  ParallelErrors errors;
#pragma omp parallel
  {
    std::vector<int64_t> end;            // the bucket's row ends in `cols` after placing
    std::vector<int32_t> cols, scratch;  // its columns by row; the radix sort's buffer
#pragma omp for schedule(dynamic, 1)
    for (int32_t o = 0; o < nb; ++o)
      errors.run([&] {
        const int32_t b = order[size_t(o)], r0 = buckets.row[size_t(b)];
        const int32_t base = buckets.first + r0, len_rows = buckets.row[size_t(b) + 1] - r0;
        const int64_t len = at[b + 1] - at[b];
        int32_t* p = pairs + 2 * at[b];
        end.assign(size_t(len_rows), 0);
        for (int64_t i = 0; i < len; ++i) ++end[size_t(p[2 * i] - base)];
        std::partial_sum(end.begin(), end.end(), end.begin());
        if (cols.size() < size_t(len)) cols.resize(size_t(len));
        for (int64_t i = len - 1; i >= 0; --i)
          cols[size_t(--end[size_t(p[2 * i] - base)])] = p[2 * i + 1];
        // end[r] is now row r's start; the kept columns go over the pairs, multiplicities after
        int32_t *out = p, *mult = p + len;
        int64_t k = 0;
        for (int32_t r = 0; r < len_rows; ++r) {
          int32_t* rb = cols.data() + end[size_t(r)];
          int32_t* re = cols.data() + (r + 1 < len_rows ? end[size_t(r) + 1] : len);
          sort_row(rb, re, n, scratch);
          const int64_t k0 = k;
          for (const int32_t* q = rb; q != re; ++q) {
            if (unique && q != rb && *q == q[-1]) {
              if (multiplicities) ++mult[k - 1];
              continue;
            }
            out[k] = *q;
            if (multiplicities) mult[k] = 1;
            ++k;
          }
          off[size_t(r0 + r) + 1] = Offset(k - k0);
        }
        kept[size_t(b)] = k;
      });
  }
  errors.rethrow();
  clock.lap("buckets");
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  adj = std::vector<int32_t>(size_t(offsets.back()));
  if (counts) *counts = std::vector<int32_t>(adj.size());
  clock.lap("scan_alloc");
#pragma omp parallel for schedule(dynamic, 1)
  for (int32_t b = 0; b < nb; ++b) {
    const int32_t* p = pairs + 2 * at[b];
    const size_t to = size_t(off[buckets.row[size_t(b)]]);
    std::copy(p, p + kept[size_t(b)], adj.begin() + to);
    if (counts)
      std::copy(p + (at[b + 1] - at[b]), p + (at[b + 1] - at[b]) + kept[size_t(b)],
                counts->begin() + to);
  }
  clock.lap("copy");
}

template void finish_rows<int32_t>(const RowBuckets&, int32_t*, int32_t, bool,
                                   std::vector<int32_t>&, std::vector<int32_t>&,
                                   std::vector<int32_t>*);
template void finish_rows<int64_t>(const RowBuckets&, int32_t*, int32_t, bool,
                                   std::vector<int64_t>&, std::vector<int32_t>&,
                                   std::vector<int32_t>*);

}  // namespace lockstep::detail
