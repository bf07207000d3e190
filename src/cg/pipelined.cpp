// Pipelined CG (Ghysels & Vanroose 2014, "Hiding global synchronization latency in the
// preconditioned Conjugate Gradient algorithm", Algorithm 2), with M^-1 = diag(dinv) or I.
// Per iteration: the three scalars gamma = (r,u), delta = (w,u), (r,r) arrive as per-group
// partial sums from the previous fused update (cl/cg.cl pcg_update), read in one transfer and
// summed on the host; their global sum is started (MPI_Iallreduce when distributed) and
// overlaps the SpMV n = A m; then one fused kernel updates z, s, p, x, r, w (and m = M^-1 w)
// and reduces the next scalars (with short rows, pcg_update_spmv also computes
// the SpMV itself, after the sum: nv never goes through memory, and distributed, the sum
// overlaps the halo exchange of the next SpMV's input instead, which the space moves while it
// waits: mpi::Reduction).
// Distributed, the update runs in two launches: first the rows other ranks read (the space's
// early_rows()), then the space starts the next SpMV's halo exchange, then the other rows: the
// exchange overlaps the rest of the update and the SpMV's interior rows, and the partial sums
// are read without blocking MPI (CgSpace::wait lets it progress). With short rows the SpMV is
// fused there too (CgSpace::local_parts): the interior rows, the boundary rows (the early ones)
// once their halo arrived, then the exchange of the new input (launch_fused says why it is safe);
// CgOptions::observer watches those steps (lockstep/cg_timeline.hpp times them).
// u = M^-1 r and q = M^-1 s are never stored: with a diagonal M
// they are recomputed from dinv. Every replace_every iterations the residual and the
// recurrences are recomputed from x (r = b - A x, w = A u, s = A p, z = A q): the rounding of
// the extra recurrences otherwise limits the attainable accuracy (Ghysels & Vanroose, sec. 4;
// Cools et al. 2018).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>

#include "cg_impl.hpp"
#include "lockstep/blas1.hpp"

namespace lockstep::detail {
namespace {

// Residual replacement (Cools et al. 2018). In double the recurrences keep the true residual
// for hundreds of iterations: every 100 (CgOptions::replace_every = -1), and a replacement
// whose true (r,r) exceeds the recursive one by kRestartGap (the norm by 1.5x) restarts the
// search directions. In float they drift apart within tens of iterations (laplace2d_64: the
// recursive residual 8x below the true one by iteration 100, then a negative curvature): every
// kFloatPeriod iterations, always restarting. Measured on PoCL to tol 1e-5 (classic: 95 and 1001
// iterations): laplace2d_64 107, a 1-D Laplacian of 2000 rows 1032 (every 50: 159 and 1107;
// every 100 without restarts: a breakdown at 100, and a divergence). Each gap halves the period,
// down to kMinPeriod; a gap at kMinPeriod hands x to classic CG (CgResult::fallback).
template <typename T>
constexpr bool kFloat = std::is_same_v<T, float>;
constexpr int kFloatPeriod = 20;
constexpr double kRestartGap = 2.25;
constexpr int kMinPeriod = 10;
// Double, by default: a replacement whose true (r,r) is within kQuietGap of the recursive one
// doubles the period, up to kMaxPeriod (each replacement costs four SpMVs and, distributed,
// restarts the exchange's overlap). Measured on PoCL (pipelined, b = A*1): the two (r,r) agreed
// within 1e-4 at every replacement every 50 iterations down to a residual of 1e-11
// (laplace2d 150, 400 and laplace3d 40, to 1e-12); doubling, laplace2d 400 to 1e-12 replaces 4
// times instead of 9 and takes classic's 889 iterations, as every 100 did (never: 1654).
constexpr double kQuietGap = 1e-3;
constexpr int kMaxPeriod = 400;
// A true (r,r) this far above the best one seen (the norm 10x) is a divergence.
constexpr double kDivergence = 100;

template <typename T>
struct Pipelined {
  CgSpace<T>& s;
  const bool jacobi;
  const int n;
  cl::CommandQueue& q;
  const int groups = cg_sum_groups(n);
  cl::Buffer r = s.vector(), w = s.vector(), z = s.vector(), sv = s.vector(), p = s.vector(), nv,
             m = jacobi ? s.vector() : cl::Buffer(), dinv = jacobi ? s.vector() : cl::Buffer(),
             tmp = s.vector();
  cl::Buffer partial =
      make_buffer(q.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE, size_t(groups) * 3 * sizeof(T));
  std::shared_ptr<T> host;  // groups + early_groups partials (pinned: queued_reads)
  cl::Kernel dots = kernel(q, "cg.cl", "pcg_dots", cg_defines<T>(jacobi, on_gpu(q)));
  cl::Kernel update;  // pcg_update, when the SpMV is not fused

