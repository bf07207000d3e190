// Generators: shapes, row lengths (hubs, blocks3d too), symmetry of the Laplacians, distinct
// columns, determinism per seed, R-MAT's parallel build against a serial one and across thread
// counts, and `lockstep gen` exit codes.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "lockstep/generators.hpp"
#include "lockstep/matrix_market.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {
void check_csr(const Csr<double>& a) {
  REQUIRE(a.row_ptr.size() == size_t(a.rows) + 1);
  for (int r = 0; r < a.rows; ++r)
    for (int k = a.row_ptr[r] + 1; k < a.row_ptr[r + 1]; ++k)
      REQUIRE(a.col_idx[k - 1] < a.col_idx[k]);
  for (int c : a.col_idx) REQUIRE((c >= 0 && c < a.cols));
}
}  // namespace

TEST_CASE("generator shapes") {
  auto l2 = gen::laplace2d(5);
  auto l3 = gen::laplace3d(4);
  auto u = gen::uniform(100, 7, 1);
  auto p = gen::powerlaw(1000, 1.8, 1);
  auto b = gen::banded(50, 2, 1);
  auto r = gen::rmat(8, 4, 1);

  CHECK(l2.rows == 25);
  CHECK(l2.nnz() == size_t(5 * 25 - 4 * 5));
  CHECK(l3.nnz() == size_t(7 * 64 - 6 * 16));
  CHECK(u.nnz() == 700);
  CHECK(b.nnz() == size_t(50 * 5 - 2 * 3));
  CHECK(row_stats(p).max > 5 * row_stats(p).mean);
  CHECK(r.rows == 256);
  for (auto* m : {&l2, &l3, &u, &p, &b, &r}) check_csr(*m);
  for (int i = 0; i < l2.rows; ++i)  // symmetric
    for (int k = l2.row_ptr[i]; k < l2.row_ptr[i + 1]; ++k) {
      int j = l2.col_idx[k];
      bool found = false;
      for (int q = l2.row_ptr[j]; q < l2.row_ptr[j + 1]; ++q) found |= l2.col_idx[q] == i;
      REQUIRE(found);
    }
}

TEST_CASE("hubs: a few long rows among short ones, blocks3d: runs of b adjacent columns") {
  auto h = gen::hubs(1000, 3, 4, 700, 1);
  auto f = gen::blocks3d(3, 3, 1);

  check_csr(h);
  check_csr(f);
  std::vector<int> lengths;
  for (int r = 0; r < h.rows; ++r) lengths.push_back(h.row_ptr[r + 1] - h.row_ptr[r]);
  CHECK(std::count(lengths.begin(), lengths.end(), 700) == 4);
  CHECK(std::count(lengths.begin(), lengths.end(), 3) == 996);
  CHECK(lengths[125] == 700);  // hub h at row (2h + 1) * n / (2 * hubs)
  CHECK(lengths[875] == 700);
  CHECK(f.rows == 81);
  CHECK(f.nnz() == size_t(9 * (7 * 27 - 6 * 9)));  // b^2 per coupling of the 3^3 stencil
  CHECK(f.row_ptr[1] - f.row_ptr[0] == 12);        // corner node: 4 couplings of 3 columns
  CHECK(f.row_ptr[40 + 1] - f.row_ptr[40] == 21);  // row of the centre node: 7 couplings
  CHECK_THROWS_AS(gen::hubs(10, 3, 11, 5, 1), input_error);
}

TEST_CASE("generators are deterministic per seed") {
  CHECK(gen::uniform(200, 5, 7).col_idx == gen::uniform(200, 5, 7).col_idx);
  CHECK(gen::uniform(200, 5, 7).col_idx != gen::uniform(200, 5, 8).col_idx);
  CHECK(gen::powerlaw(500, 2.0, 3).values == gen::powerlaw(500, 2.0, 3).values);
}

