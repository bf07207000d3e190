// Conjugate gradients for symmetric positive definite A x = b, written only against lockstep's
// public API (SpMV, fill, axpby, dot, and cl/cg.cl's vector kernels): the one solver that
// `lockstep cg` and the distributed driver (`lockstep cg --distributed`) run.
//
//   lockstep::Context ctx;
//   lockstep::DeviceCsr<double> dA(ctx, A);
//   std::vector<double> x;
//   lockstep::CgResult r = lockstep::cg(ctx, dA, b, x, {1e-8});   // x: the solution
//
// Three algorithms with the same iterates in exact arithmetic:
// - classic: Hestenes-Stiefel, two (Jacobi: three) dot products per iteration, each a round trip
//   to the host (and an MPI_Allreduce when distributed);
// - single-reduction: Chronopoulos-Gear (src/cg/single.cpp): the SpMV of the preconditioned
//   residual, A p by recurrence, one fused update kernel and one kernel for the three scalars,
//   read once and summed once (one MPI_Allreduce when distributed) per iteration;
// - pipelined: Ghysels & Vanroose (2014), Algorithm 2: one fused update kernel per iteration that
//   also reduces the next iteration's three scalars into one small buffer, read once; the global
//   sum (MPI_Iallreduce when distributed) overlaps the SpMV. When the matrix's SpMV runs one row
//   per work-item, the update kernel computes the SpMV itself (nothing to overlap the sum with
//   then; the SpMV's output never goes through memory: CgOptions::fuse_spmv); distributed, the
//   halo exchange of its output overlaps the interior rows' update.
//   Extra recurrences cost rounding:
//   every `replace_every` iterations the residual and its recurrences are recomputed from x
//   (residual replacement; four extra SpMVs), more often in float. Both algorithms declare
//   convergence on a true residual: a recursive residual below tol is checked against b - A x.
// Preconditioner: none or Jacobi (diagonal scaling; the diagonal must be positive).
//
// The solvers run over a CgSpace: n() local values, queue(), vector() (a work vector), spmv,
// a global dot, the local inverse diagonal and a non-blocking global sum of a few scalars.
// DeviceSpace is one device (below); lockstep::mpi::DistributedSpace (lockstep/mpi.hpp) is a
// matrix split over MPI ranks. A breakdown (a curvature p'Ap, or its pipelined equivalent, not
// positive or not finite: an indefinite, singular, zero or NaN-holding matrix) stops the
// iteration and says why in CgResult::breakdown, never as a silent NaN.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "lockstep/error.hpp"
#include "lockstep/runtime.hpp"
#include "lockstep/spmv.hpp"

