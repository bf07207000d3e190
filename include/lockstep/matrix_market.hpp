// Matrix Market I/O. Reads `coordinate` and `array` files with `real`, `integer` or `pattern`
// values and `general`, `symmetric` or `skew-symmetric` symmetry; anything else, and every
// malformed line, throws input_error naming the file and line and what was expected.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "lockstep/csr.hpp"

namespace lockstep {

struct MatrixMarketBanner {
  std::string format;    // "coordinate" or "array"
  std::string field;     // "real", "integer" or "pattern"
  std::string symmetry;  // "general", "symmetric" or "skew-symmetric"
};

/// Entries as stored, 0-based, after symmetry expansion (mirror entries added), before any
/// duplicate handling. `array` files give every entry, zeros included.
struct Triplets {
  int32_t rows = 0, cols = 0;
  MatrixMarketBanner banner;
  std::vector<int32_t> row, col;
  std::vector<double> value;  // 1 for pattern files
};

enum class Duplicates { sum, min };

/// A check of every value as it is read: nullptr accepts v, else the reason it is refused
/// (read_triplets then throws input_error "PATH:LINE: value V: reason").
using ValueCheck = const char* (*)(double v);

/// Refuses, before allocating, a size line whose row pointers and one value per row and column
/// (12 bytes each) would not fit in host memory (check_host_memory; PATH:LINE names it).
Triplets read_triplets(const std::string& path, ValueCheck check = nullptr);
/// CSR with columns sorted in each row; duplicates summed (matrices) or min-reduced (graphs).
template <typename T>
Csr<T> to_csr(const Triplets& t, Duplicates dup = Duplicates::sum);
/// The ValueCheck of single-precision reads: refuses a finite value beyond the float range
/// (it would become infinite: "PATH:LINE: value 1e+39: overflows f32 ...").
const char* fits_float(double v);
template <typename T>
Csr<T> read_matrix_market(const std::string& path) {
  return to_csr<T>(read_triplets(path, std::is_same_v<T, float> ? fits_float : nullptr));
}
/// Writes `coordinate real general` (or `integer` for integral T), 1-based, through
/// write_output (io.hpp): replaced atomically, never left partial.
template <typename T>
void write_matrix_market(const std::string& path, const Csr<T>& a);

}  // namespace lockstep
