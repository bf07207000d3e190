// `mpirun -np P lockstep spmv FILE --distributed [--repeat N] [--verify]`: times the distributed
// SpMV (each rank's interior and boundary parts use the configuration `auto` picks for them);
// x[g] = 1 + (g mod 17)/16. A repeat's time is the slowest rank's; the median is reported.
// With --verify, rank 0 gathers y and checks it against the CPU reference in double.
#include <algorithm>
#include <chrono>

#include "distributed.hpp"
#include "mpi/driver.hpp"

namespace lockstep::cli {
namespace {

template <typename T>
int run(const po::variables_map& vm, MPI_Comm comm) {
  const int me = mpi::rank(comm), ranks = mpi::size(comm);
  const std::string file = vm["file"].as<std::string>();
  auto ctx = rank_context<T>(comm, vm);
  Csr<T> global = root_matrix<T>(comm, file);
  auto A = mpi::DistributedCsr<T>::scatter(comm, ctx->queue(), global);
  cl::CommandQueue& q = ctx->queue();
  const int n = A.local_rows();
  std::vector<T> xl(static_cast<size_t>(n));
  for (int l = 0; l < n; ++l)
    xl[size_t(l)] = T(1 + (A.global_rows_of_local()[size_t(l)] % 17) / 16.0);
  cl::Buffer x = A.make_vector(), y = A.make_vector();
  if (n)
    check(q.enqueueWriteBuffer(x, CL_TRUE, 0, size_t(n) * sizeof(T), xl.data()),
          "clEnqueueWriteBuffer");
  for (int w = 0; w < 2; ++w) mpi::spmv(A, x, y);  // warm-up
  std::vector<double> times;
  for (int r = 0; r < vm["repeat"].as<int>(); ++r) {
    check(q.finish(), "clFinish");
    MPI_Barrier(comm);
    auto t0 = std::chrono::steady_clock::now();
    mpi::spmv(A, x, y);
    check(q.finish(), "clFinish");
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, comm);
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  const double median = times.empty() ? 0.0 : times[times.size() / 2];
  const bool verify = vm.count("verify") > 0;
  std::vector<T> yg = mpi::gather_vector(A, download<T>(q, y, size_t(n)));
  long long halo = A.halo_size();
  MPI_Allreduce(MPI_IN_PLACE, &halo, 1, MPI_LONG_LONG, MPI_SUM, comm);
  int verified = 1;
  double max_rel = 0;
  if (me == 0 && verify) {
    std::vector<T> xg(size_t(global.cols));
    for (int32_t g = 0; g < global.cols; ++g) xg[size_t(g)] = T(1 + (g % 17) / 16.0);
    std::vector<double> want = spmv_reference(global, xg, xg, 1.0, 0.0);
    for (int32_t r = 0; r < global.rows; ++r) {
      double scale = 0;
      for (int32_t k = global.row_ptr[r]; k < global.row_ptr[r + 1]; ++k)
        scale += std::fabs(double(global.values[size_t(k)]) *
                           double(xg[size_t(global.col_idx[size_t(k)])]));
      size_t terms = size_t(global.row_ptr[r + 1] - global.row_ptr[r]) + 1;
      max_rel = std::max(
          max_rel, relative_error(double(yg[size_t(r)]), want[size_t(r)], std::max(scale, 1e-30)));
      if (!close(double(yg[size_t(r)]), want[size_t(r)], tolerance<T>(terms),
                 std::max(scale, 1e-30)))
        verified = 0;
    }
  }
  MPI_Bcast(&verified, 1, MPI_INT, 0, comm);
  if (me != 0) return verify && !verified ? 1 : 0;
  const double bytes = spmv_min_bytes(A.global_rows(), A.global_rows(), global.nnz(), sizeof(T));
  KeyValues kv;
  kv.add("matrix", file)
      .add("device", ctx->info().name)
      .add("precision", sizeof(T) == 8 ? "double" : "float");
  kv.add("kernel", A.interior().automatic_config().str())
      .add("rows", A.global_rows())
      .add("nnz", global.nnz());
  kv.add("median_ms", median).add("gflops", 2.0 * double(global.nnz()) / (median * 1e6));
  kv.add("gbs", bytes / (median * 1e6)).add("halo", halo);
  if (verify) kv.add("max_rel_err", max_rel).add("verified", verified);
  kv.add("ranks", ranks);
  std::cout << kv.str() << "\n";
  return verify && !verified ? 1 : 0;
}

}  // namespace

int distributed_spmv(const po::variables_map& vm) {
  for (const char* o : {"wg-bits", "rows-bits", "shuffle"})
    if (vm.count(o))
      throw usage_error(std::string("--") + o + " is not available with --distributed");
  if (vm["kernel"].as<std::string>() != "auto")
    throw usage_error("--kernel is not available with --distributed");
  return run_distributed("spmv", [&](MPI_Comm comm) {
    return with_precision(vm, [&](auto t) { return run<decltype(t)>(vm, comm); });
  });
}

}  // namespace lockstep::cli
