// The defaults table (defaults.hpp). Each entry's source measurement is in BENCHMARKS.md,
// "Defaults as data"; tools/bench/fit_spmv_rule.py prints a new "spmv" entry from tuning data.
#include "runtime/defaults.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <tuple>

namespace lockstep::defaults {

namespace {
const Key kPortable{}, kGpu{"GPU", "", "", ""}, kNvidiaGpu{"GPU", "nvidia", "", ""};
}  // namespace

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = {
      // Radix sort. Portable: CPU devices (long serial runs per work-item, no look-back: groups
      // that share an OS thread must not spin on each other). GPUs: counters per work-item.
      // NVIDIA (32-lane warps): PTX match ranking, Onesweep's own tile shape (H100/H200).
      {kPortable,
       "radix",
       {{"match", "0"},
        {"local_size", "16"},
        {"items", "128"},
        {"items_pairs", "128"},
        {"items_64", "128"},
        {"items_64_pairs", "128"},
        {"pass_local_size", "0"},
        {"pass_local_size_pairs", "0"},
        {"pass_items", "0"},
        {"pass_items_pairs", "0"},
        {"pass_items_64", "0"},
        {"pass_items_64_pairs", "0"},
        {"small_items", "512"},
        {"min_tiles_per_cu", "0"},
        {"min_tiles_per_cu_pairs", "0"},
        {"chained", "0"},
        {"private_counts", "1"}}},
      {kGpu,
       "radix",
       {{"local_size", "64"},
        {"items", "16"},
        {"items_pairs", "16"},
        {"items_64", "16"},
        {"items_64_pairs", "16"},
        {"small_items", "16"},
        {"chained", "1"},
        {"private_counts", "0"}}},
      {kNvidiaGpu,
       "radix",
       {{"match", "1"},
        {"local_size", "256"},
        {"items", "20"},
        {"items_pairs", "24"},
        {"items_64", "14"},
        {"items_64_pairs", "14"},
        {"pass_local_size", "512"},
        {"pass_local_size_pairs", "384"},
        {"pass_items", "22"},
        {"pass_items_pairs", "20"},
        {"pass_items_64", "10"},
        {"pass_items_64_pairs", "12"},
        {"small_items", "32"},
        {"min_tiles_per_cu", "1"},
        {"min_tiles_per_cu_pairs", "2"}}},
      // SpMV's untuned rule (tools/bench/fit_spmv_rule.py, H100 fp64 tuning data;
      // BENCHMARKS.md, "Defaults as data").
      // CPUs: one row per work-item vectorises best.
      {kPortable,
       "spmv",
       {{"group_bits", "8"},
        {"local_entries", "4"},
        {"contiguous", "0.15"},
        {"max_per_row", "16"},
        {"small_div", "2"},
        {"resident_per_unit", "2048"},
        {"merge_items", "7"},
        {"one_row_per_item", "1"}}},
      {kGpu, "spmv", {{"one_row_per_item", "0"}}},
      // APSP: tile 32 and K * tile = 128 everywhere; GPUs widen the generalized bulk's micro-tile
      // without paths (8 x 8, unrolled twice, next phases overlapped on a second queue).
      {kPortable,
       "apsp",
       {{"tile", "32"},
        {"k_span", "128"},
        {"thread_tile", "4"},
        {"thread_tile_wide", "4"},
        {"unroll_wide", "0"},
        {"overlap_wide", "-1"}}},
      {kGpu, "apsp", {{"thread_tile_wide", "8"}, {"unroll_wide", "2"}, {"overlap_wide", "1"}}},
      // BFS auto: no whole-graph multi and no whole-graph CPU rule on CPU devices (-1: off).
      {kPortable,
       "bfs",
       {{"lb_edges_per_multi", "2"},
        {"lb_degree_per_wave", "0.25"},
        {"multi_work", "-1"},
        {"cpu_graph_edges_per_thread", "-1"}}},
      {kGpu, "bfs", {{"multi_work", "256"}, {"cpu_graph_edges_per_thread", "16384"}}},
      // The default barrier: `lock` up to lock_groups_per_cu groups per compute unit, `beyond`
      // above (portable: lock at any count).
      {kPortable, "barrier", {{"lock_groups_per_cu", "1048576"}, {"beyond", "lock"}}},
      {kGpu, "barrier", {{"lock_groups_per_cu", "2"}, {"beyond", "grouped-lock"}}},
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
  return {d.is_gpu() ? "GPU" : "CPU", to_string(d.vendor_id()), architecture_of(d), d.name};
}

Values Values::resolve(const Key& key, const std::string& rule) {
  auto fits = [](const std::string& field, const std::string& value) {
    return field.empty() || field == value;
  };
  std::map<std::string, std::pair<int, std::string>> best;  // name -> (rank, value)
  for (const Entry& e : table()) {
    if (e.rule != rule || !fits(e.key.type, key.type) || !fits(e.key.vendor, key.vendor) ||
        !fits(e.key.architecture, key.architecture) || !fits(e.key.device, key.device))
      continue;
    // CLBlast's order: device, architecture, vendor, then the device type, then portable.
    const int rank = (e.key.device.empty() ? 0 : 8) + (e.key.architecture.empty() ? 0 : 4) +
                     (e.key.vendor.empty() ? 0 : 2) + (e.key.type.empty() ? 0 : 1);
    for (const auto& [name, value] : e.values) {
      auto it = best.find(name);
      if (it == best.end() || rank > it->second.first) best[name] = {rank, value};
    }
  }
  Values v;
  for (const auto& [name, ranked] : best) {
    v.text_.emplace_back(name, ranked.second);
    // from_chars: "0.15" whatever the process's locale, and no iostreams (a std::istringstream
    // here crashed the Python module
    // beside NVIDIA's driver)
    const std::string& t = ranked.second;
    double x = std::numeric_limits<double>::quiet_NaN();
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
    if (ec != std::errc() || end != t.data() + t.size())
      x = std::numeric_limits<double>::quiet_NaN();
    v.number_.push_back(x);
  }
  v.rule_ = rule;
  return v;
}

const Values& values(const Key& key, const std::string& rule) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>,
                  std::unique_ptr<Values>>
      cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{key.type, key.vendor, key.architecture, key.device, rule}];
  if (!slot) slot = std::make_unique<Values>(Values::resolve(key, rule));
  return *slot;
}

size_t Values::find(const std::string& name) const {
  auto it = std::lower_bound(text_.begin(), text_.end(), name,
                             [](const auto& e, const std::string& n) { return e.first < n; });
  if (it == text_.end() || it->first != name)
    throw std::logic_error("defaults: no portable value for " + rule_ + "." + name);
  return size_t(it - text_.begin());
}

const std::string& Values::text(const std::string& name) const { return text_[find(name)].second; }

double Values::number(const std::string& name) const {
  const double x = number_[find(name)];
  if (std::isnan(x)) throw std::logic_error("defaults: " + rule_ + "." + name + " is not a number");
  return x;
}

}  // namespace lockstep::defaults
