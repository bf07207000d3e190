// Global barriers for persistent kernels (cl/barrier.cl). An algorithm picks a barrier and a
// number of work-groups G (or asks default_barrier), builds its kernel with the
// barrier's Defines merged into its own, checks G against max_coresident_groups for that very
// kernel, zeroes the state with reset() and launches G groups. Kernels call
// `global_barrier(state, &round)` whatever the barrier, and start with
// `if (barrier_discovery(state)) return;` so occupancy can be discovered with the same kernel.
#pragma once
#include <string>
#include <vector>

#include "lockstep/runtime.hpp"

namespace lockstep {

/// The global barriers, declared once: (enum name, name, cl/contract.h BARRIER_*) in Barrier
/// order; Barrier, to_string, parse_barrier, all_barriers (the CLI's --barrier words, the kernel
/// registry's builds) and the check against cl/contract.h come from it. A new barrier is a line
/// here, its BARRIER_* in cl/contract.h and its code in cl/barrier.cl (and in
/// src/barrier/barrier.cpp when it needs a group limit or -D parameters of its own).
#define LOCKSTEP_BARRIERS(X)                            \
  X(relaunch, "relaunch", BARRIER_RELAUNCH)             \
  X(lock, "lock", BARRIER_LOCK)                         \
  X(grouped_lock, "grouped-lock", BARRIER_GROUPED_LOCK) \
  X(lock_free, "lock-free", BARRIER_LOCK_FREE)          \
  X(tree, "tree", BARRIER_TREE)

/// A global barrier (the CLI's --barrier): relaunch (one launch per step) or one of the in-kernel
/// algorithms.
#define LOCKSTEP_BARRIER_ENUM(name, text, code) name,
enum class Barrier { LOCKSTEP_BARRIERS(LOCKSTEP_BARRIER_ENUM) };
#undef LOCKSTEP_BARRIER_ENUM
using BarrierStrategy [[deprecated("BarrierStrategy is Barrier now")]] = Barrier;

/// Ordering variant of the NVIDIA path (cl/barrier_order.cl BARRIER_NV_ORDER): full
/// fence.acq_rel.gpu around every arrival and departure, one-directional acquire/release PTX, or
/// the latter with relaxed spins and one acquire load at the end. Other devices ignore it (C11
/// acquire/release, or mem_fence on plain OpenCL C 1.2).
enum class BarrierOrder { automatic = -1, fence = 0, acqrel = 1, acqrel_rspin = 2 };
/// "auto", "fence", "acqrel", "acqrel-rspin"; parse throws input_error on other names.
std::string to_string(BarrierOrder o);
BarrierOrder parse_barrier_order(const std::string& name);

/// A barrier's variant: ordering (automatic: $LOCKSTEP_BARRIER_ORDER, else the measured default)
/// and, for lock-free and tree, the spacing of flag words in ints (0: the default, 1 packed,
/// 32 one 128-byte line each).
struct BarrierVariant {
  BarrierOrder order = BarrierOrder::automatic;
  int flag_stride = 0;
  int lock_split = 0;  // lock: counters the arrivals are split over, 1..32 (0: 1, see below)
  int spin_ns = -1;    // lock, grouped-lock on NVIDIA: nanosleep between spin polls (-1: rule)
};
// The spin pause: a spinning work-item sleeps spin_ns nanoseconds (PTX nanosleep, NVIDIA only;
// other devices ignore it) between polls of the top-bit word, so fewer polls queue at its L2
// slice beside the arrivals. Rule (kDefaultGroupedSpinNs in barrier.cpp): 32 ns for
// grouped-lock, whose 1056 groups at full residency poll one word; 0 for lock (up to 2 groups
// per compute unit, where the poll's latency is the barrier's).
// The lock's split K: K > 1 spreads the arrivals over K counter words, so fewer of them queue on
// one word; every spinner then polls all K. H100 (BENCHMARKS.md), barriers alone
// (every group arriving at once): K = 2 took 1.22 us against 1.43 at 264 x 1024 and 0.92 against
// 0.96 at 132 x 256 (one word 0.5-3.5 % faster at 33 groups and fewer; K = 3 slower than 2);
// but the persistent radix sort (128 and 205 groups) ran 2-2.5 % slower with K = 2, its groups
// arriving spread out. So the default (default_lock_split) is one word (grid.sync()'s
// algorithm) except at two groups per compute unit on NVIDIA, where K = 2 (H200, 264 x 1024:
// 0.99 us against 1.19, grid.sync() 1.04).

/// Adds what cl/barrier_order.cl's flag_load_acquire / flag_store_release / flag_add_acq_rel need
/// on ctx's device: BARRIER_C11 (with -cl-std=CL2.0 on OpenCL C 2.x devices such as ROCm's,
/// CL3.0 on 3.0 devices, where C11 atomics exist), BARRIER_NV_PTX and BARRIER_NV_ORDER on
/// NVIDIA. LOCKSTEP_BARRIER_C11=0 forces the OpenCL C 1.2 path. Returns the path's name: "c11",
/// "mem_fence" or the NVIDIA order ("fence", "acqrel", "acqrel-rspin").
std::string add_flag_defines(const Context& ctx, Defines& d,
                             BarrierOrder order = BarrierOrder::automatic);
/// The same for a device described by `info` alone (kernel_builds(): ahead-of-time compiles).
std::string add_flag_defines(const DeviceInfo& info, Defines& d,
                             BarrierOrder order = BarrierOrder::automatic);

/// "relaunch", "lock", "grouped-lock", "lock-free", "tree".
std::string to_string(Barrier s);
/// Parses those names; throws input_error naming the accepted ones otherwise.
Barrier parse_barrier(const std::string& name);
const std::vector<Barrier>& all_barriers();
[[deprecated("parse_barrier_strategy is parse_barrier now")]] inline Barrier parse_barrier_strategy(
    const std::string& name) {
  return parse_barrier(name);
}
[[deprecated("all_barrier_strategies is all_barriers now")]] inline const std::vector<Barrier>&
all_barrier_strategies() {
  return all_barriers();
}

/// The default rule (from measurements, see BENCHMARKS.md ## barrier): which in-kernel barrier
/// to use for `groups` work-groups of `local_size` items. Never returns relaunch; callers fall
/// back to relaunch themselves when groups exceed max_coresident_groups.
Barrier default_barrier(const DeviceInfo& info, int groups, int local_size);
/// The lock barrier's arrival counters for `groups` work-groups when BarrierVariant::lock_split
/// is 0 (the defaults table's rule).
int default_lock_split(const DeviceInfo& info, int groups);
[[deprecated("default_barrier_strategy is default_barrier now")]] inline Barrier
default_barrier_strategy(const DeviceInfo& info, int groups, int local_size) {
  return default_barrier(info, groups, local_size);
}

/// The most work-groups `s` can serve in work-groups of local_size items: lock-free's master
/// group watches one group per work-item (G <= local size); the others have no limit of their own.
int barrier_group_limit(Barrier s, int local_size);

/// Work-groups of `kernel` (local_size items, local_mem bytes of dynamic local memory already set
/// as its arguments) that can be co-resident, discovered by running the kernel itself in
/// discovery mode (its argument 0 must be the barrier state: it is set to a scratch buffer, so
/// set it again afterwards). A CPU device answers its compute-unit count (one group per worker
/// thread); a GPU is measured in each process and never served a count read from disk
/// (occupancy.json only says when to measure again; README "What lockstep keeps on disk").
/// Cached in memory per (device, driver, kernel, build options, local size, local memory).
int max_coresident_groups(Context& ctx, cl::Kernel& kernel, size_t local_size, size_t local_mem);

/// One barrier configuration and its state buffer.
class GlobalBarrier {
 public:
  /// branch: tree branching factor (0: the default, about sqrt(G), at most local_size).
  /// Throws input_error when the barrier cannot serve G groups of local_size items.
  GlobalBarrier(Context& ctx, Barrier barrier, int groups, int local_size, int branch = 0,
                BarrierVariant variant = {});
  /// The configuration alone, for a device described by `info`: add_defines() and the shape
  /// work, state() is empty (kernel_builds() lists builds with it; nothing is launched).
  GlobalBarrier(const DeviceInfo& info, Barrier barrier, int groups, int local_size, int branch = 0,
                BarrierVariant variant = {});

