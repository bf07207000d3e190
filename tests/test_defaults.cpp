// The defaults table (src/runtime/defaults.cpp) gives every rule the answers it gave when its
// numbers were constants in code: the rules as they were (copied here from the tree before the
// table, commit ae59548) against the rules that read the table, over a grid of inputs, for
// described devices (NVIDIA sm_90, AMD, Intel, a PoCL-like CPU, NVIDIA with another wave width,
// a named device), and so do the shapes that were code (alignment, search, SpMM, sort's automatic
// choice: copied from the tree before they joined the table). Also the CLBlast-style fallback
// order itself and the alignment shape per size spelled out. No device is opened.
#include <algorithm>

#include "align/gpu_common.hpp"
#include "lockstep/apsp.hpp"
#include "lockstep/barrier.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/kernel_builds.hpp"
#include "lockstep/spmm.hpp"
#include "lockstep/spmv.hpp"
#include "runtime/defaults.hpp"
#include "search/search_impl.hpp"
#include "sort/sort_impl.hpp"
#include "support.hpp"

using namespace lockstep;

namespace {

std::vector<DeviceInfo> profiles() {
  std::vector<DeviceInfo> out = {device_profile("nvidia", 0, "3.0"),
                                 device_profile("amd", 0, "2.0"), device_profile("intel", 0, "3.0"),
                                 device_profile("cpu", 0, "3.0"),
                                 device_profile("nvidia", 64, "3.0")};
  out[1].name = "gfx90a:sramecc+:xnack-";  // AMD's OpenCL names the architecture
  DeviceInfo pocl = device_profile("cpu", 0, "3.0");
  pocl.name = "cpu-haswell-AMD EPYC 7B13", pocl.vendor = "AuthenticAMD", pocl.compute_units = 2;
  pocl.local_mem_bytes = 4 << 20;  // PoCL's CPU device: a CPU that a vendor rule must not take
  out.push_back(pocl);
  DeviceInfo small = device_profile("nvidia", 0, "3.0");
  small.compute_units = 3, small.max_work_group_size = 128, small.nv_cc_major = 7;
  out.push_back(small);
  return out;
}

// ---- the rules before the table ----
detail::RadixParams old_radix(const DeviceInfo& device, KeyType type, bool pairs) {
  detail::RadixParams p;
  const size_t kb = key_bytes(type);
  if (device.is_nvidia() && device.wave_width == 32) {
    p.match = detail::RadixMatch::ptx;
    p.wave = 32;
    p.items = kb == 8 ? 14 : (pairs ? 24 : 20);
    p.pass_local_size = pairs ? 384 : 512;
    p.pass_items = kb == 8 ? (pairs ? 12 : 10) : (pairs ? 20 : 22);
    p.small_items = 32;
    p.min_tiles = std::max(1, int(device.compute_units)) * (pairs ? 2 : 1);
  } else if (!device.is_gpu()) {
    p.local_size = 16;
    p.items = 128;
    p.chained = false;
    p.private_counts = true;
    p.small_items = 512;
  } else {
    p.local_size = 64;
    p.items = 16;
    p.small_items = 16;
  }
  if (p.match == detail::RadixMatch::ptx && p.pass_local_size)
    p.pass_registers = std::min(255, 65536 / (2 * p.pass_local_size) / 8 * 8);
  return p;
}

SpmvConfig old_spmv(const DeviceInfo& d, const RowStats& s, int32_t rows, size_t value,
                    double contiguity) {
  SpmvConfig c;
  int wg_bits = 8;
  while ((size_t(1) << wg_bits) > d.max_work_group_size && wg_bits > 0) --wg_bits;
  c.local_size = 1 << wg_bits;
  if (s.max > 8 * std::max(1.0, s.mean) && s.std > s.mean && s.max > 256 && rows > 0) {
    c.algorithm = SpmvAlgorithm::adaptive;
    c.items = 7;
    if (spmv_valid(c, d, value)) return c;
  }
  c.algorithm = SpmvAlgorithm::vector;
  c.shuffle = 0;
  if (!d.is_gpu()) {
    c.rows_bits = wg_bits;
    return c;
  }
  const int wave = int(std::max(1u, d.wave_width));
  int tpr_bits = 0;
  if (size_t(rows) * size_t(wave) <= size_t(d.compute_units) * 2048) {
    while ((1 << tpr_bits) < double(s.max) / 2 && (2 << tpr_bits) <= wave && tpr_bits < wg_bits)
      ++tpr_bits;
  } else {
    const double per_item = contiguity >= 0.15 ? 4 : 1.0;
    const int cap = std::min(16, wave);
    while ((2 << tpr_bits) <= s.mean / per_item && (2 << tpr_bits) <= cap && tpr_bits < wg_bits)
      ++tpr_bits;
  }
  if (tpr_bits == 0) {
    c.algorithm = SpmvAlgorithm::scalar;
    return c;
  }
  c.rows_bits = wg_bits - tpr_bits;
  SpmvConfig with = c;
  with.shuffle = 1;
  if (spmv_valid(with, d, value)) c.shuffle = 1;
  return c;
}

// apsp_rule's head (the rest of apsp_rule is unchanged: the new rule applied to this head's
// answer must give what it gives alone)
ApspConfig old_apsp_head(const DeviceInfo& device, ApspConfig c) {
  if (c.tile == 0) c.tile = 32;
  if (c.K == 0) c.K = c.algorithm == ApspAlgorithm::generalized ? std::max(1, 128 / c.tile) : 1;
  const bool wide = device.is_gpu() && !c.paths && c.algorithm == ApspAlgorithm::generalized;
  if (c.thread_tile == 0) {
    c.thread_tile = wide ? 8 : 4;
    if (c.thread_rows == 0) c.thread_rows = c.thread_tile;
    if (wide && c.unroll == 0) c.unroll = 2;
    if (wide && c.overlap < 0) c.overlap = 1;
  }
  return c;
}

BfsRule old_bfs(const DeviceInfo& device, const BfsOptions& o) {
  BfsRule r = o.rule;
  const int wave = o.wave_width > 0 ? o.wave_width : int(std::max(32u, device.wave_width));
  if (r.cpu_max <= 0) r.cpu_max = o.local_size;
  if (r.multi_max <= 0) r.multi_max = int32_t(std::max(1u, device.compute_units)) * o.local_size;
  if (r.lb_edges <= 0) r.lb_edges = 2 * int64_t(r.multi_max);
  if (r.lb_degree <= 0) r.lb_degree = wave / 4.0;
  if (r.multi_work == 0) r.multi_work = device.is_gpu() ? 256 : -1;
  if (r.cpu_graph_edges == 0)
    r.cpu_graph_edges = device.is_gpu() ? 16384 * int64_t(bfs_auto_cpu_threads(o)) : -1;
  return r;
}

Barrier old_barrier(const DeviceInfo& info, int groups) {
  const long long cus = std::max<long long>(1, info.compute_units);
  if (info.is_gpu()) return groups <= 2 * cus ? Barrier::lock : Barrier::grouped_lock;
  return Barrier::lock;
}

// ---- the shape rules that were code before the table took them ----
AlignConfig old_sw_rule(const DeviceInfo& info, AlignConfig c, size_t n, size_t m, bool barrier,
                        int alphabet) {
  const bool gpu = info.is_gpu(), dna = alphabet <= 5, short_pair = n < 500000;
  if (gpu && barrier && !dna && n < 10000) {  // short protein pairs: 64 x 4 x 128
    if (!c.local_size) c.local_size = 64;
    if (!c.cells) c.cells = 4;
    if (!c.tile_cols) c.tile_cols = 128;
    return c;
  }
  if (!c.local_size)
    c.local_size = gpu ? (barrier || (dna && short_pair) ? 256 : dna ? 128 : 64) : 32;
  if (!c.cells) c.cells = gpu ? (barrier || dna ? 8 : 16) : 4;
  if (!c.tile_cols)
    c.tile_cols = gpu ? (barrier ? int(std::clamp<size_t>(m / 128, 256, 2048)) : 64) : 256;
  return c;
}
int old_sw_rule_bits(const DeviceInfo& info, const AlignConfig& c, size_t n, int alphabet) {
  const bool rule_shape = c.local_size == 0 && c.cells == 0 && c.tile_cols == 0;
  return info.is_gpu() && rule_shape && alphabet <= 5 && n < 500000 ? 32 : 0;
}

detail::SearchShape old_search_shape(const DeviceInfo& di, const SearchOptions& o,
                                     double residues) {
  detail::SearchShape sh;
  const std::string features = detail::algorithm_words(o).features;
  const bool skew =
      di.is_gpu() && !o.local_size && !o.stripe && features.empty() && residues >= 1e8;
  sh.local = o.local_size ? o.local_size : di.is_gpu() ? 128 : 64;
  sh.stripe = o.stripe ? o.stripe : skew ? 32 : di.is_gpu() ? 64 : 16;
  sh.prof2 = features.find("prof2") != std::string::npos;
  sh.skew = features.find("skew") != std::string::npos || skew;
  return sh;
}

int pow2_at_least(int v) {
  int p = 1;
  while (p < v) p *= 2;
  return p;
}
int div_up(int a, int b) { return (a + b - 1) / b; }
SpmmConfig old_spmm(const DeviceInfo& device, int k, DenseLayout layout, const RowStats& stats) {
  if (layout == DenseLayout::col_major && device.is_gpu()) {  // GPUs: between layout copies
    SpmmConfig c = old_spmm(device, k, DenseLayout::row_major, stats);
    c.transpose = true;
    if (spmm_valid(c, device, k, layout)) return c;
  }
  SpmmConfig c;
  if (irregular_rows(stats)) c.algorithm = SpmmAlgorithm::merge, c.items = spmm_merge_items;
  c.local_size = int(std::min<size_t>(256, device.max_work_group_size));
  c.vec = layout == DenseLayout::col_major ? 1 : (k % 4 == 0 ? 4 : k % 2 == 0 ? 2 : 1);
  const int chunks = div_up(std::max(1, k), c.vec);
  const int per_lane = layout == DenseLayout::col_major ? 8 : device.is_gpu() ? 1 : 4;
  c.team = std::min({32, pow2_at_least(div_up(chunks, per_lane)), c.local_size});
  if (c.algorithm == SpmmAlgorithm::merge && device.is_gpu() && layout == DenseLayout::row_major) {
    c.vec = 1;
    c.team = std::min({16, pow2_at_least(k), c.local_size});
    if (div_up(k, c.team) > 8) c.team = std::min({32, pow2_at_least(div_up(k, 8)), c.local_size});
    if (k >= 16) c.items = 4 * spmm_merge_items;
  }
  return c;
}

SortAlgorithm old_sort_rule(const DeviceInfo& device, KeyType type, size_t n, bool pairs) {
  const detail::RadixParams p = detail::radix_params(device, type, pairs, 0);
  const size_t one = p.small_items ? size_t(p.local_size) * size_t(p.small_items) : 2048;
  if (device.is_gpu() && n > one && n <= detail::radix_persistent_max(device, p, type, pairs))
    return SortAlgorithm::radix_persistent;
  return SortAlgorithm::radix;
}

}  // namespace

