// lockstep::cg, the library's conjugate-gradient solver, through the Context& + host-vector entry
// point: b = A*1 solved to the exact solution by classic and pipelined CG, with and without
// Jacobi (the CLI test in test_tune_cg.cpp compares the iteration count with the CLI's CPU CG);
// pipelined (with its SpMV inside the update kernel, and apart) takes classic's iterations
// within two; Jacobi cuts the iterations of a badly
// scaled matrix; breakdowns (indefinite, zero, NaN matrix) are reported with a reason, never
// as a NaN; Jacobi refuses a non-positive diagonal.
#include <cmath>
#include <map>
#include <random>

#include "lockstep/cg.hpp"
#include "lockstep/generators.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

Csr<double> diagonal(const std::vector<double>& d) {
  Csr<double> a;
  a.rows = a.cols = int32_t(d.size());
  for (size_t i = 0; i < d.size(); ++i) {
    a.col_idx.push_back(int32_t(i));
    a.values.push_back(d[i]);
    a.row_ptr.push_back(int32_t(i + 1));
  }
  return a;
}

// A random symmetric, strictly diagonally dominant matrix (SPD) with rows of 1..9 entries.
Csr<double> random_spd(int32_t n) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> col(0, n - 1);
  std::uniform_real_distribution<double> val(-1, 1);
  std::vector<std::map<int32_t, double>> rows{size_t(n)};
  for (int32_t r = 0; r < n; ++r)
    for (int k = 0; k < 4; ++k) {
      const int32_t c = col(rng);
      if (c == r) continue;
      const double v = val(rng);
      rows[size_t(r)][c] += v, rows[size_t(c)][r] += v;
    }
  Csr<double> a;
  a.rows = a.cols = n;
  for (int32_t r = 0; r < n; ++r) {
    double off = 0;
    for (auto& [c, v] : rows[size_t(r)]) off += std::abs(v);
    rows[size_t(r)][r] = off + 0.1;
    for (auto& [c, v] : rows[size_t(r)]) a.col_idx.push_back(c), a.values.push_back(v);
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}

// S A S with S = diag(s), s in [1, 30]: SPD, and a diagonal that Jacobi can fix.
Csr<double> badly_scaled(Csr<double> a) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, std::log(30.0));
  std::vector<double> s(size_t(a.rows));
  for (double& v : s) v = std::exp(u(rng));
  for (int32_t r = 0; r < a.rows; ++r)
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      a.values[size_t(k)] *= s[size_t(r)] * s[size_t(a.col_idx[size_t(k)])];
  return a;
}

CgOptions options(CgAlgorithm a, Preconditioner p, bool fuse = true) {
  CgOptions o;
  o.tol = 1e-10, o.algorithm = a, o.preconditioner = p, o.fuse_spmv = fuse;
  return o;
}

// Solves A x = A*1 and checks x against 1; returns the result.
CgResult solve(Context& ctx, const Csr<double>& A, const CgOptions& o) {
  const std::vector<double> b =
      spmv_reference(A, std::vector<double>(size_t(A.rows), 1.0), std::vector<double>{}, 1.0, 0.0);
  DeviceCsr<double> dA(ctx, A);
  std::vector<double> x;
  const CgResult r = cg(ctx, dA, b, x, o);
  CAPTURE(to_string(o.algorithm));
  CAPTURE(to_string(o.preconditioner));
  CAPTURE(o.fuse_spmv);
  // The SpMV runs inside pipelined CG's update exactly when the matrix's SpMV is one row per item.
  CHECK(r.spmv_fused == (o.algorithm == CgAlgorithm::pipelined && o.fuse_spmv &&
                         dA.automatic_config().row_per_item()));
  CHECK(r.converged);
  CHECK(r.breakdown.empty());
  CHECK(r.residuals.size() == size_t(r.iterations) + 1);
  REQUIRE(x.size() == b.size());
  double err = 0;
  for (double v : x) err = std::max(err, std::abs(v - 1.0));
  CHECK(err <= 1e-6);
  return r;
}

}  // namespace