  Barrier barrier() const { return barrier_; }
  [[deprecated("GlobalBarrier::strategy() is barrier() now")]] Barrier strategy() const {
    return barrier();
  }
  int groups() const { return groups_; }
  int local_size() const { return local_size_; }
  int group_size() const { return group_size_; }  // grouped-lock: work-groups per counter
  int branch() const { return branch_; }          // tree: branching factor
  int tree_levels() const;                        // tree: ceil(log_B G) + 1 (release level)
  bool in_kernel() const { return barrier_ != Barrier::relaunch; }
  int flag_stride() const { return flag_stride_; }           // lock-free, tree: ints between flags
  int lock_split() const { return lock_split_; }             // lock: arrival counters
  int spin_ns() const { return spin_ns_; }                   // lock, grouped-lock: spin pause
  const std::string& ordering() const { return ordering_; }  // see add_flag_defines

  /// Adds BARRIER_STRATEGY, the barrier's parameters and add_flag_defines' macros to d.
  Defines& add_defines(Defines& d) const;
  const cl::Buffer& state() const { return state_; }
  size_t state_ints() const { return state_ints_; }
  /// Zeroes the state; enqueue before every launch (rounds start at 0 in each launch).
  void reset(cl::CommandQueue& queue);
  /// Throws input_error when G exceeds `coresident` (a spin barrier would hang the device).
  void require_coresident(int coresident) const;

