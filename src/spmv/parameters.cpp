// The SpMV algorithms' names and constraints (read by the tests and the tuner; their declared
// parameters are the tuning family's, src/spmv/tune.cpp), and the model that predicts a
// configuration from row-length statistics.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

#include "lockstep/spmv.hpp"
#include "runtime/defaults.hpp"

namespace lockstep {

namespace {
// The algorithms' names in SpmvAlgorithm order, automatic last: the one list that to_string,
// the parser, all_spmv_algorithms (the CLI's words, the tuner's neighbours) read.
constexpr const char* kNames[] = {"scalar", "vector", "adaptive", "merge", "auto"};
static_assert(std::size(kNames) == size_t(SpmvAlgorithm::automatic) + 1,
              "a name for every SpmvAlgorithm");
}  // namespace

std::string to_string(SpmvAlgorithm a) {
  return size_t(a) < std::size(kNames) ? kNames[size_t(a)] : "auto";
}

const std::vector<SpmvAlgorithm>& all_spmv_algorithms() {
  static const std::vector<SpmvAlgorithm> all = [] {
    std::vector<SpmvAlgorithm> v;
    for (int i = 0; i < int(SpmvAlgorithm::automatic); ++i) v.push_back(SpmvAlgorithm(i));
    return v;
  }();
  return all;
}

SpmvAlgorithm parse_spmv_algorithm(const std::string& name) {
  std::string expected;  // "scalar, vector, ... or auto"
  for (size_t i = 0; i < std::size(kNames); ++i) {
    if (name == kNames[i]) return SpmvAlgorithm(i);
    expected += std::string(i == 0 ? "" : i + 1 == std::size(kNames) ? " or " : ", ") + kNames[i];
  }
  throw input_error("unknown SpMV algorithm '" + name + "' (expected " + expected + ")");
}

std::string SpmvConfig::str() const {
  std::ostringstream s;
  s << "algorithm=" << to_string(algorithm) << " local_size=" << local_size;
  if (algorithm == SpmvAlgorithm::vector) s << " rows_bits=" << rows_bits << " shuffle=" << shuffle;
  if (algorithm == SpmvAlgorithm::merge) s << " items=" << items;
  return s.str();
}

bool spmv_valid(const SpmvConfig& c, const DeviceInfo& d, size_t value) {
  const size_t wg = size_t(c.local_size);
  if (c.local_size < 1 || c.local_size > 4096 || (wg & (wg - 1)) || wg > d.max_work_group_size)
    return false;
  switch (c.algorithm) {
    case SpmvAlgorithm::scalar:
      return true;
    case SpmvAlgorithm::vector:
      if (c.rows_bits < 0 || c.rows_bits > 12 || (size_t(1) << c.rows_bits) > wg) return false;
      if (c.shuffle && (!d.is_nvidia() || d.wave_width != 32 || c.row_per_item())) return false;
      return wg * value <= d.local_mem_bytes;
    case SpmvAlgorithm::adaptive:
      return 2 * wg * value <= d.local_mem_bytes;
    case SpmvAlgorithm::merge:  // products and row ends of a tile, the carry-out scan
      return c.items >= 1 && c.items <= 64 &&
             wg * size_t(c.items) * (value + 4) + 4 + wg * (value + 4) <= d.local_mem_bytes;
    default:
      return false;
  }
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
//    scalar kernel. 2^local_size_bits-item groups. one_row_per_item (CPUs): one row per item.
namespace spmv_rule {
constexpr SpmvAlgorithm kIrregular = SpmvAlgorithm::adaptive;
}  // namespace spmv_rule

bool irregular_rows(const RowStats& s) {
  return s.max > 8 * std::max(1.0, s.mean) && s.std > s.mean && s.max > 256;
}

SpmvConfig predict_spmv_config(const DeviceInfo& d, const RowStats& s, int32_t rows, size_t value,
                               double contiguity) {
  using namespace spmv_rule;
  const defaults::Spmv rule = defaults::lookup<defaults::Spmv>(d);
  const double kLocalEntries = rule.local_entries, kContiguous = rule.contiguous;
  const double kSmallDiv = rule.small_div;
  const int kMaxPerRow = rule.max_per_row, kMergeItems = rule.merge_items;
  const size_t kResidentPerUnit = size_t(rule.resident_per_unit);
  SpmvConfig c;
  int size_bits = rule.local_size_bits;  // log2(local_size)
  while ((size_t(1) << size_bits) > d.max_work_group_size && size_bits > 0) --size_bits;
  c.local_size = 1 << size_bits;
  if (irregular_rows(s) && rows > 0) {
    c.algorithm = kIrregular;
    c.items = kMergeItems;
    if (spmv_valid(c, d, value)) return c;
  }
  c.algorithm = SpmvAlgorithm::vector;
  c.shuffle = 0;
  if (rule.one_row_per_item) {  // CPUs: one row per item vectorises best
    c.rows_bits = size_bits;
    return c;
  }
  const int wave = int(std::max(1u, d.wave_width));
  int tpr_bits = 0;
  if (size_t(rows) * size_t(wave) <= size_t(d.compute_units) * kResidentPerUnit) {
    while ((1 << tpr_bits) < double(s.max) / kSmallDiv && (2 << tpr_bits) <= wave &&
           tpr_bits < size_bits)
      ++tpr_bits;
  } else {
    const double per_item = contiguity >= kContiguous ? kLocalEntries : 1.0;
    const int cap = std::min(kMaxPerRow, wave);
    while ((2 << tpr_bits) <= s.mean / per_item && (2 << tpr_bits) <= cap && tpr_bits < size_bits)
      ++tpr_bits;
  }
  if (tpr_bits == 0) {
    c.algorithm = SpmvAlgorithm::scalar;
    return c;
  }
  c.rows_bits = size_bits - tpr_bits;
  SpmvConfig with = c;
  with.shuffle = 1;
  if (spmv_valid(with, d, value)) c.shuffle = 1;
  return c;
}

}  // namespace lockstep
