// Internal to src/cg: the two algorithms behind lockstep::cg and cl/cg.cl's build options.
#pragma once
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "lockstep/cg.hpp"
#include "runtime/pinned.hpp"

namespace lockstep::detail {

constexpr int kCgLocal = 256;  // LOCAL_SIZE of cl/cg.cl

/// cl/cg.cl's options; `gpu`: pcg_update_spmv's row loop unrolled twice (ROW_UNROLL 2; CPUs 1:
/// PoCL cannot unroll it and says so on every build).
template <typename T>
Defines cg_defines(bool jacobi, bool gpu) {
  Defines d;
  set_value_type<T>(d).set("LOCAL_SIZE", kCgLocal).set("JACOBI", jacobi ? 1 : 0);
  return d.set("ROW_UNROLL", gpu ? 2 : 1);
}
inline bool on_gpu(const cl::CommandQueue& q) {
  return q.getInfo<CL_QUEUE_DEVICE>().getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU;
}

inline size_t cg_round_up(size_t n) { return (n + kCgLocal - 1) / kCgLocal * kCgLocal; }

/// Work-groups of cl/cg.cl's reducing kernels (pcg_dots, pcg_update, cg1_update's sums) over n
/// rows: one per LOCAL_SIZE rows, 1 to 1024 (each leaves 3 partial sums for the host).
inline int cg_sum_groups(int n) {
  return int(std::clamp<size_t>(cg_round_up(size_t(n)) / kCgLocal, 1, 1024));
}

/// A curvature below this fraction of (w,u) kept fewer than half of T's digits through the
/// subtraction (w,u) - beta (r,u) / alpha (pipelined and single-reduction CG).
template <typename T>
constexpr double kCgCancellation = std::is_same_v<T, float> ? 2.5e-4 : 1.5e-8;

/// Enqueues the read of a 3-value partial-sums buffer of `groups` groups into `to` (no flush).
template <typename T>
cl::Event cg_enqueue_sums(cl::CommandQueue& q, const cl::Buffer& partial, int groups, T* to) {
  cl::Event read;
  check(
      q.enqueueReadBuffer(partial, CL_FALSE, 0, size_t(groups) * 3 * sizeof(T), to, nullptr, &read),
      "clEnqueueReadBuffer");
  return read;
}

/// Host memory for `groups` 3-value partial sums: pinned (runtime/pinned.hpp) where its reads
/// are queued behind other work, else plain. Into pageable memory such a read held NVIDIA's
/// in-order queue until the host waited for it: pipelined CG's boundary launch and exchange,
/// enqueued behind its sums reads, started only when read_sums waited (`--iteration-timeline` on
/// 4 H200s: the pack began 0.3 ms after the reads ended). A read the host waits for
/// at once keeps plain memory: pinned, one-rank pipelined CG ran 0.96-1.07 ms an iteration in
/// six runs, plain 0.97-0.99 in four (the same call; the same code otherwise).
template <typename T>
std::shared_ptr<T> cg_sums_host(cl::CommandQueue& q, int groups, bool queued) {
  const size_t n = size_t(groups) * 3;
  if (queued) return pinned<T>(q, n);
  return std::shared_ptr<T>(new T[n](), std::default_delete<T[]>());
}

/// v = the sums of the first `count` values of `host`, 3-value partials (r,u), (w,u), (r,r), added
/// in group order: the same bits every run.
template <typename T>
void cg_add_sums(const T* host, size_t count, double v[3]) {
  v[0] = v[1] = v[2] = 0;
  for (size_t i = 0; i < count; i += 3)
    for (size_t k = 0; k < 3; ++k) v[k] += double(host[i + k]);
}

/// v = the sums of the 3-value partials in `parts` (a buffer and its group count each), read
/// into `host` in one flush without blocking MPI (CgSpace::wait) and added in group order.
/// `reads`: the first and the last read's events.
template <typename T>
void cg_read_sums(CgSpace<T>& s, T* host,
                  std::initializer_list<std::pair<const cl::Buffer*, int>> parts, double v[3],
                  std::pair<cl::Event, cl::Event>* reads = nullptr) {
  cl::CommandQueue& q = s.queue();
  cl::Event read;
  size_t at = 0;
  for (const auto& [buffer, groups] : parts) {
    read = cg_enqueue_sums(q, *buffer, groups, host + at);
    if (reads && !at) reads->first = read;
    at += size_t(groups) * 3;
  }
  if (reads) reads->second = read;
  check(q.flush(), "clFlush");
  s.wait(read);
  cg_add_sums(host, at, v);
}

/// The reason for a curvature (p'Ap, or pipelined CG's delta - beta gamma / alpha) that is
/// not positive or not finite, or "" when it is fine.
inline std::string cg_breakdown(int iteration, const char* what, double curvature) {
  if (curvature > 0 && std::isfinite(curvature)) return "";
  std::ostringstream why;
  why << "breakdown at iteration " << iteration << ": " << what << " = " << curvature
      << (std::isfinite(curvature) ? " <= 0: the matrix is not positive definite (indefinite, "
                                     "singular or zero)"
                                   : ": the matrix or vectors hold NaN or Inf");
  return why.str();
}

/// dst = src on n values (a copy: axpby(1, src, 0, dst) would turn garbage in dst into NaN).
template <typename T>
void copy(cl::CommandQueue& q, int n, const cl::Buffer& src, cl::Buffer& dst) {
  if (n) check(q.enqueueCopyBuffer(src, dst, 0, 0, size_t(n) * sizeof(T)), "clEnqueueCopyBuffer");
}

/// Convergence checks whose true residual b - A x stays above tol: the recursive residual went
/// below tol, the true one did not (rounding: tol is below the accuracy the precision can
/// attain for this matrix). Restarting from the true residual then only repeats this, up to
/// maxit; after kChecks checks in a row that did not lower the best true residual by kGain,
/// `stalled` says stop, `restore` puts back the x of the best check and `why` says at which
/// floor.
template <typename T>
struct CgStagnation {
  static constexpr int kChecks = 5;
  static constexpr double kGain = 0.5;
  double best = HUGE_VAL, floor = HUGE_VAL;  // the best true residual and the last mark
  int checks = 0;                            // since the best last fell by kGain
  cl::Buffer best_x;                         // the x of `best`
  /// Records the true residual of a check that was above tol (and x when it is the best);
  /// true: stop.
  bool stalled(CgSpace<T>& s, const cl::Buffer& x, double true_residual) {
    if (true_residual < best) {
      best = true_residual;
      if (!best_x()) best_x = s.vector();
      copy<T>(s.queue(), s.n(), x, best_x);
    }
    if (best <= kGain * floor) floor = best, checks = 0;
    return ++checks > kChecks;
  }
  /// At a residual at or below tol: stop when it is a true one (`verified`); else verify()
  /// replaces it by the true residual, and one above tol that has stalled puts the best x back,
  /// with its residual and the reason in `res`. true: stop; false: iterate again (the pass
  /// uncounted).
  template <typename Verify>
  bool at_tolerance(CgSpace<T>& s, cl::Buffer& x, CgResult& res, double tol, bool verified,
                    Verify&& verify) {
    if (verified) return true;
    verify();
    if (res.residuals.back() <= tol || !stalled(s, x, res.residuals.back())) return false;
    res.stagnation = why(tol);
    res.residuals.back() = restore(s, x);
    return true;
  }
  /// x = the best check's x; returns its true residual.
  double restore(CgSpace<T>& s, cl::Buffer& x) const {
    copy<T>(s.queue(), s.n(), best_x, x);
    return best;
  }
  std::string why(double tol) const {
    std::ostringstream m;
    m << "stagnation: the true residual ||b - Ax|| / ||b|| stays at " << best << " (best over "
      << kChecks + 1 << " convergence checks) above tol " << tol << ": the accuracy "
      << (std::is_same_v<T, float> ? "float" : "double") << " attains for this matrix"
      << (std::is_same_v<T, float> ? "; solve in double (float64) for a smaller residual" : "");
    return m.str();
  }
};

/// y = d .* x on n values (cl/cg.cl's cg_scale).
template <typename T>
void scale(cl::CommandQueue& q, int n, const cl::Buffer& d, const cl::Buffer& x, cl::Buffer& y);

/// ||b|| (1 when b = 0, so residuals are absolute), or NaN after recording a breakdown in `res`
/// when b is not finite.
template <typename T>
double rhs_norm(CgSpace<T>& s, const cl::Buffer& b, CgResult& res) {
  const double bb = std::sqrt(s.dot(b, b));
  if (std::isfinite(bb)) return bb == 0 ? 1.0 : bb;
  res.breakdown = "the right-hand side is not finite";
  res.residuals.push_back(bb);
  return bb;
}

/// Classic CG from x = 0, or (from_x) from the x given.
template <typename T>
CgResult cg_classic(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& o,
                    bool from_x = false);
template <typename T>
CgResult cg_single(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& o);
template <typename T>
CgResult cg_pipelined(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& o);

}  // namespace lockstep::detail
