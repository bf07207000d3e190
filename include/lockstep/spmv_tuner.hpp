// The SpMV autotuner. Every candidate is verified against the double reference before its time
// counts. Exhaustive search times every valid configuration (spmv_search_space); the default
// search starts from the model's prediction (predict_spmv_config) and climbs to better
// neighbours (one parameter changed, or another kernel) until none improves, the budget ends or
// a quarter of the search space has been timed.
// The best verified configuration is stored in the tuning database, where
// `spmv(..., SpmvConfig{})` and `lockstep spmv --kernel auto` find it.
#pragma once
#include <functional>

#include "lockstep/spmv_measure.hpp"

namespace lockstep {

struct SpmvTuneOptions {
  double budget_s = 60;     // wall-clock budget for the default search
  bool exhaustive = false;
  int repeats = 10;         // timed runs per candidate (median)
  bool store = true;        // write the best into the tuning database
  std::function<void(size_t done, size_t total, const SpmvMeasurement&)> progress;
};

struct SpmvTuneResult {
  std::vector<SpmvMeasurement> candidates;  // in the order timed
  SpmvMeasurement best, scalar, seed_default;
  double copy_gbs = 0;  // copy_bandwidth_gbs() of this run: the DRAM ceiling of %copy
  size_t search_space = 0;
};

/// The seed paper's default configuration: vector, 256 items, 32 rows per group.
SpmvConfig seed_default_config();

/// DRAM copy bandwidth of the device in GB/s (read + write): a float4 copy of a buffer well above
/// the last-level cache, best of 10. Measured on every call, never stored (a figure measured
/// under load would otherwise stay wrong); a cache-resident matrix can exceed it.
double copy_bandwidth_gbs(Context& ctx);

template <typename T>
SpmvTuneResult tune_spmv(Context& ctx, const Csr<T>& host, const SpmvTuneOptions& options);

}  // namespace lockstep
