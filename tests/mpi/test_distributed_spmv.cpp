// Distributed SpMV against the single-process SpMV and the CPU reference on random, banded and
// power-law matrices, on the nonzero-balanced split and on splits with an empty rank (rank 0,
// the root, among them) and rows whose columns all live on other ranks. Also the row split
// itself, the halo lists, the timeline's order and the failure agreement; both halo paths
// (LOCKSTEP_MPI_HALO: shared memory between ranks of one host, MPI messages) over many
// exchanges in a row.
#include <chrono>
#include <random>
#include <thread>

#include "lockstep/blas1.hpp"
#include "lockstep/generators.hpp"
#include "mpi_support.hpp"

namespace lockstep {
namespace {

// Row i has columns (i + n/2) mod n and (i + n/2 + 1) mod n: with a block split into 2 or 3
// parts every column of most rows lives on another rank.
Csr<double> far_columns(int32_t n) {
  Csr<double> a;
  a.rows = a.cols = n;
  for (int32_t i = 0; i < n; ++i) {
    int32_t c0 = (i + n / 2) % n, c1 = (i + n / 2 + 1) % n;
    for (int32_t c : {std::min(c0, c1), std::max(c0, c1)})
      a.col_idx.push_back(c), a.values.push_back(1.0 + i % 5);
    a.row_ptr.push_back(int32_t(a.col_idx.size()));
  }
  return a;
}

// Distributed y = A x gathered on root, checked there against the reference and against the
// single-process device SpMV.
void check_spmv(const Csr<double>& a, std::vector<int32_t> offsets = {}) {
  Context& ctx = test::rank_context();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> x(size_t(a.cols));
  for (auto& v : x) v = u(rng);
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a, offsets);
  cl::Buffer dx = test::upload_local(dA, x), dy = dA.make_vector();

  mpi::spmv(dA, dx, dy);
  std::vector<double> y =
      mpi::gather_vector(dA, download<double>(ctx.queue(), dy, size_t(dA.local_rows())));

  if (test::world_rank() != 0) return;
  std::vector<double> want = spmv_reference(a, x, x, 1.0, 0.0), single(size_t(a.rows));
  DeviceCsr<double> whole(ctx.queue(), a);
  spmv<double>(ctx.queue(), whole, x, single);
  std::vector<double> tol(want.size()), scale(want.size());
  for (int32_t r = 0; r < a.rows; ++r) {
    double s = 0;
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      s += std::fabs(a.values[size_t(k)] * x[size_t(a.col_idx[size_t(k)])]);
    tol[size_t(r)] = tolerance<double>(size_t(a.row_ptr[r + 1] - a.row_ptr[r]) + 1);
    scale[size_t(r)] = std::max(s, 1e-30);
  }
  test::check_close(y, want, tol, scale);
  test::check_close(single, std::vector<double>(y.begin(), y.end()), tol, scale);
}

std::vector<int32_t> empty_first(int32_t rows) {  // rank 0 owns nothing, the rest split evenly
  const int p = test::world_size();
  std::vector<int32_t> o(size_t(p) + 1, 0);
  for (int q = 1; q <= p; ++q)
    o[size_t(q)] = p == 1 ? rows : int32_t(int64_t(rows) * (q - 1) / (p - 1));
  return o;
}

}  // namespace

TEST_CASE("partition_by_nnz balances nonzeros and tolerates more parts than rows") {
  Csr<double> a = gen::powerlaw(300, 1.5, 3);

  std::vector<int32_t> o = mpi::partition_by_nnz(a.row_ptr, 4),
                       tiny = mpi::partition_by_nnz({0, 5, 9}, 5);

  REQUIRE(o.size() == 5);
  CHECK(o.front() == 0);
  CHECK(o.back() == 300);
  for (int p = 0; p < 4; ++p) {
    CHECK(o[size_t(p)] <= o[size_t(p) + 1]);
    CHECK(a.row_ptr[size_t(o[size_t(p)])] <= int64_t(a.nnz()) * (p + 1) / 4 + 1);
  }
  CHECK(tiny ==
        std::vector<int32_t>{0, 1, 1, 1, 2, 2});  // a block starts where its share of nonzeros does
}

TEST_CASE("distributed spmv equals single-process spmv on random, banded and power-law matrices") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  check_spmv(gen::uniform(997, 7, 5));
  check_spmv(gen::banded(1201, 4, 6));
  check_spmv(gen::powerlaw(1500, 1.6, 7));
  check_spmv(gen::powerlaw(1500, 1.6, 7), empty_first(1500));
  check_spmv(far_columns(401));
  check_spmv(far_columns(401), empty_first(401));
  check_spmv(gen::banded(2, 1, 1));                      // fewer rows than ranks at -np 3
  test::ScopedEnv mpi_only("LOCKSTEP_MPI_HALO", "mpi");  // the same through MPI messages
  check_spmv(gen::powerlaw(1500, 1.6, 7), empty_first(1500));
  check_spmv(far_columns(401));
}