TEST_CASE("rmat: the parallel build equals a serial one, any block of edges draws alone") {
  const int32_t scale = 9, ef = 6;
  const int64_t m = int64_t(ef) << scale;
  const size_t count = size_t(m);
  std::vector<int32_t> from(count), to(count), f2(count), t2(count);
  gen::rmat_edges(scale, 5, 0, m, from.data(), to.data());
  gen::rmat_edges(scale, 5, 1000, m, f2.data() + 1000, t2.data() + 1000);  // two blocks
  gen::rmat_edges(scale, 5, 0, 1000, f2.data(), t2.data());
  std::map<std::pair<int32_t, int32_t>, int> serial;  // both directions, multiplicities
  for (size_t k = 0; k < from.size(); ++k) ++serial[{from[k], to[k]}], ++serial[{to[k], from[k]}];
  const Csr<double> a = gen::rmat(scale, ef, 5);
  std::map<std::pair<int32_t, int32_t>, int> built;
  for (int32_t r = 0; r < a.rows; ++r)
    for (int32_t k = a.row_ptr[size_t(r)]; k < a.row_ptr[size_t(r) + 1]; ++k)
      built[{r, a.col_idx[size_t(k)]}] = int(a.values[size_t(k)]);

  CHECK(f2 == from);
  CHECK(t2 == to);
  CHECK(*std::max_element(from.begin(), from.end()) < (1 << scale));
  check_csr(a);
  CHECK(built == serial);
  CHECK(row_stats(a).max > 8 * row_stats(a).mean);  // R-MAT's hubs
  CHECK(gen::rmat(scale, ef, 6).col_idx != a.col_idx);
}

TEST_CASE("rmat: lockstep gen with 1 and 3 threads gives a serial reference's graph") {
  // the reference: every edge both ways, std::sort, repeats counted; scale 14: several buckets
  const int32_t scale = 14, ef = 8;
  const int64_t m = int64_t(ef) << scale;
  std::vector<int32_t> from(static_cast<size_t>(m)), to(from.size());
  gen::rmat_edges(scale, 3, 0, m, from.data(), to.data());
  std::vector<std::pair<int32_t, int32_t>> both;
  for (size_t k = 0; k < from.size(); ++k)
    both.emplace_back(from[k], to[k]), both.emplace_back(to[k], from[k]);
  std::sort(both.begin(), both.end());
  std::vector<int32_t> row_ptr(size_t(1) << scale, 0), col_idx;
  row_ptr.push_back(0);
  std::vector<double> values;
  for (size_t i = 0; i < both.size(); ++i) {
    if (i > 0 && both[i] == both[i - 1]) {
      values.back() += 1;
      continue;
    }
    ++row_ptr[size_t(both[i].first) + 1], col_idx.push_back(both[i].second), values.push_back(1);
  }
  std::partial_sum(row_ptr.begin(), row_ptr.end(), row_ptr.begin());
  test::TempDir d;
  for (const char* threads : {"1", "3"}) {
    CAPTURE(threads);
    const std::string f = (d.path / (std::string(threads) + ".mtx")).string();
    std::string out;
    test::ScopedEnv env("OMP_NUM_THREADS", threads);
    REQUIRE(test::run_cli("gen rmat 14 8 --seed 3 -o " + f, out) == 0);
    const Csr<double> a = read_matrix_market<double>(f);
    CHECK(a.row_ptr == row_ptr);
    CHECK(a.col_idx == col_idx);
    CHECK(a.values == values);
  }
}

TEST_CASE("lockstep gen writes a file and rejects bad arguments with exit 2") {
  test::TempDir d;
  std::string f = (d.path / "l.mtx").string(), out;

  CHECK(test::run_cli("gen laplace2d 4 -o " + f, out) == 0);
  CHECK(read_matrix_market<double>(f).nnz() == 64);
  CHECK(test::run_cli("gen nosuchkind 4 -o " + f, out) == 2);
  CHECK(test::run_cli("gen uniform 4 -o " + f, out) == 2);
  CHECK(test::run_cli("gen uniform 4 x -o " + f, out) == 2);
  CHECK(test::run_cli("gen uniform 4 9 -o " + f, out) == 2);
}
