// Distributed CG (lockstep::cg in mpi::DistributedSpace) against the same CG on
// one device: the same number of iterations within one, the same final residual, and a
// solution close to the exact one (b = A*1), on 2D and 3D Laplacians and with an empty rank,
// through both halo paths (shared memory between the ranks of this host, and MPI).
#include <cmath>
#include <lockstep/lockstep.hpp>

#include "mpi_support.hpp"

namespace lockstep {
namespace {

template <typename T = double>
struct Solved {
  CgResult result;
  std::vector<T> x;  // gathered on root (one device: the solution)
};

template <typename T = double>
Solved<T> distributed_cg(const Csr<double>& a64, std::vector<int32_t> offsets, double tol,
                         CgOptions opt = {}) {
  Context& ctx = test::rank_context();
  const Csr<T> a = a64.cast<T>();
  auto dA = mpi::DistributedCsr<T>::scatter(test::world(), ctx.queue(), a, offsets);
  mpi::DistributedSpace<T> space{dA};
  std::vector<T> ones(size_t(a.rows), T(1));
  cl::Buffer one = test::upload_local(dA, ones), b = dA.make_vector(), x = dA.make_vector();
  mpi::spmv(dA, one, b);
  Solved<T> s;
  opt.tol = tol, opt.maxit = 10 * a.rows;
  s.result = lockstep::cg(space, b, x, opt);
  s.x = mpi::gather_vector(dA, download<T>(ctx.queue(), x, size_t(dA.local_rows())));
  return s;
}

// The same solve (b = A*1 on the device, `opt`) on this rank's device alone.
template <typename T>
Solved<T> one_device_cg(const Csr<double>& a64, double tol, CgOptions opt) {
  Context& ctx = test::rank_context();
  DeviceCsr<T> dA(ctx.queue(), a64.cast<T>());
  cl::Buffer one = upload(ctx.queue(), std::vector<T>(size_t(a64.rows), T(1))),
             b = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(a64.rows) * sizeof(T)),
             x = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(a64.rows) * sizeof(T));
  lockstep::spmv<T>(ctx.queue(), dA, one, b);
  opt.tol = tol, opt.maxit = 10 * a64.rows;
  Solved<T> s;
  s.result = lockstep::cg<T>(ctx.queue(), dA, b, x, opt);
  s.x = download<T>(ctx.queue(), x, size_t(a64.rows));
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

  Solved<> d = distributed_cg(a, offsets, tol, opt);
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
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
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
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
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
  CgOptions separate = jacobi;  // the SpMV apart, the update split around its exchange
  separate.fuse_spmv = false;
  check_cg(gen::laplace2d(30), empty_last, separate, 2);
  test::ScopedEnv halo("LOCKSTEP_MPI_HALO", "mpi");  // the reduction overlaps MPI's exchange too
  check_cg(gen::laplace3d(9), {}, pipelined, 2);
  check_cg(gen::laplace2d(30), empty_last, pipelined, 2);
  check_cg(gen::laplace3d(9), {}, separate, 2);
}

TEST_CASE("distributed Jacobi: a non-positive diagonal on one rank stops every rank") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
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

