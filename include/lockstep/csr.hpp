// Host CSR matrices (32-bit indices, float or double values), their row-length statistics and
// the CPU reference y = alpha*A*x + beta*y computed in double, against which every device
// result is checked.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace lockstep {

template <typename T>
struct Csr {
  using value_type = T;
  int32_t rows = 0, cols = 0;
  std::vector<int32_t> row_ptr{0};  // rows + 1 entries
  std::vector<int32_t> col_idx;     // nnz entries, sorted within each row
  std::vector<T> values;            // nnz entries
  size_t nnz() const { return col_idx.size(); }

  template <typename U>
  Csr<U> cast() const {
    Csr<U> out;
    out.rows = rows;
    out.cols = cols;
    out.row_ptr = row_ptr;
    out.col_idx = col_idx;
    out.values.assign(values.begin(), values.end());
    return out;
  }
};

/// Row-length statistics; the SpMV tuner's model and `lockstep info` read them.
struct RowStats {
  int64_t min = 0, max = 0;
  double mean = 0, std = 0;
};

template <typename T>
RowStats row_stats(const Csr<T>& a) {
  RowStats s;
  if (a.rows == 0) return s;
  s.min = INT64_MAX;
  double sum = 0, sum2 = 0;
  for (int32_t r = 0; r < a.rows; ++r) {
    int64_t len = a.row_ptr[r + 1] - a.row_ptr[r];
    s.min = std::min(s.min, len);
    s.max = std::max(s.max, len);
    sum += double(len);
    sum2 += double(len) * double(len);
  }
  s.mean = sum / a.rows;
  s.std = std::sqrt(std::max(0.0, sum2 / a.rows - s.mean * s.mean));
  return s;
}

/// y = alpha*A*x + beta*y in double (the reference for every device result).
template <typename T, typename V>
std::vector<double> spmv_reference(const Csr<T>& a, const std::vector<V>& x,
                                   const std::vector<V>& y, double alpha, double beta) {
  std::vector<double> out(a.rows);
  for (int32_t r = 0; r < a.rows; ++r) {
    double acc = 0;
    for (int32_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      acc += double(a.values[k]) * double(x[a.col_idx[k]]);
    out[r] = alpha * acc + (beta != 0 ? beta * double(y[r]) : 0.0);
  }
  return out;
}

}  // namespace lockstep