  // Fused: the SpMV runs inside the update kernel, which gathers from m (Jacobi) or w and
  // writes the new w and m to w2 and m2, the other buffer of each pair. One device: one launch
  // on the whole matrix (parts.interior); distributed: the boundary part, then the interior.
  typename CgSpace<T>::Parts parts;
  bool fused = false, distributed = false;
  cl::Buffer w2, m2;
  cl::Kernel update_spmv;

  // Split update (distributed): rows n - early .. n-1 first, their partial sums apart.
  int early = 0, early_groups = 1;
  cl::Buffer partial_early;
  bool split = false;      // the last launch was the split update
  bool in_flight = false;  // the exchange of spmv_input() started, fused and distributed
  // The fused distributed update's sums reads, each behind its own launch (read_sums waits for
  // them), on a queue of their own: ahead of the exchange's pack and downloads, which they
  // waited behind when read_sums enqueued them, and off the kernels' queue, where each read
  // delayed the next kernel by 50-75 us (4 H200s, `--iteration-timeline`).
  std::pair<cl::Event, cl::Event> queued_reads;
  cl::CommandQueue reads;
  // CgOptions::observer on the fused distributed path, else one that does nothing
  CgObserver* watch = quiet();
  static CgObserver* quiet() {
    static CgObserver none;
    return &none;
  }
  bool watched() const { return watch != quiet(); }

  Pipelined(CgSpace<T>& space, bool j, bool fuse, CgObserver* t)
      : s(space), jacobi(j), n(space.n()), q(space.queue()) {
    if (fuse) choose_fused();
    if (fused && distributed && t) watch = t;
    // Fused distributed: the boundary rows are the early rows (local_parts says so).
    early =
        fused ? (distributed ? n - parts.interior->rows() : 0) : std::clamp(s.early_rows(), 0, n);
    early_groups = cg_sum_groups(early);
    partial_early = make_buffer(q.getInfo<CL_QUEUE_CONTEXT>(), CL_MEM_READ_WRITE,
                                size_t(early_groups) * 3 * sizeof(T));
    host = cg_sums_host<T>(q, groups + early_groups, fused && distributed);
    if (!fused) {
      nv = s.vector();
      update = kernel(q, "cg.cl", "pcg_update", cg_defines<T>(jacobi, on_gpu(q)));
      return;
    }
    if (distributed)
      reads = cl::CommandQueue(q.getInfo<CL_QUEUE_CONTEXT>(), q.getInfo<CL_QUEUE_DEVICE>(),
                               q.getInfo<CL_QUEUE_PROPERTIES>() & CL_QUEUE_PROFILING_ENABLE);
    w2 = s.vector();
    if (jacobi) m2 = s.vector();
    update_spmv = kernel(q, "cg.cl", "pcg_update_spmv", cg_defines<T>(jacobi, on_gpu(q)));
  }
  // Fused when the SpMV is one local product (local_matrix), or the two parts of a distributed
  // one (local_parts), whose every non-empty part runs one row per work-item; distributed, every
  // rank agrees (the fused and the split update exchange differently).
  void choose_fused() {
    auto row_per_item = [](const DeviceCsr<T>* a) {
      return a && (!a->rows() || a->automatic_config().row_per_item());
    };
    if (const DeviceCsr<T>* a = s.local_matrix()) {
      parts.interior = a;
      fused = a->rows() && row_per_item(a);
      return;
    }
    parts = s.local_parts();
    distributed = true;
    fused = s.all(row_per_item(parts.interior) && row_per_item(parts.boundary));
  }

  cl::Buffer& spmv_input() { return jacobi ? m : w; }  // m = M^-1 w
  const cl::Buffer& dinv_arg() { return jacobi ? dinv : r; }
  cl::Buffer& m_arg() { return jacobi ? m : r; }  // unread and unwritten without JACOBI