namespace {

// Every algorithm, fp32 and fp64, past 100 iterations (laplace2d 80: about 120 in float to
// 1e-5, more in double to 1e-9): the distributed solve against the same algorithm on one device,
// for the nnz-balanced partition and one whose last rank holds no rows (pipelined on a CPU: its
// SpMV fused into the update, on every rank count); converged, the iterations
// within `slack` (rounding: the sums add in another order), the solution within the tolerance's
// reach of the exact one and of the one-device solution.
template <typename T>
void check_against_one_device(const Csr<double>& a, CgAlgorithm alg, Preconditioner pre) {
  const double tol = sizeof(T) == 8 ? 1e-9 : 1e-5;
  const double reach = sizeof(T) == 8 ? 1e-5 : 5e-2;  // cond(laplace2d 80) ~ 2.6e3 times tol
  CgOptions opt;
  opt.algorithm = alg, opt.preconditioner = pre;
  const Solved<T> one = one_device_cg<T>(a, tol, opt);
  const int p = test::world_size();
  std::vector<int32_t> empty_last(size_t(p) + 1, a.rows);
  for (int q = 0; q < p; ++q)
    empty_last[size_t(q)] = int32_t(int64_t(a.rows) * q / std::max(1, p - 1));
  for (const std::vector<int32_t>& offsets : {std::vector<int32_t>{}, empty_last}) {
    const Solved<T> d = distributed_cg<T>(a, offsets, tol, opt);
    CAPTURE(sizeof(T));
    CAPTURE(to_string(alg));
    CAPTURE(to_string(pre));
    CAPTURE(offsets.size());
    CAPTURE(d.result.breakdown);
    CHECK(one.result.converged);
    CHECK(d.result.converged);
    CHECK(d.result.iterations > 100);
    const int slack = sizeof(T) == 8 ? 2 : std::max(4, one.result.iterations / 10);
    CHECK(std::abs(d.result.iterations - one.result.iterations) <= slack);
    CHECK(d.result.residuals.back() <= tol);
    if (alg == CgAlgorithm::pipelined && !test::rank_context().info().is_gpu()) {
      // CPUs run every SpMV one row per work-item: the update computes it, on one device and on
      // every rank count (the boundary rows, the exchange, the interior rows).
      CHECK(one.result.spmv_fused);
      CHECK(d.result.spmv_fused);
    }
    if (test::world_rank() != 0) continue;
    REQUIRE(d.x.size() == one.x.size());
    double to_exact = 0, to_one = 0;
    for (size_t i = 0; i < d.x.size(); ++i) {
      to_exact = std::max(to_exact, std::fabs(double(d.x[i]) - 1));
      to_one = std::max(to_one, std::fabs(double(d.x[i]) - double(one.x[i])));
    }
    CHECK(to_exact < reach);
    CHECK(to_one < reach);
  }
}

// The same bits on every run: the reductions add in a fixed order for a given rank count.
template <typename T>
void check_deterministic(const Csr<double>& a, CgAlgorithm alg) {
  CgOptions opt;
  opt.algorithm = alg;
  const Solved<T> first = distributed_cg<T>(a, {}, 1e-8, opt);
  const Solved<T> second = distributed_cg<T>(a, {}, 1e-8, opt);
  CAPTURE(to_string(alg));
  CHECK(first.result.iterations == second.result.iterations);
  CHECK(first.result.residuals == second.result.residuals);
  CHECK(first.x == second.x);
}

}  // namespace

TEST_CASE(
    "distributed single-reduction and classic cg, fp32 and fp64, past 100 iterations: "
    "the one-device solve, a rank without rows, the same bits every run") {
  const Csr<double> a = gen::laplace2d(80);
  for (CgAlgorithm alg : {CgAlgorithm::single_reduction, CgAlgorithm::classic})
    check_against_one_device<float>(a, alg, Preconditioner::none);
  check_against_one_device<float>(a, CgAlgorithm::pipelined, Preconditioner::none);
  check_deterministic<float>(gen::laplace2d(30), CgAlgorithm::single_reduction);
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  for (CgAlgorithm alg :
       {CgAlgorithm::single_reduction, CgAlgorithm::classic, CgAlgorithm::pipelined})
    check_against_one_device<double>(a, alg, Preconditioner::none);
  check_against_one_device<double>(a, CgAlgorithm::single_reduction, Preconditioner::jacobi);
  check_deterministic<double>(gen::laplace2d(30), CgAlgorithm::single_reduction);
  test::ScopedEnv halo("LOCKSTEP_MPI_HALO", "mpi");  // the exchange through MPI messages
  check_against_one_device<double>(a, CgAlgorithm::single_reduction, Preconditioner::none);
}

}  // namespace lockstep
