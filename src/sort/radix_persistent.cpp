// The persistent radix sort (cl/radix_persistent.cl): the whole LSD sort in one launch through
// PersistentKernel, which owns the group count (never more than co-resident) and the barrier.
// Here: the tile rule (the fewest keys per work-item whose tiles number at most the compute
// units, so that each tile gets its own group), the -D set, the scratch buffers and the launch.
// With a group per tile the kernel (HELD=1) sorts in place; otherwise (HELD=0: fewer co-resident
// groups than tiles, or relaunch) it ranks each tile again in its scatter phase and ping-pongs
// through a scratch buffer. HELD=1 is built first (unless relaunch or a group count was asked
// for); when PersistentKernel then grants fewer groups than tiles, HELD=1 again on GPUs with
// more keys per work-item (radix_persistent_larger: fewer tiles; unless --items), then HELD=0
// (or, for the automatic rule, nothing: the caller runs Onesweep, faster than a reloading sort).
#include <algorithm>

#include "sort_impl.hpp"

namespace lockstep::detail {
namespace {

// Local memory of radix_persistent: lk, lv, rank_shared, colb, colt, gbase and the andor words.
size_t persistent_local_bytes(const RadixParams& p, int items, size_t kb, bool pairs) {
  return size_t(p.local_size) * size_t(items) * (kb + (pairs ? 4 : 0)) + rank_shared_bytes(p) +
         3 * 256 * 4 + 16;
}

}  // namespace

int radix_persistent_fit(const DeviceInfo& device, const RadixParams& p, KeyType type, bool pairs) {
  const size_t kb = key_bytes(type);
  int items = 1;  // at most twice the Onesweep tile's keys (registers, compile time)
  while (items < 2 * p.items && size_t(p.local_size) * size_t(items + 1) < 65536 &&
         persistent_local_bytes(p, items + 1, kb, pairs) <= device.local_mem_bytes)
    ++items;
  return items;
}

int radix_persistent_items(const DeviceInfo& device, const RadixParams& p, KeyType type, bool pairs,
                           size_t n) {
  const size_t cus = std::max<size_t>(1, device.compute_units), local = size_t(p.local_size);
  const int most = std::min(p.items, radix_persistent_fit(device, p, type, pairs));
  int items = 1;
  while (items < most && (n + local * items - 1) / (local * items) > cus)
    items = std::min(2 * items, most);
  return items;
}

std::vector<int> radix_persistent_larger(const DeviceInfo& device, const RadixParams& p,
                                         KeyType type, bool pairs, int items) {
  if (!device.is_gpu()) return {};
  const int fit = radix_persistent_fit(device, p, type, pairs);
  std::vector<int> out;
  for (int more : {fit, (fit + items) / 2})
    if (more > items) out.push_back(more);
  return out;
}

size_t radix_persistent_max(const DeviceInfo& device, const RadixParams& p, KeyType type,
                            bool pairs) {
  return size_t(std::max(1u, device.compute_units)) * 8 * size_t(p.local_size) *
         size_t(radix_persistent_fit(device, p, type, pairs));
}

Defines radix_persistent_defines(KeyType type, bool descending, bool pairs, const RadixParams& p,
                                 int items, bool held) {
  Defines d = sort_key_defines(type, descending, pairs);
  d.set("ITEMS", items).set("RADIX_MATCH", int(p.match)).set("HELD", held ? 1 : 0);
  if (p.match != RadixMatch::counters) d.set("WAVE_WIDTH", p.wave);
  return d;
}

std::optional<SortResult> radix_persistent_sort(Context& ctx, KeyType type, const cl::Buffer& keys,
                                                size_t n, const SortOptions& opts,
                                                const RadixParams& p, const cl::Buffer* values,
                                                bool held_only) {
  SortResult r;
  r.algorithm = SortAlgorithm::radix_persistent;
  if (n >= (size_t(1) << 30)) throw input_error("radix sort: n must be below 2^30");
  const int rw = wave_lanes(p);
  const bool pairs = values != nullptr;
  int items = opts.items ? opts.items : radix_persistent_items(ctx.info(), p, type, pairs, n);
  const size_t local = size_t(p.local_size);
  size_t tile = local * size_t(items);
  if (p.local_size < 1 || local > ctx.info().max_work_group_size || rw < 1 || rw > 64 ||
      p.local_size % rw || items < 1 || tile >= 65536)
    throw input_error("radix-persistent sort: bad parameters (local size " +
                      std::to_string(p.local_size) + ", items " + std::to_string(items) +
                      ", wave " + std::to_string(rw) + "; tiles below 65536 keys)");
  const size_t kb = key_bytes(type);
  if (persistent_local_bytes(p, items, kb, pairs) > ctx.info().local_mem_bytes)
    throw input_error("radix-persistent sort: a tile of " + std::to_string(tile) +
                      " keys does not fit in local memory");
  r.tile = int(tile);
  if (n == 0) return r;

  size_t tiles = (n + tile - 1) / tile;
  PersistentConfig cfg;
  cfg.local_size = p.local_size;
  cfg.barrier = opts.barrier;
  cfg.groups = opts.groups;
  cfg.max_groups = int(std::min<size_t>(tiles, 1 << 20));
  const bool relaunch = opts.barrier == Barrier::relaunch;
  bool held = !relaunch && opts.groups == 0;  // an explicit count: HELD=0, whatever it is
  // A CPU device holds one group per compute unit (no probe needed, and no larger tiles are
  // tried off GPUs): when the tiles outnumber them, HELD=1 cannot hold, so it is not built.
  if (held && ctx.info().type == "CPU" && tiles > ctx.info().compute_units) {
    if (held_only) return std::nullopt;
    held = false;
  }
  std::optional<PersistentKernel> pk;
  auto build = [&](int i, bool h) {
    pk.emplace(ctx, "radix_persistent.cl", "radix_persistent",
               radix_persistent_defines(type, opts.descending, pairs, p, i, h), cfg);
  };
  build(items, held);
  bool holds = pk->in_kernel() && size_t(pk->groups()) >= tiles;
  if (held && !holds && !opts.items) {  // fewer, larger tiles
    for (int more : radix_persistent_larger(ctx.info(), p, type, pairs, items)) {
      const size_t t = (n + local * size_t(more) - 1) / (local * size_t(more));
      cfg.max_groups = int(std::min<size_t>(t, 1 << 20));
      build(more, true);
      if ((holds = pk->in_kernel() && size_t(pk->groups()) >= t)) {
        items = more, tile = local * size_t(more), tiles = t;
        break;
      }
    }
    cfg.max_groups = int(std::min<size_t>(tiles, 1 << 20));
  }
  if (held && !holds) {
    if (held_only) return std::nullopt;
    held = false;  // fewer co-resident groups than tiles
    build(items, false);
  }
  r.tile = int(tile);
  // The context's scratch buffers (slots 0-3, as radix_sort's), reused by the next sort; the
  // AND and OR of its keys per group (an explicit --groups may exceed the tiles).
  const cl::Buffer counts = ctx.scratch(2, tiles * 256 * 2);
  const cl::Buffer andor = ctx.scratch(3, std::max(tiles, size_t(pk->groups())) * 2 * kb);
  const cl::Buffer tmp = ctx.scratch(0, held ? 4 : n * kb);
  const cl::Buffer tmpv = ctx.scratch(1, held || !pairs ? 4 : n * 4);
  const cl::Buffer vals = pairs ? *values : tmpv;  // unread without pairs
  const int phases = 2 * int(kb) + 1;  // per 8-bit digit: rank + counts, scatter; the copy back
  auto ev = pk->run_phases(phases, [&](int b, int e) {
    pk->set_args(keys, vals, tmp, tmpv, cl_uint(n), counts, andor, b, e);
  });
  ev.second.wait();
  r.ms = event_ms(ev.first, ev.second);
  r.barrier = to_string(pk->barrier()) + (held ? "" : "+reload");
  r.groups = pk->groups();
  r.phases = phases;
  return r;
}

}  // namespace lockstep::detail
