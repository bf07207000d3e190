// The radix sort on the device. n <= local_size * small_items: cl/radix_small.cl, one launch of
// one work-group. Else cl/radix.cl, Onesweep: radix_histogram (all digits, the digit starts and
// the pass plan), then one radix_pass per digit (chained: decoupled
// look-back; else radix_count + radix_tile_scan + radix_pass, for CPU devices). Passes whose
// digit is the same for every key return at once on the device: no host round trip.
#include <algorithm>

#include "cl/contract.h"
#include "lockstep/barrier.hpp"
#include "sort_impl.hpp"

namespace lockstep::detail {

// cl/radix_rank.cl's rank_shared: per wave 256 counters (and 256 match words under
// RADIX_MATCH=1), the block scan's LOCAL_SIZE words.
size_t rank_shared_bytes(const RadixParams& p) {
  const size_t waves = size_t(p.local_size / std::max(1, p.match ? p.wave : 1));
  return waves * 256 * 4 * (p.match == 1 ? 2 : 1) + size_t(p.local_size) * 4;
}

namespace {

// The context's scratch slot of cl/radix_state.cl's state words, used by nothing else: its
// counters stay zero between sorts (zeroed at allocation; every kernel that raises one lowers it
// again before it ends), so no sort begins with a fill command.
constexpr size_t kRadixStateSlot = 4;

// Local memory of the pass kernel (lk, which the values pass through after the keys, sharing its
// words with rank_shared; start, gbase, small words) and of radix_small (lk, the values through it too).
size_t pass_local_bytes(const RadixParams& p, size_t kb) {
  return std::max(size_t(p.local_size) * p.items * kb, rank_shared_bytes(p)) + 2124;
}
size_t small_local_bytes(const RadixParams& p, size_t kb) {
  return size_t(p.local_size) * p.small_items * kb + rank_shared_bytes(p) + 64;
}

}  // namespace

RadixParams radix_params(const DeviceInfo& device, KeyType type, bool pairs, int items) {
  RadixParams p;
  const size_t kb = key_bytes(type);
  if (device.is_nvidia() && device.wave_width == 32) {
    p.match = 1;
    p.wave = 32;
    // items: the persistent sort's bound (radix_persistent_fit), Onesweep's tile until
    // session 7. The H100 sweep after the match-word ranking (2026-11-24, 2^26 keys, ms per
    // pass, 256 work-items): u32 keys
    // 12/16/18/20/24 items 0.475/0.434/0.412/0.391/0.418; u64 8/10/12/14/16 0.72/0.66/0.61/0.58/
    // 0.78. Pairs, since the values pass through the keys' local memory (session 3, whole sort,
    // 2^24 / 2^26 ms): u32 14/18/20/22/24/26/28 0.822/0.766/0.746/0.720/0.724/0.733/0.821 and
    // 3.05/2.76/2.67/2.60/2.56/2.55/3.01; u64 10/12/14/16 2.13/2.05/1.89/2.46 and 8.53/8.13/7.37/
    // 9.77 (tools/bench/results/2026-11-24-h100-sort-pairs-s3.txt).
    p.items = kb == 8 ? 14 : (pairs ? 24 : 20);
    // Onesweep's own tile since its ranking scratch shares the tile's local memory (session 7,
    // H100, 2^26, ms per pass; every shape capped for two groups per SM): u32 keys 256x20 (the
    // previous rule, 72 registers) 0.382, 512x14/16/18/20 0.380/0.361/0.356/0.378, 384x20/24
    // 0.372/0.367, 640x12 0.382, 1024x8 0.505; u64 keys 256x14 0.58, 512x8/10 0.58/0.52, 384x12
    // 0.54; u32 pairs 256x24 (109 registers) 0.59, 384x14/16/18 0.60/0.585/0.575 (0.558 with
    // the values loaded after the keys' stores, now the kernel's order), 512x10/12 0.61/0.585;
    // u64 pairs 256x14 0.90, 384x10/12 0.87/0.84, 512x8 0.87. Uncapped, the shared scratch let
    // the compiler take more registers (256x24 pairs: one group per SM, 0.85). With the values'
    // new order, 2^26 pairs, whole sort, ms: 384x18/20 2.400-2.413/2.493-2.497, 512x12/14
    // 2.493-2.495/2.371-2.377, 448x16 2.394-2.403, 320x20 2.517, 256x24 2.589-2.593; then
    // with LOOKBACK 4 (three rounds): 384x18 2.371-2.378, 512x14 2.485-2.503 (2.359-2.374 with
    // LOOKBACK 16: the register allocation at 64 moves), 512x16 2.382-2.386; CUB 2.290-2.299.
    // tools/bench/results/2026-11-25-h100-sort-shapes-s7.txt. Since a work-item holds two ranks
    // to a register (session 8; ptxas, pairs 384 x 20 at 80 registers: no spill; keys 512 x 18
    // at 64: 4 bytes spilled, were 20), longer tiles win (H200, 2^26, whole sort, two rounds,
    // ms): pairs 384x18/20/22/23/24 2.163-2.168/2.108-2.112/2.124-2.129/2.181-2.183/2.226-2.231
    // (384x18 before the packing 2.174-2.181, CUB 1.958-1.966); keys 512x18/20/22
    // 1.504-1.508/1.487-1.490/1.468-1.476 (512x18 before 1.526-1.536, CUB SortKeys
    // 1.666-1.674); H100, same kernels, two rounds: pairs 384x18/20/22 2.377-2.382/2.332-2.340/
    // 2.382-2.387 (CUB 2.268-2.279), keys 512x20/22 1.505-1.509/1.487-1.488 (CUB 1.671-1.678).
    // tools/bench/results/2026-11-27-h200-sort-shapes-s8.txt, 2026-11-27-h100-s8.txt
    p.pass_local_size = pairs ? 384 : 512;
    p.pass_items = kb == 8 ? (pairs ? 12 : 10) : (pairs ? 20 : 22);
    p.small_items = 32;
    // small n: shorter tiles until every SM gets a tile, pairs two (session 4, 256 work-items,
    // 2^20 pairs: 24/20/16 items 0.099/0.090/0.091 ms)
    p.min_tiles = std::max(1, int(device.compute_units)) * (pairs ? 2 : 1);
  } else if (!device.is_gpu()) {  // CPU: long serial runs per work-item, no spinning
    p.local_size = 16;
    p.items = 128;
    p.chained = false;
    p.private_counts = true;
    p.small_items = 512;
  } else {  // other GPUs: counters per work-item, so few work-items fit
    p.local_size = 64;
    p.items = 16;
    p.small_items = 16;
  }
  if (items) p.items = items, p.pass_items = items, p.min_tiles = 0;
  if (p.match == 1 && p.pass_local_size)  // two groups per compute unit (64 Ki registers)
    p.pass_registers = std::min(255, 65536 / (2 * p.pass_local_size) / 8 * 8);
  const size_t local_mem = device.local_mem_bytes;
  while (p.local_size > 16 && pass_local_bytes(p, kb) > local_mem) p.local_size /= 2;
  while (p.items > 1 && pass_local_bytes(p, kb) > local_mem) --p.items;
  while (p.pass_items > 1 && pass_local_bytes(onesweep_shape(p), kb) > local_mem) --p.pass_items;
  while (p.small_items > 0 && small_local_bytes(p, kb) > local_mem) --p.small_items;
  return p;
}

RadixParams onesweep_shape(RadixParams p) {
  if (p.pass_local_size) p.local_size = p.pass_local_size;
  if (p.pass_items) p.items = p.pass_items;
  p.pass_local_size = p.pass_items = 0;
  return p;
}

int small_tile_items(const DeviceInfo& device, const RadixParams& p, size_t n) {
  if (!device.is_gpu()) return p.small_items;
  int items = 1;
  while (items < p.small_items && size_t(p.local_size) * size_t(items) < n)
    items = std::min(2 * items, p.small_items);
  return items;
}

Defines radix_defines(const DeviceInfo& device, KeyType type, bool descending, bool pairs,
                      const RadixParams& p, bool small, int items) {
  Defines d = sort_key_defines(type, descending, pairs);
  d.set("LOCAL_SIZE", p.local_size).set("RADIX_MATCH", p.match);
  if (p.match) d.set("WAVE_WIDTH", p.wave);
  if (small) {
    d.set("ITEMS", items > 0 ? items : p.small_items);
  } else {
    d.set("ITEMS", items > 0 ? items : p.items).set("PRIVATE_COUNTS", p.private_counts ? 1 : 0);
    // BARRIER_C11 / BARRIER_NV_PTX. The look-back's flag words carry their own counts, so its
    // loads are relaxed: on NVIDIA acqrel-rspin makes flag_load_relaxed ld.relaxed.gpu (the
    // acquire order would serialise a round of LOOKBACK loads).
    add_flag_defines(device, d, BarrierOrder::acqrel_rspin);
    if (p.pass_registers) d.flag("-cl-nv-maxrregcount=" + std::to_string(p.pass_registers));
  }
  return d;
}

SortResult radix_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                      bool descending, const RadixParams& given, const cl::Buffer* values) {
  SortResult r;
  r.algorithm = SortAlgorithm::radix;
  if (n >= (size_t(1) << 30)) throw input_error("radix sort: n must be below 2^30");
  const bool small = n <= size_t(given.local_size) * size_t(std::max(0, given.small_items));
  const RadixParams p = small ? given : onesweep_shape(given);
  const int rw = p.match ? p.wave : 1;
  // work-items own digits l * DPT .. (cl/radix_rank.cl): all 256 when local >= 256 or divides it
  if (p.local_size < 1 || p.local_size > int(ctx.info().max_work_group_size) || rw < 1 ||
      rw > 64 || p.local_size % rw || (p.local_size < 256 && 256 % p.local_size) ||
      p.items < 1 || p.items > 512 || p.small_items < 0 || p.match < 0 || p.match > 2 ||
      p.pass_registers < 0)
    throw input_error("radix sort: bad parameters (local size " + std::to_string(p.local_size) +
                      ", items " + std::to_string(p.items) + ", wave " + std::to_string(rw) + ")");
  const bool pairs = values != nullptr;
  const size_t kb = key_bytes(type), local = size_t(p.local_size);
  int items = p.items;  // below min_tiles tiles: shorter tiles (4, 8, ...), more work-groups
  if (p.min_tiles > 0 && !small)
    items = std::min(items, int(std::max<size_t>(4, (n + local * p.min_tiles * 4 - 1) /
                                                        (local * p.min_tiles * 4) * 4)));
  const size_t tile = local * size_t(items);
  const size_t hist_bytes = (p.private_counts ? size_t(p.local_size) + 1 : 1) * kb * 1024;
  if (std::max(pass_local_bytes(p, kb), hist_bytes) > ctx.info().local_mem_bytes)
    throw input_error("radix sort: a tile of " + std::to_string(tile) +
                      " keys does not fit in local memory");
  // one group: on GPUs the fewest keys per work-item (1, 2, 4, ..) that hold n, since each pass
  // ranks a work-item's keys one after another (H100: 2^12 keys in a 2^13 tile took 23 us)
  const int small_items = small_tile_items(ctx.info(), p, n);
  r.tile = int(small ? local * size_t(small_items) : tile);
  r.barrier = small ? "one-group" : p.chained ? "onesweep" : "count-scan";
  if (n == 0) return r;

  const Defines d =
      radix_defines(ctx.info(), type, descending, pairs, p, small, small ? small_items : items);
  const cl::Context& c = ctx.context();
  cl::CommandQueue& q = ctx.queue();
  cl::Buffer dummy = make_buffer(c, CL_MEM_READ_WRITE, 4);
  const cl::Buffer& vals = pairs ? *values : dummy;
  std::vector<std::pair<std::string, cl::Event>> evs;
  if (small) {
    cl::Kernel k = ctx.kernel("radix_small.cl", "radix_small", d);
    set_args(k, keys, vals, cl_uint(n));
    evs.push_back({"small", launch(q, k, local, local)});
    r.groups = 1;
  } else {
    cl::Kernel hist_k = ctx.kernel("radix.cl", "radix_histogram", d);
    cl::Kernel pass_k = ctx.kernel("radix.cl", "radix_pass", d);
    cl::Kernel count_k, scan_k;
    if (!p.chained) {
      count_k = ctx.kernel("radix.cl", "radix_count", d);
      scan_k = ctx.kernel("radix.cl", "radix_tile_scan", d);
    }
    const int digits = int(kb);  // 8-bit digits: one per byte
    const size_t tiles = (n + tile - 1) / tile;
    const size_t flag_words = tiles * 256;
    const size_t state_words = RADIX_ST_WORDS(size_t(digits));  // cl/radix_state.cl's ST_SIZE
    // The context's scratch buffers (slots 0-3), reused by the next sort.
    const cl::Buffer tmp = ctx.scratch(0, n * kb), tmpv = ctx.scratch(1, pairs ? n * 4 : 4);
    // Zero counters without a fill command (which took 11-27 us of device time on the H100).
    const cl::Buffer state = ctx.scratch(kRadixStateSlot, state_words * 4, true);
    const cl::Buffer flags = ctx.scratch(3, (p.chained ? 2 : 1) * flag_words * 4);
    // One histogram group up to 2^14 keys (H100: one group took 30 us of the 76 for 2^16 keys).
    const size_t cus = std::max<size_t>(1, ctx.info().compute_units);
    const size_t hist_groups = p.hist_groups ? size_t(p.hist_groups)
                               : n <= (size_t(1) << 14)
                                   ? 1
                                   : std::min((n + local * 16 - 1) / (local * 16), 4 * cus);
    set_args(hist_k, keys, cl_uint(n), state, flags, cl_uint(flag_words));
    evs.push_back({"hist", launch(q, hist_k, hist_groups * local, local)});
    const cl::Buffer& tmpvals = pairs ? tmpv : dummy;
    for (int pass = 0; pass < digits; ++pass) {
      if (!p.chained) {
        set_args(count_k, keys, tmp, vals, tmpvals, cl_uint(n), cl_int(pass), state, flags);
        evs.push_back({"count", launch(q, count_k, tiles * local, local)});
        set_args(scan_k, keys, tmp, vals, tmpvals, cl_uint(n), cl_int(pass), state, flags);
        evs.push_back({"scan", launch(q, scan_k, local, local)});
      }
      set_args(pass_k, keys, tmp, vals, tmpvals, cl_uint(n), cl_int(pass), state, flags,
               cl_int(p.chained));
      evs.push_back({"pass" + std::to_string(pass), launch(q, pass_k, tiles * local, local)});
    }
    r.groups = int(tiles);
  }
  evs.back().second.wait();
  r.ms = event_ms(evs.front().second, evs.back().second);
  for (auto& [name, e] : evs) r.kernel_ms[name] += event_ms(e);
  r.phases = int(evs.size());
  return r;
}

}  // namespace lockstep::detail
