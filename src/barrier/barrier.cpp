// Strategy names, the default choice rule and the GlobalBarrier configuration: which -D options
// cl/barrier.cl needs, how large its zero-filled state is, and which (strategy, G, local size)
// combinations are refused before any launch could hang.
#include "lockstep/barrier.hpp"

#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <sstream>

#include "cl/contract.h"
#include "runtime/defaults.hpp"
#include "runtime/environment.hpp"

namespace lockstep {

// The public enums are the numbers the kernels test (BARRIER_STRATEGY, BARRIER_NV_ORDER).
#define LOCKSTEP_BARRIER_CONTRACT(name, text, code) \
  static_assert(int(Barrier::name) == code, "Barrier::" #name " differs from cl/contract.h");
LOCKSTEP_BARRIERS(LOCKSTEP_BARRIER_CONTRACT)
#undef LOCKSTEP_BARRIER_CONTRACT
static_assert(int(BarrierOrder::fence) == BARRIER_ORDER_FENCE &&
              int(BarrierOrder::acqrel) == BARRIER_ORDER_ACQREL &&
              int(BarrierOrder::acqrel_rspin) == BARRIER_ORDER_ACQREL_RSPIN);

namespace {

// The measured defaults (BENCHMARKS.md, Barriers): the NVIDIA ordering variant and the spacing
// of lock-free / tree flag words. Change them here from new numbers.
// On the H100 relaxed spins then one acquire were fastest for every strategy and size
// (lock 132 x 256: fence 1.306 us, acqrel 1.000, acqrel-rspin 0.947), with zero errors.
constexpr BarrierOrder kDefaultNvOrder = BarrierOrder::acqrel_rspin;
constexpr int kDefaultFlagStride = 1;
// The spin pause of grouped-lock on NVIDIA (ns between polls of the top word; BarrierVariant).
// 1056 x 256, barriers alone, beside grid.sync() in one run: H100 no pause 2.068 us,
// 16 ns 1.995, 32 ns 1.954, 64 ns 2.046 (grid.sync 2.234); H200 0 / 32 / 100 / 300 ns 1.80 / 1.66
// / 1.72 / 1.72 (grid.sync 2.21). The lock gains nothing (H100 132 x 256: 0.958 us without,
// 0.983 with 32 ns; 264 x 1024 1.431 / 1.422), so it keeps 0.
constexpr int kDefaultGroupedSpinNs = 32;
constexpr int kMaxSpinNs = 100000;
int round_line(int n) { return (n + BARRIER_LINE - 1) / BARRIER_LINE * BARRIER_LINE; }
int ceil_sqrt(int n) {
  int s = int(std::sqrt(double(n)));
  while (s * s < n) ++s;
  return std::max(1, s);
}

}  // namespace

std::string to_string(Barrier s) {
#define LOCKSTEP_BARRIER_NAME(name, text, code) text,
  static const char* const names[] = {LOCKSTEP_BARRIERS(LOCKSTEP_BARRIER_NAME)};
#undef LOCKSTEP_BARRIER_NAME
  return size_t(s) < std::size(names) ? names[size_t(s)] : "?";
}

std::string to_string(BarrierOrder o) {
  switch (o) {
    case BarrierOrder::automatic:
      return "auto";
    case BarrierOrder::fence:
      return "fence";
    case BarrierOrder::acqrel:
      return "acqrel";
    case BarrierOrder::acqrel_rspin:
      return "acqrel-rspin";
  }
  return "?";
}

BarrierOrder parse_barrier_order(const std::string& name) {
  for (auto o : {BarrierOrder::automatic, BarrierOrder::fence, BarrierOrder::acqrel,
                 BarrierOrder::acqrel_rspin})
    if (to_string(o) == name) return o;
  throw input_error("unknown barrier order '" + name +
                    "' (expected auto, fence, acqrel or acqrel-rspin)");
}

// The C11 path's language version: ROCm reports OpenCL C 2.0 and refuses -cl-std=CL3.0; PoCL
// 3.1 (OpenCL C 3.0) refuses CL2.0 (its 2.0 headers lack the __global atomic_*_explicit
// overloads). Follow the device's own OpenCL C version.
static std::string c11_std_option(const DeviceInfo& info) {
  return info.opencl_c_version.find("OpenCL C 2.") != std::string::npos ? "-cl-std=CL2.0"
                                                                        : "-cl-std=CL3.0";
}

std::string add_flag_defines(const Context& ctx, Defines& d, BarrierOrder order) {
  return add_flag_defines(ctx.info(), d, order);
}

std::string add_flag_defines(const DeviceInfo& di, Defines& d, BarrierOrder order) {
  bool c11 = di.c20_atomics;
  // LOCKSTEP_BARRIER_C11=0 forces the OpenCL C 1.2 path (what NVIDIA runs) on any device.
  if (env::is_zero("LOCKSTEP_BARRIER_C11")) c11 = false;
  d.set("BARRIER_C11", c11 ? 1 : 0);
  if (c11) {
    d.flag(c11_std_option(di));
    return "c11";
  }
  // On the H100, mem_fence(CLK_GLOBAL_MEM_FENCE) did not make other groups' stores visible to
  // ordinary loads (every read after the barrier was stale): use GPU-scope PTX orderings.
  bool nv = di.wave_width == 32 && di.is_nvidia();
  if (!nv) return "mem_fence";
  if (order == BarrierOrder::automatic) {
    const auto v = env::value("LOCKSTEP_BARRIER_ORDER");
    order = v ? parse_barrier_order(*v) : BarrierOrder::automatic;
    if (order == BarrierOrder::automatic) order = kDefaultNvOrder;
  }
  d.set("BARRIER_NV_PTX", 1).set("BARRIER_NV_ORDER", int(order));
  return to_string(order);
}

const std::vector<Barrier>& all_barriers() {
#define LOCKSTEP_BARRIER_VALUE(name, text, code) Barrier::name,
  static const std::vector<Barrier> all{LOCKSTEP_BARRIERS(LOCKSTEP_BARRIER_VALUE)};
#undef LOCKSTEP_BARRIER_VALUE
  return all;
}

Barrier parse_barrier(const std::string& name) {
  for (auto s : all_barriers())
    if (to_string(s) == name) return s;
  std::string names;  // spelled by to_string only
  for (auto s : all_barriers()) names += (names.empty() ? "" : ", ") + to_string(s);
  throw input_error("unknown barrier '" + name + "' (expected " + names + ")");
}

// The default: `lock` up to the defaults table's lock_groups_per_cu groups per compute unit,
// its `beyond` strategy above (runtime/defaults.cpp; the H100 measurement in BENCHMARKS.md,
// "Defaults as data": GPUs lock up to 2 per CU, grouped-lock above; CPUs lock).
Barrier default_barrier(const DeviceInfo& info, int groups, int) {
  const defaults::BarrierDefault rule = defaults::lookup<defaults::BarrierDefault>(info);
  const long long cus = std::max<long long>(1, info.compute_units);
  if (groups <= rule.lock_groups_per_cu * double(cus)) return Barrier::lock;
  return rule.beyond;
}

// The lock's default split: the defaults table's `split` from split_groups_per_cu groups per
// compute unit, else one word (grid.sync()'s algorithm).
int default_lock_split(const DeviceInfo& info, int groups) {
  const defaults::BarrierDefault rule = defaults::lookup<defaults::BarrierDefault>(info);
  const long long cus = std::max<long long>(1, info.compute_units);
  const bool split =
      rule.split_groups_per_cu > 0 && groups >= rule.split_groups_per_cu * double(cus);
  return split ? rule.split : 1;
}

int barrier_group_limit(Barrier s, int local_size) {
  // Lock-free: the master group watches every group with one work-item of its own.
  return s == Barrier::lock_free ? local_size : std::numeric_limits<int>::max();
}

GlobalBarrier::GlobalBarrier(Context& ctx, Barrier strategy, int groups, int local_size, int branch,
                             BarrierVariant variant)
    : GlobalBarrier(ctx.info(), strategy, groups, local_size, branch, variant) {
  state_ = make_buffer(ctx.context(), CL_MEM_READ_WRITE, state_ints_ * sizeof(int));
  reset(ctx.queue());
}

GlobalBarrier::GlobalBarrier(const DeviceInfo& info, Barrier strategy, int groups, int local_size,
                             int branch, BarrierVariant variant)
    : barrier_(strategy), groups_(groups), local_size_(local_size) {
  ordering_ = add_flag_defines(info, ordering_defines_, variant.order);
  flag_stride_ = variant.flag_stride ? variant.flag_stride : kDefaultFlagStride;
  if (flag_stride_ != 1 && flag_stride_ != BARRIER_LINE)
    throw input_error("global barrier: flag stride must be 1 or " + std::to_string(BARRIER_LINE) +
                      ", got " + std::to_string(flag_stride_));
  if (groups < 1)
    throw input_error("global barrier: groups must be >= 1, got " + std::to_string(groups));
  if (local_size < 1 || size_t(local_size) > info.max_work_group_size)
    throw input_error("global barrier: local size " + std::to_string(local_size) + " outside 1.." +
                      std::to_string(info.max_work_group_size));
  // nanosleep is PTX: only where the ordering path is (the macro cl/barrier.cl's pause tests)
  const bool nv_ptx = ordering_defines_.values().count("BARRIER_NV_PTX") > 0;
  if (variant.spin_ns < -1 || variant.spin_ns > kMaxSpinNs)
    throw input_error("global barrier: spin pause " + std::to_string(variant.spin_ns) +
                      " ns outside 0.." + std::to_string(kMaxSpinNs) + " (-1: the rule)");
  const bool top_bit = strategy == Barrier::lock || strategy == Barrier::grouped_lock;
  if (nv_ptx && top_bit)
    spin_ns_ = variant.spin_ns >= 0                ? variant.spin_ns
               : strategy == Barrier::grouped_lock ? kDefaultGroupedSpinNs
                                                   : 0;
  int arrays = 0;
  switch (strategy) {
    case Barrier::relaunch:
      break;
    case Barrier::lock:
      lock_split_ = variant.lock_split ? variant.lock_split : default_lock_split(info, groups);
      if (lock_split_ < 1 || lock_split_ > 32)
        throw input_error("lock barrier: split " + std::to_string(lock_split_) + " outside 1..32");
      if (lock_split_ > 1) arrays = BARRIER_LINE * lock_split_;
      break;
    case Barrier::grouped_lock:
      group_size_ = ceil_sqrt(groups);  // minimises ceil(G/g) + g
      arrays = BARRIER_LINE * ((groups + group_size_ - 1) / group_size_);
      break;
    case Barrier::lock_free:
      if (groups > barrier_group_limit(strategy, local_size))
        throw input_error("lock-free barrier: " + std::to_string(groups) +
                          " groups exceed the work-group size " + std::to_string(local_size) +
                          " (the master group has one work-item per group); use tree");
      arrays = 2 * round_line(groups * flag_stride_);
      break;
    case Barrier::tree: {
      branch_ = branch ? branch : std::max(2, std::min(local_size, ceil_sqrt(groups)));
      if (branch_ < 2 || branch_ > local_size)
        throw input_error("tree barrier: branching factor " + std::to_string(branch_) +
                          " outside 2..local size " + std::to_string(local_size));
      for (int c = groups; c > 1; c = (c + branch_ - 1) / branch_)
        arrays += round_line(c * flag_stride_);
      break;
    }
  }
  state_ints_ = BARRIER_ARRAYS + arrays;
}

int GlobalBarrier::tree_levels() const {
  if (barrier_ != Barrier::tree) return 0;
  int levels = 1;
  for (int c = groups_; c > 1; c = (c + branch_ - 1) / branch_) ++levels;
  return levels;
}

Defines& GlobalBarrier::add_defines(Defines& d) const {
  d.set("BARRIER_STRATEGY", int(barrier_));
  for (const auto& [name, value] : ordering_defines_.values()) d.set(name, value);
  for (const auto& f : ordering_defines_.flags()) d.flag(f);  // -cl-std of the C11 path
  if (barrier_ == Barrier::lock_free || barrier_ == Barrier::tree)
    d.set("BARRIER_FLAG_STRIDE", flag_stride_);
  if (barrier_ == Barrier::grouped_lock) d.set("BARRIER_GROUP_SIZE", group_size_);
  if (barrier_ == Barrier::lock) d.set("BARRIER_LOCK_SPLIT", lock_split_);
  if (barrier_ == Barrier::lock || barrier_ == Barrier::grouped_lock)
    d.set("BARRIER_SPIN_NS", spin_ns_);
  if (barrier_ == Barrier::tree) d.set("BARRIER_BRANCH", branch_);
  return d;
}

void GlobalBarrier::reset(cl::CommandQueue& queue) {
  check(queue.enqueueFillBuffer(state_, cl_int(0), 0, state_ints_ * sizeof(int)),
        "clEnqueueFillBuffer");
}

void GlobalBarrier::require_coresident(int coresident) const {
  if (!in_kernel() || groups_ <= coresident) return;
  std::ostringstream s;
  s << to_string(barrier_) << " barrier: " << groups_ << " work-groups of " << local_size_
    << " items requested but only " << coresident
    << " can be co-resident on this device for this kernel (a spin barrier would hang); use at "
       "most "
    << coresident << " groups or the relaunch barrier";
  throw input_error(s.str());
}

}  // namespace lockstep