 private:
  Barrier barrier_;
  int groups_, local_size_, group_size_ = 0, branch_ = 0, flag_stride_ = 1, lock_split_ = 1,
                            spin_ns_ = 0;
  Defines ordering_defines_;
  std::string ordering_;
  size_t state_ints_;
  cl::Buffer state_;
};

/// One run of cl/barrier_bench.cl: `rounds` rounds of write, barrier, read a neighbour group's
/// values with ordinary loads, barrier. Throws input_error for refused configurations (including
/// more groups than co-resident), never launches them.
struct BarrierBenchResult {
  double ms = 0, us_per_barrier = 0;
  long long errors = 0;
  int branch = 0, levels = 0, flag_stride = 0, lock_split = 0, spin_ns = 0;
  std::string ordering;
};
/// check_data = false times the barriers alone (barrier_loop, as CUDA's grid.sync() anchor
/// does; errors then only counts lost rounds).
BarrierBenchResult bench_barrier(Context& ctx, Barrier barrier, int groups, int local_size,
                                 int rounds, int branch = 0, BarrierVariant variant = {},
                                 bool check_data = true);
/// The flag_ring kernel of cl/barrier_bench.cl: a token passed `rounds` times around `groups`
/// co-resident groups of local_size items through flag_store_release / flag_load_acquire (flags
/// `stride` ints apart), each hop checking the predecessor's data with ordinary loads. One hop is
/// one release -> acquire latency between groups, the unit a tree or lock-free barrier pays per
/// level. Refuses more groups than co-resident.
struct FlagRingResult {
  double us_per_hop = 0;
  long long errors = 0;
  std::string ordering;
};
FlagRingResult bench_flag_ring(Context& ctx, int groups, int local_size, int rounds, int stride,
                               BarrierOrder order = BarrierOrder::automatic);
/// The most groups the bench kernel can run with a barrier: co-resident, and no more than the
/// barrier serves (lock-free: the local size). What `--groups max` means.
int bench_kernel_coresident(Context& ctx, Barrier barrier, int local_size,
                            BarrierVariant variant = {});

}  // namespace lockstep