TEST_CASE("defaults: the table gives each rule its old answers on every described device") {
  for (DeviceInfo d : profiles()) {
    CAPTURE(d.name);
    CAPTURE(d.wave_width);
    d.local_mem_bytes = std::max<cl_ulong>(d.local_mem_bytes, 1 << 20);  // no shrinking below
    for (KeyType t : all_key_types())
      for (bool pairs : {false, true}) {
        const detail::RadixParams a = old_radix(d, t, pairs),
                                  b = detail::radix_params(d, t, pairs, 0);
        CHECK(a.local_size == b.local_size);
        CHECK(a.items == b.items);
        CHECK(a.pass_local_size == b.pass_local_size);
        CHECK(a.pass_items == b.pass_items);
        CHECK(a.pass_registers == b.pass_registers);
        CHECK(a.match == b.match);
        CHECK(a.wave == b.wave);
        CHECK(a.min_tiles == b.min_tiles);
        CHECK(a.chained == b.chained);
        CHECK(a.private_counts == b.private_counts);
        CHECK(a.small_items == b.small_items);
      }
    int spmv_cases = 0;
    for (size_t value : {size_t(4), size_t(8)})
      for (int32_t rows : {1, 1000, 100000, 4000000})
        for (double mean : {0.5, 1.0, 3.0, 5.0, 8.0, 16.0, 40.0, 100.0, 1000.0})
          for (int64_t max : {int64_t(1), int64_t(5), int64_t(64), int64_t(300), int64_t(100000)})
            for (double contiguity : {0.0, 0.1, 0.15, 0.5}) {
              const RowStats s{0, max, mean, mean * 1.5};
              const SpmvConfig a = old_spmv(d, s, rows, value, contiguity);
              const SpmvConfig b = predict_spmv_config(d, s, rows, value, contiguity);
              CHECK(a.str() == b.str());
              CHECK(a.items == b.items);
              ++spmv_cases;
            }
    CHECK(spmv_cases == 1440);
    for (ApspAlgorithm v :
         {ApspAlgorithm::naive, ApspAlgorithm::blocked, ApspAlgorithm::generalized})
      for (bool paths : {false, true})
        for (int tile : {0, 16, 64})
          for (int tt : {0, 4}) {
            ApspConfig c;
            c.algorithm = v, c.paths = paths, c.tile = tile, c.thread_tile = tt;
            const ApspConfig a = apsp_rule(d, 1000, old_apsp_head(d, c)), b = apsp_rule(d, 1000, c);
            CHECK(std::make_tuple(a.tile, a.K, a.thread_tile, a.thread_rows, a.unroll, a.overlap) ==
                  std::make_tuple(b.tile, b.K, b.thread_tile, b.thread_rows, b.unroll, b.overlap));
          }
    for (int threads : {0, 1, 4, 16, 64})
      for (int wave : {0, 64})
        for (int local : {64, 256}) {
          BfsOptions o;
          o.cpu_threads = threads, o.wave_width = wave, o.local_size = local;
          const BfsRule a = old_bfs(d, o), b = bfs_rule(d, o);
          CHECK(std::make_tuple(a.cpu_max, a.multi_max, a.lb_edges, a.lb_degree, a.multi_work,
                                a.cpu_graph_edges) ==
                std::make_tuple(b.cpu_max, b.multi_max, b.lb_edges, b.lb_degree, b.multi_work,
                                b.cpu_graph_edges));
        }
    for (int groups = 1; groups <= 4096; groups = groups * 3 / 2 + 1)
      for (int local : {64, 256, 1024})
        CHECK(old_barrier(d, groups) == default_barrier(d, groups, local));
  }
}

