// The defaults table (src/runtime/defaults.cpp) gives every rule the answers it gave when its
// numbers were constants in code: the rules as they were (copied here from the tree before the
// table, commit ae59548) against the rules that read the table, over a grid of inputs, for
// described devices (NVIDIA sm_90, AMD, Intel, a PoCL-like CPU, NVIDIA with another wave width,
// a named device). Also the CLBlast-style fallback order itself. No device is opened.
#include <algorithm>

#include "lockstep/apsp.hpp"
#include "lockstep/barrier.hpp"
#include "lockstep/bfs.hpp"
#include "lockstep/kernel_builds.hpp"
#include "lockstep/spmv.hpp"
#include "runtime/defaults.hpp"
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

BarrierStrategy old_barrier(const DeviceInfo& info, int groups) {
  const long long cus = std::max<long long>(1, info.compute_units);
  if (info.is_gpu())
    return groups <= 2 * cus ? BarrierStrategy::lock : BarrierStrategy::grouped_lock;
  return BarrierStrategy::lock;
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
        CHECK(old_barrier(d, groups) == default_barrier_strategy(d, groups, local));
  }
}

TEST_CASE("defaults: device, then architecture, then vendor, then type, then portable") {
  using defaults::Key;
  // radix.local_size: portable 16, GPU 64, NVIDIA GPU 256 (no architecture or device entry)
  CHECK(defaults::values(Key{"", "", "", ""}, "radix").integer("local_size") == 16);
  CHECK(defaults::values(Key{"CPU", "nvidia", "sm_90", "x"}, "radix").integer("local_size") == 16);
  CHECK(defaults::values(Key{"GPU", "amd", "gfx90a", "x"}, "radix").integer("local_size") == 64);
  CHECK(defaults::values(Key{"GPU", "nvidia", "sm_90", "x"}, "radix").integer("local_size") == 256);
  // a value only the portable entry sets comes from there on every device
  CHECK(defaults::values(Key{"GPU", "nvidia", "sm_90", "x"}, "spmv").number("contiguous") == 0.15);
  CHECK(defaults::values(Key{"GPU", "nvidia", "", ""}, "barrier").text("beyond") == "grouped-lock");
  CHECK_THROWS_AS(defaults::values(Key{}, "radix").integer("no_such_value"), std::logic_error);
  CHECK(defaults::architecture_of(device_profile("nvidia", 0, "3.0")) == "sm_90");
  CHECK(defaults::architecture_of(device_profile("cpu", 0, "3.0")).empty());
  // every entry's rule is one the library reads, and every value of a typed entry has a portable
  // one
  for (const defaults::Entry& e : defaults::table()) {
    CAPTURE(e.rule);
    for (const auto& [name, value] : e.values) {
      CAPTURE(name);
      CHECK_NOTHROW(defaults::values(Key{}, e.rule).text(name));
    }
  }
}
