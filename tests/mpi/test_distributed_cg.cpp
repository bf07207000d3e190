// Distributed CG (lockstep::cg in mpi::DistributedSpace) against the same CG on
// one device: the same number of iterations within one, the same final residual, and a
// solution close to the exact one (b = A*1), on 2D and 3D Laplacians and with an empty rank.
#include <cmath>

#include <lockstep/lockstep.hpp>
#include "mpi_support.hpp"

namespace lockstep {
namespace {

struct Solved {
  CgResult result;
  std::vector<double> x;  // gathered on root
};

Solved distributed_cg(const Csr<double>& a, std::vector<int32_t> offsets, double tol) {
  Context& ctx = test::rank_context();
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a, offsets);
  mpi::DistributedSpace<double> space{dA};
  std::vector<double> ones(size_t(a.rows), 1.0);
  cl::Buffer one = test::upload_local(dA, ones), b = dA.make_vector(), x = dA.make_vector();
  mpi::spmv(dA, one, b);
  Solved s;
  s.result = lockstep::cg(space, b, x, {tol, 10 * a.rows});
  s.x = mpi::gather_vector(dA, download<double>(ctx.queue(), x, size_t(dA.local_rows())));
  return s;
}

CgResult single_cg(const Csr<double>& a, double tol) {
  Context& ctx = test::rank_context();
  DeviceCsr<double> dA(ctx.queue(), a);
  std::vector<double> b =
      spmv_reference(a, std::vector<double>(size_t(a.rows), 1.0), std::vector<double>{}, 1.0, 0.0);
  cl::Buffer db = upload(ctx.queue(), b),
             dx = make_buffer(ctx.context(), CL_MEM_READ_WRITE, b.size() * sizeof(double));
  return lockstep::cg<double>(ctx, dA, db, dx, {tol, 10 * a.rows});
}

void check_cg(const Csr<double>& a, std::vector<int32_t> offsets = {}) {
  const double tol = 1e-9;

  Solved d = distributed_cg(a, offsets, tol);
  CgResult s = single_cg(a, tol);

  CHECK(d.result.converged);
  CHECK(s.converged);
  CHECK(std::abs(d.result.iterations - s.iterations) <= 1);
  CHECK(d.result.residuals.back() <= tol);
  CHECK(s.residuals.back() <= tol);
  CHECK(d.result.residuals.back() / s.residuals.back() == doctest::Approx(1.0).epsilon(0.9));
  if (test::world_rank() == 0) {
    double err = 0;
    for (double v : d.x) err = std::max(err, std::fabs(v - 1));
    CHECK(err < 1e-5);
  }
}

}  // namespace

TEST_CASE("distributed cg takes the iterations of single-process cg, within one") {
  if (!test::rank_context().info().fp64) return;
  check_cg(gen::laplace2d(30));
  check_cg(gen::laplace3d(9));
  std::vector<int32_t> empty_last(size_t(test::world_size()) + 1, 900);
  for (int q = 0; q < test::world_size(); ++q)
    empty_last[size_t(q)] = std::min(900, 900 * q / std::max(1, test::world_size() - 1));
  check_cg(gen::laplace2d(30), empty_last);
}

}  // namespace lockstep
