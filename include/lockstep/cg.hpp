// Conjugate gradients for symmetric positive definite A x = b, written only against lockstep's
// public API (SpMV, fill, axpby, dot): the proof that a solver can be built on the library, and
// the one solver that `lockstep cg` and the distributed driver (`lockstep cg --distributed`) run.
//
//   lockstep::Context ctx;
//   lockstep::DeviceCsr<double> dA(ctx, A);
//   std::vector<double> x;
//   lockstep::CgResult r = lockstep::cg(ctx, dA, b, x, {1e-8});   // x: the solution
//
// The algorithm is written once, over a "space" that supplies n() local values, queue(),
// vector() (a work vector), spmv(x, y) and dot(x, y): DeviceSpace is one device (below),
// lockstep::mpi::DistributedSpace is a matrix split over MPI ranks (lockstep/mpi.hpp), where
// dot sums over ranks and spmv exchanges the halo. A breakdown (p'Ap not positive or not finite:
// an indefinite, singular or NaN-holding matrix) stops the iteration and is reported in
// CgResult::breakdown, never as a silent NaN.
#pragma once
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "lockstep/blas1.hpp"
#include "lockstep/error.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/spmv.hpp"

namespace lockstep {

struct CgOptions {
  double tol = 1e-8;  // relative residual ||r|| / ||b|| to reach
  int maxit = 0;      // iteration limit; 0: max(100, 10 n)
};

struct CgResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residuals;  // ||r_k|| / ||b||, k = 0..iterations
  std::string breakdown;          // empty, or why the iteration had to stop
};

/// One device, the whole matrix.
template <typename T>
struct DeviceSpace {
  using value_type = T;
  cl::CommandQueue& q;
  const DeviceCsr<T>& a;
  int n() const { return a.rows(); }
  cl::CommandQueue& queue() { return q; }
  cl::Buffer vector() const {
    return make_buffer(q.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                       std::max<size_t>(1, size_t(n())) * sizeof(T));
  }
  void spmv(cl::Buffer& x, cl::Buffer& y) { lockstep::spmv<T>(q, a, x, y); }  // tuned or predicted
  double dot(const cl::Buffer& x, const cl::Buffer& y) {
    return double(lockstep::dot<T>(q, n(), x, y));
  }
};

/// b and x hold n() local values; x is overwritten with the solution.
template <typename Space>
CgResult cg(Space& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& opt = {}) {
  using T = typename Space::value_type;
  const int n = s.n();
  const int maxit = opt.maxit > 0 ? opt.maxit : std::max(100, 10 * n);
  cl::CommandQueue& q = s.queue();
  cl::Buffer r = s.vector(), p = s.vector(), Ap = s.vector();
  if (n) {
    fill<T>(q, x, n, T(0));
    fill<T>(q, r, n, T(0));
    axpby<T>(q, n, T(1), b, T(0), r);  // r = b - A*0
    fill<T>(q, p, n, T(0));
    axpby<T>(q, n, T(1), r, T(0), p);  // p = r
  }
  CgResult res;
  double bb = std::sqrt(s.dot(b, b));
  if (!std::isfinite(bb)) {
    res.breakdown = "the right-hand side is not finite";
    res.residuals.push_back(bb);
    return res;
  }
  if (bb == 0) bb = 1;
  double rr = s.dot(r, r);
  res.residuals.push_back(std::sqrt(rr) / bb);
  for (int k = 0; k < maxit && res.residuals.back() > opt.tol; ++k) {
    s.spmv(p, Ap);  // Ap = A*p
    const double pAp = s.dot(p, Ap);
    if (!(pAp > 0) || !std::isfinite(pAp)) {  // NaN fails the first test
      std::ostringstream why;
      why << "breakdown at iteration " << k << ": p'Ap = " << pAp
          << (std::isfinite(pAp) ? " <= 0: the matrix is not positive definite (indefinite, "
                                   "singular or zero)"
                                 : ": the matrix or vectors hold NaN or Inf");
      res.breakdown = why.str();
      break;
    }
    const double alpha = rr / pAp;
    if (n) {
      axpby<T>(q, n, T(alpha), p, T(1), x);
      axpby<T>(q, n, T(-alpha), Ap, T(1), r);
    }
    const double rr_new = s.dot(r, r);
    if (n) axpby<T>(q, n, T(1), r, T(rr_new / rr), p);
    rr = rr_new;
    res.residuals.push_back(std::sqrt(rr) / bb);
    res.iterations = k + 1;
  }
  res.converged = res.breakdown.empty() && res.residuals.back() <= opt.tol;
  return res;
}

/// One device, buffers: b and x hold A.rows() values.
template <typename T>
CgResult cg(cl::CommandQueue& q, const DeviceCsr<T>& A, const cl::Buffer& b, cl::Buffer& x,
            const CgOptions& opt = {}) {
  DeviceSpace<T> s{q, A};
  return cg(s, b, x, opt);
}
template <typename T>
CgResult cg(Context& ctx, const DeviceCsr<T>& A, const cl::Buffer& b, cl::Buffer& x,
            const CgOptions& opt = {}) {
  return cg<T>(ctx.queue(), A, b, x, opt);
}
/// One device, host vectors: x is resized to A.rows() and receives the solution.
template <typename T>
CgResult cg(Context& ctx, const DeviceCsr<T>& A, const std::vector<T>& b, std::vector<T>& x,
            const CgOptions& opt = {}) {
  if (b.size() != size_t(A.rows()))
    throw input_error("cg: b has " + std::to_string(b.size()) + " values, A has " +
                      std::to_string(A.rows()) + " rows");
  if (A.rows() != A.cols())
    throw input_error("cg: conjugate gradients needs a square matrix (A is " +
                      std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + ")");
  cl::Buffer db = upload(ctx.queue(), b, CL_MEM_READ_ONLY);
  cl::Buffer dx = make_buffer(ctx.context(), CL_MEM_READ_WRITE,
                              std::max<size_t>(1, b.size()) * sizeof(T));
  CgResult r = cg<T>(ctx.queue(), A, db, dx, opt);
  x = download<T>(ctx.queue(), dx, b.size());
  return r;
}

}  // namespace lockstep
