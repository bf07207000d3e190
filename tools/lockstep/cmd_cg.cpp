// `lockstep cg FILE.mtx [--tol 1e-8] [--maxit N] [--precision float|double]`: solves A x = b
// with b = A*1 (so the exact solution is all ones) by conjugate gradients on the device, prints
// the residual history, and checks the solution against the same iteration run on the CPU in
// double (and against the exact solution). With --distributed (under mpirun) it runs the same
// solver over MPI ranks (tools/lockstep/mpi/cg.cpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <lockstep/lockstep.hpp>
#include <sstream>

#include "cg_options.hpp"
#include "command.hpp"
#include "distributed.hpp"
#include "matrix_source.hpp"

namespace lockstep::cli {
namespace {

// The CPU reference: the same CG in double.
std::vector<double> cpu_cg(const Csr<double>& A, const std::vector<double>& b, double tol,
                           int maxit, int& its) {
  size_t n = b.size();
  std::vector<double> x(n, 0), r = b, p = r, Ap(n);
  auto dotp = [](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
    return s;
  };
  double bb = std::sqrt(dotp(b, b)), rr = dotp(r, r);
  if (bb == 0) bb = 1;
  for (its = 0; its < maxit && std::sqrt(rr) / bb > tol; ++its) {
    Ap = spmv_reference(A, p, p, 1.0, 0.0);
    double alpha = rr / dotp(p, Ap);
    for (size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * Ap[i];
    double rr_new = dotp(r, r);
    for (size_t i = 0; i < n; ++i) p[i] = r[i] + rr_new / rr * p[i];
    rr = rr_new;
  }
  return x;
}

// Why a run failed, on stderr: a breakdown, no convergence, or a solution far from all ones.
void explain(const std::string& file, const CgResult& res, bool ok, double tol, int maxit,
             double err_exact) {
  if (!res.fallback.empty()) std::cerr << "lockstep cg: " << file << ": " << res.fallback << "\n";
  if (!res.breakdown.empty())
    std::cerr << "lockstep cg: " << file << ": " << res.breakdown << "\n";
  else if (!res.stagnation.empty())
    std::cerr << "lockstep cg: " << file << ": " << res.stagnation << "\n";
  else if (!res.converged)
    std::cerr << "lockstep cg: " << file << ": no convergence: residual " << res.residuals.back()
              << " after " << res.iterations << " iterations (--tol " << tol << ", --maxit "
              << maxit << ")\n";
  else if (!ok)
    std::cerr << "lockstep cg: " << file << ": converged, but the solution is " << err_exact
              << " (rms) from the exact all-ones solution: ill-conditioned for this precision?\n";
}

template <typename T>
int solve(const po::variables_map& vm) {
  std::string file = vm["file"].as<std::string>();
  auto A64 = matrix_source<double>(file);  // bad input before the device
  check_cg_matrix(file, A64);
  Context ctx(device_spec(vm));
  double tol = vm["tol"].as<double>();
  int maxit = vm.count("maxit") ? vm["maxit"].as<int>() : std::max(100, 10 * A64.rows);
  Csr<T> A = A64.cast<T>();
  std::vector<T> ones(size_t(A.cols), T(1));
  std::vector<double> b64 = spmv_reference(A, ones, ones, 1.0, 0.0);
  std::vector<T> b(b64.begin(), b64.end());
  DeviceCsr<T> dA(ctx.queue(), A);
  cl::Buffer db = upload(ctx.queue(), b, CL_MEM_READ_ONLY);
  cl::Buffer dx =
      make_buffer(ctx.context(), CL_MEM_READ_WRITE, std::max<size_t>(1, b.size()) * sizeof(T));
  CgOptions opt = cg_options(vm, maxit), warm = opt;
  warm.maxit = 2;
  cg<T>(ctx, dA, db, dx, warm);  // warm-up: kernels built, caches hot

  auto t0 = std::chrono::steady_clock::now();
  CgResult res = cg<T>(ctx, dA, db, dx, opt);
  check(ctx.queue().finish(), "clFinish");
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  auto x = download<T>(ctx.queue(), dx, b.size());

  for (size_t k = 0; k < res.residuals.size(); ++k)
    if (vm.count("history") || k % std::max<size_t>(1, res.residuals.size() / 20) == 0 ||
        k + 1 == res.residuals.size())
      std::cout << "iteration=" << k << " residual=" << res.residuals[k] << "\n";
  // The CPU CG (one core) only up to 2M rows: above, the exact solution alone is the check.
  int cpu_its = -1;
  const bool cpu_check = A.rows <= 2000000;
  auto xc =
      cpu_check ? cpu_cg(A64, b64, std::max(tol, 1e-14), maxit, cpu_its) : std::vector<double>{};
  double err_cpu = 0, err_exact = 0, norm = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (cpu_check) err_cpu += (double(x[i]) - xc[i]) * (double(x[i]) - xc[i]);
    err_exact += (double(x[i]) - 1) * (double(x[i]) - 1);
    norm += 1;
  }
  err_cpu = std::sqrt(err_cpu / std::max(1.0, norm));
  err_exact = std::sqrt(err_exact / std::max(1.0, norm));
  double cond_slack = sizeof(T) == 8 ? 1e3 : 1e2;  // error may exceed the residual by ~cond(A)
  bool ok =
      res.converged && err_exact <= std::max(tol, 1e-6) * cond_slack * std::sqrt(double(A.rows));
  Report kv;
  kv.add("matrix", file).add("precision", sizeof(T) == 8 ? "double" : "float").add("rows", A.rows);
  kv.add("nnz", A.nnz()).add("spmv", dA.automatic_config().str());
  kv.add("algorithm", to_string(opt.algorithm))
      .add("preconditioner", to_string(opt.preconditioner));
  kv.add("iterations", res.iterations);
  if (opt.algorithm == CgAlgorithm::pipelined)
    kv.add("spmv_fused", int(res.spmv_fused)).add("fallback", int(!res.fallback.empty()));
  kv.add("cpu_iterations", cpu_its).add("residual", res.residuals.back());
  if (cpu_check) kv.add("rms_err_vs_cpu", err_cpu);
  kv.add("rms_err_vs_exact", err_exact)
      .add("ms", ms)
      .add("ms_per_iteration", ms / std::max(1, res.iterations));
  kv.add("verified", int(ok));
  std::cout << kv.str() << "\n";
  explain(file, res, ok, tol, maxit, err_exact);
  return ok ? 0 : 1;
}

int run_cg(const Args& args) {
  po::options_description opts("options");
  opts.add_options()("file", po::value<std::string>()->required(),
                     "SPD Matrix Market file, or gen:laplace2d:N[xNY] / gen:laplace3d:N[xNYxNZ]")(
      "tol", number<double>(0, 1)->default_value(1e-8), "relative residual to reach")(
      "maxit", number<int>(1, 1000000000), "iteration limit (default max(100, 10 n))")(
      "precision", po::value<std::string>()->default_value("double"), "float or double")(
      "history", "print every iteration's residual")(
      "distributed", "under mpirun: split the matrix over the ranks, one device each (MPI builds)")(
      "partition", po::value<std::string>(),
      "with --distributed: nnz (row blocks of equal nonzeros; default for files), planes "
      "(whole planes: a gen: grid's, each rank generating its own; a file's bandwidth) or "
      "blocks[:PXxPYxPZ] (a gen: grid's boxes over a ranks grid, each rank generating its own, "
      "numbered box by box; by default the grid of fewest shared faces)")(
      "reduction", po::value<std::string>(),
      "with --distributed: overlapped (default: the scalars' MPI_Iallreduce waited for while the "
      "halo exchange moves) or blocking (one MPI_Allreduce)")(
      "iteration-timeline", number<int>(0, 1000000000),
      "with --distributed --algorithm pipelined: one iteration_timeline line per rank, the "
      "fused update's steps (device and host ms) averaged over iterations N .. N+9");
  add_cg_options(opts);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parse("lockstep cg FILE.mtx [--tol 1e-8] [--maxit N] [--precision float|double] "
             "[--algorithm classic|pipelined|single-reduction] [--preconditioner none|jacobi] "
             "[--replace-every N] [--separate-spmv] [--distributed [--partition P] [--reduction R] "
             "[--iteration-timeline N]]",
             args, opts, pos, vm))
    return 0;
  if (vm.count("partition") && !vm.count("distributed"))
    throw usage_error("--partition needs --distributed");
  if (vm.count("reduction") && !vm.count("distributed"))
    throw usage_error("--reduction needs --distributed");
  if (vm.count("iteration-timeline") && !vm.count("distributed"))
    throw usage_error("--iteration-timeline needs --distributed");
  if (vm.count("iteration-timeline") &&
      parse_option(vm, "algorithm", parse_cg_algorithm) != CgAlgorithm::pipelined)
    throw usage_error("--iteration-timeline needs --algorithm pipelined");
  if (vm.count("distributed")) return distributed_cg(vm);
  return with_precision(vm, [&](auto t) { return solve<decltype(t)>(vm); });
}

}  // namespace
LOCKSTEP_COMMAND("cg", "conjugate gradients on an SPD matrix (a solver linking the library)",
                 run_cg);
}  // namespace lockstep::cli
