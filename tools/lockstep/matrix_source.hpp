// The matrix of `lockstep cg` and the distributed commands: a Matrix Market file, or one
// generated in memory ("gen:laplace3d:N", "gen:laplace2d:N"), so that large benchmark matrices
// need no multi-gigabyte file.
#pragma once
#include <lockstep/lockstep.hpp>
#include <string>

namespace lockstep::cli {

template <typename T>
Csr<T> matrix_source(const std::string& file) {
  if (file.rfind("gen:", 0) != 0) return read_matrix_market<T>(file);
  const size_t colon = file.find(':', 4);
  const std::string kind = file.substr(4, colon == std::string::npos ? colon : colon - 4);
  const std::string expected = " (expected gen:laplace2d:N or gen:laplace3d:N)";
  if (kind != "laplace3d" && kind != "laplace2d")
    throw input_error(file + ": unknown generated matrix '" + kind + "'" + expected);
  const std::string text = colon == std::string::npos ? "" : file.substr(colon + 1);
  // The whole text is N: "8abc" or "8:9" is refused, not read as 8.
  if (text.empty() || text.size() > 9 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    throw input_error(file + ": N '" + text + "' is not a whole number" + expected);
  const long n = std::stol(text);
  if (n < 1 || n > 65536)
    throw input_error(file + ": N = " + text + " out of range [1, 65536]");
  return (kind == "laplace3d" ? gen::laplace3d(int32_t(n)) : gen::laplace2d(int32_t(n))).cast<T>();
}

}  // namespace lockstep::cli
