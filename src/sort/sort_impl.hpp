// Internal to src/sort: the algorithms behind lockstep::sort, and the -D set they share.
#pragma once
#include <optional>
#include <vector>

#include "lockstep/sort.hpp"

namespace lockstep::detail {

/// KEY_TYPE, DESCENDING and PAIRS for cl/sort_keys.cl.
Defines sort_key_defines(KeyType type, bool descending, bool pairs);

/// The tuning-database key of a problem: "<type>/<keys|pairs>/n<n rounded up to 2^k>".
std::string sort_db_key(KeyType type, bool pairs, size_t n);
/// Resolves `automatic` in o: the stored measurement of this size class, else sort_rule.
SortOptions sort_choose(const DeviceInfo& device, KeyType type, size_t n, bool pairs,
                        SortOptions o);

/// Bitonic: the automatic tile for n keys of `elem` bytes in groups of `local`, and the program's
/// -D set (PersistentKernel adds LOCAL_SIZE and the barrier's).
int bitonic_tile(const DeviceInfo& info, size_t elem, int local, size_t n);
Defines bitonic_defines(KeyType type, bool descending, bool pairs, int tile, int fuse);
SortResult bitonic_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n,
                        const SortOptions& opts, const cl::Buffer* values);

/// How the radix ranking finds a wave's lanes that hold the same digit: RADIX_MATCH, cl/contract.h
/// RADIX_MATCH_* (radix.cpp checks them; cl/radix_rank.cl says more). counters: one counter set
/// per work-item (waves of 1); ptx: NVIDIA warps of 32 (PTX); lanes: WAVE_WIDTH lanes emulated in
/// local memory (PTX's logic on any device; tests).
enum class RadixMatch { counters, ptx, lanes };

/// The radix sort's knobs (cl/radix.cl, cl/radix_rank.cl, cl/radix_small.cl) as plain values, so
/// a tuner can drive them; radix_params() is the rule for a device.
struct RadixParams {
  int local_size = 256;  // LOCAL_SIZE of the radix kernels (Onesweep's: pass_local_size if set)
  int items = 16;        // ITEMS: keys per work-item per tile (TILE = local_size * items)
  // Onesweep's own tile shape where the rule sets one (radix_histogram, radix_pass; 0: the above):
  // its LOCAL_SIZE, its ITEMS, and at most pass_registers registers per work-item
  // (-cl-nv-maxrregcount, NVIDIA), so that two groups share a compute unit.
  int pass_local_size = 0, pass_items = 0, pass_registers = 0;
  RadixMatch match = RadixMatch::counters;  // RADIX_MATCH
  int wave = 1;                             // WAVE_WIDTH, the lanes of a wave for ptx and lanes
  int hist_groups = 0;  // work-groups of radix_histogram; 0 = 1 up to 2^14 keys, else 4 per CU
  int min_tiles = 0;    // > 0: fewer keys per work-item (multiples of 4) below that many tiles
  bool chained = true;  // decoupled look-back; false: count + scan kernels per pass (no spinning)
  bool private_counts = false;  // histogram/count per work-item, no local atomics (CPUs)
  int small_items = 0;  // one work-group sorts n <= local_size * small_items in one launch; 0 off
};
/// The rule: PTX match ranking on NVIDIA, counters per work-item elsewhere; no look-back on CPUs
/// (work-groups that share an OS thread must not spin on each other); items (opts.items) if set.
RadixParams radix_params(const DeviceInfo& device, KeyType type, bool pairs, int items);
/// The lanes of a ranking wave: p.wave, or 1 (counters).
inline int wave_lanes(const RadixParams& p) { return p.match == RadixMatch::counters ? 1 : p.wave; }
size_t rank_shared_bytes(const RadixParams& p);  // cl/radix_rank.cl's rank_shared
/// p with Onesweep's shape (pass_local_size, pass_items) as local_size and items.
RadixParams onesweep_shape(RadixParams p);
/// The one-group sort's keys per work-item for n keys: p.small_items, on GPUs the fewest of 1, 2,
/// 4, .. p.small_items whose tile holds n.
int small_tile_items(const DeviceInfo& device, const RadixParams& p, size_t n);
/// The -D set of cl/radix_small.cl (small) or cl/radix.cl for parameters p (for cl/radix.cl
/// onesweep_shape's; items: the one group's keys per work-item, or the tile's when min_tiles
/// shortened it; 0: the parameters').
Defines radix_defines(const DeviceInfo& device, KeyType type, bool descending, bool pairs,
                      const RadixParams& p, bool small, int items = 0);
SortResult radix_sort(Context& ctx, KeyType type, const cl::Buffer& keys, size_t n, bool descending,
                      const RadixParams& p, const cl::Buffer* values);

/// The persistent radix sort (cl/radix_persistent.cl) with p's local size and ranking. Keys per
/// work-item: at most radix_persistent_fit (what local memory holds beside the ranking's words);
/// the rule: the fewest (1, 2, 4, .. up to p.items) whose tiles number at most the compute units
/// (a group each). radix_persistent_max: the largest n the automatic rule tries it for (tiles of
/// `fit` keys per work-item, 8 groups per compute unit). Its -D set (held: HELD=1, a group per
/// tile; PersistentKernel adds LOCAL_SIZE and the barrier's). The sort takes opts.items (0: the
/// rule), opts.barrier, opts.groups and opts.descending; held_only (the automatic rule): nullopt
/// when the co-resident groups cannot hold every tile, instead of the reloading kernel.
int radix_persistent_fit(const DeviceInfo& device, const RadixParams& p, KeyType type, bool pairs);
int radix_persistent_items(const DeviceInfo& device, const RadixParams& p, KeyType type, bool pairs,
                           size_t n);
/// What the sort tries after `items` keys per work-item left more tiles than co-resident groups:
/// on GPUs the most that fit, then halfway (more registers can mean fewer groups), those above
/// items; none on CPUs (they reload instead).
std::vector<int> radix_persistent_larger(const DeviceInfo& device, const RadixParams& p,
                                         KeyType type, bool pairs, int items);
size_t radix_persistent_max(const DeviceInfo& device, const RadixParams& p, KeyType type,
                            bool pairs);
Defines radix_persistent_defines(KeyType type, bool descending, bool pairs, const RadixParams& p,
                                 int items, bool held);
std::optional<SortResult> radix_persistent_sort(Context& ctx, KeyType type, const cl::Buffer& keys,
                                                size_t n, const SortOptions& opts,
                                                const RadixParams& p, const cl::Buffer* values,
                                                bool held_only = false);

}  // namespace lockstep::detail
