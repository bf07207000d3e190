// lockstep::cg: names, the one-device space, the Jacobi diagonal, classic CG (Hestenes-Stiefel,
// optionally Jacobi-preconditioned) and the dispatch to the pipelined (pipelined.cpp) and
// single-reduction (single.cpp) variants.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "cg_impl.hpp"
#include "lockstep/blas1.hpp"
#include "lockstep/kernel_builds.hpp"

namespace lockstep {

// float and (fp64) double, without and with the Jacobi preconditioner.
void detail::cg_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  for (bool jacobi : {false, true}) {
    out.push_back({"cg", "cg.cl", cg_defines<float>(jacobi, d.is_gpu()).options()});
    if (d.fp64) out.push_back({"cg", "cg.cl", cg_defines<double>(jacobi, d.is_gpu()).options()});
  }
}

std::string to_string(CgAlgorithm a) {
  return a == CgAlgorithm::classic     ? "classic"
         : a == CgAlgorithm::pipelined ? "pipelined"
                                       : "single-reduction";
}
std::string to_string(Preconditioner p) { return p == Preconditioner::none ? "none" : "jacobi"; }
CgAlgorithm parse_cg_algorithm(const std::string& name) {
  if (name == "classic") return CgAlgorithm::classic;
  if (name == "pipelined") return CgAlgorithm::pipelined;
  if (name == "single-reduction") return CgAlgorithm::single_reduction;
  throw input_error("cg: unknown algorithm '" + name + "' (classic, pipelined, single-reduction)");
}
Preconditioner parse_preconditioner(const std::string& name) {
  if (name == "none") return Preconditioner::none;
  if (name == "jacobi") return Preconditioner::jacobi;
  throw input_error("cg: unknown preconditioner '" + name + "' (none, jacobi)");
}

input_error jacobi_diagonal_error(long long row) {
  return input_error("cg --preconditioner jacobi: the diagonal of row " + std::to_string(row) +
                     " is not positive (Jacobi needs a positive diagonal)");
}

template <typename T>
int inverse_diagonal(cl::CommandQueue& q, const DeviceCsr<T>& a, int offset, cl::Buffer& dinv) {
  if (a.rows() == 0) return -1;
  cl::Buffer bad = upload(q, std::vector<cl_int>{0});
  cl::Kernel k =
      kernel(q, "cg.cl", "cg_inverse_diagonal", detail::cg_defines<T>(false, a.device().is_gpu()));
  set_args(k, cl_int(a.rows()), cl_int(offset), a.row_ptr(), a.col_idx(), a.values(), dinv, bad);
  launch(q, k, detail::cg_round_up(size_t(a.rows())), detail::kCgLocal);
  return download<cl_int>(q, bad, 1)[0] - 1;
}

template <typename T>
cl::Buffer DeviceSpace<T>::vector() const {
  return make_buffer(q_.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                     std::max<size_t>(1, size_t(n())) * sizeof(T));
}
template <typename T>
void DeviceSpace<T>::spmv(cl::Buffer& x, cl::Buffer& y) {
  lockstep::spmv<T>(q_, a_, x, y);
}
template <typename T>
double DeviceSpace<T>::dot(const cl::Buffer& x, const cl::Buffer& y) {
  return double(lockstep::dot<T>(q_, n(), x, y));
}
template <typename T>
void DeviceSpace<T>::inverse_diagonal(cl::Buffer& dinv) {
  const int bad = lockstep::inverse_diagonal<T>(q_, a_, 0, dinv);
  if (bad >= 0) throw jacobi_diagonal_error(bad);
}

