// The defaults table (defaults.hpp): every rule's entries, each with the benchmark command
// whose measurement it holds (BENCHMARKS.md, "Defaults as data", gives the numbers);
// tools/bench/fit_spmv_rule.py prints a new "spmv" entry from tuning data.
#include "runtime/defaults.hpp"

#include <algorithm>

namespace lockstep::defaults {

namespace {
const Key kPortable{}, kGpu{"GPU", "", "", ""};
const Key kNvidiaWarps{"GPU", "nvidia", "", "", 32};  // PTX that needs 32-lane warps
}  // namespace

template <>
const std::vector<Entry<Radix>>& table() {
  using R = Radix;
  static const std::vector<Entry<Radix>> t = {
      // CPU devices: long serial runs per work-item, no look-back (groups that share an OS thread
      // must not spin on each other).
      {kPortable,
       "tools/bench/sort.sh on PoCL (radix against bitonic, 4096 and 100003 pairs)",
       {set(&R::match, 0), set(&R::local_size, 16), set(&R::items, {128, 128, 128, 128}),
        set(&R::pass_local_size, {0, 0}), set(&R::pass_items, {0, 0, 0, 0}),
        set(&R::small_items, 512), set(&R::min_tiles_per_cu, {0, 0}), set(&R::chained, false),
        set(&R::private_counts, true)}},
      // Other GPUs: counters per work-item, so few work-items fit.
      {kGpu,
       "unmeasured (the AMD/Intel compile pass of .ci/run builds it)",
       {set(&R::local_size, 64), set(&R::items, {16, 16, 16, 16}), set(&R::small_items, 16),
        set(&R::chained, true), set(&R::private_counts, false)}},
      // NVIDIA, 32-lane warps: PTX match ranking, Onesweep's own tile shape (H100/H200).
      {kNvidiaWarps,
       "tools/bench/sort.sh, H100 and H200 (BENCHMARKS.md, Sorting)",
       {set(&R::match, 1), set(&R::local_size, 256), set(&R::items, {20, 24, 14, 14}),
        set(&R::pass_local_size, {512, 384}), set(&R::pass_items, {22, 20, 10, 12}),
        set(&R::small_items, 32), set(&R::min_tiles_per_cu, {1, 2})}},
  };
  return t;
}

template <>
const std::vector<Entry<Sort>>& table() {
  static const std::vector<Entry<Sort>> t = {
      {kPortable,
       "tools/bench/sort.sh on PoCL (radix: no global barrier spinning on the host's cores)",
       {set(&Sort::persistent, false), set(&Sort::persistent_min, size_t(2048))}},
      {kGpu, "tools/bench/sort.sh, H100 (BENCHMARKS.md, Sorting)", {set(&Sort::persistent, true)}},
  };
  return t;
}

template <>
const std::vector<Entry<Spmv>>& table() {
  using S = Spmv;
  static const std::vector<Entry<Spmv>> t = {
      {kPortable,
       "tools/bench/fit_spmv_rule.py on `SWEEP=1 tools/bench/spmv.sh` tuning data (H100 fp64)",
       {set(&S::local_size_bits, 8), set(&S::local_entries, 4.0), set(&S::contiguous, 0.15),
        set(&S::max_per_row, 16), set(&S::small_div, 2.0), set(&S::resident_per_unit, 2048),
        set(&S::merge_items, 7), set(&S::one_row_per_item, true)}},
      {kGpu, "tools/bench/spmv.sh", {set(&S::one_row_per_item, false)}},
  };
  return t;
}

template <>
const std::vector<Entry<Spmm>>& table() {
  using S = Spmm;
  static const std::vector<Entry<Spmm>> t = {
      {kPortable,
       "tools/bench/spmv.sh spmm on PoCL (fewer, longer lanes)",
       {set(&S::local_size, 256), set(&S::team_max, 32), set(&S::chunks_per_lane, 4),
        set(&S::merge_column_lanes, false), set(&S::merge_team_max, 16), set(&S::merge_long_k, 16),
        set(&S::merge_long_items, 4), set(&S::col_major_transpose, false)}},
      // Column-major through row-major copies: rmat21 float k = 4..32 on the H200, 1.9-7.6x
      // cuSPARSE against 0.70-0.82x for the column-major kernel (tools/bench/anchors.sh).
      {kGpu,
       "`lockstep tune spmm` on rmat21, k = 4, 8, 16, 32 (H100; BENCHMARKS.md, SpMV and SpMM); "
       "tools/bench/anchors.sh ROWS=spmm (H200)",
       {set(&S::chunks_per_lane, 1), set(&S::merge_column_lanes, true),
        set(&S::col_major_transpose, true)}},
  };
  return t;
}

template <>
const std::vector<Entry<Apsp>>& table() {
  using A = Apsp;
  static const std::vector<Entry<Apsp>> t = {
      {kPortable,
       "tools/bench/apsp.sh (n = 8192 f32 tile x K sweep, H100 and PoCL)",
       {set(&A::tile, 32), set(&A::k_span, 128), set(&A::thread_tile, 4),
        set(&A::thread_tile_wide, 4), set(&A::unroll_wide, 0), set(&A::overlap_wide, -1)}},
      {kGpu,
       "tools/bench/apsp.sh SET=micro",
       {set(&A::thread_tile_wide, 8), set(&A::unroll_wide, 2), set(&A::overlap_wide, 1)}},
  };
  return t;
}

template <>
const std::vector<Entry<Bfs>>& table() {
  using B = Bfs;
  static const std::vector<Entry<Bfs>> t = {
      {kPortable,
       "tools/bench/bfs.sh on PoCL (wiki-Vote: multi 28.8 ms, per level 1.5 ms)",
       {set(&B::lb_edges_per_multi, 2), set(&B::lb_degree_per_wave, 0.25),
        set(&B::multi_work, -1.0), set(&B::cpu_graph_edges_per_thread, -1LL)}},
      {kGpu,
       "tools/bench/bfs.sh (the shared graphs, RMAT 22, the 2048 grid; H100)",
       {set(&B::multi_work, 256.0), set(&B::cpu_graph_edges_per_thread, 16384LL)}},
  };
  return t;
}

template <>
const std::vector<Entry<BarrierDefault>>& table() {
  using B = BarrierDefault;
  static const std::vector<Entry<BarrierDefault>> t = {
      {kPortable,
       "lockstep bench-barrier on PoCL (few groups: lock)",
       {set(&B::lock_groups_per_cu, 1048576.0), set(&B::beyond, Barrier::lock)}},
      {kGpu,
       "tools/bench/barrier.sh (H100, 132 x 256 to 1056 x 256 groups)",
       {set(&B::lock_groups_per_cu, 2.0), set(&B::beyond, Barrier::grouped_lock)}},
      // Two groups per SM, all arriving at once: two counter words. H200, 264 x 1024, barriers
      // alone: 0.993 us against 1.193 on one word and grid.sync()'s 1.037 (split 4: 1.064, 8:
      // 1.265); fewer groups keep one word (the persistent radix sort at 128 and 205 groups ran
      // 2-2.5 % slower split, its arrivals spread out).
      {kNvidiaWarps,
       "lockstep bench barrier --groups 264 --local-size 1024 --no-data --split 1,2,4,8 (H200)",
       {set(&B::split_groups_per_cu, 2.0), set(&B::split, 2)}},
  };
  return t;
}

template <>
const std::vector<Entry<Search>>& table() {
  using S = Search;
  static const std::vector<Entry<Search>> t = {
      {kPortable,
       "tools/bench/search.sh on PoCL",
       {set(&S::local_size, 64), set(&S::stripe, 16), set(&S::skew_residues, 0.0),
        set(&S::skew_stripe, 32), set(&S::ends_local, 16), set(&S::ends_rows, 4)}},
      // 64 rows a work-item (H100, proteins: 842 GCUPS, 32 rows 773); from 10^8 residues 32 rows
      // and skew (5 x 10^8 residues: 5.02-5.07 TCUPS against 4.74-4.77 on the H100 and H200; the
      // 9 x 10^6-residue example database 3.58-3.59 against 3.75, so it stays 64 plain).
      {kGpu,
       "tools/bench/search.sh, H100 and H200 (BENCHMARKS.md, Database search)",
       {set(&S::local_size, 128), set(&S::stripe, 64), set(&S::skew_residues, 1e8),
        set(&S::ends_local, 64), set(&S::ends_rows, 8)}},
  };
  return t;
}

template <>
const std::vector<Entry<Align>>& table() {
  using A = Align;
  static const std::vector<Entry<Align>> t = {
      // PoCL: small groups (its work-group barrier is a loop over work-items).
      {kPortable,
       "tools/bench/align.sh on PoCL",
       {set(&A::barrier, {32, 4, 0, 0}), set(&A::dna, {32, 4, 256, 0}),
        set(&A::dna_long, {32, 4, 256, 0}), set(&A::protein, {32, 4, 256, 0}),
        set(&A::barrier_cols_per_tile, 128), set(&A::barrier_tile_min, 256),
        set(&A::barrier_tile_max, 256), set(&A::long_pair_rows, size_t(500000)),
        set(&A::dna_alphabet, 5)}},
      // Barrier: 256 x 8 (blocks of 2048 rows), tiles m / 128 columns within [256, 2048], so a
      // diagonal holds work but the per-tile skew of T steps stays small. Pipeline, DNA: below
      // long_pair_rows 256 x 8 publishing every 64 columns in 32 bits (H200, 200k x 180k: 357
      // GCUPS against 344 every 128 columns and 292 in 16 bits); from it 128 x 8 (the 16-bit
      // kernel stacks two: 16 rows) every 64 columns (10^6 x 10^6: 1336 GCUPS against 1196 at
      // 128 x 16, 1344 at 256 x 8). Larger alphabets 64 x 16 every 64 columns (short fill);
      // below 10^4 rows the barrier kernel at 64 x 4, tiles of 128 columns (H200, a 3412 x 3412
      // protein pair, BLOSUM62 11/1, one launch: 7.02 GCUPS against 4.70 for the best of 72
      // pipeline shapes, 128 x 4 x 32 in 32 bits, and 6.29-6.89 at 64 x 4 x 64, 64 x 2 x 64).
      {kGpu,
       "tools/bench/align.sh, H100 (BENCHMARKS.md, Alignment); the DNA and protein pairs' shape "
       "sweeps, H200 (BENCHMARKS.md, Every row beside its anchor)",
       {set(&A::barrier, {256, 8, 0, 0}), set(&A::dna, {256, 8, 64, 32}),
        set(&A::dna_long, {128, 8, 64, 0}), set(&A::protein, {64, 16, 64, 0}),
        set(&A::protein_short, {64, 4, 128, 0}), set(&A::protein_short_rows, size_t(10000)),
        set(&A::protein_short_barrier, true), set(&A::barrier_tile_max, 2048)}},
  };
  return t;
}

std::string architecture_of(const DeviceInfo& d) {
  if (d.vendor_id() == Vendor::nvidia && d.nv_cc_major > 0)
    return "sm_" + std::to_string(d.nv_cc_major) + std::to_string(d.nv_cc_minor);
  if (d.vendor_id() == Vendor::amd && d.name.rfind("gfx", 0) == 0)
    return d.name.substr(0, d.name.find_first_of(": "));
  return "";
}

Key key_of(const DeviceInfo& d) {
  return {d.is_gpu() ? "GPU" : "CPU", to_string(d.vendor_id()), architecture_of(d), d.name,
          d.wave_width};
}

template <typename Rule>
Rule lookup(const Key& key) {
  auto fits = [](const std::string& field, const std::string& value) {
    return field.empty() || field == value;
  };
  // CLBlast's order: device, architecture, vendor (at a wave width, then any), type, portable.
  auto rank = [](const Key& k) {
    return (k.device.empty() ? 0 : 16) + (k.architecture.empty() ? 0 : 8) +
           (k.vendor.empty() ? 0 : 4) + (k.wave_width ? 2 : 0) + (k.type.empty() ? 0 : 1);
  };
  std::vector<const Entry<Rule>*> apply;
  for (const Entry<Rule>& e : table<Rule>())
    if (fits(e.key.type, key.type) && fits(e.key.vendor, key.vendor) &&
        fits(e.key.architecture, key.architecture) && fits(e.key.device, key.device) &&
        (!e.key.wave_width || e.key.wave_width == key.wave_width))
      apply.push_back(&e);
  std::stable_sort(apply.begin(), apply.end(),
                   [&](const auto* a, const auto* b) { return rank(a->key) < rank(b->key); });
  Rule r;
  for (const Entry<Rule>* e : apply)
    for (const auto& value : e->values) value(r);
  return r;
}

template Radix lookup<Radix>(const Key&);
template Sort lookup<Sort>(const Key&);
template Spmv lookup<Spmv>(const Key&);
template Spmm lookup<Spmm>(const Key&);
template Apsp lookup<Apsp>(const Key&);
template Bfs lookup<Bfs>(const Key&);
template BarrierDefault lookup<BarrierDefault>(const Key&);
template Search lookup<Search>(const Key&);
template Align lookup<Align>(const Key&);

}  // namespace lockstep::defaults
