// The barrier stress benchmark behind `lockstep bench barrier` and the tests: runs
// cl/barrier_bench.cl for one (strategy, groups, local size) and reports microseconds per barrier
// and the number of values a work-group read wrong after a barrier (ordinary loads).
#include <cstdlib>

#include "lockstep/barrier.hpp"

namespace lockstep {

int bench_kernel_coresident(Context& ctx, BarrierStrategy strategy, int local_size,
                            BarrierVariant variant) {
  // Relaunch has no limit of its own; "max" then means what the lock kernel can hold.
  if (strategy == BarrierStrategy::relaunch) strategy = BarrierStrategy::lock;
  GlobalBarrier probe(ctx,
                      strategy == BarrierStrategy::lock_free ? BarrierStrategy::lock : strategy, 1,
                      local_size, 0, variant);
  Defines d;
  probe.add_defines(d);
  cl::Kernel k = ctx.kernel("barrier_bench.cl", "barrier_bench", d);
  cl::Buffer dummy = make_buffer(ctx.context(), CL_MEM_READ_WRITE, sizeof(int));
  set_args(k, probe.state(), dummy, dummy, 0);
  return max_coresident_groups(ctx, k, size_t(local_size), 0);
}

BarrierBenchResult bench_barrier(Context& ctx, BarrierStrategy strategy, int groups, int local_size,
                                 int rounds, int branch, BarrierVariant variant) {
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
  } else {
    cl::Kernel k = ctx.kernel("barrier_bench.cl", "barrier_bench", d);
    set_args(k, bar.state(), data, errors, 0);
    bar.require_coresident(max_coresident_groups(ctx, k, size_t(local_size), 0));
    set_args(k, bar.state(), data, errors, rounds);
    bar.reset(q);
    r.ms = event_ms(launch(q, k, items, size_t(local_size)));
  }
  r.errors = download<int>(q, errors, 1)[0];
  r.us_per_barrier = rounds ? r.ms * 1000.0 / (2.0 * rounds) : 0.0;
  r.branch = bar.branch();
  r.levels = bar.tree_levels();
  r.flag_stride = bar.flag_stride();
  r.ordering = bar.ordering();
  return r;
}

}  // namespace lockstep