TEST_CASE("defaults: device, then architecture, then vendor, then type, then portable") {
  using defaults::Key;
  using defaults::lookup;
  // radix.local_size: portable 16, GPU 64, NVIDIA GPU of 32-lane warps 256
  CHECK(lookup<defaults::Radix>(Key{"", "", "", ""}).local_size == 16);
  CHECK(lookup<defaults::Radix>(Key{"CPU", "nvidia", "sm_90", "x", 32}).local_size == 16);
  CHECK(lookup<defaults::Radix>(Key{"GPU", "amd", "gfx90a", "x", 64}).local_size == 64);
  CHECK(lookup<defaults::Radix>(Key{"GPU", "nvidia", "sm_90", "x", 32}).local_size == 256);
  CHECK(lookup<defaults::Radix>(Key{"GPU", "nvidia", "sm_90", "x", 64}).local_size == 64);
  // typed values per key width and pairs
  const defaults::Radix nv = lookup<defaults::Radix>(Key{"GPU", "nvidia", "", "", 32});
  CHECK(nv.items.of(4, false) == 20);
  CHECK(nv.items.of(4, true) == 24);
  CHECK(nv.pass_items.of(8, true) == 12);
  CHECK(nv.pass_local_size.of(true) == 384);
  // a value only the portable entry sets comes from there on every device
  CHECK(lookup<defaults::Spmv>(Key{"GPU", "nvidia", "sm_90", "x", 32}).contiguous == 0.15);
  CHECK(lookup<defaults::BarrierDefault>(Key{"GPU", "nvidia", "", ""}).beyond ==
        Barrier::grouped_lock);
  CHECK(defaults::architecture_of(device_profile("nvidia", 0, "3.0")) == "sm_90");
  CHECK(defaults::architecture_of(device_profile("cpu", 0, "3.0")).empty());
  // every entry names its measurement
  auto named = [](const auto& table) {
    for (const auto& e : table) CHECK(std::string(e.measured).size() > 8);
  };
  named(defaults::table<defaults::Radix>()), named(defaults::table<defaults::Sort>());
  named(defaults::table<defaults::Spmv>()), named(defaults::table<defaults::Spmm>());
  named(defaults::table<defaults::Apsp>()), named(defaults::table<defaults::Bfs>());
  named(defaults::table<defaults::BarrierDefault>()), named(defaults::table<defaults::Search>());
  named(defaults::table<defaults::Align>());
}

