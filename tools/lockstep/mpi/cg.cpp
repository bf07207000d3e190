// `mpirun -np P lockstep cg FILE --distributed [--tol T] [--maxit N]`: the same conjugate
// gradients as `lockstep cg` (lockstep::cg, lockstep/cg.hpp), in lockstep::mpi::DistributedSpace:
// a generated grid is generated on every rank (its own slab, --partition planes, the default for
// gen:; or its own box, --partition blocks), a file is read on rank 0 and scattered (--partition
// nnz by default); --reduction blocking|overlapped (mpi::Reduction); each rank runs on
// its own device, b = A*1 so the exact solution is all ones. Rank 0 prints the residual history,
// one `partition` line per rank (rows, nonzeros, halo, neighbours, the MPI part of its exchange
// alone: host_mpi_ms), one `timeline` line per rank (ms
// from the pack kernel's start, averaged over 10 SpMVs: exchange = pack, download, MPI, upload;
// then interior and boundary rows; and the CG's reduction alone, reduction_ms) and the usual
// last line plus the solve's parts (start_ms, replacements, replacement_ms, steady_ms and
// iter_ms_steady: CgResult's, the slowest rank's), halo, exchange, reduction, shared_neighbours
// (summed over the ranks: the
// neighbours reached through shared memory, LOCKSTEP_MPI_HALO) and ranks. With
// --iteration-timeline N (pipelined), one `iteration_timeline` line per rank before them:
// the fused update's steps in iterations N .. N+9 (CgIterationTimeline, lockstep/cg.hpp).
#include <chrono>
#include <cmath>
#include <iostream>
#include <iterator>
#include <lockstep/lockstep.hpp>
#include <sstream>

#include "cg_options.hpp"
#include "distributed.hpp"
#include "mpi/driver.hpp"

