// Timing and verification of one SpMV configuration, shared by `lockstep spmv` and the tuner:
// event-timed after warm-up, median of the runs; y checked against the double reference.
#pragma once
#include "lockstep/spmv.hpp"

namespace lockstep {

struct SpmvMeasurement {
  SpmvConfig config;
  double median_ms = 0, gflops = 0, gbs = 0;
  double max_rel_err = 0;
  bool verified = false;  // only meaningful when verification was asked for
};

/// Bytes of the minimum-traffic model: values + column indices + row pointers + x + y.
double spmv_min_bytes(int32_t rows, int32_t cols, size_t nnz, size_t value_bytes);

/// Runs `config` (warm-up, then `repeats` timed runs) with alpha = 1, beta = 0 on a fixed
/// pseudo-random x; with `verify`, checks y against spmv_reference row by row.
template <typename T>
SpmvMeasurement measure_spmv(cl::CommandQueue& queue, const Csr<T>& host, const DeviceCsr<T>& a,
                             SpmvConfig config, int repeats, bool verify);

}  // namespace lockstep
