// Bitonic sort on the device (cl/bitonic.cl): builds the phase list (local tile sort, then per
// global stage a flip, fused half-cleaners and a local merge) and runs it through
// PersistentKernel: one persistent launch with a global barrier between phases, or one launch
// per phase under relaunch. Picks TILE, the work-group size, the fusion depth and the useful
// group count (PersistentKernel caps it by co-residency).
#include <algorithm>

#include "cl/contract.h"
#include "sort_impl.hpp"

namespace lockstep::detail {
namespace {

struct Phase {
  int kind, param, levels, flags;
};

size_t next_pow2(size_t x) {
  size_t p = 1;
  while (p < x) p <<= 1;
  return p;
}
int log2i(size_t x) {
  int l = 0;
  while ((size_t(1) << l) < x) ++l;
  return l;
}

// The phases of cl/bitonic.cl for n keys in tiles of `tile` (npad: n rounded up to a power of 2).
std::vector<Phase> bitonic_phases(size_t n, size_t npad, int tile, int fuse) {
  if (n <= size_t(tile)) return {{BITONIC_LOCAL_SORT, 0, 0, BITONIC_KEY_IN | BITONIC_KEY_OUT}};
  std::vector<Phase> ph{{BITONIC_LOCAL_SORT, 0, 0, BITONIC_KEY_IN}};
  for (size_t s = size_t(tile); s < npad; s <<= 1) {
    // The flip, with as many of the half-cleaners s/2 .. tile as fit in registers.
    const int flip_levels = 1 + std::min(fuse - 1, log2i(s / 2) - log2i(size_t(tile)) + 1);
    ph.push_back({BITONIC_GLOBAL_FLIP, int(s), flip_levels, 0});
    for (size_t j = s >> flip_levels; j >= size_t(tile);) {
      const int levels = std::min(fuse, log2i(j) - log2i(size_t(tile)) + 1);
      ph.push_back({BITONIC_GLOBAL_HALF, int(j), levels, 0});
      j >>= levels;
    }
    ph.push_back({BITONIC_LOCAL_MERGE, 0, 0, (s * 2 >= npad) ? BITONIC_KEY_OUT : 0});
  }
  return ph;
}

}  // namespace

int bitonic_tile(const DeviceInfo& info, size_t elem, int local, size_t n) {
  int tile = (elem == 4) ? 4096 : 2048;
  while (tile > 2 * local && size_t(tile) * elem > info.local_mem_bytes / 2) tile /= 2;
  while (tile > 2 * local && size_t(tile) / 2 >= n) tile /= 2;  // small n: no wasted stages
  return tile;
}

Defines bitonic_defines(KeyType type, bool descending, bool pairs, int tile, int fuse) {
  Defines d = sort_key_defines(type, descending, pairs);
  d.set("TILE", tile).set("FUSE", fuse);
  return d;
}

SortResult bitonic_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                        const SortOptions& opts, const cl::Buffer* values) {
  SortResult r;
  r.algorithm = SortAlgorithm::bitonic;
  if (n > (size_t(1) << 31)) throw input_error("bitonic sort: n must be at most 2^31");
  const bool pairs = values != nullptr;
  const DeviceInfo& info = ctx.info();
  int local = opts.local_size ? opts.local_size : 256;
  local = int(std::min<size_t>(size_t(local), info.max_work_group_size));
  if (local < 1 || (local & (local - 1)))
    throw input_error("bitonic sort: work-group size must be a power of two");
  const size_t elem = key_bytes(type) + (pairs ? 4 : 0);
  const int tile = opts.tile ? opts.tile : bitonic_tile(info, elem, local, n);
  if (tile < 2 || (tile & (tile - 1)) || tile < local)
    throw input_error("bitonic sort: tile must be a power of two >= the work-group size");
  if (size_t(tile) * elem > info.local_mem_bytes)
    throw input_error("bitonic sort: tile of " + std::to_string(tile) +
                      " does not fit in local memory");
  const int fuse = opts.fuse ? opts.fuse : 3;
  if (fuse < 1 || fuse > 3) throw input_error("bitonic sort: fuse must be 1, 2 or 3");
  r.tile = tile;
  if (n == 0) return r;

  const size_t npad = std::max(next_pow2(n), size_t(tile));
  const std::vector<Phase> phases = bitonic_phases(n, npad, tile, fuse);
  r.phases = int(phases.size());
  const Defines d = bitonic_defines(type, opts.descending, pairs, tile, fuse);

  const size_t tiles = (n + size_t(tile) - 1) / size_t(tile);
  PersistentConfig cfg;
  cfg.local_size = local;
  cfg.barrier = opts.barrier;
  cfg.groups = opts.groups;
  cfg.max_groups = int(std::min<size_t>(1 << 20, std::max(tiles, npad / (8 * size_t(local)))));
  PersistentKernel pk(ctx, "bitonic.cl", "bitonic_sort", d, cfg);
  cl::Buffer ph = upload(ctx.queue(), phases, CL_MEM_READ_ONLY);
  cl::Buffer dummy;
  if (!pairs) dummy = make_buffer(ctx.context(), CL_MEM_READ_WRITE, 4);
  const cl::Buffer& vals = pairs ? *values : dummy;
  auto ev = pk.run_phases(int(phases.size()), [&](int b, int e) {
    pk.set_args(keys, vals, cl_uint(n), cl_uint(npad), ph, b, e);
  });
  ev.second.wait();
  r.ms = event_ms(ev.first, ev.second);
  r.barrier = to_string(pk.barrier());
  r.groups = pk.groups();
  return r;
}

}  // namespace lockstep::detail
