// Distributed CG's fixed costs apart and its scaling parts: the solve's time split into start,
// residual replacements and steady iterations (CgResult); the scalars' global sum overlapped
// with the halo exchange against a blocking MPI_Allreduce (mpi::Reduction); and the box
// partition of a generated grid (mpi::BlockGrid): a permutation of the Laplacian whose CG
// takes the natural numbering's iterations and whose halo per rank is below a slab's.
#include <chrono>
#include <cmath>
#include <lockstep/lockstep.hpp>
#include <set>

#include "mpi_support.hpp"

namespace lockstep {
namespace {

struct Solve {
  CgResult result;
  double true_residual = 0;  // ||b - A x|| / ||b||, computed anew
  double wall_ms = 0;        // around lockstep::cg
};

// CG on a distributed matrix, b = A*1; the true residual recomputed from x.
Solve solve(mpi::DistributedCsr<double>& dA, CgOptions opt, mpi::Reduction reduction) {
  mpi::DistributedSpace<double> space{dA, reduction};
  cl::CommandQueue& q = dA.queue();
  const int n = dA.local_rows();
  cl::Buffer one = dA.make_vector(), b = dA.make_vector(), x = dA.make_vector(),
             ax = dA.make_vector();
  if (n) fill<double>(q, one, n, 1.0);
  mpi::spmv(dA, one, b);
  Solve s;
  const auto t0 = std::chrono::steady_clock::now();
  s.result = lockstep::cg(space, b, x, opt);
  s.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  mpi::spmv(dA, x, ax);
  if (n) axpby<double>(q, n, 1.0, b, -1.0, ax);  // ax = b - A x
  s.true_residual = std::sqrt(mpi::dot<double>(dA.comm(), q, n, ax, ax) /
                              mpi::dot<double>(dA.comm(), q, n, b, b));
  return s;
}

mpi::DistributedCsr<double> scattered(const Csr<double>& a) {
  return mpi::DistributedCsr<double>::scatter(test::world(), test::rank_context().queue(), a);
}

mpi::DistributedCsr<double> boxes(int32_t side, std::array<int, 3> grid = {0, 0, 0}) {
  const auto g = mpi::BlockGrid::make(3, side, side, side, test::world_size(), grid);
  return mpi::DistributedCsr<double>(test::world(), test::rank_context().queue(), g.offsets,
                                     mpi::laplace_block(g, test::world_rank()));
}

mpi::DistributedCsr<double> slabs(int32_t side) {
  const auto offsets =
      mpi::partition_by_planes(side * side * side, side * side, test::world_size());
  const int me = test::world_rank();
  return mpi::DistributedCsr<double>(
      test::world(), test::rank_context().queue(), offsets,
      gen::laplace_rows(3, side, side, side, offsets[size_t(me)], offsets[size_t(me) + 1]));
}

int max_halo(const mpi::DistributedCsr<double>& a) {
  int h = a.halo_size();
  MPI_Allreduce(MPI_IN_PLACE, &h, 1, MPI_INT, MPI_MAX, test::world());
  return h;
}

}  // namespace

TEST_CASE("distributed pipelined cg: start, replacements and steady iterations sum to the solve") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  auto dA = scattered(gen::laplace2d(30));  // about 70 iterations to 1e-9
  CgOptions opt;
  opt.algorithm = CgAlgorithm::pipelined, opt.tol = 1e-9, opt.maxit = 1000;
  opt.replace_every = 10;
  const Solve s = solve(dA, opt, mpi::Reduction::overlapped);
  const CgResult& r = s.result;
  REQUIRE(r.converged);
  CHECK(r.replacements >= r.iterations / 10);
  CHECK(r.start_ms > 0);
  CHECK(r.replacement_ms > 0);
  CHECK(r.steady_ms() > 0);
  CHECK(r.start_ms + r.replacement_ms + r.steady_ms() == doctest::Approx(r.solve_ms));
  CHECK(r.solve_ms <= s.wall_ms);

  opt.algorithm = CgAlgorithm::classic;  // nothing timed apart: all of it steady
  const CgResult c = solve(dA, opt, mpi::Reduction::overlapped).result;
  REQUIRE(c.converged);
  CHECK(c.start_ms == 0);
  CHECK(c.replacement_ms == 0);
  CHECK(c.solve_ms > 0);
  CHECK(c.steady_ms() == c.solve_ms);
}

TEST_CASE("distributed cg: the overlapped reduction gives the blocking one's solve") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  for (const char* path : {"shm", "mpi"}) {
    test::ScopedEnv halo("LOCKSTEP_MPI_HALO", path);
    auto a = scattered(gen::laplace3d(10));
    for (CgAlgorithm alg : {CgAlgorithm::pipelined, CgAlgorithm::single_reduction}) {
      CgOptions opt;
      opt.algorithm = alg, opt.tol = 1e-9, opt.maxit = 1000;
      const Solve o = solve(a, opt, mpi::Reduction::overlapped);
      const Solve b = solve(a, opt, mpi::Reduction::blocking);
      CAPTURE(std::string(path));
      CAPTURE(to_string(alg));
      CHECK(o.result.converged);
      CHECK(b.result.converged);
      CHECK(std::abs(o.result.iterations - b.result.iterations) <= 1);
      CHECK(o.true_residual <= 1.01 * opt.tol);
      CHECK(b.true_residual <= 1.01 * opt.tol);
    }
  }
}

