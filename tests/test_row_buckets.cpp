// The bucketed CSR finishing (graph/row_buckets.hpp) against a serial reference
// (std::sort of the pairs, then unique with multiplicities): keys of several rows, buckets much
// smaller than the default (one key each, or a few), rows that are empty or hold one hub, a row
// range that does not start at 0 (a rank's rows), 32- and 64-bit offsets, with and without
// de-duplication; and build_rows (rows.hpp) on the same pairs.
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "graph/row_buckets.hpp"
#include "graph/rows.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

using Pairs = std::vector<std::pair<int32_t, int32_t>>;

// rows [first, first + rows) over columns [0, n): skewed rows (a hub at `first`, every 7th row
// empty), many repeats
Pairs draw_pairs(int32_t first, int32_t rows, int32_t n, size_t count, uint64_t seed) {
  std::mt19937_64 g(seed);
  Pairs p(count);
  for (auto& [r, c] : p) {
    const uint64_t x = g();
    r = first + (x % 5 == 0 ? 0 : int32_t((x >> 8) % uint64_t(rows)) / (x % 3 == 0 ? 64 : 1));
    if ((r - first) % 7 == 3) --r;  // every 7th row empty
    c = int32_t((x >> 40) % uint64_t(x % 2 == 0 ? 50 : n));
  }
  return p;
}

template <typename Offset>
void check_against_serial(Pairs p, int32_t first, int32_t rows, int32_t n, bool unique,
                          int64_t target) {
  const int shift = 2;  // keys of 4 rows
  std::vector<int64_t> key_entries(size_t((rows - 1) >> shift) + 1, 0);
  for (const auto& e : p) ++key_entries[size_t((e.first - first) >> shift)];
  const detail::RowBuckets b = detail::make_buckets(first, rows, shift, key_entries, target);
  REQUIRE(b.count() > 8);
  std::vector<int32_t> stage(2 * p.size());
  std::vector<int64_t> end(b.at.begin() + 1, b.at.end());
  for (const auto& e : p) {  // any order within a bucket: filled from its end here
    const int64_t k = --end[size_t(b.bucket_of(e.first))];
    stage[size_t(2 * k)] = e.first, stage[size_t(2 * k + 1)] = e.second;
  }
  std::vector<Offset> offsets;
  std::vector<int32_t> adj, counts;
  detail::finish_rows(b, stage.data(), n, unique, offsets, adj, &counts);

  std::sort(p.begin(), p.end());
  std::vector<Offset> want_off(size_t(rows) + 1, 0);
  std::vector<int32_t> want_adj, want_counts;
  for (size_t i = 0; i < p.size(); ++i) {
    if (unique && i > 0 && p[i] == p[i - 1]) {
      ++want_counts.back();
      continue;
    }
    ++want_off[size_t(p[i].first - first) + 1];
    want_adj.push_back(p[i].second), want_counts.push_back(1);
  }
  for (size_t v = 0; v < size_t(rows); ++v) want_off[v + 1] += want_off[v];
  CHECK(offsets == want_off);
  CHECK(adj == want_adj);
  CHECK(counts == want_counts);
}

}  // namespace

TEST_CASE("row buckets: finish_rows equals std::sort + unique (tiny buckets, keys of 4 rows)") {
  const int32_t n = 70000;  // long rows take the radix sort over 17 bits
  check_against_serial<int32_t>(draw_pairs(0, 3000, n, 60000, 1), 0, 3000, n, true, 1);
  check_against_serial<int64_t>(draw_pairs(4096, 2999, n, 60000, 2), 4096, 2999, n, true, 500);
  check_against_serial<int64_t>(draw_pairs(32, 1001, n, 20000, 3), 32, 1001, n, false, 700);
}

TEST_CASE("build_rows: both directions, unique, counts equal std::sort + unique") {
  const int32_t n = 1 << 17;  // 2^17 rows: keys of 2 rows
  const Pairs p = draw_pairs(0, n, n, 300000, 4);
  std::vector<int32_t> offsets, adj, counts;
  detail::build_rows(
      n, int64_t(p.size()), true, true,
      [&](int64_t b, int64_t e, int32_t* from, int32_t* to) {
        for (int64_t k = b; k < e; ++k)
          from[k - b] = p[size_t(k)].first, to[k - b] = p[size_t(k)].second;
      },
      offsets, adj, &counts);
  Pairs both = p;
  for (const auto& [u, v] : p) both.emplace_back(v, u);
  std::sort(both.begin(), both.end());
  std::vector<int32_t> want_off(size_t(n) + 1, 0), want_adj, want_counts;
  for (size_t i = 0; i < both.size(); ++i) {
    if (i > 0 && both[i] == both[i - 1]) {
      ++want_counts.back();
      continue;
    }
    ++want_off[size_t(both[i].first) + 1];
    want_adj.push_back(both[i].second), want_counts.push_back(1);
  }
  for (size_t v = 0; v < size_t(n); ++v) want_off[v + 1] += want_off[v];
  CHECK(offsets == want_off);
  CHECK(adj == want_adj);
  CHECK(counts == want_counts);
}
