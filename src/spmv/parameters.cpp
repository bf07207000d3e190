// The SpMV kernels' declared parameters and constraints (read by the tests and the tuner), and
// the model that predicts a configuration from row-length statistics.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "lockstep/spmv.hpp"
#include "runtime/defaults.hpp"

namespace lockstep {

std::string to_string(SpmvKernel k) {
  switch (k) {
    case SpmvKernel::scalar: return "scalar";
    case SpmvKernel::vector: return "vector";
    case SpmvKernel::adaptive: return "adaptive";
    case SpmvKernel::merge: return "merge";
    default: return "auto";
  }
}

SpmvKernel parse_spmv_kernel(const std::string& name) {
  for (auto k : {SpmvKernel::scalar, SpmvKernel::vector, SpmvKernel::adaptive, SpmvKernel::merge,
                 SpmvKernel::automatic})
    if (to_string(k) == name) return k;
  throw input_error("unknown SpMV kernel '" + name + "' (expected scalar, vector, adaptive, merge or auto)");
}

std::string SpmvConfig::str() const {
  std::ostringstream s;
  s << "kernel=" << to_string(kernel) << " wg_bits=" << wg_bits;
  if (kernel == SpmvKernel::vector) s << " rows_bits=" << rows_bits << " shuffle=" << shuffle;
  if (kernel == SpmvKernel::merge) s << " items=" << items;
  return s.str();
}

const std::vector<SpmvKernelSpec>& spmv_parameters() {
  static const std::vector<SpmvKernelSpec> specs{
      {SpmvKernel::scalar, {{"wg_bits", {6, 7, 8, 9, 10}}}},
      {SpmvKernel::vector,
       {{"wg_bits", {6, 7, 8, 9, 10}}, {"rows_bits", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, {"shuffle", {0, 1}}}},
      {SpmvKernel::adaptive, {{"wg_bits", {7, 8, 9, 10}}}},
      {SpmvKernel::merge, {{"wg_bits", {6, 7, 8, 9}}, {"items", {4, 7, 8, 12, 16}}}},
  };
  return specs;
}


bool spmv_valid(const SpmvConfig& c, const DeviceInfo& d, size_t value) {
  size_t wg = size_t(1) << c.wg_bits;
  if (c.wg_bits < 0 || c.wg_bits > 12 || wg > d.max_work_group_size) return false;
  switch (c.kernel) {
    case SpmvKernel::scalar: return true;
    case SpmvKernel::vector:
      if (c.rows_bits < 0 || c.rows_bits > c.wg_bits) return false;
      if (c.shuffle && (!d.is_nvidia() || d.wave_width != 32 || c.rows_bits == c.wg_bits)) return false;
      return wg * value <= d.local_mem_bytes;
    case SpmvKernel::adaptive: return 2 * wg * value <= d.local_mem_bytes;
    case SpmvKernel::merge:  // products and row ends of a tile, the carry-out scan
      return c.items >= 1 && c.items <= 64 &&
             wg * size_t(c.items) * (value + 4) + 4 + wg * (value + 4) <= d.local_mem_bytes;
    default: return false;
  }
}

std::vector<SpmvConfig> spmv_search_space(const DeviceInfo& d, size_t value) {
  std::vector<SpmvConfig> out;
  for (auto& spec : spmv_parameters()) {
    // cartesian product of the declared values
    std::vector<size_t> idx(spec.parameters.size(), 0);
    while (true) {
      SpmvConfig c;
      c.kernel = spec.kernel;
      for (size_t p = 0; p < idx.size(); ++p) {
        int v = spec.parameters[p].values[idx[p]];
        const std::string& n = spec.parameters[p].name;
        if (n == "wg_bits") c.wg_bits = v;
        else if (n == "rows_bits") c.rows_bits = v;
        else if (n == "shuffle") c.shuffle = v;
        else if (n == "items") c.items = v;
      }
      if (spmv_valid(c, d, value)) out.push_back(c);
      size_t p = 0;
      while (p < idx.size() && ++idx[p] == spec.parameters[p].values.size()) idx[p++] = 0;
      if (p == idx.size()) break;
    }
  }
  return out;
}

// The untuned rule; its numbers are the defaults table's "spmv" entry (runtime/defaults.cpp),
// fitted by tools/bench/fit_spmv_rule.py, which prints the entry (the source measurement:
// BENCHMARKS.md, "Defaults as data").
//  - Irregular rows (a few rows far longer than the mean) go to the load-balanced kIrregular.
//  - Small matrices (a wave per row fits on the device at once: launch latency and the longest
//    row set the time): ceil_pow2(max row / small_div) items per row, at most a wave.
//  - Otherwise each row gets ~mean/L items (a power of two, rounded down, at most max_per_row
//    and a wave): L = local_entries when the columns of a row are mostly adjacent (contiguity >=
//    contiguous: stencils, bands; one item already reads whole cache lines of x), else L = 1
//    (scattered columns: more items per row, more gathers in flight). One item per row is the
//    scalar kernel. 2^group_bits-item groups. one_row_per_item (CPUs): one row per item.
namespace spmv_rule {
constexpr SpmvKernel kIrregular = SpmvKernel::adaptive;
}  // namespace spmv_rule

static bool irregular_rows(const RowStats& s) {
  return s.max > 8 * std::max(1.0, s.mean) && s.std > s.mean && s.max > 256;
}

SpmvConfig predict_spmv_config(const DeviceInfo& d, const RowStats& s, int32_t rows, size_t value,
                               double contiguity) {
  using namespace spmv_rule;
  const defaults::Values& table = defaults::values(defaults::key_of(d), "spmv");
  auto rule = [&](const char* name) { return table.number(name); };
  const double kLocalEntries = rule("local_entries"), kContiguous = rule("contiguous");
  const double kSmallDiv = rule("small_div");
  const int kMaxPerRow = int(rule("max_per_row")), kMergeItems = int(rule("merge_items"));
  const size_t kResidentPerUnit = size_t(rule("resident_per_unit"));
  SpmvConfig c;
  c.wg_bits = int(rule("group_bits"));
  while ((size_t(1) << c.wg_bits) > d.max_work_group_size && c.wg_bits > 0) --c.wg_bits;
  if (irregular_rows(s) && rows > 0) {
    c.kernel = kIrregular;
    c.items = kMergeItems;
    if (spmv_valid(c, d, value)) return c;
  }
  c.kernel = SpmvKernel::vector;
  c.shuffle = 0;
  if (rule("one_row_per_item") != 0) {  // CPUs: one row per item vectorises best
    c.rows_bits = c.wg_bits;
    return c;
  }
  const int wave = int(std::max(1u, d.wave_width));
  int tpr_bits = 0;
  if (size_t(rows) * size_t(wave) <= size_t(d.compute_units) * kResidentPerUnit) {
    while ((1 << tpr_bits) < double(s.max) / kSmallDiv && (2 << tpr_bits) <= wave && tpr_bits < c.wg_bits) ++tpr_bits;
  } else {
    const double per_item = contiguity >= kContiguous ? kLocalEntries : 1.0;
    const int cap = std::min(kMaxPerRow, wave);
    while ((2 << tpr_bits) <= s.mean / per_item && (2 << tpr_bits) <= cap && tpr_bits < c.wg_bits) ++tpr_bits;
  }
  if (tpr_bits == 0) {
    c.kernel = SpmvKernel::scalar;
    return c;
  }
  c.rows_bits = c.wg_bits - tpr_bits;
  SpmvConfig with = c;
  with.shuffle = 1;
  if (spmv_valid(with, d, value)) c.shuffle = 1;
  return c;
}

}  // namespace lockstep
