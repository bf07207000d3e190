// The SpMV algorithms' names and constraints (read by the tests and the tuner; their declared
// parameters are the tuning family's, src/spmv/tune.cpp), and the model that predicts a
// configuration from row-length statistics.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "lockstep/spmv.hpp"

namespace lockstep {

std::string to_string(SpmvAlgorithm a) {
  switch (a) {
    case SpmvAlgorithm::scalar: return "scalar";
    case SpmvAlgorithm::vector: return "vector";
    case SpmvAlgorithm::adaptive: return "adaptive";
    case SpmvAlgorithm::merge: return "merge";
    default: return "auto";
  }
}

SpmvAlgorithm parse_spmv_algorithm(const std::string& name) {
  for (auto a : {SpmvAlgorithm::scalar, SpmvAlgorithm::vector, SpmvAlgorithm::adaptive,
                 SpmvAlgorithm::merge, SpmvAlgorithm::automatic})
    if (to_string(a) == name) return a;
  throw input_error("unknown SpMV algorithm '" + name + "' (expected scalar, vector, adaptive, merge or auto)");
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
    case SpmvAlgorithm::scalar: return true;
    case SpmvAlgorithm::vector:
      if (c.rows_bits < 0 || c.rows_bits > 12 || (size_t(1) << c.rows_bits) > wg) return false;
      if (c.shuffle && (!d.is_nvidia() || d.wave_width != 32 || c.row_per_item())) return false;
      return wg * value <= d.local_mem_bytes;
    case SpmvAlgorithm::adaptive: return 2 * wg * value <= d.local_mem_bytes;
    case SpmvAlgorithm::merge:  // products and row ends of a tile, the carry-out scan
      return c.items >= 1 && c.items <= 64 &&
             wg * size_t(c.items) * (value + 4) + 4 + wg * (value + 4) <= d.local_mem_bytes;
    default: return false;
  }
}

// The untuned rule, fitted by tools/bench/fit_spmv_rule.py to the H100 fp64 tuning data of
// 2026-11-22 (tools/bench/results/2026-11-22-h100-spmv-tune-json.tar.gz): exhaustive (94
// configurations) for laplace2d 2048, uniform 1M x 16, powerlaw 1M, dense 10000 x 1000; the
// climb's 6-20 for laplace3d 160, banded 1M x 8 and five small shared matrices. It lands within
// 1 % of the best time on the six large ones (within the ~10 % timing noise on the small ones);
// left out one at a time, the fit still predicts 4 of the 6 within 1 %, banded at 1.09 (the only
// matrix that pins kLocalEntries) and laplace3d on an untimed configuration. The old rule (items
// per row ~ mean row length) gave laplace2d 4 items per row: 27-32 % slower than one.
//  - Irregular rows (a few rows far longer than the mean) go to the load-balanced kIrregular.
//  - Small matrices (a wave per row fits on the device at once: launch latency and the longest
//    row set the time): ceil_pow2(max row / kSmallDiv) items per row, at most a wave.
//  - Otherwise each row gets ~mean/L items (a power of two, rounded down, at most kMaxPerRow and
//    a wave): L = kLocalEntries when the columns of a row are mostly adjacent (contiguity >=
//    kContiguous: stencils, bands; one item already reads whole cache lines of x), else L = 1
//    (scattered columns: more items per row, more gathers in flight). One item per row is the
//    scalar kernel. 256-item groups (the tuned group size changes times by <= 1 %).
// Six large matrices are few: tools/bench/spmv.sh sweeps more (EXHAUSTIVE=...) and the fit
// script re-fits these constants from its output.
namespace spmv_rule {
constexpr double kLocalEntries = 4;  // entries per item when columns are contiguous
constexpr double kContiguous = 0.15;  // fitted range 0.05-0.3 (dense rows 0.10, laplace3d 0.33)
constexpr int kMaxPerRow = 16;       // dense 10000 x 1000: 16 items 1.00, 32 items 1.13
constexpr int kLocalSize = 256;
constexpr SpmvAlgorithm kIrregular = SpmvAlgorithm::adaptive;
constexpr int kMergeItems = 7;       // when kIrregular is merge
constexpr double kSmallDiv = 2;
constexpr size_t kResidentPerUnit = 2048;  // work-items resident per compute unit (NVIDIA)
}  // namespace spmv_rule

static bool irregular_rows(const RowStats& s) {
  return s.max > 8 * std::max(1.0, s.mean) && s.std > s.mean && s.max > 256;
}

SpmvConfig predict_spmv_config(const DeviceInfo& d, const RowStats& s, int32_t rows, size_t value,
                               double contiguity) {
  using namespace spmv_rule;
  SpmvConfig c;
  c.local_size = kLocalSize;
  while (size_t(c.local_size) > d.max_work_group_size && c.local_size > 1) c.local_size /= 2;
  int size_bits = 0;  // log2(local_size)
  while ((2 << size_bits) <= c.local_size) ++size_bits;
  if (irregular_rows(s) && rows > 0) {
    c.algorithm = kIrregular;
    c.items = kMergeItems;
    if (spmv_valid(c, d, value)) return c;
  }
  c.algorithm = SpmvAlgorithm::vector;
  c.shuffle = 0;
  if (!d.is_gpu()) {  // CPUs: one row per item vectorises best
    c.rows_bits = size_bits;
    return c;
  }
  const int wave = int(std::max(1u, d.wave_width));
  int tpr_bits = 0;
  if (size_t(rows) * size_t(wave) <= size_t(d.compute_units) * kResidentPerUnit) {
    while ((1 << tpr_bits) < double(s.max) / kSmallDiv && (2 << tpr_bits) <= wave && tpr_bits < size_bits) ++tpr_bits;
  } else {
    const double per_item = contiguity >= kContiguous ? kLocalEntries : 1.0;
    const int cap = std::min(kMaxPerRow, wave);
    while ((2 << tpr_bits) <= s.mean / per_item && (2 << tpr_bits) <= cap && tpr_bits < size_bits) ++tpr_bits;
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
