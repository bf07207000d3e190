// Single-reduction CG (Chronopoulos & Gear 1989, "s-step iterative methods for symmetric linear
// systems", J. Comput. Appl. Math. 25; the preconditioned form of Ghysels & Vanroose 2014,
// Algorithm 1), with M^-1 = diag(dinv) or I. Classic CG's iterates in exact arithmetic, with
// one global reduction per iteration instead of two: the SpMV is of u = M^-1 r (w = A u), the
// direction's product s = A p is kept by the recurrence s = w + beta s, and the curvature
// p'Ap = (w,u) - beta (r,u) / alpha_old comes from the same three sums (r,u), (w,u), (r,r).
// Per iteration: one update kernel (cl/cg.cl cg1_update: p, s, x, r and, Jacobi, u), the SpMV
// (distributed: its exchange overlapped with the interior rows), one kernel for the three
// partial sums (pcg_dots), one read of them and one global sum of 3 values (MPI_Allreduce when
// distributed). Classic CG: four launches beside the SpMV, two reads and two reductions.
// Safeguards (the recurrence for s costs rounding): a curvature that lost its digits to
// cancellation, or is not positive, restarts from the true residual (r = b - A x, beta = 0:
// the curvature is then u'Au itself, so a breakdown is the matrix's); like classic CG, a
// recursive residual below tol is checked against b - A x before convergence is declared.
// The sums are added on the host in group order and by one MPI_Allreduce: the same bits on
// every run for a given device and rank count.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "cg_impl.hpp"
#include "lockstep/blas1.hpp"

namespace lockstep::detail {
namespace {

template <typename T>
struct Single {
  CgSpace<T>& s;
  const bool jacobi;
  const int n;
  cl::CommandQueue& q;
  const int groups = cg_sum_groups(n);
  cl::Buffer r = s.vector(), p = s.vector(), sv = s.vector(), w = s.vector(),
             u = jacobi ? s.vector() : cl::Buffer(), dinv = jacobi ? s.vector() : cl::Buffer(),
             scratch = jacobi ? s.vector() : cl::Buffer();  // pcg_dots' m, unused here
  cl::Buffer partial =
      make_buffer(q.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE, size_t(groups) * 3 * sizeof(T));
  std::shared_ptr<T> host = cg_sums_host<T>(q, groups, false);
  cl::Kernel dots = kernel(q, "cg.cl", "pcg_dots", cg_defines<T>(jacobi, on_gpu(q)));
  cl::Kernel update = kernel(q, "cg.cl", "cg1_update", cg_defines<T>(jacobi, on_gpu(q)));

  Single(CgSpace<T>& space, bool j) : s(space), jacobi(j), n(space.n()), q(space.queue()) {}

  cl::Buffer& input() { return jacobi ? u : r; }              // u = M^-1 r, the SpMV's input
  const cl::Buffer& dinv_arg() { return jacobi ? dinv : r; }  // unread without JACOBI

  // w = A u, then v = the global (r,u), (w,u), (r,r): one launch, one read, one reduction.
  void spmv_and_sums(double v[3]) {
    s.spmv(input(), w);
    v[0] = v[1] = v[2] = 0;
    if (n) {
      set_args(dots, cl_int(n), r, w, dinv_arg(), jacobi ? scratch : r, partial);
      launch(q, dots, size_t(groups) * kCgLocal, kCgLocal);
      cg_read_sums(s, host.get(), {{&partial, groups}}, v);
    }
    s.start_sum(v, 3);
    s.finish_sum();
  }
  // r = b - A x (b when x = 0), u = M^-1 r, p = s = 0 (the next step's beta is 0), the sums.
  void restart(const cl::Buffer& b, cl::Buffer& x, bool x_zero, double v[3]) {
    if (!x_zero) s.spmv(x, w);
    if (n) {
      copy<T>(q, n, b, r);
      if (!x_zero) axpby<T>(q, n, T(-1), w, T(1), r);
      if (jacobi) scale<T>(q, n, dinv, r, u);
      fill<T>(q, p, n, T(0));
      fill<T>(q, sv, n, T(0));
    }
    spmv_and_sums(v);
  }
  void step(double alpha, double beta, cl::Buffer& x) {
    if (!n) return;
    set_args(update, cl_int(n), T(alpha), T(beta), w, sv, r, p, x, dinv_arg(), jacobi ? u : r);
    launch(q, update, cg_round_up(size_t(n)), kCgLocal);
  }
};

}  // namespace

template <typename T>
CgResult cg_single(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& o) {
  Single<T> st(s, o.preconditioner == Preconditioner::jacobi);
  CgResult res;
  if (st.jacobi) s.inverse_diagonal(st.dinv);
  const double bb = rhs_norm(s, b, res);
  if (!std::isfinite(bb)) return res;
  if (st.n) fill<T>(st.q, x, st.n, T(0));
  double v[3];  // (r,u), (w,u), (r,r)
  st.restart(b, x, true, v);
  auto norm = [&] { return std::sqrt(std::max(0.0, v[2])) / bb; };
  res.residuals.push_back(norm());
  bool verified = true, restarted = true;  // the first residual is a true one, beta = 0
  auto verify = [&] {
    st.restart(b, x, false, v);
    res.residuals.back() = norm();
    ++res.replacements;
    verified = restarted = true;
  };
  double gamma_old = 0, alpha_old = 0;
  CgStagnation<T> stagnation;
  for (int k = 0; k < o.maxit; ++k) {
    if (!std::isfinite(v[2])) {
      res.breakdown = cg_breakdown(k, "(r,r)", v[2]);
      break;
    }
    if (res.residuals.back() <= o.tol) {
      if (stagnation.at_tolerance(s, x, res, o.tol, verified, verify)) break;
      --k;
      continue;
    }
    const double gamma = v[0], delta = v[1];
    const double beta = restarted ? 0.0 : gamma / gamma_old;
    const double curvature = restarted ? delta : delta - beta * gamma / alpha_old;
    if (!restarted && !(curvature >= kCgCancellation<T> * delta && std::isfinite(curvature))) {
      verify();  // cancellation (rounding) or a bad recurrence: from the true residual
      --k;
      continue;
    }
    if (!(res.breakdown = cg_breakdown(k, "p'Ap", curvature)).empty()) break;
    const double alpha = gamma / curvature;
    st.step(alpha, beta, x);
    verified = restarted = false;
    st.spmv_and_sums(v);
    gamma_old = gamma, alpha_old = alpha;
    res.residuals.push_back(norm());
    res.iterations = k + 1;
  }
  if (res.breakdown.empty() && !verified && res.residuals.back() <= o.tol) verify();
  return res;
}

template CgResult cg_single<float>(CgSpace<float>&, const cl::Buffer&, cl::Buffer&,
                                   const CgOptions&);
template CgResult cg_single<double>(CgSpace<double>&, const cl::Buffer&, cl::Buffer&,
                                    const CgOptions&);

}  // namespace lockstep::detail
