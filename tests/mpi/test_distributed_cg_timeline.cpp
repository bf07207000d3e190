// Pipelined CG's iteration timeline (an observer, CgOptions::observer) on a distributed fused
// solve: the requested number of sampled iterations, and times in the order the queues and
// the host impose (in-order main queue: interior, boundary, pack, the next interior launch; each
// part's sums read on a queue of its own, behind its launch; the downloads wait for the pack, the
// uploads follow the downloads; the host steps in program order), whatever the speed of the
// device. Off the fused path: no samples.
#include <lockstep/lockstep.hpp>

#include "mpi_support.hpp"

namespace lockstep {
namespace {

CgResult timed_cg(CgOptions opt) {
  Context& ctx = test::rank_context();
  const Csr<double> a = gen::laplace2d(30);  // about 70 iterations to 1e-9
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a);
  mpi::DistributedSpace<double> space{dA};
  cl::Buffer one = test::upload_local(dA, std::vector<double>(size_t(a.rows), 1.0)),
             b = dA.make_vector(), x = dA.make_vector();
  mpi::spmv(dA, one, b);
  opt.tol = 1e-9, opt.maxit = 1000;
  return lockstep::cg(space, b, x, opt);
}

}  // namespace

TEST_CASE("distributed pipelined cg: the iteration timeline samples fused iterations in order") {
  if (!test::rank_context().info().fp64) {
    return test::skip("the device has no fp64");
  }
  CgIterationTimeline t;
  t.first = 5, t.samples = 4;
  CgOptions opt;
  opt.algorithm = CgAlgorithm::pipelined;
  const auto watch = iteration_timeline(t);
  opt.observer = watch.get();
  const CgResult res = timed_cg(opt);
  REQUIRE(res.converged);
  REQUIRE(res.iterations > t.first + t.samples);
  CHECK(t.first == 5);
  CHECK(t.samples == 4);
  if (!res.spmv_fused) {  // a GPU that runs this SpMV otherwise: nothing to sample
    CHECK(t.sampled == 0);
    return;
  }
  CHECK(t.sampled == 4);
  // device, from the interior launch's start
  CHECK(t.interior_queued >= 0);
  CHECK(t.interior_end >= 0);
  CHECK(t.boundary_start >= t.interior_end);
  CHECK(t.boundary_end >= t.boundary_start);
  // each part's sums read behind it (on a queue of their own)
  CHECK(t.sums_start >= t.interior_end);
  CHECK(t.sums_end >= t.boundary_end);
  CHECK(t.pack_start >= t.boundary_end);
  CHECK(t.pack_end >= t.pack_start);
  CHECK(t.download_start >= t.pack_end);
  CHECK(t.download_end >= t.download_start);
  CHECK(t.upload_start >= t.download_start);  // a neighbour's halo, sent after its own pack
  CHECK(t.upload_end >= t.upload_start);
  CHECK(t.sums_end >= t.sums_start);
  CHECK(t.next_start >= t.pack_end);
  CHECK(t.device_gap >= 0);
  CHECK(t.device_gap == doctest::Approx(t.next_start - t.pack_end));
  // host, from the update's entry
  CHECK(t.host_halo >= 0);
  CHECK(t.host_exchange >= t.host_halo);
  CHECK(t.host_sums >= t.host_exchange);
  CHECK(t.host_reduction >= t.host_sums);
  CHECK(t.host_next >= t.host_reduction);

  CgIterationTimeline late;  // past the solve: nothing sampled
  late.first = 100000;
  const auto watch_late = iteration_timeline(late);
  opt.observer = watch_late.get();
  timed_cg(opt);
  CHECK(late.sampled == 0);
  CHECK(late.device_gap == 0);
}

// Any CgObserver watches the fused distributed iteration: each iteration entered, one finish;
// off that path it is never called.
TEST_CASE("distributed pipelined cg: an observer of one's own sees every fused iteration") {
  if (!test::rank_context().info().fp64) {
    MESSAGE("skipped: the device has no fp64");
    return;
  }
  struct Counting : CgObserver {
    int entered = 0, finished = 0, last = -1;
    bool ordered = true;
    void enter(int k) override { ordered = ordered && k > last, last = k, ++entered; }
    void finish() override { ++finished; }
  } counting;
  CgOptions opt;
  opt.algorithm = CgAlgorithm::pipelined;
  opt.observer = &counting;
  const CgResult res = timed_cg(opt);
  REQUIRE(res.converged);
  CHECK(counting.finished == (res.spmv_fused ? 1 : 0));
  if (res.spmv_fused) {
    CHECK(counting.entered >= 1);  // each update launched
    CHECK(counting.entered <= res.iterations);
    CHECK(counting.ordered);
  } else {
    CHECK(counting.entered == 0);
  }
}

}  // namespace lockstep