// x_{k+1} = A x_k / 4 for 12 SpMVs through `path`, every other one's exchange started early
// (as pipelined CG does), the last rank late to some, against the same on the CPU; the halo
// flags count 12 exchanges.
void check_chain(const char* path, const Csr<double>& a, std::vector<int32_t> offsets = {}) {
  test::ScopedEnv halo("LOCKSTEP_MPI_HALO", path);
  Context& ctx = test::rank_context();
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a, offsets);
  const bool shm = std::string(path) != "mpi";
  CHECK(dA.shared_neighbours() == (shm ? dA.neighbours() : 0));  // one host: every neighbour
  std::vector<double> x(size_t(a.rows));
  for (size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + double(i % 7) / 8;
  cl::Buffer v[2] = {test::upload_local(dA, x), dA.make_vector()};
  std::vector<double> want = x, tol(x.size(), tolerance<double>(64)), scale(x.size(), 1.0);
  for (int k = 0; k < 12; ++k) {
    cl::Buffer &in = v[k % 2], &out = v[(k + 1) % 2];
    // The last rank lags now and then: its neighbours run ahead and wait for its flags.
    if (k % 3 == 0 && test::world_rank() == test::world_size() - 1)
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    if (k % 2) mpi::start_exchange(dA, in);
    mpi::spmv(dA, in, out);
    if (dA.local_rows()) axpby<double>(ctx.queue(), dA.local_rows(), 0.0, out, 0.25, out);
    want = spmv_reference(a, want, want, 0.25, 0.0);
  }
  std::vector<double> got =
      mpi::gather_vector(dA, download<double>(ctx.queue(), v[0], size_t(dA.local_rows())));
  if (test::world_rank() == 0) test::check_close(got, want, tol, scale);
}

TEST_CASE("both halo paths, shared memory and MPI, over 12 exchanges in a row") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  for (const char* path : {"shm", "mpi", "shm-plain"}) {
    CAPTURE(path);
    check_chain(path, gen::banded(1201, 4, 6));
    check_chain(path, far_columns(401), empty_first(401));  // rank 0 holds no rows
  }
}

TEST_CASE("LOCKSTEP_MPI_HALO: an unknown value is the same error on every rank") {
  test::ScopedEnv halo("LOCKSTEP_MPI_HALO", "pigeon");
  Context& ctx = test::rank_context();
  CHECK_THROWS_WITH_AS(
      mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), gen::banded(60, 1, 1)),
      "rank 0: LOCKSTEP_MPI_HALO is auto, shm, shm-plain or mpi, not 'pigeon'",
      mpi::collective_error);
}

TEST_CASE("halo lists, row order and timeline of a banded matrix") {
  if (!test::rank_context().info().fp64) return test::skip("the device has no fp64");
  Context& ctx = test::rank_context();
  const int p = test::world_size(), me = test::world_rank();
  Csr<double> a = gen::banded(3000, 2, 9);
  auto dA = mpi::DistributedCsr<double>::scatter(test::world(), ctx.queue(), a);
  cl::Buffer x = test::upload_local(dA, std::vector<double>(3000, 1.0)), y = dA.make_vector();
  mpi::SpmvTimeline t;

  mpi::spmv(dA, x, y, &t);

  const int edges = (me > 0) + (me < p - 1);  // a band of width 2 touches 2 rows of each neighbour
  CHECK(dA.halo_size() == 2 * edges);
  CHECK(dA.send_volume() == size_t(2 * edges));
  CHECK(dA.neighbours() == edges);
  CHECK(dA.local_rows() - dA.interior_rows() == 2 * edges);
  for (int32_t l = 1; l < dA.interior_rows(); ++l)
    CHECK(dA.global_rows_of_local()[size_t(l)] > dA.global_rows_of_local()[size_t(l) - 1]);
  CHECK(t.interior_end >= t.interior_start);
  CHECK(t.boundary_end >= t.boundary_start);
  if (edges) {
    CHECK(t.download_end >= t.pack_end);
    CHECK(t.upload_end >= t.upload_start);
    CHECK(t.boundary_start >= t.upload_end - 1e-3);  // the boundary rows wait for the halo
  }
}

TEST_CASE("a failure on the last rank reaches every rank as the same error") {
  const int p = test::world_size(), me = test::world_rank();
  std::string message;
  int code = 0;

  try {
    mpi::collective(test::world(), [&] {
      if (me == p - 1) throw input_error("bad.mtx:3: broken line");
    });
  } catch (const mpi::collective_error& e) {
    message = e.what(), code = e.exit_code();
  }

  CHECK(message == "rank " + std::to_string(p - 1) + ": bad.mtx:3: broken line");
  CHECK(code == 1);
  CHECK_NOTHROW(mpi::collective(test::world(), [] {}));
}

}  // namespace lockstep
