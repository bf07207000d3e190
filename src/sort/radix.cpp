// Onesweep-style LSD radix sort on the device (cl/radix.cl): one histogram pass over every digit,
// one scan, then one pass per 8-bit digit between the caller's buffer and a scratch buffer
// (an even number of passes, so the result lands in the caller's buffer). Each pass zeroes its
// flag array first; tile ids come from a per-pass atomic counter.
#include <algorithm>

#include "lockstep/barrier.hpp"
#include "sort_impl.hpp"

namespace lockstep::detail {

SortResult radix_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                      const SortOptions& opts, const cl::Buffer* values) {
  SortResult r;
  r.algorithm = SortAlgorithm::radix;
  r.strategy = "onesweep";
  if (n >= (size_t(1) << 30)) throw input_error("radix sort: n must be below 2^30");
  const bool pairs = values != nullptr;
  const int local = 256, hist_items = 64;
  int items = opts.items ? opts.items : (key_bytes(type) == 8 || pairs ? 8 : 16);
  if (items < 1 || items > 32) throw input_error("radix sort: items must be in [1, 32]");
  const size_t elem = key_bytes(type) + (pairs ? 4 : 0);
  while (items > 1 && size_t(local * items) * elem + 4096 > ctx.info().local_mem_bytes) items /= 2;
  const size_t tile = size_t(local) * size_t(items);
  r.tile = int(tile);
  if (n == 0) return r;

  Defines d = sort_key_defines(type, opts.descending, pairs);
  d.set("LOCAL_SIZE", local).set("ITEMS", items).set("HIST_ITEMS", hist_items);
  add_flag_defines(ctx, d);  // BARRIER_C11 / BARRIER_NV_PTX: the look-back's acquire/release
  cl::Kernel hist_k = ctx.kernel("radix.cl", "radix_histogram", d);
  cl::Kernel scan_k = ctx.kernel("radix.cl", "radix_scan", d);
  cl::Kernel pass_k = ctx.kernel("radix.cl", "radix_pass", d);

  const int digits = int(key_bytes(type));  // 8-bit digits: one per byte
  const size_t tiles = (n + tile - 1) / tile;
  const cl::Context& c = ctx.context();
  cl::CommandQueue& q = ctx.queue();
  cl::Buffer tmp = make_buffer(c, CL_MEM_READ_WRITE, n * key_bytes(type));
  cl::Buffer tmpv = make_buffer(c, CL_MEM_READ_WRITE, pairs ? n * 4 : 4);
  cl::Buffer dummy = make_buffer(c, CL_MEM_READ_WRITE, 4);
  cl::Buffer hist = make_buffer(c, CL_MEM_READ_WRITE, size_t(digits) * 256 * 4);
  cl::Buffer flags = make_buffer(c, CL_MEM_READ_WRITE, tiles * 256 * 4);
  cl::Buffer counters = make_buffer(c, CL_MEM_READ_WRITE, size_t(digits) * 4);
  const cl_int zero = 0;
  check(q.enqueueFillBuffer(hist, zero, 0, size_t(digits) * 256 * 4), "clEnqueueFillBuffer");
  check(q.enqueueFillBuffer(counters, zero, 0, size_t(digits) * 4), "clEnqueueFillBuffer");

  const size_t hist_groups = (n + size_t(local * hist_items) - 1) / size_t(local * hist_items);
  set_args(hist_k, keys, cl_uint(n), hist, cl_int(1));
  cl::Event first = launch(q, hist_k, hist_groups * local, local), last;
  set_args(scan_k, hist);
  launch(q, scan_k, size_t(digits) * local, local);
  const cl::Buffer& vals = pairs ? *values : dummy;
  for (int p = 0; p < digits; ++p) {
    const bool even = p % 2 == 0;
    check(q.enqueueFillBuffer(flags, zero, 0, tiles * 256 * 4), "clEnqueueFillBuffer");
    set_args(pass_k, even ? keys : tmp, even ? tmp : keys, even ? vals : (pairs ? tmpv : dummy),
             even ? (pairs ? tmpv : dummy) : vals, cl_uint(n), cl_int(p), hist, flags, counters,
             cl_int(p == 0), cl_int(p == digits - 1));
    last = launch(q, pass_k, tiles * local, local);
  }
  last.wait();
  r.ms = event_ms(first, last);
  r.groups = int(tiles);
  r.phases = digits + 2;
  return r;
}

}  // namespace lockstep::detail
