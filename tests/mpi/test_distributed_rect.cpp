// Distributed y = A x and y = A^T x for m x n matrices (rows and columns partitioned
// independently: what LSQR-type solvers need), against the CPU reference in double: tall,
// wide, fewer rows than ranks (a rank with no rows) and fewer columns than ranks (a rank with
// no columns); square matrices through spmv_transpose too.
#include <random>

#include "lockstep/generators.hpp"
#include "mpi_support.hpp"

namespace lockstep {
namespace {

Csr<double> random_rect(int32_t m, int32_t n, int per_row, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> col(0, n - 1);
  std::uniform_real_distribution<double> val(-1, 1);
  Csr<double> a;
  a.rows = m, a.cols = n;
  for (int32_t r = 0; r < m; ++r) {
    std::vector<int32_t> cols;
    for (int k = 0; k < per_row; ++k) cols.push_back(col(rng));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int32_t c : cols) a.col_idx.push_back(c), a.values.push_back(val(rng));
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}

// y = op(A) x distributed, gathered on root, against the reference.
void check(const Csr<double>& a, bool transpose) {
  Context& ctx = test::rank_context();
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a);
  const mpi::Layout in = transpose ? mpi::Layout::rows : mpi::Layout::cols;
  const mpi::Layout out = transpose ? mpi::Layout::cols : mpi::Layout::rows;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(size_t(transpose ? a.rows : a.cols));
  for (double& v : x) v = u(rng);
  cl::Buffer dx = test::upload_local(dA, x, in), dy = dA.make_vector();
  if (transpose)
    mpi::spmv_transpose(dA, dx, dy);
  else
    mpi::spmv(dA, dx, dy);
  const size_t out_n = size_t(transpose ? dA.local_cols() : dA.local_rows());
  std::vector<double> y = mpi::gather_vector(dA, download<double>(ctx.queue(), dy, out_n), 0, out);
  if (test::world_rank() != 0) return;
  const size_t m = size_t(transpose ? a.cols : a.rows);
  std::vector<double> want(m, 0.0), scale(m, 1e-30), tol(m, tolerance<double>(64));
  for (int32_t r = 0; r < a.rows; ++r)
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const int32_t c = a.col_idx[size_t(k)];
      const size_t i = size_t(transpose ? c : r);
      const double t = a.values[size_t(k)] * x[size_t(transpose ? r : c)];
      want[i] += t, scale[i] += std::fabs(t);
    }
  REQUIRE(y.size() == m);
  test::check_close(y, want, tol, scale);
}

}  // namespace

TEST_CASE("distributed spmv and spmv_transpose on m x n matrices") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  struct Shape {
    int32_t m, n;
  };
  for (Shape s : {Shape{400, 130}, Shape{130, 400}, Shape{2, 90}, Shape{90, 2}, Shape{1033, 320}})
    for (bool transpose : {false, true}) {
      CAPTURE(s.m);
      CAPTURE(s.n);
      CAPTURE(transpose);
      check(random_rect(s.m, s.n, 6, unsigned(s.m * 7 + s.n)), transpose);
    }
  check(gen::laplace2d(20), true);  // square: x and y share one layout
}

}  // namespace lockstep
