// Defaults as data: the measured constants of every untuned rule (radix sort's tiles and sort's
// automatic choice, SpMV's and SpMM's rules, APSP's tiles, BFS's thresholds, the default barrier,
// the search kernel's shape, the alignment kernels' shape) in one typed table, looked up as
// CLBlast looks up its database: the device's own entry, else its architecture's, else its
// vendor's (at its wave width, then at any), else the device type's, else the portable entry.
// The rules keep their logic in their modules; this table holds their numbers. Each rule is a
// struct here (a field a number, typed); each entry of the table sets some of its fields and names
// the benchmark command behind them. A rule's portable entry sets every field.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "lockstep/barrier.hpp"
#include "lockstep/runtime.hpp"

namespace lockstep::defaults {

/// What the table is keyed by. type: "GPU", or "CPU" for every other device (the rules always
/// split GPU from the rest); vendor: to_string(Vendor) ("nvidia", "amd", "intel", "other");
/// wave_width: the device's (LOCKSTEP_WAVE_WIDTH's when set); architecture: architecture_of();
/// device: the device name. An empty field (0 for wave_width) matches any value.
struct Key {
  std::string type, vendor, architecture, device;
  unsigned wave_width = 0;
};

/// "sm_XY" from NVIDIA's compute capability, AMD's "gfx..." name (its OpenCL device name), else "".
std::string architecture_of(const DeviceInfo& device);
Key key_of(const DeviceInfo& device);

/// One number per key width and pairs: keys of 4 bytes, pairs of them, keys of 8 bytes, pairs.
struct ByKey {
  int keys = 0, pairs = 0, keys64 = 0, pairs64 = 0;
  int of(size_t key_bytes, bool with_values) const {
    return key_bytes == 8 ? (with_values ? pairs64 : keys64) : (with_values ? pairs : keys);
  }
};
/// One number for keys alone and one for pairs.
struct ByPairs {
  int keys = 0, pairs = 0;
  int of(bool with_values) const { return with_values ? pairs : keys; }
};

// ---- the rules ----

/// Radix sort (src/sort/radix.cpp): the tiled passes, Onesweep's own shape (pass_*: 0 keeps
/// the tiled one), the one-group sort, the tiles per compute unit below which tiles shorten.
struct Radix {
  int match = 0;  // detail::RadixMatch (cl/contract.h RADIX_MATCH_*)
  int local_size = 0;
  ByKey items;
  ByPairs pass_local_size;
  ByKey pass_items;
  int small_items = 0;  // the one-group sort's items (0: none)
  ByPairs min_tiles_per_cu;
  bool chained = false, private_counts = false;
};
/// Sort's automatic choice (src/sort/sort.cpp sort_rule): radix-persistent between the one-group
/// sort and radix_persistent_max where `persistent`, else radix.
struct Sort {
  bool persistent = false;
  size_t persistent_min = 0;  // the smallest persistent sort where there is no one-group sort
};
/// SpMV's untuned rule (src/spmv/parameters.cpp).
struct Spmv {
  int local_size_bits = 0;  // log2 of the work-group size
  double local_entries = 0, contiguous = 0, small_div = 0;
  int max_per_row = 0, resident_per_unit = 0, merge_items = 0;
  bool one_row_per_item = false;  // CPUs: one row per work-item vectorises best
};
/// SpMM's rule (src/spmv/spmm.cpp): team lanes of `vec` columns; merge's shape on GPUs.
struct Spmm {
  int local_size = 0, team_max = 0;
  int chunks_per_lane = 0;          // row-major: VEC chunks a lane takes
  bool merge_column_lanes = false;  // merge, row-major: one column a lane
  int merge_team_max = 0, merge_long_k = 0, merge_long_items = 0;  // items x this from long_k
  bool col_major_transpose = false;  // column-major: the row-major shape between layout copies
};
/// APSP (src/apsp/apsp.cpp apsp_rule): tile, K x tile, micro-tiles (wide: the generalized bulk
/// without paths).
struct Apsp {
  int tile = 0, k_span = 0, thread_tile = 0, thread_tile_wide = 0, unroll_wide = 0,
      overlap_wide = 0;
};
/// BFS auto (src/bfs/bfs.cpp bfs_rule); -1: off.
struct Bfs {
  int lb_edges_per_multi = 0;
  double lb_degree_per_wave = 0, multi_work = 0;
  long long cpu_graph_edges_per_thread = 0;
};
/// The default barrier (src/barrier/barrier.cpp): lock up to lock_groups_per_cu groups per
/// compute unit, `beyond` above.
struct BarrierDefault {
  double lock_groups_per_cu = 0;
  Barrier beyond = Barrier::lock;
  // lock: from split_groups_per_cu groups per compute unit (0: never) the arrivals are split
  // over `split` counter words (BarrierVariant::lock_split)
  double split_groups_per_cu = 0;
  int split = 1;
};
/// The search kernel's shape (src/search/device.cpp): work-items a group, query rows a
/// work-item; from skew_residues database residues (0: never) skew_stripe rows and the skew
/// variant; search_ends' group and rows a work-item.
struct Search {
  int local_size = 0, stripe = 0;
  double skew_residues = 0;
  int skew_stripe = 0;
  int ends_local = 0, ends_rows = 0;
};
/// One alignment kernel shape: work-items a group, rows a work-item, columns a tile, and the
/// pipeline's automatic score width (32, or 0: 16 bits where they fit).
struct AlignShape {
  int local_size = 0, cells = 0, tile_cols = 0, bits = 0;
};
/// The alignment kernels' shape (src/align/gpu_common.hpp sw_rule): the barrier kernel's (its
/// tile: m / barrier_cols_per_tile columns within [barrier_tile_min, barrier_tile_max]), the
/// pipeline's for DNA (alphabet <= dna_alphabet) below and from long_pair_rows rows of A, and for
/// larger alphabets.
struct Align {
  AlignShape barrier, dna, dna_long, protein;
  AlignShape protein_short;            // larger alphabets below protein_short_rows rows of A
  size_t protein_short_rows = 0;       // 0: every protein pair takes `protein`
  bool protein_short_barrier = false;  // automatic runs those pairs on the barrier kernel
  int barrier_cols_per_tile = 0, barrier_tile_min = 0, barrier_tile_max = 0;
  size_t long_pair_rows = 0;
  int dna_alphabet = 0;
};

// ---- the table ----

/// One entry: where it applies (empty fields: any), the command whose measurement it holds,
/// and the fields it sets (set(&Rule::field, value): typed, a compile error otherwise).
template <typename Rule>
struct Entry {
  Key key;
  const char* measured;
  std::vector<std::function<void(Rule&)>> values;
};
template <typename T>
struct Same {
  using type = T;
};
template <typename Rule, typename T>
std::function<void(Rule&)> set(T Rule::*field, typename Same<T>::type value) {
  return [field, value](Rule& r) { r.*field = value; };
}
/// Every rule's entries (defaults.cpp); `Rule` is one of the structs above.
template <typename Rule>
const std::vector<Entry<Rule>>& table();

/// A rule's values for a key: its entries that match, applied from the least specific (the
/// portable entry) to the most (device, then architecture, then vendor, then wave width, then
/// type): each field from the most specific entry that sets it.
template <typename Rule>
Rule lookup(const Key& key);
template <typename Rule>
Rule lookup(const DeviceInfo& device) {
  return lookup<Rule>(key_of(device));
}

}  // namespace lockstep::defaults
