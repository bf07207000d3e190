// One persistent launcher for every algorithm that runs "one persistent kernel with a global
// barrier, or one launch per phase" (sort, alignment, BFS, the barrier bench). It builds the
// kernel with the barrier's -D options and LOCAL_SIZE, discovers how many work-groups of it can
// be co-resident (with the kernel itself, see max_coresident_groups), owns the group policy
// (the useful maximum, co-residency, the strategy's own limit), resolves `auto`, refuses or
// clamps a count that would hang, falls back to relaunch where the in-kernel barrier cannot
// serve, launches, and builds sibling kernels of the same program options.
//
// The kernel (in cl/<family>.cl) takes the barrier state as argument 0 and is written as phases:
//   #include "barrier.cl"
//   __kernel void my_kernel(__global volatile int* state, ..., int phase_begin, int phase_end) {
//     if (barrier_discovery(state)) return;
//     int round = 0;
//     for (int p = phase_begin; p < phase_end; ++p) { ...phase p...; global_barrier(state, &round);
//     }
//   }
// Under relaunch, global_barrier() is a no-op and run_phases() launches once per phase.
//
//   lockstep::PersistentKernel pk(ctx, "my.cl", "my_kernel", defines, {lockstep::auto_barrier});
//   pk.run_phases(P, [&](int b, int e) { pk.set_args(data, n, b, e); });
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "lockstep/barrier.hpp"

namespace lockstep {

/// "auto" (empty), or a barrier name: the CLI's --barrier vocabulary.
using BarrierChoice = std::optional<Barrier>;
inline const BarrierChoice auto_barrier{};
BarrierChoice parse_barrier_choice(const std::string& name);  // throws input_error
std::string to_string(const BarrierChoice& s);
using StrategyChoice [[deprecated("StrategyChoice is BarrierChoice now")]] = BarrierChoice;
[[deprecated("auto_strategy is auto_barrier now")]] inline const BarrierChoice auto_strategy{};
[[deprecated("parse_strategy_choice is parse_barrier_choice now")]] inline BarrierChoice
parse_strategy_choice(const std::string& name) {
  return parse_barrier_choice(name);
}

struct PersistentConfig {
  BarrierChoice barrier;   // empty: auto (default rule; relaunch when the groups cannot fit)
  int groups = 0;          // 0: the useful maximum that the kernel and the strategy can hold
  int max_groups = 0;      // the useful maximum (e.g. work units: more groups would idle); 0:
                           // none. Relaunch needs no co-residency and launches this many.
  int local_size = 256;    // reaches the kernel as LOCAL_SIZE
  size_t local_mem = 0;    // bytes of all the kernel's __local arguments together
  int branch = 0;          // tree branching factor (0: the default)
  bool clamp = false;      // an explicit strategy with too many explicit groups: clamp, not refuse
  BarrierVariant variant;  // ordering and flag spacing (default: the device's best)
};

/// The build options PersistentKernel gives its program: `defines`, LOCAL_SIZE = local_size and
/// the barrier's (kernel_builds() lists them with it).
Defines persistent_defines(const Defines& defines, int local_size, const GlobalBarrier& barrier);

class PersistentKernel {
 public:
  /// Builds and resolves; throws input_error when an explicit in-kernel strategy was asked for
  /// more groups than are co-resident (and clamp is off), or cannot serve the configuration.
  PersistentKernel(Context& ctx, const std::string& file, const std::string& name,
                   const Defines& defines, const PersistentConfig& config);

  /// The barrier it resolved to (the CLI's --barrier word; PersistentConfig::barrier's `auto`
  /// resolved).
  Barrier barrier() const { return barrier_->barrier(); }
  [[deprecated("PersistentKernel::strategy() is barrier() now")]] Barrier strategy() const {
    return barrier();
  }
  bool in_kernel() const { return barrier_->in_kernel(); }
  int groups() const { return barrier_->groups(); }
  int local_size() const { return barrier_->local_size(); }
  int coresident() const { return coresident_; }  // of this kernel, as discovered
  size_t global_size() const { return size_t(groups()) * size_t(local_size()); }
  /// The barrier object itself (its strategy, groups and the kernel state it resets).
  const GlobalBarrier& global_barrier() const { return *barrier_; }
  cl::Kernel& kernel() { return kernel_; }
  /// The program's build options: the caller's Defines, LOCAL_SIZE and the barrier's.
  Defines defines() const;
  /// Another kernel of the same file and options (a step launched beside the persistent one).
  cl::Kernel sibling(const std::string& name) const;

  /// Sets the kernel's arguments after the barrier state (argument 0 is set already).
  template <typename... Args>
  void set_args(const Args&... args) {
    cl_uint i = 1;
    (set_arg(kernel_, i++, args), ...);
  }
  /// Zeroes the barrier state (in-kernel strategies) and enqueues groups() x local_size().
  cl::Event launch();
  /// `phases` phases: one launch over [0, phases) in-kernel, else one launch per phase;
  /// bind(begin, end) sets the arguments before each launch. Returns the first and last events.
  std::pair<cl::Event, cl::Event> run_phases(int phases, const std::function<void(int, int)>& bind);

 private:
  void build(Barrier s, int groups);
  Context* ctx_;
  std::string file_, name_;
  Defines defines_;
  PersistentConfig config_;
  int coresident_ = 0;
  std::optional<GlobalBarrier> barrier_;
  cl::Kernel kernel_;
  cl::Buffer scratch_;  // placeholder argument of discovery launches
};

}  // namespace lockstep
