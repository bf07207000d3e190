// The ceiling behind the tuner's "% of copy bandwidth" column: the device's DRAM copy bandwidth,
// read + write, of a float4 copy of a buffer well above its last-level cache (8x
// CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, at least 64 MiB; 1 GiB on GPUs; at most a quarter of the
// largest allocation), best of 10 timed copies after 2 warm-ups.
//
// Measured in every tuning run, beside the candidates, and not stored: a figure measured once
// on a busy machine (2.8 GB/s on a loaded 2-core PoCL host) would stay wrong for good, and the
// copies cost well under a second against a tuning run of many seconds. A matrix whose working
// set stays in cache can exceed the ceiling (%copy above 100).
#include <algorithm>

#include "lockstep/kernel_builds.hpp"
#include "lockstep/spmv_tuner.hpp"

namespace lockstep {

static Defines copy_defines() { return Defines().set("LOCAL_SIZE", 256); }

void detail::copy_kernel_builds(const DeviceInfo&, std::vector<KernelBuild>& out) {
  out.push_back({"copy", "copy.cl", copy_defines().options()});
}

double copy_bandwidth_gbs(Context& ctx) {
  const DeviceInfo& info = ctx.info();
  cl_ulong llc = 0;
  ctx.device().getInfo(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, &llc);  // 0 when the device does not say
  size_t want = std::max<size_t>(size_t(64) << 20, size_t(llc) * 8);
  size_t cap = info.is_gpu() ? size_t(1) << 30 : size_t(256) << 20;  // CPUs: keep it short
  size_t bytes =
      std::min<size_t>(info.is_gpu() ? cap : std::min(want, cap), info.max_alloc_bytes / 4);
  bytes = std::max<size_t>(bytes / 16 * 16, 16);
  int n4 = int(bytes / 16);
  cl::Buffer src = make_buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
  cl::Buffer dst = make_buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
  check(ctx.queue().enqueueFillBuffer(src, 1.0f, 0, bytes), "clEnqueueFillBuffer");
  cl::Kernel k = ctx.kernel("copy.cl", "copy4", copy_defines());
  set_args(k, n4, src, dst);
  // GPUs: a grid-stride loop over a few groups per compute unit. CPUs (PoCL runs a group's items
  // as a loop): one float4 per item, so each group copies one contiguous 4 KiB run; a grid
  // stride there makes every item jump by the grid (0.5 GB/s instead of several GB/s).
  size_t all = (size_t(n4) + 255) / 256;
  size_t groups = info.is_gpu() ? std::min<size_t>(all, size_t(info.compute_units) * 64) : all;
  double best = 1e300;
  for (int i = 0; i < 12; ++i) {
    double ms = event_ms(launch(ctx.queue(), k, groups * 256, 256));
    if (i >= 2) best = std::min(best, ms);
  }
  return 2.0 * double(bytes) / (best * 1e6);
}

}  // namespace lockstep
