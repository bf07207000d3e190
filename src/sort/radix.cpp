// The radix sort on the device. n <= local_size * small_items: cl/radix_small.cl, one launch of
// one work-group. Else cl/radix.cl, Onesweep: radix_histogram (all digits, the digit starts and
// the pass plan), then one radix_pass per digit (chained: decoupled
// look-back; else radix_count + radix_tile_scan + radix_pass, for CPU devices). Passes whose
// digit is the same for every key return at once on the device: no host round trip.
#include <algorithm>

#include "cl/contract.h"
#include "lockstep/barrier.hpp"
#include "runtime/defaults.hpp"
#include "sort_impl.hpp"

namespace lockstep::detail {

static_assert(int(RadixMatch::counters) == RADIX_MATCH_COUNTERS &&
                  int(RadixMatch::ptx) == RADIX_MATCH_PTX &&
                  int(RadixMatch::lanes) == RADIX_MATCH_LANES,
              "RadixMatch and cl/contract.h's RADIX_MATCH_* differ");

// cl/radix_rank.cl's rank_shared: per wave RADIX_BINS counters (and RADIX_BINS match words under
// RADIX_MATCH_PTX), the block scan's LOCAL_SIZE words.
size_t rank_shared_bytes(const RadixParams& p) {
  const size_t waves = size_t(p.local_size / std::max(1, wave_lanes(p)));
  return waves * RADIX_BINS * 4 * (p.match == RadixMatch::ptx ? 2 : 1) + size_t(p.local_size) * 4;
}

namespace {

// The context's scratch slot of cl/radix_state.cl's state words, used by nothing else: its
// counters stay zero between sorts (zeroed at allocation; every kernel that raises one lowers it
// again before it ends), so no sort begins with a fill command.
constexpr size_t kRadixStateSlot = 4;

// Local memory of the pass kernel (lk, which the values pass through after the keys, sharing its
// words with rank_shared; start, gbase, small words) and of radix_small (lk, the values through it
// too).
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
  // The numbers are the defaults table's (runtime/defaults.cpp; measurements in BENCHMARKS.md).
  // PTX match ranking needs NVIDIA's 32-lane warps: the table's NVIDIA entry is keyed by wave
  // width 32, so another (LOCKSTEP_WAVE_WIDTH) takes the GPUs' entry.
  const defaults::Radix rule = defaults::lookup<defaults::Radix>(device);
  if (rule.match < 0 || rule.match > int(RadixMatch::lanes))
    throw input_error("radix defaults: match " + std::to_string(rule.match) + " is not 0, 1 or 2");
  p.match = RadixMatch(rule.match);
  if (p.match == RadixMatch::ptx) p.wave = 32;
  p.local_size = rule.local_size;
  p.items = rule.items.of(kb, pairs);
  p.pass_local_size = rule.pass_local_size.of(pairs);
  p.pass_items = rule.pass_items.of(kb, pairs);
  p.small_items = rule.small_items;
  // small n: shorter tiles until every compute unit gets its tiles
  p.min_tiles = std::max(1, int(device.compute_units)) * rule.min_tiles_per_cu.of(pairs);
  p.chained = rule.chained;
  p.private_counts = rule.private_counts;
  if (items) p.items = items, p.pass_items = items, p.min_tiles = 0;
  if (p.match == RadixMatch::ptx &&
      p.pass_local_size)  // two groups per compute unit (64 Ki registers)
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
  d.set("LOCAL_SIZE", p.local_size).set("RADIX_MATCH", int(p.match));
  if (p.match != RadixMatch::counters) d.set("WAVE_WIDTH", p.wave);
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

SortResult radix_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n, bool descending,
                      const RadixParams& given, const cl::Buffer* values) {
  SortResult r;
  r.algorithm = SortAlgorithm::radix;
  if (n >= (size_t(1) << 30)) throw input_error("radix sort: n must be below 2^30");
  const bool small = n <= size_t(given.local_size) * size_t(std::max(0, given.small_items));
  const RadixParams p = small ? given : onesweep_shape(given);
  const int rw = wave_lanes(p);
  // work-items own digits l * DPT .. (cl/radix_rank.cl): all 256 when local >= 256 or divides it
  if (p.local_size < 1 || p.local_size > int(ctx.info().max_work_group_size) || rw < 1 || rw > 64 ||
      p.local_size % rw || (p.local_size < 256 && 256 % p.local_size) || p.items < 1 ||
      p.items > 512 || p.small_items < 0 || p.pass_registers < 0)
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