TEST_CASE(
    "defaults: the shapes that were code (alignment, search, SpMM, sort) keep their answers") {
  for (DeviceInfo d : profiles()) {
    CAPTURE(d.name);
    CAPTURE(d.wave_width);
    for (size_t n : {size_t(1000), size_t(200000), size_t(499999), size_t(500000), size_t(1000000)})
      for (size_t m : {size_t(100), size_t(50000), size_t(180000), size_t(1000000)})
        for (bool barrier : {false, true})
          for (int alphabet : {4, 5, 20, 24})
            for (int given : {0, 1, 2}) {
              AlignConfig c;
              if (given == 1) c.local_size = 64;
              if (given == 2) c.tile_cols = 512, c.cells = 2;
              const AlignConfig a = old_sw_rule(d, c, n, m, barrier, alphabet),
                                b = detail::sw_rule(d, c, n, m, barrier, alphabet);
              CHECK(std::make_tuple(a.local_size, a.cells, a.tile_cols) ==
                    std::make_tuple(b.local_size, b.cells, b.tile_cols));
              CHECK(old_sw_rule_bits(d, c, n, alphabet) == detail::sw_rule_bits(d, c, n, alphabet));
            }
    for (int local : {0, 32})
      for (int stripe : {0, 16})
        for (const char* algorithm :
             {"auto", "inter", "inter+prof2", "inter+skew", "inter+prof2+skew"})
          for (double residues : {1e3, 9e6, 1e8 - 1, 1e8, 5e8}) {
            SearchOptions o;
            o.local_size = local, o.stripe = stripe, o.algorithm = algorithm;
            const detail::SearchShape a = old_search_shape(d, o, residues),
                                      b = detail::search_shape(d, o, residues);
            CHECK(std::make_tuple(a.local, a.stripe, a.prof2, a.skew) ==
                  std::make_tuple(b.local, b.stripe, b.prof2, b.skew));
          }
    CHECK(detail::ends_local(d) == (d.is_gpu() ? 64 : 16));
    CHECK(detail::ends_rows(d) == (d.is_gpu() ? 8 : 4));
    for (int k : {1, 2, 3, 4, 6, 8, 16, 32, 64, 100})
      for (DenseLayout l : {DenseLayout::row_major, DenseLayout::col_major})
        for (const RowStats& st : {RowStats{0, 10, 5.0, 1.0}, RowStats{0, 100000, 3.0, 50.0}}) {
          const SpmmConfig a = old_spmm(d, k, l, st), b = spmm_rule(d, k, l, st);
          CHECK(a.str() == b.str());
        }
    for (KeyType t : all_key_types())
      for (bool pairs : {false, true})
        for (size_t n : {size_t(1000), size_t(5000), size_t(1) << 13, size_t(1) << 17,
                         size_t(1) << 20, size_t(1) << 22, size_t(1) << 26})
          CHECK(old_sort_rule(d, t, n, pairs) == sort_rule(d, t, n, pairs));
  }
}