TEST_CASE("block grid: the ranks grid of fewest faces, and the box numbering is a permutation") {
  using G = mpi::BlockGrid;
  CHECK(G::make(3, 8, 8, 8, 2).p == std::array<int, 3>{1, 1, 2});  // a slab split, like planes
  CHECK(G::make(3, 8, 8, 8, 4).p == std::array<int, 3>{1, 2, 2});
  CHECK(G::make(3, 8, 8, 8, 8).p == std::array<int, 3>{2, 2, 2});
  CHECK(G::make(3, 8, 8, 32, 4).p == std::array<int, 3>{1, 1, 4});  // long in z: slabs
  CHECK(G::make(2, 8, 8, 1, 4).p == std::array<int, 3>{2, 2, 1});
  CHECK_THROWS_AS(G::make(3, 8, 8, 8, 4, {3, 1, 1}), input_error);
  CHECK_THROWS_AS(mpi::parse_ranks_grid("2x", "--partition"), input_error);
  CHECK(mpi::parse_ranks_grid("1x2x3", "t") == std::array<int, 3>{1, 2, 3});

  // 5 x 6 x 7 on 2 x 3 x 1: every point one row, and the blocks' rows are the Laplacian's,
  // renumbered (each natural row's column set maps onto the block row's).
  const G g = G::make(3, 5, 6, 7, 6, {2, 3, 1});
  REQUIRE(g.offsets.back() == 5 * 6 * 7);
  std::vector<int32_t> to_box(size_t(g.rows()));
  std::set<int32_t> seen;
  for (int32_t z = 0; z < 7; ++z)
    for (int32_t y = 0; y < 6; ++y)
      for (int32_t x = 0; x < 5; ++x)
        seen.insert(to_box[size_t((z * 6 + y) * 5 + x)] = g.index(x, y, z));
  CHECK(seen.size() == size_t(g.rows()));
  CHECK(*seen.rbegin() == g.offsets.back() - 1);
  const Csr<double> natural = gen::laplace_rows(3, 5, 6, 7, 0, 210);
  std::vector<std::set<std::pair<int32_t, double>>> want(size_t(g.rows())), got(size_t(g.rows()));
  for (int32_t r = 0; r < natural.rows; ++r)
    for (int32_t k = natural.row_ptr[size_t(r)]; k < natural.row_ptr[size_t(r) + 1]; ++k)
      want[size_t(to_box[size_t(r)])].insert(
          {to_box[size_t(natural.col_idx[size_t(k)])], natural.values[size_t(k)]});
  for (int rank = 0; rank < g.ranks(); ++rank) {
    const Csr<double> b = mpi::laplace_block(g, rank);
    REQUIRE(b.rows == g.offsets[size_t(rank) + 1] - g.offsets[size_t(rank)]);
    for (int32_t r = 0; r < b.rows; ++r)
      for (int32_t k = b.row_ptr[size_t(r)]; k < b.row_ptr[size_t(r) + 1]; ++k)
        got[size_t(g.offsets[size_t(rank)] + r)].insert(
            {b.col_idx[size_t(k)], b.values[size_t(k)]});
  }
  CHECK(got == want);
}

TEST_CASE("distributed cg on boxes: one device's iterations, a smaller halo than slabs") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  const int32_t side = 12;
  CgOptions opt;
  opt.algorithm = CgAlgorithm::pipelined, opt.tol = 1e-9, opt.maxit = 1000;
  // One device (this rank's), the natural numbering.
  Context& ctx = test::rank_context();
  DeviceCsr<double> one(ctx.queue(), gen::laplace3d(side));
  const int32_t n = one.rows();
  cl::Buffer ones = upload(ctx.queue(), std::vector<double>(size_t(n), 1.0)),
             b = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(n) * sizeof(double)),
             x = make_buffer(ctx.context(), CL_MEM_READ_WRITE, size_t(n) * sizeof(double));
  spmv<double>(ctx.queue(), one, ones, b);
  const CgResult single = lockstep::cg<double>(ctx.queue(), one, b, x, opt);
  REQUIRE(single.converged);

  auto box = boxes(side);
  auto slab = slabs(side);
  for (CgAlgorithm alg : {CgAlgorithm::pipelined, CgAlgorithm::classic}) {
    opt.algorithm = alg;
    const CgResult reference =
        alg == CgAlgorithm::pipelined ? single : lockstep::cg<double>(ctx.queue(), one, b, x, opt);
    const Solve d = solve(box, opt, mpi::Reduction::overlapped);
    CAPTURE(to_string(alg));
    CHECK(d.result.converged);
    CHECK(std::abs(d.result.iterations - reference.iterations) <= 1);
    CHECK(d.true_residual <= 1.01 * opt.tol);
  }
  const int p = test::world_size();
  CAPTURE(p);
  // 2 and 3 ranks: the boxes are slabs; 4: 1 x 2 x 2, a rank's halo two half-planes, not two
  // planes.
  if (p >= 4)
    CHECK(max_halo(box) < max_halo(slab));
  else
    CHECK(max_halo(box) == max_halo(slab));
  if (p == 4) {  // a ranks grid given: 2 x 2 x 1 is 1 x 2 x 2 turned, the same halo
    auto turned = boxes(side, {2, 2, 1});
    CHECK(max_halo(turned) == max_halo(box));
    opt.algorithm = CgAlgorithm::pipelined;
    const Solve d = solve(turned, opt, mpi::Reduction::overlapped);
    CHECK(std::abs(d.result.iterations - single.iterations) <= 1);
    CHECK(d.true_residual <= 1.01 * opt.tol);
  }
}

}  // namespace lockstep
