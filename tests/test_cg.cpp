// lockstep::cg, the library's conjugate-gradient solver, against a CPU CG in double (the same
// iteration: iteration counts within one, the same solution), through the Context& + host
// vector entry point; and the breakdowns (indefinite, zero, NaN matrix) reported, never a NaN.
#include <cmath>

#include "lockstep/cg.hpp"
#include "lockstep/generators.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

// The CPU reference: the same CG in double.
std::vector<double> cpu_cg(const Csr<double>& A, const std::vector<double>& b, double tol,
                           int& its) {
  const size_t n = b.size();
  std::vector<double> x(n, 0), r = b, p = r;
  auto dotp = [](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
    return s;
  };
  double bb = std::sqrt(dotp(b, b)), rr = dotp(r, r);
  for (its = 0; its < 10 * int(n) && std::sqrt(rr) / bb > tol; ++its) {
    std::vector<double> Ap = spmv_reference(A, p, p, 1.0, 0.0);
    const double alpha = rr / dotp(p, Ap);
    for (size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * Ap[i];
    const double rr_new = dotp(r, r);
    for (size_t i = 0; i < n; ++i) p[i] = r[i] + rr_new / rr * p[i];
    rr = rr_new;
  }
  return x;
}

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

}  // namespace

TEST_CASE("cg: lockstep::cg matches a CPU CG on laplace2d") {
  Context& ctx = test::context();
  if (!ctx.info().fp64) return;
  const Csr<double> A = gen::laplace2d(24);
  const std::vector<double> b = spmv_reference(A, std::vector<double>(size_t(A.rows), 1.0),
                                               std::vector<double>{}, 1.0, 0.0);
  DeviceCsr<double> dA(ctx, A);
  std::vector<double> x;
  const CgResult r = cg(ctx, dA, b, x, {1e-10});
  int cpu_its = 0;
  const std::vector<double> xc = cpu_cg(A, b, 1e-10, cpu_its);
  CHECK(r.converged);
  CHECK(r.breakdown.empty());
  CHECK(std::abs(r.iterations - cpu_its) <= 1);
  REQUIRE(x.size() == xc.size());
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(std::abs(x[i] - xc[i]) <= 1e-7);
  CHECK_THROWS_AS(cg(ctx, dA, std::vector<double>(3, 1.0), x), input_error);
}

TEST_CASE("cg: an indefinite, zero or NaN matrix is a breakdown with a reason, not a NaN") {
  Context& ctx = test::context();
  if (!ctx.info().fp64) return;
  const std::vector<double> ones(6, 1.0);
  struct Case {
    std::vector<double> diag;
    const char* reason;
  };
  for (const Case& c : {Case{{1, -1, 1, -1, 1, -1}, "not positive definite"},
                        Case{{0, 0, 0, 0, 0, 0}, "not positive definite"},
                        Case{{1, 2, NAN, 1, 2, 3}, "NaN"}}) {
    DeviceCsr<double> dA(ctx, diagonal(c.diag));
    std::vector<double> x;
    const CgResult r = cg(ctx, dA, ones, x, {1e-10});
    CAPTURE(c.reason);
    CHECK_FALSE(r.converged);
    CHECK(r.breakdown.find(c.reason) != std::string::npos);
    CHECK(r.iterations == 0);
  }
}
