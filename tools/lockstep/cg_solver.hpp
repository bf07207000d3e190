// Conjugate gradients written only against lockstep's public API (SpMV, fill, axpby, dot): the
// proof that a solver can link the library. Solves A x = b for symmetric positive definite A.
#pragma once
#include <cmath>
#include <vector>

#include <lockstep/lockstep.hpp>

namespace lockstep::cli {

struct CgResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residuals;  // ||r_k|| / ||b||, k = 0..iterations
};

template <typename T>
CgResult conjugate_gradients(cl::CommandQueue& q, const DeviceCsr<T>& A, const cl::Buffer& b,
                             cl::Buffer& x, double tol, int maxit) {
  const int n = A.rows();
  cl::Context ctx = q.getInfo<CL_QUEUE_CONTEXT>();
  size_t bytes = std::max<size_t>(1, size_t(n)) * sizeof(T);
  cl::Buffer r = make_buffer(ctx, CL_MEM_READ_WRITE, bytes), p = make_buffer(ctx, CL_MEM_READ_WRITE, bytes);
  cl::Buffer Ap = make_buffer(ctx, CL_MEM_READ_WRITE, bytes);
  fill<T>(q, x, n, T(0));
  fill<T>(q, r, n, T(0));
  axpby<T>(q, n, T(1), b, T(0), r);  // r = b - A*0
  fill<T>(q, p, n, T(0));
  axpby<T>(q, n, T(1), r, T(0), p);  // p = r
  CgResult res;
  double bb = std::sqrt(double(dot<T>(q, n, b, b)));
  if (bb == 0) bb = 1;
  double rr = double(dot<T>(q, n, r, r));
  res.residuals.push_back(std::sqrt(rr) / bb);
  for (int k = 0; k < maxit && res.residuals.back() > tol; ++k) {
    spmv<T>(q, A, p, Ap);  // Ap = A*p, the tuned or predicted configuration
    double alpha = rr / double(dot<T>(q, n, p, Ap));
    axpby<T>(q, n, T(alpha), p, T(1), x);
    axpby<T>(q, n, T(-alpha), Ap, T(1), r);
    double rr_new = double(dot<T>(q, n, r, r));
    axpby<T>(q, n, T(1), r, T(rr_new / rr), p);
    rr = rr_new;
    res.residuals.push_back(std::sqrt(rr) / bb);
    res.iterations = k + 1;
  }
  res.converged = res.residuals.back() <= tol;
  return res;
}

}  // namespace lockstep::cli
