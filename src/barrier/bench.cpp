// The barrier stress benchmark behind `lockstep bench barrier` and the tests: runs
// cl/barrier_bench.cl for one (strategy, groups, local size) and reports microseconds per barrier
// and the number of values a work-group read wrong after a barrier (ordinary loads); and the
// flag-ring hop latency (one release -> acquire between groups).
#include <cstdlib>

#include "cl/contract.h"
#include "lockstep/barrier.hpp"
#include "lockstep/persistent.hpp"

namespace lockstep {

int bench_kernel_coresident(Context& ctx, Barrier strategy, int local_size,
                            BarrierVariant variant) {
  // PersistentKernel's "as many as the kernel and the strategy can hold". Relaunch has no limit
  // of its own; "max" then means what the lock kernel can hold.
  PersistentConfig cfg;
  cfg.barrier = strategy == Barrier::relaunch ? Barrier::lock : strategy;
  cfg.local_size = local_size;
  cfg.variant = variant;
  return PersistentKernel(ctx, "barrier_bench.cl", "barrier_bench", {}, cfg).groups();
}

BarrierBenchResult bench_barrier(Context& ctx, Barrier strategy, int groups, int local_size,
                                 int rounds, int branch, BarrierVariant variant, bool check_data) {
  GlobalBarrier bar(ctx, strategy, groups, local_size, branch, variant);
  auto& q = ctx.queue();
  size_t items = size_t(groups) * size_t(local_size);
  cl::Buffer data = make_buffer(ctx.context(), CL_MEM_READ_WRITE, items * sizeof(cl_uint));
  cl::Buffer errors = upload(q, std::vector<int>{0});
  Defines d;
  bar.add_defines(d);
  BarrierBenchResult r;
  if (!bar.in_kernel()) {
    cl::Kernel k = ctx.kernel("barrier_bench.cl", "barrier_bench_phase", d);
    cl::Event first, last;
    for (int i = 0; i < rounds; ++i)
      for (int phase = 0; phase < 2; ++phase) {
        set_args(k, data, errors, i, phase);
        last = launch(q, k, items, size_t(local_size));
        if (i == 0 && phase == 0) first = last;
      }
    r.ms = rounds ? event_ms(first, last) : 0.0;
  } else {  // one persistent launch: PersistentKernel discovers co-residency and refuses excess
    PersistentConfig cfg;
    cfg.barrier = strategy;
    cfg.groups = groups;
    cfg.local_size = local_size;
    cfg.branch = branch;
    cfg.variant = variant;
    PersistentKernel pk(ctx, "barrier_bench.cl", check_data ? "barrier_bench" : "barrier_loop", {},
                        cfg);
    pk.set_args(data, errors, rounds);
    r.ms = event_ms(pk.launch());
  }
  r.errors = download<int>(q, errors, 1)[0];
  r.us_per_barrier = rounds ? r.ms * 1000.0 / (2.0 * rounds) : 0.0;
  r.branch = bar.branch();
  r.levels = bar.tree_levels();
  r.flag_stride = bar.flag_stride();
  r.lock_split = bar.lock_split();
  r.spin_ns = bar.spin_ns();
  r.ordering = bar.ordering();
  return r;
}

FlagRingResult bench_flag_ring(Context& ctx, int groups, int local_size, int rounds, int stride,
                               BarrierOrder order) {
  if (groups < 1 || rounds < 1 || (stride != 1 && stride != BARRIER_LINE))
    throw input_error("flag ring: groups and rounds must be >= 1 and stride 1 or " +
                      std::to_string(BARRIER_LINE));
  Defines d;
  FlagRingResult r;
  r.ordering = add_flag_defines(ctx, d, order);
  d.set("BARRIER_STRATEGY", static_cast<long long>(BARRIER_RELAUNCH));
  cl::Kernel k = ctx.kernel("barrier_bench.cl", "flag_ring", d);
  auto& q = ctx.queue();
  cl::Buffer state = upload(q, std::vector<int>(BARRIER_ARRAYS, 0));
  cl::Buffer dummy = make_buffer(ctx.context(), CL_MEM_READ_WRITE, sizeof(int));
  set_args(k, state, dummy, dummy, dummy, 0, stride);  // discovery returns before using them
  int coresident = max_coresident_groups(ctx, k, size_t(local_size), 0);
  if (groups > coresident)
    throw input_error("flag ring: " + std::to_string(groups) + " groups of " +
                      std::to_string(local_size) + " items requested but only " +
                      std::to_string(coresident) + " can be co-resident");
  size_t items = size_t(groups) * size_t(local_size);
  cl::Buffer flags = upload(q, std::vector<int>(size_t(groups) * size_t(stride), 0));
  cl::Buffer data = make_buffer(ctx.context(), CL_MEM_READ_WRITE, 2 * items * sizeof(cl_uint));
  cl::Buffer errors = upload(q, std::vector<int>{0});
  set_args(k, state, flags, data, errors, rounds, stride);
  double ms = event_ms(launch(q, k, items, size_t(local_size)));
  r.errors = download<int>(q, errors, 1)[0];
  r.us_per_hop = ms * 1000.0 / (double(rounds) * groups);
  return r;
}

}  // namespace lockstep
