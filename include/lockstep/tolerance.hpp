// The one floating-point comparison rule, shared by the tests, `lockstep spmv --verify` and the
// tuner: a value accumulated from `terms` products in precision T, against a reference in double,
// may differ by tolerance<T>(terms) relative to the sum of the absolute products (`scale`).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace lockstep {

template <typename T>
double tolerance(size_t terms) {
  double eps = std::numeric_limits<T>::epsilon();
  return eps * (8.0 + 2.0 * std::sqrt(double(terms) + 1.0)) * 4.0;
}

/// |got - want| <= tol * max(|want|, scale). NaN equals only NaN; infinities must match exactly.
inline bool close(double got, double want, double tol, double scale = 1.0) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= tol * std::max(std::fabs(want), scale);
}

/// The relative error that close() bounds.
inline double relative_error(double got, double want, double scale = 1.0) {
  return std::fabs(got - want) /
         std::max({std::fabs(want), scale, std::numeric_limits<double>::min()});
}

}  // namespace lockstep