namespace lockstep {

enum class CgAlgorithm { classic, pipelined, single_reduction };
enum class Preconditioner { none, jacobi };
std::string to_string(CgAlgorithm a);
std::string to_string(Preconditioner p);
/// "classic" | "pipelined" | "single-reduction"; anything else throws input_error listing the
/// names.
CgAlgorithm parse_cg_algorithm(const std::string& name);
/// "none" | "jacobi"; anything else throws input_error listing the names.
Preconditioner parse_preconditioner(const std::string& name);

class CgObserver;  // below

struct CgOptions {
  double tol = 1e-8;  // relative residual ||r|| / ||b|| to reach
  int maxit = 0;      // iteration limit; 0: max(100, 10 n)
  CgAlgorithm algorithm = CgAlgorithm::classic;
  Preconditioner preconditioner = Preconditioner::none;
  // pipelined: residual replacement period (0: never; -1: 100 in double, doubled up to 400 while
  // the true and recursive residuals agree, 20 in float, where each replacement also restarts
  // the directions: src/cg/pipelined.cpp says why)
  int replace_every = -1;
  // pipelined: on one device (CgSpace::local_matrix), or distributed (CgSpace::local_parts),
  // when the SpMV runs one row per work-item (the tuned or predicted choice, as for stencils;
  // distributed: for both parts on every rank), compute the SpMV inside the update kernel: two
  // vector passes and one launch fewer per iteration. false: always a separate SpMV.
  bool fuse_spmv = true;
  // pipelined, fused and distributed: told of each step of the iterations (null: nothing
  // watches, no cost). lockstep/cg_timeline.hpp's iteration timeline is one.
  CgObserver* observer = nullptr;
};

struct CgResult {
  int iterations = 0;
  bool converged = false;
  std::vector<double> residuals;  // ||r_k|| / ||b||, k = 0..iterations (the iteration's r)
  std::string breakdown;          // empty, or why the iteration had to stop
  // empty, or why the iteration stopped early without converging: the true residual b - A x
  // stagnated above tol over several convergence checks (tol below what the precision can
  // reach; the message gives the floor reached and suggests double)
  std::string stagnation;
  int replacements = 0;     // residual replacements (pipelined) and checks of a converged
                            // recursive residual against b - A x (both)
  std::string fallback;     // pipelined: why and where it went on as classic CG, else empty (its
                            // recurrences kept losing the true residual: float, ill-conditioned A)
  bool spmv_fused = false;  // pipelined: the SpMV ran inside the update kernel
  // Host wall-clock ms: the whole solve (lockstep::cg, to its queue's end) and, of pipelined CG,
  // its start (||b||, the inverse diagonal, the first SpMV and sums) and its residual
  // replacements (each: its four SpMVs and its local sums read). The rest, steady_ms(), is the
  // iterations' (classic and single-reduction: all of it).
  double solve_ms = 0, start_ms = 0, replacement_ms = 0;
  double steady_ms() const { return std::max(0.0, solve_ms - start_ms - replacement_ms); }
};

/// The device events of a halo exchange (null where none ran): what an observer reads.
struct ExchangeEvents {
  cl::Event pack;
  std::vector<cl::Event> downloads, uploads;
};

/// Watches pipelined CG's fused distributed iteration (CgSpace::local_parts, several ranks) step
/// by step (CgOptions::observer); every call does nothing unless overridden. The events are the
/// iteration's own launches and reads (profiling on the space's queue).
class CgObserver {
 public:
  virtual ~CgObserver() = default;
  virtual void enter(int k) { (void)k; }                  // before iteration k's update
  virtual void interior(const cl::Event& e) { (void)e; }  // its interior launch
  virtual void halo(ExchangeEvents e) { (void)e; }  // await_halo returned (the exchange it ended)
  virtual void boundary(const cl::Event& e) { (void)e; }  // its boundary launch
  virtual void exchanged() {}                             // start_exchange returned
  virtual void sums(const cl::Event& first, const cl::Event& last) { (void)first, (void)last; }
  virtual void reduced() {}   // the sums' global sum finished
  virtual void replaced() {}  // a residual replacement
  virtual void finish() {}    // the solve ended
};

/// What a space distributed over several processes adds to CgSpace (CgSpace::distributed()):
/// the scalars' global sum, the halo exchange and its overlap with the update.
template <typename T>
class CgDistributed {
 public:
  virtual ~CgDistributed() = default;
  /// Global sum of v[0..k) in place: started here, complete after finish_sum().
  virtual void start_sum(double* v, int k) = 0;
  virtual void finish_sum() = 0;
  /// The last early_rows() local rows hold every value that spmv sends to another process (0:
  /// nothing is sent). Pipelined CG updates them first, calls start_exchange on the SpMV's
  /// input, then updates the rest: the exchange overlaps that update and the SpMV's interior.
  virtual int early_rows() const = 0;
  virtual void start_exchange(cl::Buffer& x) = 0;
  /// The local rows as two local CSR products over local column indices (the owned columns,
  /// then the halo): `interior` gives rows [0, interior->rows()) and reads no halo; `boundary`
  /// gives the rest, reads x's halo, and holds every value another process reads (the last
  /// early_rows() rows). Both null where there is no such split (a single process, or some
  /// interior row is read elsewhere). Pipelined CG then folds the SpMV into its update, part by
  /// part.
  struct Parts {
    const DeviceCsr<T>* interior = nullptr;
    const DeviceCsr<T>* boundary = nullptr;
  };
  virtual Parts local_parts() const = 0;
  /// x's halo (the exchange start_exchange(x) began, else one run now) arrived, its uploads
  /// ordered before the next command on the space's queue. Collective, like start_exchange.
  virtual void await_halo(cl::Buffer& x) = 0;
  /// The events of the last exchange start_exchange or await_halo ran (a CgObserver's).
  virtual ExchangeEvents exchange_events() const = 0;
  /// Whether `mine` holds on every process (collective): choices that change the exchanges.
  virtual bool all(bool mine) = 0;
  /// Waits for e, letting the exchange and the reduction progress meanwhile.
  virtual void wait(const cl::Event& e) = 0;
};

/// Where a CG runs: one device, or one rank's share of a distributed matrix. A space gives its
/// vectors, its SpMV, its dot product and its inverse diagonal; a distributed one also
/// distributed() (the non-virtual calls below go there, and do the one-process thing without).
template <typename T>
class CgSpace {
 public:
  using value_type = T;
  using Parts = typename CgDistributed<T>::Parts;
  virtual ~CgSpace() = default;
  virtual int n() const = 0;  // local values
  virtual cl::CommandQueue& queue() = 0;
  virtual cl::Buffer vector() const = 0;  // n() values (plus halo room where spmv needs it)
  virtual void spmv(cl::Buffer& x, cl::Buffer& y) = 0;               // y = A x, local rows
  virtual double dot(const cl::Buffer& x, const cl::Buffer& y) = 0;  // global
  /// dinv = 1 / diag(A) on the local rows; throws input_error naming a row whose diagonal is
  /// not positive.
  virtual void inverse_diagonal(cl::Buffer& dinv) = 0;
  /// The matrix, when y = A x is this one local CSR product with no communication (one device,
  /// or a single rank); else null. Pipelined CG then folds a one-row-per-work-item SpMV into
  /// its update kernel.
  virtual const DeviceCsr<T>* local_matrix() const { return nullptr; }
  /// Several processes' share: what they add (null: one process, nothing to exchange).
  virtual CgDistributed<T>* distributed() { return nullptr; }
  const CgDistributed<T>* distributed() const { return const_cast<CgSpace*>(this)->distributed(); }

