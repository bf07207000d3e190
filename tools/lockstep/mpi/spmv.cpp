// `mpirun -np P lockstep spmv FILE --distributed [--transpose] [--repeat N] [--verify]`: times
// the distributed SpMV y = A x, or y = A^T x with --transpose, for any m x n matrix (each rank's
// parts use the configuration `auto` picks for them); x[g] = 1 + (g mod 17)/16. A repeat's
// time is the slowest rank's; the median is reported. With --verify, rank 0 gathers y and
// checks it against the CPU reference in double.
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
  const std::string partition = partition_of(vm, file);
  const bool verify = vm.count("verify") > 0;
  auto ctx = rank_context<T>(comm, vm);
  Csr<T> global;  // rank 0's whole matrix, with --verify
  auto A = distributed_matrix<T>(comm, ctx->queue(), file, partition, verify ? &global : nullptr);
  unsigned long long nnz = A.local_nnz();
  MPI_Allreduce(MPI_IN_PLACE, &nnz, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  cl::CommandQueue& q = ctx->queue();
  const bool transpose = vm.count("transpose") > 0;
  const std::vector<int32_t>& in_global =
      transpose ? A.global_rows_of_local() : A.global_cols_of_local();
  const int n = int(in_global.size()), out_n = transpose ? A.local_cols() : A.local_rows();
  std::vector<T> xl(static_cast<size_t>(n));
  for (int l = 0; l < n; ++l) xl[size_t(l)] = T(1 + (in_global[size_t(l)] % 17) / 16.0);
  cl::Buffer x = A.make_vector(), y = A.make_vector();
  if (n)
    check(q.enqueueWriteBuffer(x, CL_TRUE, 0, size_t(n) * sizeof(T), xl.data()),
          "clEnqueueWriteBuffer");
  auto product = [&] {
    if (transpose)
      mpi::spmv_transpose(A, x, y);
    else
      mpi::spmv(A, x, y);
  };
  for (int w = 0; w < 2; ++w) product();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < vm["repeat"].as<int>(); ++r) {
    check(q.finish(), "clFinish");
    MPI_Barrier(comm);
    auto t0 = std::chrono::steady_clock::now();
    product();
    check(q.finish(), "clFinish");
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, comm);
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  const double median = times.empty() ? 0.0 : times[times.size() / 2];
  const mpi::Layout out = transpose ? mpi::Layout::cols : mpi::Layout::rows;
  std::vector<T> yg = mpi::gather_vector(A, download<T>(q, y, size_t(out_n)), 0, out);
  const long long halo = print_partition(A, 10);
  int verified = 1;
  double max_rel = 0;
  if (me == 0 && verify) {
    // y and the scale of each y entry (sum of |a x| terms), in double, in global order.
    const int32_t m = transpose ? global.cols : global.rows;
    std::vector<double> want(size_t(m), 0.0), scale(size_t(m), 0.0);
    std::vector<size_t> terms(size_t(m), 1);
    auto xv = [](int32_t g) { return 1 + (g % 17) / 16.0; };
    for (int32_t r = 0; r < global.rows; ++r)
      for (int32_t k = global.row_ptr[r]; k < global.row_ptr[r + 1]; ++k) {
        const int32_t c = global.col_idx[size_t(k)], i = transpose ? c : r, j = transpose ? r : c;
        const double t = double(global.values[size_t(k)]) * double(T(xv(j)));
        want[size_t(i)] += t, scale[size_t(i)] += std::fabs(t), ++terms[size_t(i)];
      }
    for (int32_t i = 0; i < m; ++i) {
      const double sc = std::max(scale[size_t(i)], 1e-30);
      max_rel = std::max(max_rel, relative_error(double(yg[size_t(i)]), want[size_t(i)], sc));
      if (!close(double(yg[size_t(i)]), want[size_t(i)], tolerance<T>(terms[size_t(i)]), sc))
        verified = 0;
    }
  }
  MPI_Bcast(&verified, 1, MPI_INT, 0, comm);
  if (me != 0) return verify && !verified ? 1 : 0;
  const double bytes = spmv_min_bytes(A.global_rows(), A.global_cols(), nnz, sizeof(T));
  Report kv;
  kv.add("matrix", file)
      .add("device", ctx->info().name)
      .add("precision", sizeof(T) == 8 ? "double" : "float");
  kv.add("spmv", A.interior().automatic_config().str())
      .add("rows", A.global_rows())
      .add("cols", A.global_cols())
      .add("nnz", nnz);
  if (transpose) kv.add("transpose", 1);
  kv.add("median_ms", median).add("gflops", 2.0 * double(nnz) / (median * 1e6));
  kv.add("gbs", bytes / (median * 1e6)).add("halo", halo);
  if (verify) kv.add("max_rel_err", max_rel).add("verified", verified);
  kv.add("ranks", ranks);
  std::cout << kv.str() << "\n";
  return verify && !verified ? 1 : 0;
}

}  // namespace

int distributed_spmv(const po::variables_map& vm) {
  for (const char* o : {"local-size", "rows-bits", "shuffle"})
    if (vm.count(o))
      throw usage_error(std::string("--") + o + " is not available with --distributed");
  if (vm["algorithm"].as<std::string>() != "auto")
    throw usage_error("--algorithm is not available with --distributed");
  return run_distributed("spmv", [&](MPI_Comm comm) {
    return with_precision(vm, [&](auto t) { return run<decltype(t)>(vm, comm); });
  });
}

}  // namespace lockstep::cli
