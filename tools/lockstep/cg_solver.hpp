// Conjugate gradients written only against lockstep's public API (SpMV, fill, axpby, dot): the
// proof that a solver can link the library. Solves A x = b for symmetric positive definite A.
// The algorithm is written once, over a "space" that supplies n() local values, queue(),
// vector() (a work vector), spmv(x, y) and dot(x, y): DeviceSpace is one device (this file),
// lockstep::mpi::DistributedSpace is a matrix split over MPI ranks (lockstep/mpi.hpp), where
// dot sums over ranks and spmv exchanges the halo.
#pragma once
#include <cmath>
#include <lockstep/lockstep.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace lockstep::cli {

struct CgResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residuals;  // ||r_k|| / ||b||, k = 0..iterations
  std::string breakdown;          // why the iteration stopped early ("" when it did not)
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
CgResult conjugate_gradients(Space& s, const cl::Buffer& b, cl::Buffer& x, double tol, int maxit) {
  using T = typename Space::value_type;
  const int n = s.n();
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
  if (bb == 0) bb = 1;
  double rr = s.dot(r, r);
  res.residuals.push_back(std::sqrt(rr) / bb);
  for (int k = 0; k < maxit && res.residuals.back() > tol; ++k) {
    s.spmv(p, Ap);  // Ap = A*p
    const double pAp = s.dot(p, Ap);
    if (!(pAp > 0) || !std::isfinite(pAp)) {  // A is not SPD (or holds inf/NaN): stop, say so
      std::ostringstream why;
      why << "breakdown at iteration " << k << ": p'Ap = " << pAp
          << (std::isfinite(pAp) ? " <= 0: the matrix is not positive definite"
                                 : " is not finite: the matrix or b holds inf/NaN or overflows");
      res.breakdown = why.str();
      break;
    }
    double alpha = rr / pAp;
    if (n) {
      axpby<T>(q, n, T(alpha), p, T(1), x);
      axpby<T>(q, n, T(-alpha), Ap, T(1), r);
    }
    double rr_new = s.dot(r, r);
    if (n) axpby<T>(q, n, T(1), r, T(rr_new / rr), p);
    rr = rr_new;
    res.residuals.push_back(std::sqrt(rr) / bb);
    res.iterations = k + 1;
  }
  res.converged = res.residuals.back() <= tol;
  return res;
}

template <typename T>
CgResult conjugate_gradients(cl::CommandQueue& q, const DeviceCsr<T>& A, const cl::Buffer& b,
                             cl::Buffer& x, double tol, int maxit) {
  DeviceSpace<T> s{q, A};
  return conjugate_gradients(s, b, x, tol, maxit);
}

}  // namespace lockstep::cli