// The alignment shape per size, spelled out (what `lockstep align` runs without a tuned entry):
// NVIDIA sm_90 and a CPU device.
TEST_CASE("defaults: the alignment shape per size on a GPU and a CPU") {
  const DeviceInfo gpu = device_profile("nvidia", 0, "3.0"), cpu = device_profile("cpu", 0, "3.0");
  struct Case {
    const DeviceInfo* d;
    size_t n, m;
    bool barrier;
    int alphabet;
    int local, cells, tile, bits;
  };
  const Case cases[] = {
      {&gpu, 200000, 180000, false, 5, 256, 8, 64, 32},    // DNA below long_pair_rows: 32 bits
      {&gpu, 1000000, 1000000, false, 5, 128, 8, 64, 0},   // the long pair
      {&gpu, 1000000, 1000000, false, 24, 64, 16, 64, 0},  // proteins
      {&gpu, 1000, 1000, true, 20, 64, 4, 128, 0},         // short proteins: the barrier kernel
      {&gpu, 3412, 3412, true, 25, 64, 4, 128, 0},
      {&gpu, 3412, 3412, false, 25, 64, 16, 64, 0},  // (the pipeline when asked for)
      {&gpu, 10000, 10000, false, 25, 64, 16, 64, 0},
      {&gpu, 1000000, 1000000, true, 5, 256, 8, 2048, 0},  // barrier: m / 128 within [256, 2048]
      {&gpu, 100000, 100000, true, 5, 256, 8, 781, 0},
      {&gpu, 10000, 10000, true, 24, 256, 8, 256, 0},
      {&cpu, 200000, 180000, false, 5, 32, 4, 256, 0},
      {&cpu, 1000000, 1000000, true, 5, 32, 4, 256, 0},
  };
  for (const Case& k : cases) {
    CAPTURE(k.d->type);
    CAPTURE(k.n);
    CAPTURE(k.m);
    CAPTURE(k.barrier);
    CAPTURE(k.alphabet);
    const AlignConfig c = detail::sw_rule(*k.d, AlignConfig{}, k.n, k.m, k.barrier, k.alphabet);
    CHECK(c.local_size == k.local);
    CHECK(c.cells == k.cells);
    CHECK(c.tile_cols == k.tile);
    if (!k.barrier) CHECK(detail::sw_rule_bits(*k.d, AlignConfig{}, k.n, k.alphabet) == k.bits);
  }
  // automatic's kernel: the barrier kernel for short protein pairs on the GPU only
  CHECK(detail::sw_rule_barrier(gpu, 3412, 25));
  CHECK(detail::sw_rule_barrier(gpu, 9999, 20));
  CHECK_FALSE(detail::sw_rule_barrier(gpu, 10000, 25));
  CHECK_FALSE(detail::sw_rule_barrier(gpu, 3412, 5));
  CHECK_FALSE(detail::sw_rule_barrier(cpu, 3412, 25));
}
