// The copy-bandwidth ceiling for the tuner's "% of copy bandwidth" column: a float4 copy of up
// to 1 GiB (a quarter of the largest allocation), best of 10, cached per device in the tuning
// database (routine "copy_bw").
#include <algorithm>

#include "lockstep/spmv_tuner.hpp"
#include "lockstep/tuning_db.hpp"

namespace lockstep {

double copy_bandwidth_gbs(Context& ctx) {
  TuningDb db(ctx.info());
  if (auto e = db.find("copy_bw", "float4"))
    if (e->metrics.contains("gbs")) return e->metrics["gbs"].get<double>();
  size_t cap = ctx.info().is_gpu() ? size_t(1) << 30 : size_t(64) << 20;  // CPUs: keep it short
  size_t bytes = std::min<size_t>(cap, ctx.info().max_alloc_bytes / 4);
  bytes = std::max<size_t>(bytes / 16 * 16, 16);
  int n4 = int(bytes / 16);
  cl::Buffer src = make_buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
  cl::Buffer dst = make_buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
  check(ctx.queue().enqueueFillBuffer(src, 1.0f, 0, bytes), "clEnqueueFillBuffer");
  Defines d;
  d.set("LOCAL_SIZE", 256);
  cl::Kernel k = ctx.kernel("copy.cl", "copy4", d);
  set_args(k, n4, src, dst);
  size_t groups = std::min<size_t>((size_t(n4) + 255) / 256, size_t(ctx.info().compute_units) * 64);
  double best = 1e300;
  for (int i = 0; i < 12; ++i) {
    double ms = event_ms(launch(ctx.queue(), k, groups * 256, 256));
    if (i >= 2) best = std::min(best, ms);
  }
  double gbs = 2.0 * double(bytes) / (best * 1e6);
  db.store({"copy_bw", "float4", {{"bytes", bytes}}, {}, {{"gbs", gbs}, {"ms", best}}, ""});
  return gbs;
}

}  // namespace lockstep
