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
  long n = 0;
  try {
    n = colon == std::string::npos ? 0 : std::stol(file.substr(colon + 1));
  } catch (const std::exception&) {
  }
  if ((kind != "laplace3d" && kind != "laplace2d") || n <= 0 || n > 65536)
    throw input_error(file + ": generated matrices are gen:laplace2d:N or gen:laplace3d:N");
  return (kind == "laplace3d" ? gen::laplace3d(int32_t(n)) : gen::laplace2d(int32_t(n))).cast<T>();
}

}  // namespace lockstep::cli
