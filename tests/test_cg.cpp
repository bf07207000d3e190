// lockstep::cg, the library's conjugate-gradient solver, through the Context& + host-vector entry
// point: b = A*1 solved to the exact solution (the CLI test in test_tune_cg.cpp compares the
// iteration count with the CLI's CPU CG); and the breakdowns (indefinite, zero, NaN matrix)
// reported with a reason, never as a NaN.
#include <cmath>

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

}  // namespace

TEST_CASE("cg: lockstep::cg solves laplace2d to the exact solution") {
  Context& ctx = test::context();
  if (!ctx.info().fp64) return;
  const Csr<double> A = gen::laplace2d(24);
  const std::vector<double> b = spmv_reference(A, std::vector<double>(size_t(A.rows), 1.0),
                                               std::vector<double>{}, 1.0, 0.0);
  DeviceCsr<double> dA(ctx, A);
  std::vector<double> x;
  const CgResult r = cg(ctx, dA, b, x, {1e-10});
  CHECK(r.converged);
  CHECK(r.breakdown.empty());
  CHECK(r.iterations > 10);
  CHECK(r.residuals.size() == size_t(r.iterations) + 1);
  REQUIRE(x.size() == b.size());
  for (size_t i = 0; i < x.size(); ++i) REQUIRE(std::abs(x[i] - 1.0) <= 1e-7);
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