namespace lockstep::cli {
namespace {

// Mean timeline of `samples` SpMVs on x and the mean time of the CG's reduction alone (a
// blocking MPI_Allreduce of 3 doubles, after a barrier), gathered on rank 0 (10 values a rank).
template <typename T>
std::vector<double> measure_timeline(mpi::DistributedCsr<T>& a, cl::Buffer& x, cl::Buffer& y,
                                     int samples) {
  constexpr int k = 10;
  std::vector<double> mean(k, 0.0);
  for (int s = 0; s < samples; ++s) {
    mpi::SpmvTimeline t;
    mpi::spmv(a, x, y, &t);
    double v[9] = {t.pack_end,     t.download_end,   t.upload_start, t.upload_end, t.interior_start,
                   t.interior_end, t.boundary_start, t.boundary_end, t.mpi_ms};
    for (int i = 0; i < 9; ++i) mean[size_t(i)] += v[i] / samples;
  }
  for (int s = 0; s < samples; ++s) {
    double v[3] = {1, 2, 3};
    MPI_Barrier(a.comm());
    const auto t0 = std::chrono::steady_clock::now();
    MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_SUM, a.comm());
    mean[9] +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
        samples;
  }
  std::vector<double> all(mpi::rank(a.comm()) == 0 ? k * size_t(mpi::size(a.comm())) : 0);
  MPI_Gather(mean.data(), k, MPI_DOUBLE, all.data(), k, MPI_DOUBLE, 0, a.comm());
  return all;
}

// Pipelined CG's sampled iteration timeline (CgIterationTimeline), gathered on rank 0: one
// `iteration_timeline rank=R` line per rank, device ms from its interior launch's start, host
// ms (host_*) from its update's entry.
void print_iteration_timeline(MPI_Comm comm, const CgIterationTimeline& t) {
  constexpr size_t k = 2 + std::size(kCgIterationTimelineFields);
  double mine[k] = {double(t.first), double(t.sampled)};
  for (size_t i = 2; i < k; ++i) mine[i] = t.*kCgIterationTimelineFields[i - 2].value;
  std::vector<double> all(mpi::rank(comm) == 0 ? k * size_t(mpi::size(comm)) : 0);
  MPI_Gather(mine, k, MPI_DOUBLE, all.data(), k, MPI_DOUBLE, 0, comm);
  for (size_t r = 0; r * k < all.size(); ++r) {
    Report line;
    line.add("iteration_timeline rank", r);
    line.add("first", int(all[r * k])).add("sampled", int(all[r * k + 1]));
    for (size_t i = 2; i < k; ++i) line.add(kCgIterationTimelineFields[i - 2].name, all[r * k + i]);
    std::cout << line.str() << "\n";
  }
}

template <typename T>
int solve(const po::variables_map& vm, MPI_Comm comm) {
  const int me = mpi::rank(comm), ranks = mpi::size(comm);
  const std::string file = vm["file"].as<std::string>();
  const std::string partition = partition_of(vm, file);
  const std::string sum = vm.count("reduction") ? vm["reduction"].as<std::string>() : "overlapped";
  if (sum != "overlapped" && sum != "blocking")
    throw usage_error("--reduction is overlapped or blocking, not '" + sum + "'");
  const auto sum_mode = sum == "blocking" ? mpi::Reduction::blocking : mpi::Reduction::overlapped;
  std::ostringstream problem;
  problem << file << ", " << (sizeof(T) == 8 ? "double" : "float") << ", --partition " << partition
          << ", --reduction " << sum << ", --tol " << vm["tol"].as<double>();
  same_problem(comm, problem.str());
  auto ctx = rank_context<T>(comm, vm);
  const auto setup0 = std::chrono::steady_clock::now();
  // A file's matrix is checked whole on rank 0 (square, finite, not zero, symmetric): the one-
  // device driver's check. A generated grid is SPD by construction (and never whole anywhere).
  std::string blocks;  // --partition blocks: the ranks grid
  auto A = distributed_matrix<T>(
      comm, ctx->queue(), file, partition, nullptr,
      [&](const Csr<T>& m) {
        if (m.rows == m.cols) check_cg_matrix(file, m);  // else below
      },
      &blocks);
  mpi::collective(comm, [&] {
    if (A.global_rows() != A.global_cols())
      throw input_error(file + ": conjugate gradients needs a square matrix, not " +
                        std::to_string(A.global_rows()) + " x " + std::to_string(A.global_cols()));
  });
  const double setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - setup0).count();
  unsigned long long nnz = A.local_nnz();
  MPI_Allreduce(MPI_IN_PLACE, &nnz, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  const int n = A.local_rows();
  const double tol = vm["tol"].as<double>();
  const int maxit = vm.count("maxit") ? vm["maxit"].as<int>() : std::max(100, 10 * A.global_rows());

  mpi::DistributedSpace<T> space{A, sum_mode};
  cl::CommandQueue& q = ctx->queue();
  cl::Buffer ones = A.make_vector(), b = A.make_vector(), x = A.make_vector();
  if (n) fill<T>(q, ones, n, T(1));
  mpi::spmv(A, ones, b);  // b = A*1
  CgOptions opt = cg_options(vm, maxit), warm = opt;
  warm.maxit = 2;
  CgIterationTimeline steps;
  std::unique_ptr<CgObserver> watch;
  if (vm.count("iteration-timeline")) {
    steps.first = vm["iteration-timeline"].as<int>();
    watch = iteration_timeline(steps);
    opt.observer = watch.get();
  }
  lockstep::cg(space, b, x, warm);  // warm-up: kernels built, caches hot
  MPI_Barrier(comm);
  auto t0 = std::chrono::steady_clock::now();
  CgResult res = lockstep::cg(space, b, x, opt);
  check(q.finish(), "clFinish");
  MPI_Barrier(comm);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  // The solve's parts (CgResult: start, replacements, steady iterations), the slowest rank's.
  double times[3] = {res.start_ms, res.replacement_ms, res.steady_ms()};
  MPI_Allreduce(MPI_IN_PLACE, times, 3, MPI_DOUBLE, MPI_MAX, comm);
  double err = 0;
  for (T v : download<T>(q, x, size_t(n))) err += (double(v) - 1) * (double(v) - 1);
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_SUM, comm);
  err = std::sqrt(err / std::max(1, A.global_rows()));
  std::vector<double> tl = measure_timeline(A, ones, b, 10);
  const long long halo = print_partition(A, 10);
  if (watch) print_iteration_timeline(comm, steps);
  int shared = A.shared_neighbours();  // summed over the ranks: 0 when the halo is MPI's
  MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_SUM, comm);
  double cond_slack = sizeof(T) == 8 ? 1e3 : 1e2;  // error may exceed the residual by ~cond(A)
  bool ok =
      res.converged && err <= std::max(tol, 1e-6) * cond_slack * std::sqrt(double(A.global_rows()));
  if (me != 0) return ok ? 0 : 1;
  if (!res.breakdown.empty()) std::cerr << "lockstep cg: " << file << ": " << res.breakdown << "\n";
  if (!res.stagnation.empty())
    std::cerr << "lockstep cg: " << file << ": " << res.stagnation << "\n";

  for (size_t k = 0; k < res.residuals.size(); ++k)
    if (vm.count("history") || k % std::max<size_t>(1, res.residuals.size() / 20) == 0 ||
        k + 1 == res.residuals.size())
      std::cout << "iteration=" << k << " residual=" << res.residuals[k] << "\n";
  double exchange = 0, interior = 0, boundary = 0, reduction = 0;
  bool hidden = true;
  for (int r = 0; r < ranks; ++r) {
    const double* v = &tl[10 * size_t(r)];
    Report t;
    t.add("timeline rank", r).add("pack_end", v[0]).add("download_end", v[1]).add("mpi_ms", v[8]);
    t.add("upload_start", v[2])
        .add("upload_end", v[3])
        .add("interior_start", v[4])
        .add("interior_end", v[5]);
    t.add("boundary_start", v[6]).add("boundary_end", v[7]).add("reduction_ms", v[9]);
    std::cout << t.str() << "\n";
    exchange = std::max(exchange, v[3]), interior = std::max(interior, v[5] - v[4]);
    boundary = std::max(boundary, v[7] - v[6]), hidden = hidden && v[3] <= v[5];
    reduction = std::max(reduction, v[9]);
  }
  Report kv;
  kv.add("matrix", file)
      .add("precision", sizeof(T) == 8 ? "double" : "float")
      .add("rows", A.global_rows())
      .add("partition", blocks.empty() ? partition : "blocks:" + blocks);
  kv.add("nnz", nnz)
      .add("spmv", A.interior().automatic_config().str())
      .add("algorithm", to_string(opt.algorithm))
      .add("preconditioner", to_string(opt.preconditioner))
      .add("reduction", sum)
      .add("iterations", res.iterations);
  if (opt.algorithm == CgAlgorithm::pipelined) kv.add("spmv_fused", int(res.spmv_fused));
  kv.add("residual", res.residuals.back()).add("rms_err_vs_exact", err).add("ms", ms);
  kv.add("ms_per_iteration", ms / std::max(1, res.iterations))
      .add("start_ms", times[0])
      .add("replacements", res.replacements)
      .add("replacement_ms", times[1])
      .add("steady_ms", times[2])
      .add("iter_ms_steady", times[2] / std::max(1, res.iterations))
      .add("halo", halo)
      .add("exchange_ms", exchange);
  kv.add("interior_ms", interior).add("boundary_ms", boundary).add("hidden", int(hidden));
  kv.add("reduction_ms", reduction).add("shared_neighbours", shared);
  kv.add("setup_s", setup_s).add("verified", int(ok)).add("ranks", ranks);
  std::cout << kv.str() << "\n";
  return ok ? 0 : 1;
}

}  // namespace

int distributed_cg(const po::variables_map& vm) {
  return run_distributed("cg", [&](MPI_Comm comm) {
    return with_precision(vm, [&](auto t) { return solve<decltype(t)>(vm, comm); });
  });
}

}  // namespace lockstep::cli