namespace detail {

// y = d .* x on n values.
template <typename T>
void scale(cl::CommandQueue& q, int n, const cl::Buffer& d, const cl::Buffer& x, cl::Buffer& y) {
  if (n == 0) return;
  cl::Kernel k = kernel(q, "cg.cl", "cg_scale", cg_defines<T>(false, on_gpu(q)));
  set_args(k, cl_int(n), d, x, y);
  launch(q, k, cg_round_up(size_t(n)), kCgLocal);
}

template <typename T>
CgResult cg_classic(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& o,
                    bool from_x) {
  const int n = s.n();
  const bool jacobi = o.preconditioner == Preconditioner::jacobi;
  cl::CommandQueue& q = s.queue();
  cl::Buffer r = s.vector(), p = s.vector(), Ap = s.vector(), z, dinv;
  if (jacobi) z = s.vector(), dinv = s.vector(), s.inverse_diagonal(dinv);
  cl::Buffer& zr = jacobi ? z : r;  // z = M^-1 r
  // r = b - A x (b when x = 0), z = M^-1 r, p = z and their products: the start, and a restart
  // from a true residual.
  double rr = 0, rz = 0;
  auto restart = [&](bool x_zero) {
    if (!x_zero) s.spmv(x, Ap);
    if (n) {
      copy<T>(q, n, b, r);
      if (!x_zero) axpby<T>(q, n, T(-1), Ap, T(1), r);
      if (jacobi) scale<T>(q, n, dinv, r, z);
      copy<T>(q, n, zr, p);
    }
    rr = s.dot(r, r), rz = jacobi ? s.dot(r, z) : rr;
  };
  if (!from_x && n) fill<T>(q, x, n, T(0));
  restart(!from_x);
  CgResult res;
  const double bb = rhs_norm(s, b, res);
  if (!std::isfinite(bb)) return res;
  res.residuals.push_back(std::sqrt(rr) / bb);
  // A recursive residual below tol is checked against b - A x (float: the recursion drifts
  // from the true residual on ill-conditioned matrices); when the true one is above tol, the
  // iteration restarts from it (p = M^-1 r).
  bool verified = true;  // the first residual is a true one
  auto verify = [&] {
    restart(false);
    res.residuals.back() = std::sqrt(rr) / bb;
    ++res.replacements;
    verified = true;
  };
  CgStagnation<T> stagnation;
  for (int k = 0; k < o.maxit; ++k) {
    if (res.residuals.back() <= o.tol) {
      if (stagnation.at_tolerance(s, x, res, o.tol, verified, verify)) break;
      --k;
      continue;
    }
    verified = false;
    s.spmv(p, Ap);  // Ap = A*p
    const double pAp = s.dot(p, Ap);
    if (!(res.breakdown = cg_breakdown(k, "p'Ap", pAp)).empty()) break;
    const double alpha = rz / pAp;
    if (n) {
      axpby<T>(q, n, T(alpha), p, T(1), x);
      axpby<T>(q, n, T(-alpha), Ap, T(1), r);
      if (jacobi) scale<T>(q, n, dinv, r, z);
    }
    rr = s.dot(r, r);
    const double rz_new = jacobi ? s.dot(r, z) : rr;
    if (n) axpby<T>(q, n, T(1), zr, T(rz_new / rz), p);
    rz = rz_new;
    res.residuals.push_back(std::sqrt(rr) / bb);
    res.iterations = k + 1;
  }
  if (res.breakdown.empty() && !verified && res.residuals.back() <= o.tol) verify();
  return res;
}

}  // namespace detail

template <typename T>
CgResult cg(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& opt) {
  CgOptions o = opt;
  if (o.maxit <= 0) o.maxit = std::max(100, 10 * s.n());
  const auto t0 = std::chrono::steady_clock::now();
  CgResult r = o.algorithm == CgAlgorithm::pipelined          ? detail::cg_pipelined<T>(s, b, x, o)
               : o.algorithm == CgAlgorithm::single_reduction ? detail::cg_single<T>(s, b, x, o)
                                                              : detail::cg_classic<T>(s, b, x, o);
  if (!r.fallback.empty()) {  // pipelined gave up its recurrences: classic from its x
    CgOptions rest = o;
    rest.maxit = std::max(0, o.maxit - r.iterations);
    CgResult c = detail::cg_classic<T>(s, b, x, rest, true);
    r.iterations += c.iterations;
    r.residuals.insert(r.residuals.end(), c.residuals.begin(), c.residuals.end());
    r.replacements += c.replacements;
    r.breakdown = c.breakdown;
    r.stagnation = c.stagnation;
  }
  r.converged = r.breakdown.empty() && !r.residuals.empty() && r.residuals.back() <= o.tol;
  check(s.queue().finish(), "clFinish");
  r.solve_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

template <typename T>
CgResult cg(Context& ctx, const DeviceCsr<T>& A, const std::vector<T>& b, std::vector<T>& x,
            const CgOptions& opt) {
  if (A.rows() != A.cols())
    throw input_error("cg: conjugate gradients needs a square matrix (A is " +
                      std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + ")");
  if (b.size() != size_t(A.rows()))
    throw input_error("cg: b has " + std::to_string(b.size()) + " values, A has " +
                      std::to_string(A.rows()) + " rows");
  cl::Buffer db = upload(ctx.queue(), b, CL_MEM_READ_ONLY);
  cl::Buffer dx =
      make_buffer(ctx.context(), CL_MEM_READ_WRITE, std::max<size_t>(1, b.size()) * sizeof(T));
  CgResult r = cg<T>(ctx.queue(), A, db, dx, opt);
  x = download<T>(ctx.queue(), dx, b.size());
  return r;
}

#define LOCKSTEP_INSTANTIATE(T)                                                                  \
  template int inverse_diagonal<T>(cl::CommandQueue&, const DeviceCsr<T>&, int, cl::Buffer&);    \
  template class DeviceSpace<T>;                                                                 \
  template CgResult cg<T>(CgSpace<T>&, const cl::Buffer&, cl::Buffer&, const CgOptions&);        \
  template CgResult cg<T>(Context&, const DeviceCsr<T>&, const std::vector<T>&, std::vector<T>&, \
                          const CgOptions&);                                                     \
  template void detail::scale<T>(cl::CommandQueue&, int, const cl::Buffer&, const cl::Buffer&,   \
                                 cl::Buffer&);
LOCKSTEP_INSTANTIATE(float)
LOCKSTEP_INSTANTIATE(double)

}  // namespace lockstep