TEST_CASE("cg: classic and pipelined, with and without Jacobi, solve to the exact solution") {
  Context& ctx = test::context();
  if (!ctx.info().fp64) return test::skip("no fp64 on this device");
  // Pipelined takes classic's iterations within two on the test matrices (Laplacians, a random
  // SPD matrix); on a badly scaled one (cond ~ 1e6) rounding costs it a few per cent more.
  // Pipelined runs twice: its SpMV inside the update kernel where it can, and as its own launch.
  int fused = 0;
  // laplace2d 100 is large enough for GPUs to predict one row per work-item (CPUs always do).
  for (const Csr<double>& A :
       {gen::laplace2d(24), gen::laplace3d(10), random_spd(700), gen::laplace2d(100)}) {
    // a: classic, pipelined, pipelined with a separate SpMV, single-reduction
    const CgAlgorithm algs[4] = {CgAlgorithm::classic, CgAlgorithm::pipelined,
                                 CgAlgorithm::pipelined, CgAlgorithm::single_reduction};
    int its[4][2];
    for (int a = 0; a < 4; ++a)
      for (int p = 0; p < 2; ++p) {
        const CgResult r = solve(ctx, A, options(algs[a], Preconditioner(p), a != 2));
        its[a][p] = r.iterations;
        fused += r.spmv_fused;
      }
    CAPTURE(A.rows);
    for (int a = 1; a < 4; ++a) {
      CAPTURE(a);
      CHECK(std::abs(its[a][0] - its[0][0]) <= 2);
      CHECK(std::abs(its[a][1] - its[0][1]) <= 2);
    }
  }
  CHECK(fused > 0);
  const Csr<double> S = badly_scaled(gen::laplace3d(10));
  const int plain = solve(ctx, S, options(CgAlgorithm::classic, Preconditioner::none)).iterations;
  const int piped = solve(ctx, S, options(CgAlgorithm::pipelined, Preconditioner::none)).iterations;
  const int jacobi =
      solve(ctx, S, options(CgAlgorithm::pipelined, Preconditioner::jacobi)).iterations;
  const int single =
      solve(ctx, S, options(CgAlgorithm::single_reduction, Preconditioner::none)).iterations;
  const int single_jacobi =
      solve(ctx, S, options(CgAlgorithm::single_reduction, Preconditioner::jacobi)).iterations;
  CHECK(std::abs(piped - plain) <= plain / 20);
  CHECK(std::abs(single - plain) <= plain / 20);
  CHECK(jacobi < plain / 4);  // Jacobi undoes the scaling
  CHECK(single_jacobi < plain / 4);
  DeviceCsr<double> dA(ctx, gen::laplace2d(4));
  std::vector<double> x;
  CHECK_THROWS_AS(cg(ctx, dA, std::vector<double>(3, 1.0), x), input_error);
}

TEST_CASE("cg: an indefinite, zero or NaN matrix is a breakdown with a reason, not a NaN" *
          doctest::test_suite("portable")) {
  Context& ctx = test::context();
  if (!ctx.info().fp64) return test::skip("no fp64 on this device");
  const std::vector<double> ones(6, 1.0);
  struct Case {
    std::vector<double> diag;
    const char* reason;
  };
  for (CgAlgorithm alg :
       {CgAlgorithm::classic, CgAlgorithm::pipelined, CgAlgorithm::single_reduction})
    for (const Case& c :
         {Case{{1, -1, 1, -1, 1, -1}, "not positive definite"},
          Case{{0, 0, 0, 0, 0, 0}, "not positive definite"}, Case{{1, 2, NAN, 1, 2, 3}, "NaN"}}) {
      DeviceCsr<double> dA(ctx, diagonal(c.diag));
      std::vector<double> x;
      const CgResult r = cg(ctx, dA, ones, x, options(alg, Preconditioner::none));
      CAPTURE(c.reason);
      CAPTURE(to_string(alg));
      CHECK_FALSE(r.converged);
      CHECK(r.breakdown.find(c.reason) != std::string::npos);
      CHECK(r.iterations == 0);
    }
  DeviceCsr<double> dA(ctx, diagonal({1, 2, -3, 4}));
  std::vector<double> x;
  CHECK_THROWS_WITH_AS(cg(ctx, dA, std::vector<double>(4, 1.0), x,
                          options(CgAlgorithm::classic, Preconditioner::jacobi)),
                       doctest::Contains("row 2 is not positive"), input_error);
}