  // u = M^-1 v into m (Jacobi), else v itself; returns the buffer that holds u.
  cl::Buffer& precondition(cl::Buffer& v) {
    if (!jacobi) return v;
    scale<T>(q, n, dinv, v, m);
    return m;
  }
  // The local sums of the last dots/update launch (one transfer, two after a split update),
  // waited for through the space (distributed: MPI progresses meanwhile).
  void read_sums(double v[3]) {
    v[0] = v[1] = v[2] = 0;
    if (!n) return;
    if (queued_reads.second()) {
      // A blocking wait, not the space's polling one (s.wait: the exchange's progress between
      // polls of the event): the reads need nothing more from the host (their launches' halo
      // arrived in await_halo), and the exchange the boundary started moves on in the next
      // await_halo, behind the next interior rows. Polling, the host saw the last read 65 us
      // after it ended at 4 ranks (4 H200s).
      check(queued_reads.second.wait(), "clWaitForEvents");
      cg_add_sums(host.get(), size_t(groups + (split ? early_groups : 0)) * 3, v);
      watch->sums(queued_reads.first, queued_reads.second);
      queued_reads = {};
      return;
    }
    std::pair<cl::Event, cl::Event> reads;
    auto* r = watched() ? &reads : nullptr;
    if (split)
      cg_read_sums(s, host.get(), {{&partial, groups}, {&partial_early, early_groups}}, v, r);
    else
      cg_read_sums(s, host.get(), {{&partial, groups}}, v, r);
    if (r) watch->sums(reads.first, reads.second);
  }
  void launch_dots() {
    if (!n) return;
    set_args(dots, cl_int(n), r, w, dinv_arg(), m_arg(), partial);
    launch(q, dots, size_t(groups) * kCgLocal, kCgLocal);
    split = false;
  }
  // The update; `exchange`: the next SpMV is of the new input (no replacement in between), so
  // a split update starts its exchange once the early rows are final.
  void launch_update(double alpha, double beta, cl::Buffer& x, bool exchange) {
    if (fused) return launch_fused(alpha, beta, x, exchange);
    if (!n) return;
    split = early > 0;
    if (split) {
      set_args(update, cl_int(n - early), cl_int(n), T(alpha), T(beta), nv, z, w, sv, r, p, x,
               dinv_arg(), m_arg(), partial_early);
      launch(q, update, size_t(early_groups) * kCgLocal, kCgLocal);
      if (exchange) s.start_exchange(spmv_input());
    }
    set_args(update, cl_int(0), cl_int(n - early), T(alpha), T(beta), nv, z, w, sv, r, p, x,
             dinv_arg(), m_arg(), partial);
    launch(q, update, size_t(groups) * kCgLocal, kCgLocal);
  }
  // The update with the SpMV inside, rows first .. end-1 of `a` (its row 0 is row first).
  cl::Event launch_rows(const DeviceCsr<T>& a, int first, int end, double alpha, double beta,
                        cl::Buffer& x, cl::Buffer& sums, int sum_groups) {
    set_args(update_spmv, cl_int(first), cl_int(end), T(alpha), T(beta), a.row_ptr(), a.col_idx(),
             a.values(), spmv_input(), w, w2, z, sv, r, p, x, dinv_arg(), jacobi ? m2 : r, sums);
    return launch(q, update_spmv, size_t(sum_groups) * kCgLocal, kCgLocal);
  }
  // The read of `sums` (`sum_groups` partials, into host from partial `at` on) on the reads
  // queue, behind `launch`.
  cl::Event read_behind(const cl::Event& launch, const cl::Buffer& sums, int sum_groups, int at) {
    const std::vector<cl::Event> after{launch};
    cl::Event read;
    check(reads.enqueueReadBuffer(sums, CL_FALSE, 0, size_t(sum_groups) * 3 * sizeof(T),
                                  host.get() + size_t(at) * 3, &after, &read),
          "clEnqueueReadBuffer");
    check(q.flush(), "clFlush");  // the launch submitted before the read waits for it
    check(reads.flush(), "clFlush");
    return read;
  }
  // One device: one launch. Distributed, the order of the distributed SpMV (exchange_run.cpp):
  // the interior rows first (they read no halo), meanwhile the host completes the exchange of
  // this iteration's input that the last update started (at the start and after a replacement
  // none is in flight: await_halo runs one), then the boundary rows behind its uploads; they
  // hold every value other ranks read, so the exchange of the new input (w2, or m2) starts
  // after them and overlaps the next iteration's interior rows. (Boundary rows first, then the
  // exchange, then the interior: 0.494 ms an iteration against classic's 0.426 on 4 H200s,
  // weak 4-rank 1.35 ms against 0.99 on one: the boundary launch waited behind the uploads'
  // cross-queue barrier at the head of each iteration.) Each part's partial sums are read right
  // behind its launch, on a queue of their own, into pinned memory (cg_sums_host), ahead of the
  // exchange's pack and downloads: read last, behind them, the device idled 0.22 ms between
  // iterations at 4 ranks; now 0.03 (4 H200s: 0.394 ms an iteration against 0.438 in
  // the same run). The buffer pairs make the overlap safe across ranks: an exchange uploads into
  // the halo slots of the new input, which no kernel of this iteration reads (they gather from the
  // old one and write the new one's rows 0..n-1 only) and whose last readers, the previous
  // iteration's kernels, have ended (the host read their partial sums before it got here);
  // other ranks' values come through staging, sent once their own boundary rows wrote them.
  void launch_fused(double alpha, double beta, cl::Buffer& x, bool exchange) {
    const int ni = parts.interior->rows();
    if (n) {
      const cl::Event interior_launch =
          launch_rows(*parts.interior, 0, ni, alpha, beta, x, partial, groups);
      watch->interior(interior_launch);
      if (distributed) queued_reads.first = read_behind(interior_launch, partial, groups, 0);
    }
    if (distributed) s.await_halo(spmv_input());
    in_flight = false;
    if (watched()) watch->halo(s.exchange_events());
    split = distributed && early > 0;
    if (split) {
      const cl::Event boundary_launch =
          launch_rows(*parts.boundary, ni, n, alpha, beta, x, partial_early, early_groups);
      watch->boundary(boundary_launch);
      queued_reads.second = read_behind(boundary_launch, partial_early, early_groups, groups);
    } else if (queued_reads.first()) {
      queued_reads.second = queued_reads.first;
    }
    if (distributed && exchange)
      s.start_exchange(jacobi ? m2 : w2), in_flight = true, watch->exchanged();
    std::swap(w, w2);
    if (jacobi) std::swap(m, m2);
  }
  // r = b - A x; w = A M^-1 r; s = A p; z = A M^-1 s; then the scalars. Fused and distributed,
  // the exchange of the next SpMV's input (w, or m = M^-1 w from pcg_dots) starts behind them
  // (start_next_exchange; so at the start): it moves while the host reads and reduces the sums,
  // as an update's does, and the next update's await_halo completes it.
  void replace(const cl::Buffer& b, cl::Buffer& x) {
    watch->replaced();
    s.spmv(x, tmp);
    copy<T>(q, n, b, r);
    if (n) axpby<T>(q, n, T(-1), tmp, T(1), r);
    s.spmv(precondition(r), w);
    s.spmv(p, sv);
    s.spmv(precondition(sv), z);
    launch_dots();
    start_next_exchange();
  }
  void start_next_exchange() {
    if (fused && distributed) s.start_exchange(spmv_input()), in_flight = true;
  }
  // The exchange in flight at the solve's end (started by the last update or replacement):
  // completed (collective: every rank ends the same way), so that the solve leaves none behind.
  void finish() {
    if (in_flight) s.await_halo(spmv_input());
    in_flight = false;
  }
};

}  // namespace

template <typename T>
CgResult cg_pipelined(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& o) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  };
  const auto start = Clock::now();
  Pipelined<T> st(s, o.preconditioner == Preconditioner::jacobi, o.fuse_spmv, o.observer);
  const int n = st.n;
  cl::CommandQueue& q = st.q;
  CgResult res;
  res.spmv_fused = st.fused;
  const double bb = rhs_norm(s, b, res);
  if (!std::isfinite(bb)) return res;
  if (st.jacobi) s.inverse_diagonal(st.dinv);
  if (n) {
    for (cl::Buffer* v : {&x, &st.z, &st.sv, &st.p}) fill<T>(q, *v, n, T(0));
    copy<T>(q, n, b, st.r);  // r = b - A*0
  }
  s.spmv(st.precondition(st.r), st.w);  // w = A u
  st.launch_dots();
  st.start_next_exchange();
  double v[3], gamma_old = 0, alpha_old = 0;
  st.read_sums(v);
  // A replacement that finds the true residual far from the recursive one (float: the
  // recurrences' rounding grows, Cools et al. 2018) restarts the directions (beta = 0): beta's
  // gamma / gamma_old would otherwise mix the two residuals and break down (negative
  // curvature) on an SPD matrix. Convergence is declared on a true residual only: a recursive
  // residual below tol triggers a replacement first.
  bool restart = false, replaced_now = false;
  // Replaces the residual and its recurrences from x (v holds the recursive sums), restarts
  // the directions when the two residuals differ, and has the loop redo iteration `next`.
  int k = 0, since_replace = 0;
  double best = v[2];  // the smallest true (r,r) seen
  int period = o.replace_every >= 0 ? o.replace_every : kFloat<T> ? kFloatPeriod : 100;
  auto replace_and_check = [&](int next) {
    const auto t0 = Clock::now();
    const double recursive = v[2];
    st.replace(b, x);
    ++res.replacements;
    st.read_sums(v);
    if (!kFloat<T> && o.replace_every < 0 && std::abs(v[2] - recursive) <= kQuietGap * recursive)
      period = std::min(kMaxPeriod, 2 * period);
    if (v[2] > kRestartGap * recursive) {
      if (period == kMinPeriod)  // drifting apart faster than replacements can follow
        res.fallback = "pipelined's residual recurrences lost the true residual within " +
                       std::to_string(kMinPeriod) + " iterations; classic CG from iteration " +
                       std::to_string(next);
      restart = true, period = std::max(kMinPeriod, period / 2);
    }
    if (v[2] > kDivergence * best)
      res.fallback = "pipelined's true residual grew " +
                     std::to_string(int(std::sqrt(v[2] / best))) +
                     "x above its best (rounding, an ill-conditioned matrix); classic CG from "
                     "iteration " +
                     std::to_string(next);
    best = std::min(best, v[2]);
    replaced_now = true;
    since_replace = 0;
    if (next == k) res.residuals.pop_back();
    k = next - 1;
    res.replacement_ms += since(t0);
  };
  CgStagnation<T> stagnation;
  res.start_ms = since(start);
  for (;; ++k) {
    s.start_sum(v, 3);                              // gamma, delta, (r,r): global sum in flight ...
    if (!st.fused) s.spmv(st.spmv_input(), st.nv);  // ... while n = A m runs
    s.finish_sum();
    st.watch->reduced();
    const double gamma = v[0], delta = v[1];
    res.residuals.push_back(std::sqrt(std::max(0.0, v[2])) / bb);
    if (!std::isfinite(v[2])) {
      res.breakdown = cg_breakdown(k, "(r,r)", v[2]);
      break;
    }
    if (res.residuals.back() <= o.tol) {
      if (replaced_now || !k) break;  // a true residual (or x = 0's)
      replace_and_check(k);  // verify it; the nv computed above belongs to the old w: redo it
      if (!res.fallback.empty()) break;
      const double true_residual = std::sqrt(std::max(0.0, v[2])) / bb;
      if (true_residual > o.tol && stagnation.stalled(s, x, true_residual)) {
        res.residuals.push_back(stagnation.restore(s, x));
        res.stagnation = stagnation.why(o.tol);
        break;
      }
      continue;
    }
    if (k >= o.maxit) break;
    const double beta = k && !restart ? gamma / gamma_old : 0.0;
    const double curvature = beta != 0.0 ? delta - beta * gamma / alpha_old : delta;
    res.breakdown = cg_breakdown(k, "(w,u) - beta (r,u) / alpha", curvature);
    if (beta != 0.0 && (!res.breakdown.empty() || curvature < kCgCancellation<T> * delta)) {
      // delta - beta gamma / alpha lost its digits to cancellation (rounding, float): a
      // non-positive or tiny curvature would stop or throw x far off. Replace and restart: a
      // restarted curvature is u'Au itself, so a breakdown then is the matrix's.
      res.breakdown.clear();
      replace_and_check(k);
      restart = true;
      if (!res.fallback.empty()) break;
      continue;
    }
    if (!res.breakdown.empty()) break;
    const double alpha = gamma / curvature;
    st.watch->enter(k);
    st.launch_update(alpha, beta, x, !(period > 0 && since_replace + 1 >= period));
    gamma_old = gamma, alpha_old = alpha;
    restart = replaced_now = false;
    res.iterations = k + 1;
    if (period > 0 && ++since_replace >= period) {
      st.read_sums(v);
      replace_and_check(k + 1);
      if (!res.fallback.empty()) break;  // cg() goes on with classic CG from x
      continue;
    }
    st.read_sums(v);
  }
  st.finish();
  st.watch->finish();
  return res;
}

template CgResult cg_pipelined<float>(CgSpace<float>&, const cl::Buffer&, cl::Buffer&,
                                      const CgOptions&);
template CgResult cg_pipelined<double>(CgSpace<double>&, const cl::Buffer&, cl::Buffer&,
                                       const CgOptions&);

}  // namespace lockstep::detail