  // CgDistributed's calls, or what they mean on one process.
  void start_sum(double* v, int k) {
    if (auto* d = distributed()) d->start_sum(v, k);
  }
  void finish_sum() {
    if (auto* d = distributed()) d->finish_sum();
  }
  int early_rows() const { return distributed() ? distributed()->early_rows() : 0; }
  void start_exchange(cl::Buffer& x) {
    if (auto* d = distributed()) d->start_exchange(x);
  }
  Parts local_parts() const { return distributed() ? distributed()->local_parts() : Parts{}; }
  void await_halo(cl::Buffer& x) {
    if (auto* d = distributed()) d->await_halo(x);
  }
  ExchangeEvents exchange_events() const {
    return distributed() ? distributed()->exchange_events() : ExchangeEvents{};
  }
  bool all(bool mine) { return distributed() ? distributed()->all(mine) : mine; }
  void wait(const cl::Event& e) {
    if (auto* d = distributed())
      d->wait(e);
    else
      check(e.wait(), "clWaitForEvents");
  }
};

/// dinv[offset + r] = 1 / a(r, offset + r) for the rows of `a` (a part whose local row r has
/// its diagonal in column offset + r). Returns -1, or a (local) row whose diagonal is not
/// positive.
template <typename T>
int inverse_diagonal(cl::CommandQueue& q, const DeviceCsr<T>& a, int offset, cl::Buffer& dinv);
/// What every CgSpace::inverse_diagonal throws for a (global) row whose diagonal is not
/// positive: one wording for the device and the distributed spaces.
input_error jacobi_diagonal_error(long long row);

/// One device, the whole matrix.
template <typename T>
class DeviceSpace : public CgSpace<T> {
 public:
  DeviceSpace(cl::CommandQueue& q, const DeviceCsr<T>& a) : q_(q), a_(a) {}
  int n() const override { return a_.rows(); }
  cl::CommandQueue& queue() override { return q_; }
  cl::Buffer vector() const override;
  void spmv(cl::Buffer& x, cl::Buffer& y) override;  // tuned or predicted kernel
  double dot(const cl::Buffer& x, const cl::Buffer& y) override;
  void inverse_diagonal(cl::Buffer& dinv) override;
  const DeviceCsr<T>* local_matrix() const override { return &a_; }

 private:
  cl::CommandQueue& q_;
  const DeviceCsr<T>& a_;
};

/// b and x hold n() local values (x from s.vector()); x is overwritten with the solution.
template <typename T>
CgResult cg(CgSpace<T>& s, const cl::Buffer& b, cl::Buffer& x, const CgOptions& opt = {});

/// One device, buffers: b and x hold A.rows() values.
template <typename T>
CgResult cg(cl::CommandQueue& q, const DeviceCsr<T>& A, const cl::Buffer& b, cl::Buffer& x,
            const CgOptions& opt = {}) {
  DeviceSpace<T> s(q, A);
  return cg<T>(s, b, x, opt);
}
template <typename T>
CgResult cg(Context& ctx, const DeviceCsr<T>& A, const cl::Buffer& b, cl::Buffer& x,
            const CgOptions& opt = {}) {
  return cg<T>(ctx.queue(), A, b, x, opt);
}
/// One device, host vectors: x is resized to A.rows() and receives the solution.
template <typename T>
CgResult cg(Context& ctx, const DeviceCsr<T>& A, const std::vector<T>& b, std::vector<T>& x,
            const CgOptions& opt = {});

}  // namespace lockstep
