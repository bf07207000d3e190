// Triplets to CSR (counting sort by row, then columns sorted within each row, duplicates
// summed or min-reduced) and the Matrix Market writer (std::to_chars, one buffer).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <numeric>
#include <type_traits>

#include "lockstep/error.hpp"
#include "lockstep/io.hpp"
#include "lockstep/matrix_market.hpp"

namespace lockstep {

template <typename T>
Csr<T> to_csr(const Triplets& t, Duplicates dup) {
  Csr<T> a;
  a.rows = t.rows;
  a.cols = t.cols;
  const size_t n = t.row.size();
  std::vector<int32_t> count(size_t(t.rows) + 1, 0);
  for (size_t k = 0; k < n; ++k) ++count[size_t(t.row[k]) + 1];
  std::partial_sum(count.begin(), count.end(), count.begin());
  std::vector<int32_t> order(n);
  {
    std::vector<int32_t> pos(count.begin(), count.end() - 1);
    for (size_t k = 0; k < n; ++k) order[size_t(pos[size_t(t.row[k])]++)] = int32_t(k);
  }
  a.row_ptr.assign(size_t(t.rows) + 1, 0);
  a.col_idx.reserve(n);
  a.values.reserve(n);
  for (int32_t r = 0; r < t.rows; ++r) {
    auto b = order.begin() + count[size_t(r)], e = order.begin() + count[size_t(r) + 1];
    std::stable_sort(b, e,
                     [&](int32_t x, int32_t y) { return t.col[size_t(x)] < t.col[size_t(y)]; });
    for (auto it = b; it != e; ++it) {
      int32_t c = t.col[size_t(*it)];
      double v = t.value[size_t(*it)];
      if (a.col_idx.size() > size_t(a.row_ptr[size_t(r)]) && a.col_idx.back() == c) {
        double old = double(a.values.back());
        a.values.back() = T(dup == Duplicates::sum ? old + v : std::min(old, v));
      } else {
        a.col_idx.push_back(c);
        a.values.push_back(T(v));
      }
    }
    a.row_ptr[size_t(r) + 1] = int32_t(a.col_idx.size());
  }
  return a;
}

template <typename T>
void write_matrix_market(const std::string& path, const Csr<T>& a) {
  std::string out;
  out.reserve(64 + a.nnz() * 32);
  out += std::is_integral_v<T> ? "%%MatrixMarket matrix coordinate integer general\n"
                               : "%%MatrixMarket matrix coordinate real general\n";
  out += "% written by lockstep\n";
  out +=
      std::to_string(a.rows) + " " + std::to_string(a.cols) + " " + std::to_string(a.nnz()) + "\n";
  char buf[96];
  char* const end = buf + sizeof buf - 1;  // room for the separator after each number
  for (int32_t r = 0; r < a.rows; ++r)
    for (int32_t k = a.row_ptr[size_t(r)]; k < a.row_ptr[size_t(r) + 1]; ++k) {
      char* p = std::to_chars(buf, end, r + 1).ptr;
      *p++ = ' ';
      p = std::to_chars(p, end, a.col_idx[size_t(k)] + 1).ptr;
      *p++ = ' ';
      p = std::to_chars(p, end, a.values[size_t(k)]).ptr;
      *p++ = '\n';
      out.append(buf, p);
    }
  write_output(path, out);  // atomic: a failed write leaves no partial file
}

template Csr<float> to_csr<float>(const Triplets&, Duplicates);
template Csr<double> to_csr<double>(const Triplets&, Duplicates);
template Csr<int32_t> to_csr<int32_t>(const Triplets&, Duplicates);
template void write_matrix_market<float>(const std::string&, const Csr<float>&);
template void write_matrix_market<double>(const std::string&, const Csr<double>&);
template void write_matrix_market<int32_t>(const std::string&, const Csr<int32_t>&);

}  // namespace lockstep
