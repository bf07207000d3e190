// Distributed CG (lockstep::cg in mpi::DistributedSpace) against the same CG on
// one device: the same number of iterations within one, the same final residual, and a
// solution close to the exact one (b = A*1), on 2D and 3D Laplacians and with an empty rank,
// through both halo paths (shared memory between the ranks of this host, and MPI).
#include <cmath>

#include <lockstep/lockstep.hpp>
#include "mpi_support.hpp"

namespace lockstep {
namespace {

struct Solved {
  CgResult result;
  std::vector<double> x;  // gathered on root
};

Solved distributed_cg(const Csr<double>& a, std::vector<int32_t> offsets, double tol,
                      CgOptions opt = {}) {
  Context& ctx = test::rank_context();
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a, offsets);
  mpi::DistributedSpace<double> space{dA};
  std::vector<double> ones(size_t(a.rows), 1.0);
  cl::Buffer one = test::upload_local(dA, ones), b = dA.make_vector(), x = dA.make_vector();
  mpi::spmv(dA, one, b);
  Solved s;
  opt.tol = tol, opt.maxit = 10 * a.rows;
  s.result = lockstep::cg(space, b, x, opt);
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

// Distributed CG with `opt` against single-process classic CG: iterations within `slack`
// (1 for the same algorithm; pipelined and classic differ by rounding: 2).
void check_cg(const Csr<double>& a, std::vector<int32_t> offsets = {}, CgOptions opt = {},
              int slack = 1) {
  const double tol = 1e-9;

  Solved d = distributed_cg(a, offsets, tol, opt);
  CgResult s = single_cg(a, tol);

  CHECK(d.result.converged);
  CHECK(s.converged);
  CHECK(std::abs(d.result.iterations - s.iterations) <= slack);
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
  std::vector<int32_t> empty_last(size_t(test::world_size()) + 1, 900);
  for (int q = 0; q < test::world_size(); ++q)
    empty_last[size_t(q)] = std::min(900, 900 * q / std::max(1, test::world_size() - 1));
  for (const char* path : {"shm", "mpi"}) {
    CAPTURE(path);
    test::ScopedEnv halo("LOCKSTEP_MPI_HALO", path);
    check_cg(gen::laplace2d(30));
    check_cg(gen::laplace2d(30), empty_last);
  }
  check_cg(gen::laplace3d(9));
}

TEST_CASE("distributed pipelined cg (Jacobi too) takes classic cg's iterations within two") {
  if (!test::rank_context().info().fp64) return;
  CgOptions pipelined;
  pipelined.algorithm = CgAlgorithm::pipelined;
  CgOptions jacobi = pipelined;
  jacobi.preconditioner = Preconditioner::jacobi;  // constant diagonal: the same iterates
  std::vector<int32_t> empty_last(size_t(test::world_size()) + 1, 900);
  for (int q = 0; q < test::world_size(); ++q)
    empty_last[size_t(q)] = std::min(900, 900 * q / std::max(1, test::world_size() - 1));
  for (const CgOptions& o : {pipelined, jacobi}) {
    check_cg(gen::laplace2d(30), {}, o, 2);
    check_cg(gen::laplace3d(9), {}, o, 2);
    check_cg(gen::laplace2d(30), empty_last, o, 2);  // a rank with no rows
  }
  test::ScopedEnv halo("LOCKSTEP_MPI_HALO", "mpi");  // the reduction overlaps MPI's exchange too
  check_cg(gen::laplace3d(9), {}, pipelined, 2);
  check_cg(gen::laplace2d(30), empty_last, pipelined, 2);
}

TEST_CASE("distributed Jacobi: a non-positive diagonal on one rank stops every rank") {
  if (!test::rank_context().info().fp64) return;
  Csr<double> a = gen::laplace2d(12);
  for (int32_t k = a.row_ptr[143]; k < a.row_ptr[144]; ++k)  // the last row: the last rank's
    if (a.col_idx[size_t(k)] == 143) a.values[size_t(k)] = -4;
  CgOptions o;
  o.preconditioner = Preconditioner::jacobi;
  try {
    distributed_cg(a, {}, 1e-9, o);
    FAIL("no error");
  } catch (const mpi::collective_error& e) {
    CHECK(std::string(e.what()).find("row 143 is not positive") != std::string::npos);
  }
}

}  // namespace lockstep