TEST_CASE("cg: pipelined in float converges like classic") {
  Context& ctx = test::context();
  const Csr<float> A = gen::laplace2d(16).cast<float>();
  std::vector<float> b(size_t(A.rows));
  const std::vector<double> b64 =
      spmv_reference(A, std::vector<float>(size_t(A.rows), 1.0f), std::vector<float>{}, 1.0, 0.0);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(b64[i]);
  DeviceCsr<float> dA(ctx, A);
  std::vector<float> x1, x2;
  CgOptions o = options(CgAlgorithm::classic, Preconditioner::none);
  o.tol = 1e-5;
  const CgResult c = cg(ctx, dA, b, x1, o);
  o.algorithm = CgAlgorithm::pipelined;
  const CgResult p = cg(ctx, dA, b, x2, o);
  CHECK(c.converged);
  CHECK(p.converged);
  CHECK(std::abs(c.iterations - p.iterations) <= 2);
  for (size_t i = 0; i < x2.size(); ++i) REQUIRE(std::abs(x2[i] - 1.0f) <= 1e-3f);
}

namespace {
// ||b - A x|| / ||b||, in double on the host.
template <typename T>
double true_residual(const Csr<T>& A, const std::vector<T>& b, const std::vector<T>& x) {
  const std::vector<double> ax = spmv_reference(A, x, std::vector<T>{}, 1.0, 0.0);
  double rr = 0, bb = 0;
  for (size_t i = 0; i < b.size(); ++i) rr += (double(b[i]) - ax[i]) * (double(b[i]) - ax[i]);
  for (T v : b) bb += double(v) * double(v);
  return std::sqrt(rr / bb);
}
Csr<double> laplace1d(int32_t n) {
  Csr<double> a;
  a.rows = a.cols = n;
  for (int32_t r = 0; r < n; ++r) {
    for (int32_t c = std::max(0, r - 1); c <= std::min(n - 1, r + 1); ++c)
      a.col_idx.push_back(c), a.values.push_back(c == r ? 2.0 : -1.0);
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}
// Solves A x = b (b random) and checks that a converged result has a true residual within tol:
// float pipelined CG broke down at iteration 100 (its residual replacement) on laplace2d_64.
template <typename T>
void solve_past_100(Context& ctx, const Csr<double>& A64, CgAlgorithm alg, bool fuse, double tol,
                    bool must_converge) {
  const Csr<T> A = A64.cast<T>();
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  std::vector<T> b(size_t(A.rows)), x;
  for (T& v : b) v = T(g(rng));
  DeviceCsr<T> dA(ctx, A);
  CgOptions o = options(alg, Preconditioner::none, fuse);
  o.tol = tol;
  const CgResult r = cg(ctx, dA, b, x, o);
  CAPTURE(sizeof(T));
  CAPTURE(to_string(alg));
  CAPTURE(fuse);
  CAPTURE(A.rows);
  CAPTURE(r.breakdown);
  CAPTURE(r.fallback);
  CHECK(r.breakdown.empty());
  if (must_converge) {
    CHECK(r.converged);
    CHECK(r.iterations > 100);
  }
  // Converged means the true residual is below tol (the device's rounding aside).
  if (r.converged) CHECK(true_residual(A, b, x) <= 1.5 * tol);
}
}  // namespace

TEST_CASE(
    "cg: past 100 iterations in float and double, converged means a true residual below tol") {
  Context& ctx = test::context();
  const Csr<double> lap2d = gen::laplace2d(64);  // 4096 rows: about 120 iterations in double
  for (CgAlgorithm alg :
       {CgAlgorithm::classic, CgAlgorithm::pipelined, CgAlgorithm::single_reduction})
    for (bool fuse : {true, false}) {
      if (alg != CgAlgorithm::pipelined && !fuse) continue;
      solve_past_100<float>(ctx, lap2d, alg, fuse, 1e-5, true);
      if (ctx.info().fp64) solve_past_100<double>(ctx, lap2d, alg, fuse, 1e-10, true);
    }
  // A 1-D Laplacian of 2000 rows (condition ~1.6e6): float pipelined CG's recurrences diverge
  // there; it must end converged with a true residual, or honestly not converged.
  solve_past_100<float>(ctx, laplace1d(2000), CgAlgorithm::pipelined, true, 1e-5, false);
  solve_past_100<float>(ctx, laplace1d(2000), CgAlgorithm::classic, true, 1e-5, false);
  solve_past_100<float>(ctx, laplace1d(2000), CgAlgorithm::single_reduction, true, 1e-5, false);
}

// Double pipelined CG doubles its replacement period while a replacement finds the true residual
// where the recursive one is: laplace2d 150 to 1e-10 (classic's 314 iterations) replaces at 100,
// 300 and on convergence, not every 100 (4 times); the iterations and the true residual stay.
TEST_CASE("cg: double pipelined replaces its residual less often while it stays accurate") {
  Context& ctx = test::context();
  if (!ctx.info().fp64) return test::skip("the device has no fp64");
  const Csr<double> A = gen::laplace2d(150);
  DeviceCsr<double> dA(ctx, A);
  const std::vector<double> b =  // A*1, as the CLI's
      spmv_reference(A, std::vector<double>(size_t(A.rows), 1.0), std::vector<double>{}, 1.0, 0.0);
  std::vector<double> x, xc;
  CgOptions o = options(CgAlgorithm::pipelined, Preconditioner::none);
  o.tol = 1e-10;
  const CgResult r = cg(ctx, dA, b, x, o);
  o.algorithm = CgAlgorithm::classic;
  const CgResult c = cg(ctx, dA, b, xc, o);
  REQUIRE(r.converged);
  REQUIRE(c.converged);
  CAPTURE(r.iterations);
  CHECK(std::abs(r.iterations - c.iterations) <= 2);
  CHECK(r.iterations > 300);
  CHECK(r.replacements < r.iterations / 100 + 1);
  CHECK(true_residual(A, b, x) <= 1.5e-10);
}

TEST_CASE("cg: a float tol below float's attainable accuracy stops early as stagnation") {
  // laplace2d_64 with b = ones: float's true residual stays near 1.9e-5 while the recursive one
  // goes below 1e-5; each convergence check restarted the iteration, up to maxit (40960).
  Context& ctx = test::context();
  const Csr<float> A = gen::laplace2d(64).cast<float>();
  DeviceCsr<float> dA(ctx, A);
  const std::vector<float> b(size_t(A.rows), 1.0f);
  for (CgAlgorithm alg :
       {CgAlgorithm::classic, CgAlgorithm::pipelined, CgAlgorithm::single_reduction}) {
    CgOptions o = options(alg, Preconditioner::none);
    o.tol = 1e-5;
    std::vector<float> x;
    const CgResult r = cg(ctx, dA, b, x, o);
    CAPTURE(to_string(alg));
    CAPTURE(r.iterations);
    CAPTURE(r.stagnation);
    CHECK(r.breakdown.empty());
    if (r.converged) {  // a rounding that happens to reach tol is fine, stated as converged
      CHECK(true_residual(A, b, x) <= 1.5e-5);
      continue;
    }
    CHECK(r.iterations < A.rows);  // not 10 n
    CHECK(r.stagnation.find("stagnation") != std::string::npos);
    CHECK(r.stagnation.find("double") != std::string::npos);
    CHECK(true_residual(A, b, x) < 1e-4);
    CHECK(true_residual(A, b, x) <= 1.5 * r.residuals.back());  // x: the best check's
  }
  // double reaches the same tol without a stagnation
  if (!ctx.info().fp64) return;
  DeviceCsr<double> dA64(ctx, gen::laplace2d(64));
  std::vector<double> x64;
  CgOptions o = options(CgAlgorithm::classic, Preconditioner::none);
  o.tol = 1e-5;
  const CgResult r = cg(ctx, dA64, std::vector<double>(size_t(A.rows), 1.0), x64, o);
  CHECK(r.converged);
  CHECK(r.stagnation.empty());
}
