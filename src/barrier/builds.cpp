// The barrier family's builds for kernel_builds(): cl/barrier_bench.cl under every strategy,
// flag spacing and ordering, and the helper that crosses a persistent kernel's own -D set with
// every barrier configuration PersistentKernel can build it with.
#include <algorithm>

#include "cl/contract.h"
#include "lockstep/kernel_builds.hpp"
#include "lockstep/persistent.hpp"

namespace lockstep::detail {
namespace {

// The group counts whose barrier options are built: 1 (PersistentKernel's probe) and two
// compute units' worth (a real launch; only constants such as BARRIER_GROUP_SIZE and
// BARRIER_BRANCH depend on it).
std::vector<int> group_counts(const DeviceInfo& d, Barrier s, int local_size) {
  const int many = int(2 * std::max(1u, d.compute_units));
  return {1, std::min(many, barrier_group_limit(s, local_size))};
}

void add(const DeviceInfo& d, const std::string& family, const std::string& file,
         const Defines& base, Barrier s, int local_size, BarrierVariant v,
         std::vector<KernelBuild>& out) {
  for (int g : group_counts(d, s, local_size)) {
    const GlobalBarrier plan(d, s, g, local_size, 0, v);
    out.push_back({family, file, persistent_defines(base, local_size, plan).options()});
  }
}

}  // namespace

void persistent_kernel_builds(const DeviceInfo& d, const std::string& family,
                              const std::string& file, const Defines& defines, int local_size,
                              std::vector<KernelBuild>& out, bool every_strategy) {
  for (Barrier s : all_barriers())
    if (every_strategy || s == Barrier::lock) add(d, family, file, defines, s, local_size, {}, out);
}

void barrier_kernel_builds(const DeviceInfo& d, std::vector<KernelBuild>& out) {
  // The persistent kernels of bench_barrier / bench_kernel_coresident (barrier_bench,
  // barrier_loop): every strategy, both flag spacings, every NVIDIA ordering (the others ignore
  // it: duplicates are dropped by kernel_builds()); the CLI's default local size 256.
  for (BarrierOrder o : {BarrierOrder::automatic, BarrierOrder::fence, BarrierOrder::acqrel,
                         BarrierOrder::acqrel_rspin})
    for (int stride : {1, BARRIER_LINE}) {
      for (Barrier s : all_barriers())
        add(d, "barrier", "barrier_bench.cl", {}, s, 256, {o, stride}, out);
      // Relaunch's barrier_bench_phase and flag_ring: the barrier's options without LOCAL_SIZE.
      Defines phase;
      GlobalBarrier(d, Barrier::relaunch, 1, 256, 0, {o, stride}).add_defines(phase);
      out.push_back({"barrier", "barrier_bench.cl", phase.options()});
    }
  // The plain-load test kernel of tests/test_persistent.cpp (its work-groups of 64).
  persistent_kernel_builds(d, "barrier", "persistent_check.cl", {}, 64, out);
}

}  // namespace lockstep::detail
