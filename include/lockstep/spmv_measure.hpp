// Timing and verification of SpMV configurations, shared by `lockstep spmv` and the tuner:
// event-timed after warm-up, median of the runs; y checked row by row against the double
// reference (computed once per matrix) with the tolerance of tolerance.hpp.
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

/// One matrix on one queue, with a fixed pseudo-random x, alpha = 1, beta = 0.
template <typename T>
class SpmvBench {
 public:
  SpmvBench(cl::CommandQueue& queue, const Csr<T>& host);
  const DeviceCsr<T>& matrix() const { return device_; }
  /// Warm-up, then `repeats` timed runs; with `verify`, checks y against the reference.
  SpmvMeasurement measure(SpmvConfig config, int repeats, bool verify);

 private:
  cl::CommandQueue& queue_;
  const Csr<T>& host_;
  DeviceCsr<T> device_;
  std::vector<T> x_;
  cl::Buffer bx_, by_;
  std::vector<double> want_, scale_;
};

}  // namespace lockstep
